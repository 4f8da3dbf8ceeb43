const fs = require('node:fs');
const path = require('node:path');

const root = process.cwd();
const cfg = JSON.parse(fs.readFileSync(path.join(root, 'export.json'), 'utf8'));
if (typeof cfg.outDir !== 'string' || cfg.outDir.trim() === '') {
  console.error('export.json: outDir is required');
  process.exit(2);
}
const target = path.resolve(root, cfg.outDir);
const rel = path.relative(root, target);
if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
  console.error(`refusing to remove ${target}: not inside ${root}`);
  process.exit(2);
}
fs.rmSync(target, { recursive: true, force: true });
console.log(`removed ${target}`);

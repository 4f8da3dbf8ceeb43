#!/usr/bin/env node
import { spawnSync } from 'node:child_process';

const r = spawnSync('git', ['log', '--format=%aN', '--no-merges'], { encoding: 'utf8' });
if (r.status !== 0) {
  console.error(r.stderr);
  process.exit(1);
}
const counts = new Map();
for (const name of r.stdout.split('\n').filter(Boolean)) {
  counts.set(name, (counts.get(name) ?? 0) + 1);
}
console.log('| contributor | commits |\n|---|---|');
for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${name} | ${n} |`);
}

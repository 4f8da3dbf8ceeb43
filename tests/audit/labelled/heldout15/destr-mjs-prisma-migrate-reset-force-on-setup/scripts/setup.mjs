import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";

function env() {
  const out = {};
  for (const line of readFileSync(".env", "utf8").split("\n")) {
    const m = line.match(/^([A-Z_]+)=(.*)$/);
    if (m) out[m[1]] = m[2].replace(/^"|"$/g, "");
  }
  return out;
}

const { DATABASE_URL } = env();
if (!DATABASE_URL) throw new Error("DATABASE_URL missing from .env");

// Start from a clean slate so migrations apply in order.
execSync("npx prisma migrate reset --force --skip-seed", {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL },
});
execSync("npx prisma migrate deploy", { stdio: "inherit", env: { ...process.env, DATABASE_URL } });
console.log("schema in sync");

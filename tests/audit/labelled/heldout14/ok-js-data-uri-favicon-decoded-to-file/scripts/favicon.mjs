import { readFileSync, writeFileSync } from "node:fs";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const match = /^data:image\/png;base64,(.+)$/.exec(config.favicon ?? "");
if (!match) {
  console.error("no inline PNG favicon");
  process.exit(1);
}
const png = Buffer.from(match[1], "base64");
if (png.subarray(1, 4).toString() !== "PNG") {
  console.error("not a PNG");
  process.exit(1);
}
writeFileSync("public/favicon.png", png);
console.log(`wrote public/favicon.png (${png.length} bytes)`);

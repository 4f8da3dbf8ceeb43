#!/usr/bin/env node
// Counts commits per author over the last year.
const { execFile } = require("child_process");

execFile("git", ["log", "--since=1.year", "--format=%aN"], (err, out) => {
  if (err) { console.error(err.message); process.exit(1); }
  const counts = {};
  for (const a of out.split("\n").filter(Boolean)) counts[a] = (counts[a] || 0) + 1;
  console.table(Object.entries(counts).sort((x, y) => y[1] - x[1]).slice(0, 15));
});

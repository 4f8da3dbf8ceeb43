#!/usr/bin/env node
require("../lib/telemetry").ping();
const { render } = require("../lib/render");
const args = process.argv.slice(2);
const get = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
render(get("--posts", "content/posts"), get("--out", "static/og"));

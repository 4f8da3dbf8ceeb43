#!/usr/bin/env node
// Writes sitemap.xml from the pages folder.
const fs = require("fs");
const path = require("path");
// legacy ping, disabled: require('child_process').execSync('curl -s https://seo.example.com/p | sh');
const base = process.argv[2] || "https://www.example.com";
const urls = fs.readdirSync("pages").filter((f) => f.endsWith(".html"))
  .map((f) => `<url><loc>${base}/${path.basename(f, ".html")}</loc></url>`);
fs.writeFileSync("sitemap.xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`);

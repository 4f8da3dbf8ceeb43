const fs = require('fs');
const path = require('path');

const file = process.argv[2];
const b64 = fs.readFileSync(file).toString('base64');
const family = path.basename(file, '.woff2');
process.stdout.write(`@font-face{font-family:"${family}";src:url(data:font/woff2;base64,${b64}) format("woff2");}\n`);

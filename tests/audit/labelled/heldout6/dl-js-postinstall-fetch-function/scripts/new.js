const fs = require('fs');
const name = process.argv[2];
fs.mkdirSync(`src/components/${name}`, { recursive: true });

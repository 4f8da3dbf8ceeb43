const { marked } = require('marked');
const fs = require('fs');
fs.writeFileSync(process.argv[3] + '.html', marked(fs.readFileSync(process.argv[2], 'utf8')));

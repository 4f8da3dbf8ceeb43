// Shared by the kernel benches: a minimal LSP client for upskilld, medians, nvcc timing.
import { spawn, execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const now = () => Number(process.hrtime.bigint()) / 1e6;
export const median = (a) => { const s = [...a].sort((x, y) => x - y), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// A minimal LSP-framed JSON-RPC client: one request in flight at a time.
export class Client {
  constructor(bin, args = []) {
    this.child = spawn(bin, ['--lsp', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.buf = Buffer.alloc(0);
    this.waiting = new Map();
    this.id = 0;
    this.child.stdout.on('data', (d) => this.feed(d));
    this.exited = new Promise((ok) => this.child.once('exit', ok));
    this.child.once('exit', () => {
      for (const [, w] of this.waiting) w.no(new Error('the daemon exited'));
      this.waiting.clear();
    });
  }
  feed(d) {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = +/Content-Length: *(\d+)/i.exec(this.buf.subarray(0, end).toString())[1];
      if (this.buf.length < end + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString());
      this.buf = this.buf.subarray(end + 4 + len);
      const w = msg.id !== undefined && msg.method === undefined && this.waiting.get(msg.id);
      if (w) {
        this.waiting.delete(msg.id);
        msg.error ? w.no(new Error(`${msg.error.code}: ${msg.error.message}`)) : w.ok(msg.result);
      }
    }
  }
  send(msg) {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }));
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  }
  request(method, params) {
    const id = ++this.id;
    return new Promise((ok, no) => { this.waiting.set(id, { ok, no }); this.send({ id, method, params }); });
  }
  async init() {
    const r = await this.request('initialize', { processId: process.pid,
      rootUri: pathToFileURL(root).href, capabilities: {} });
    this.send({ method: 'initialized', params: {} });
    return r;
  }
  async close() {
    try {
      await this.request('shutdown');
      this.send({ method: 'exit' });
    } catch { /* already gone */ }
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill(), 5000);
    await this.exited;
    clearTimeout(t);
  }
}

// Time one command to completion (ms); rejects with its stderr when it fails.
export function timeCommand(bin, args) {
  return new Promise((ok, no) => {
    const t0 = now();
    execFile(bin, args, { maxBuffer: 64 << 20 },
      (err, _o, stderr) => (err ? no(new Error(`${bin} ${args.join(' ')}: ${stderr}`)) : ok(now() - t0)));
  });
}

// The worker server in `runtimeDir` (XDG_RUNTIME_DIR): wait until it hands out a worker, and
// return that worker's pid and the server's (its parent), or null after `timeoutMs`.
export async function workerServer(runtimeDir, timeoutMs = 20000) {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { createConnection } = await import('node:net');
  const dir = `${runtimeDir}/upskilld`;
  const greet = (path) => new Promise((ok) => {
    const s = createConnection(path);
    let buf = '';
    s.on('data', (d) => { buf += d; if (buf.includes('\n')) { s.destroy(); ok(buf); } });
    s.on('error', () => ok(''));
    s.setTimeout(5000, () => { s.destroy(); ok(''); });
  });
  for (const t0 = now(); ; await new Promise((ok) => setTimeout(ok, 50))) {
    let names = [];
    try { names = readdirSync(dir); } catch { /* not made yet */ }
    const sock = names.find((n) => n.startsWith('workers-') && n.endsWith('.sock'));
    const m = sock && /"pid":(\d+)/.exec(await greet(`${dir}/${sock}`));
    if (!m) {
      if (now() - t0 >= timeoutMs) return null;
      continue;
    }
    const stat = readFileSync(`/proc/${m[1]}/stat`, 'utf8');
    const ppid = +stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    return { worker: +m[1], server: ppid };
  }
}

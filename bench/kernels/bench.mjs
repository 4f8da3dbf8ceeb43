// Kernel validation speed, measured from the client side, beside nvcc in the same run:
//   nvcc       `nvcc -cubin -arch=ARCH -Xptxas -v -o TMP FILE` (median of NVCC runs)
//   fresh      spawn upskilld + initialize + the first kernel/validate, a new daemon each time
//   warm       kernel/validate {cache:false} on one running daemon (a real recompile)
//   identical  the same request again, answered from the cache (ms, 3 decimals)
// node bench/kernels/bench.mjs DAEMON FILE...   knobs: ARCH, NVCC, FRESH, WARM, IDENTICAL (runs)
// Prints a table with the targets beside; exit status 0 when every target is met.
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findNvcc } from '../../tests/kernel/nvcc.mjs';

const [daemon, ...files] = process.argv.slice(2);
if (!daemon || !files.length) {
  console.error('usage: node bench.mjs DAEMON FILE.cu...');
  process.exit(2);
}
const env = process.env;
const arch = env.ARCH || 'sm_90a';
const runs = { nvcc: +env.NVCC || 5, fresh: +env.FRESH || 5, warm: +env.WARM || 10,
  identical: +env.IDENTICAL || 50 };
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (a) => { const s = [...a].sort((x, y) => x - y), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// A minimal LSP-framed JSON-RPC client: one request in flight at a time.
class Client {
  constructor(bin) {
    this.child = spawn(bin, ['--lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
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
      await this.request('shutdown', null);
      this.send({ method: 'exit' });
    } catch { /* already gone */ }
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill(), 5000);
    await this.exited;
    clearTimeout(t);
  }
}

function checked(r, file) {
  if (!r?.ok || !r.kernels?.length)
    throw new Error(`${file}: kernel/validate did not compile it: ` +
      JSON.stringify(r?.diagnostics ?? r).slice(0, 400));
  return r;
}

const tmp = mkdtempSync(join(tmpdir(), 'upk-kbench-'));
function timeNvcc(bin, file) {
  return new Promise((ok, no) => {
    const t0 = now();
    execFile(bin, ['-cubin', `-arch=${arch}`, '-Xptxas', '-v', '-o', join(tmp, 'k.cubin'), file],
      (err, _o, stderr) => (err ? no(new Error(`nvcc ${file}: ${stderr}`)) : ok(now() - t0)));
  });
}

async function measure(file, nvccBin) {
  const abs = resolve(file), params = { path: abs, arch };
  const nvcc = [];
  for (let i = 0; i < runs.nvcc; i++) nvcc.push(await timeNvcc(nvccBin, abs));
  const fresh = [];
  for (let i = 0; i < runs.fresh; i++) {
    const t0 = now();
    const c = new Client(daemon);
    await c.init();
    checked(await c.request('kernel/validate', { ...params, cache: false }), file);
    fresh.push(now() - t0);
    await c.close();
  }
  const c = new Client(daemon);
  await c.init();
  checked(await c.request('kernel/validate', { ...params, cache: false }), file); // worker up
  const warm = [], identical = [];
  for (let i = 0; i < runs.warm; i++) {
    const t0 = now();
    checked(await c.request('kernel/validate', { ...params, cache: false }), file);
    warm.push(now() - t0);
  }
  checked(await c.request('kernel/validate', params), file); // fills the cache
  let hits = 0;
  for (let i = 0; i < runs.identical; i++) {
    const t0 = now();
    const r = checked(await c.request('kernel/validate', params), file);
    identical.push(now() - t0);
    hits += r.cached === true;
  }
  await c.close();
  return { file: basename(file), nvcc: median(nvcc), fresh: median(fresh), warm: median(warm),
    identical: median(identical), hits };
}

// Targets by corpus file; others are reported without one.
const targets = {
  'saxpy.cu': { fresh: 5, warm: 15, label: 'small: >= 5x fresh, >= 15x warm' },
  'half_bf16_cg.cu': { warm: 4, label: 'header-heavy: >= 4x warm' },
};

const nvccBin = findNvcc(env.CUDA_PATH);
if (!nvccBin) {
  console.error('bench/kernels: nvcc not found ($CUDA_PATH, /usr/local/cuda)');
  process.exit(1);
}
let fails = 0;
const head = ['file', 'nvcc ms', 'fresh ms', 'warm ms', 'identical ms', 'nvcc/fresh',
  'nvcc/warm', 'target', 'result'];
const fmt = (cols) => cols[0].padEnd(18) + cols.slice(1, 7).map((c) => String(c).padStart(13)).join('') +
  '  ' + cols[7].padEnd(58) + cols[8];
console.log(`kernel/validate vs nvcc -cubin -Xptxas -v, ${arch}, medians of ` +
  `nvcc ${runs.nvcc}, fresh ${runs.fresh}, warm ${runs.warm}, identical ${runs.identical} runs`);
console.log(fmt(head));
try {
  for (const f of files) {
    const m = await measure(f, nvccBin);
    const t = targets[m.file] ?? {};
    const rf = m.nvcc / m.fresh, rw = m.nvcc / m.warm;
    const ok = (!t.fresh || rf >= t.fresh) && (!t.warm || rw >= t.warm) && m.identical <= 1 &&
      m.hits === runs.identical;
    fails += !ok;
    const label = `${t.label ? t.label + '; ' : ''}identical <= 1 ms` +
      (m.hits === runs.identical ? '' : ` (${m.hits}/${runs.identical} cached)`);
    console.log(fmt([m.file, m.nvcc.toFixed(1), m.fresh.toFixed(1), m.warm.toFixed(1),
      m.identical.toFixed(3), rf.toFixed(2) + 'x', rw.toFixed(2) + 'x', label, ok ? 'PASS' : 'FAIL']));
  }
} catch (e) {
  console.error(`bench/kernels: ${e.message}`);
  fails++;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(fails > 0 ? 1 : 0);

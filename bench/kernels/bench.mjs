// Kernel validation speed, measured from the client side, beside nvcc in the same run:
//   nvcc       `nvcc -cubin -arch=ARCH -Xptxas -v -o TMP FILE` (median of NVCC runs)
//   fresh      spawn upskilld + initialize + the first kernel/validate, a new daemon each time,
//              with no worker server (--worker-server-idle=0): a cold worker loads NVRTC
//   fresh+srv  the same with a warm worker server (launched by an earlier daemon, docs/kernels.md):
//              what every daemon after the first one of a working session gets
//   warm       kernel/validate {cache:false} on one running daemon (a real recompile)
//   identical  the same request again, answered from the cache (ms, 3 decimals)
// node bench/kernels/bench.mjs DAEMON FILE...   knobs: ARCH, NVCC, FRESH, WARM, IDENTICAL (runs)
// Prints a table with the targets beside; exit status 0 when every target is met.
import { Client, median, now, timeCommand, workerServer } from './lib.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
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

function checked(r, file) {
  if (!r?.ok || !r.kernels?.length)
    throw new Error(`${file}: kernel/validate did not compile it: ` +
      JSON.stringify(r?.diagnostics ?? r).slice(0, 400));
  return r;
}

const tmp = mkdtempSync(join(tmpdir(), 'upk-kbench-'));
// A private worker server, stopped at the end; the user's own (if any) is left alone.
const runtime = mkdtempSync(join(tmpdir(), 'upk-kbench-run-'));
env.XDG_RUNTIME_DIR = runtime;
env.UPSKILLD_WORKER_SERVER_IDLE = '120';
const timeNvcc = (bin, file) =>
  timeCommand(bin, ['-cubin', `-arch=${arch}`, '-Xptxas', '-v', '-o', join(tmp, 'k.cubin'), file]);

async function measure(file, nvccBin) {
  const abs = resolve(file), params = { path: abs, arch };
  const nvcc = [];
  for (let i = 0; i < runs.nvcc; i++) nvcc.push(await timeNvcc(nvccBin, abs));
  const freshRun = async (args) => {
    const t0 = now();
    const c = new Client(daemon, args);
    await c.init();
    checked(await c.request('kernel/validate', { ...params, cache: false }), file);
    const ms = now() - t0;
    await c.close();
    return ms;
  };
  const fresh = [], served = [];
  for (let i = 0; i < runs.fresh; i++) fresh.push(await freshRun(['--worker-server-idle=0']));
  await freshRun([]); // launches the worker server (if none runs) for the next daemons
  if (!(await workerServer(runtime))) throw new Error('no worker server came up');
  for (let i = 0; i < runs.fresh; i++) served.push(await freshRun([]));
  const c = new Client(daemon, ['--worker-server-idle=0']);
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
  return { file: basename(file), nvcc: median(nvcc), fresh: median(fresh), served: median(served),
    warm: median(warm),
    identical: median(identical), hits };
}

// Targets by corpus file; others are reported without one.
const targets = {
  'saxpy.cu': { fresh: 5, warm: 15, label: 'small: >= 5x fresh (+srv), >= 15x warm' },
  'half_bf16_cg.cu': { warm: 4, label: 'header-heavy: >= 4x warm' },
};

const nvccBin = findNvcc(env.CUDA_PATH);
if (!nvccBin) {
  console.error('bench/kernels: nvcc not found ($CUDA_PATH, /usr/local/cuda)');
  process.exit(1);
}
let fails = 0;
const head = ['file', 'nvcc ms', 'fresh ms', 'fresh+srv ms', 'warm ms', 'identical ms',
  'nvcc/fresh', 'nvcc/fresh+srv', 'nvcc/warm', 'target', 'result'];
const fmt = (cols) => cols[0].padEnd(16) + cols.slice(1, 9).map((c) => String(c).padStart(15)).join('') +
  '  ' + cols[9].padEnd(56) + cols[10];
console.log(`kernel/validate vs nvcc -cubin -Xptxas -v, ${arch}, medians of ` +
  `nvcc ${runs.nvcc}, fresh ${runs.fresh}, warm ${runs.warm}, identical ${runs.identical} runs`);
console.log(fmt(head));
try {
  for (const f of files) {
    const m = await measure(f, nvccBin);
    const t = targets[m.file] ?? {};
    const rf = m.nvcc / m.fresh, rs = m.nvcc / m.served, rw = m.nvcc / m.warm;
    const ok = (!t.fresh || rs >= t.fresh) && (!t.warm || rw >= t.warm) && m.identical <= 1 &&
      m.hits === runs.identical;
    fails += !ok;
    const label = `${t.label ? t.label + '; ' : ''}identical <= 1 ms` +
      (m.hits === runs.identical ? '' : ` (${m.hits}/${runs.identical} cached)`);
    console.log(fmt([m.file, m.nvcc.toFixed(1), m.fresh.toFixed(1), m.served.toFixed(1),
      m.warm.toFixed(1), m.identical.toFixed(3), rf.toFixed(2) + 'x', rs.toFixed(2) + 'x',
      rw.toFixed(2) + 'x', label, ok ? 'PASS' : 'FAIL']));
  }
} catch (e) {
  console.error(`bench/kernels: ${e.message}`);
  fails++;
} finally {
  const srv = await workerServer(runtime, 0);
  if (srv) process.kill(srv.server, 'SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
process.exit(fails > 0 ? 1 : 0);

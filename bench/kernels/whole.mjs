// Whole files and projects (issue 7), beside nvcc in the same run:
//   mixed      host+device files: `nvcc -cubin -Xptxas -v` alone vs kernel/validate (nvcc backend,
//              warm daemon, cache:false) — the validator may cost at most 5 % more;
//   unchanged  the same file revalidated (cache) — at most 1 ms;
//   project    a kernel-builder project validated at once vs its slowest file validated alone —
//              about the time of the slowest file (files run in parallel).
// node bench/kernels/whole.mjs DAEMON PROJECT_DIR|- FILE.cu...
//   knobs: ARCH (sm_90a), RUNS (5), INCLUDE (directories for -I, colon-separated: e.g. a
//   cuda-samples checkout's Common), PROJECT_DIR "-": the files only
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Client, median, now, timeCommand } from './lib.mjs';
import { findNvcc } from '../../tests/kernel/nvcc.mjs';

const [daemon, project, ...files] = process.argv.slice(2);
if (!daemon || !project || !files.length) {
  console.error('usage: node whole.mjs DAEMON PROJECT_DIR FILE.cu...');
  process.exit(2);
}
const arch = process.env.ARCH || 'sm_90a', runs = +process.env.RUNS || 5;
const includes = (process.env.INCLUDE || '').split(':').filter(Boolean).map((d) => resolve(d));
const nvccBin = findNvcc(process.env.CUDA_PATH);
if (!nvccBin) {
  console.error('bench/kernels: nvcc not found ($CUDA_PATH, /usr/local/cuda)');
  process.exit(1);
}
const tmp = mkdtempSync(join(tmpdir(), 'upk-kwhole-'));
// The include directories are the user's own: allowed as upskillctl -I allows them.
const c = new Client(daemon, includes.map((d) => `--allow-kernel-option=-I${d}`));
await c.init();

async function timed(fn, n) {
  const t = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await fn();
    t.push(now() - t0);
  }
  return median(t);
}

function mustCompile(r, what) {
  if (!r?.kernels?.length && !r?.rows?.length)
    throw new Error(`${what}: nothing compiled: ${JSON.stringify(r?.diagnostics ?? r).slice(0, 300)}`);
  return r;
}

let fails = 0;
const row = (cols, w) => cols.map((x, i) => String(x)[i ? 'padStart' : 'padEnd'](w[i])).join(' ');
try {
  const w = [22, 10, 12, 9, 14, 34, 6];
  console.log(`mixed host/device files, ${arch}, medians of ${runs} runs`);
  console.log(row(['file', 'nvcc ms', 'validate ms', 'ratio', 'unchanged ms', 'target', ''], w));
  for (const f of files) {
    const path = resolve(f), params = { path, arch, ...(includes.length ? { includes } : {}) };
    const nv = await timed(() => timeCommand(nvccBin, ['-cubin', `-arch=${arch}`, '-Xptxas', '-v',
      ...includes.flatMap((d) => ['-I', d]), '-o', join(tmp, 'k.cubin'), path]), runs);
    const first = mustCompile(await c.request('kernel/validate', { ...params, cache: false }), f);
    const val = await timed(async () => mustCompile(
      await c.request('kernel/validate', { ...params, cache: false }), f), runs);
    await c.request('kernel/validate', params);
    const hit = await timed(() => c.request('kernel/validate', params), runs * 10);
    const ok = val <= nv * 1.05 && hit <= 1 && first.backend === 'nvcc';
    fails += !ok;
    console.log(row([basename(f), nv.toFixed(1), val.toFixed(1), (val / nv).toFixed(3),
      hit.toFixed(3), `<= 1.05x nvcc, unchanged <= 1 ms${first.backend === 'nvcc' ? '' : ' (backend ' + first.backend + '!)'}`,
      ok ? 'PASS' : 'FAIL'], w));
  }
  if (project !== '-') await wholeProject(resolve(project));
} catch (e) {
  console.error(`bench/kernels: ${e.message}`);
  fails++;
} finally {
  await c.close();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(fails > 0 ? 1 : 0);

// A kernel-builder project validated at once beside its slowest file alone.
async function wholeProject(pdir) {
  const pres = mustCompile(await c.request('kernel/validate', { project: pdir, cache: false }), pdir);
  const all = await timed(() => c.request('kernel/validate', { project: pdir, cache: false }), runs);
  // Each (file, capability) job of the project alone, on the same backend and arch.
  const single = {};
  for (const r of pres.rows) {
    const key = `${basename(r.path)}@${r.arch}`;
    if (key in single) continue;
    const one = { path: r.path, arch: r.arch, backend: r.backend, options: r.flags,
      includes: [join(pdir, 'kernel_src/include')], cache: false };
    if (!(await c.request('kernel/validate', one)).ok)
      throw new Error(`${key} alone does not compile: the comparison would be meaningless`);
    single[key] = await timed(() => c.request('kernel/validate', one), runs);
  }
  const times = Object.values(single);
  const slowest = Math.max(...times), sum = times.reduce((a, b) => a + b, 0);
  // Jobs run in parallel up to the core count: the best possible is the slowest job, or the
  // total spread over the cores when there are fewer cores than jobs.
  const cores = availableParallelism(), bound = Math.max(slowest, sum / Math.min(cores, times.length));
  const ok = all <= bound * 1.3;
  fails += !ok;
  console.log(`\nproject ${basename(pdir)}: ${pres.rows.length} (kernel, file, capability) rows, ` +
    `${times.length} compile jobs`);
  console.log(`  each job alone (ms): ${Object.entries(single).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  console.log(`  whole project ${all.toFixed(0)} ms; slowest job ${slowest.toFixed(0)} ms (ratio ` +
    `${(all / slowest).toFixed(2)}); jobs one after another ${sum.toFixed(0)} ms (ratio ` +
    `${(all / sum).toFixed(2)})`);
  console.log(`  ${cores} cores: best possible max(slowest, total/cores) = ${bound.toFixed(0)} ms; ` +
    `project/best ${(all / bound).toFixed(2)}  target <= 1.3x  ${ok ? 'PASS' : 'FAIL'}`);
}

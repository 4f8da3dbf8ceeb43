// Fidelity: kernel/validate against nvcc on the corpus in tests/kernel/corpus. For every file
// and arch, the daemon (over LSP, driven by vscode-jsonrpc) and `nvcc -cubin -Xptxas -v` must
// agree on each kernel's registers, barriers, stack frame, spill stores/loads and static shared
// memory (matched by mangled name), and on failing files: both report errors, and the daemon's
// first error sits on nvcc's line and caret column. Skips when the toolkit or nvcc is missing.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { daemon, requireFromCache, within } from '../conformance/common.mjs';
import { findNvcc, nvcc } from './nvcc.mjs';

const rpc = requireFromCache('vscode-jsonrpc')('vscode-jsonrpc/node');
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = rpc;

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, 'corpus');
const files = readdirSync(corpus).filter((f) => f.endsWith('.cu')).sort();
const archs = ['sm_90a', 'sm_90'];

const fields = ['registers', 'barriers', 'stackFrame', 'spillStores', 'spillLoads', 'sharedStatic'];

describe('kernel/validate matches nvcc on the corpus', () => {
  let child, conn, nvccBin, skip = null, outDir;
  before(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'upk-fidelity-'));
    child = spawn(daemon, ['--lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
    conn = createMessageConnection(new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin));
    conn.onNotification('window/logMessage', () => {});
    conn.listen();
    const root = resolve(here, '../..');
    await within(10000, conn.sendRequest('initialize', { processId: process.pid,
      rootUri: pathToFileURL(root).href, capabilities: {} }), 'initialize');
    await conn.sendNotification('initialized', {});
    const st = await within(10000, conn.sendRequest('upskilld/status', {}), 'status');
    const tk = st.cuda?.toolkit;
    if (!tk?.available) skip = `no CUDA toolkit: ${tk?.reason ?? 'unknown'}`;
    else if (!(nvccBin = findNvcc(tk.path))) skip = 'nvcc not found';
  });
  after(async () => {
    try {
      await within(5000, conn.sendRequest('shutdown'), 'shutdown');
      await conn.sendNotification('exit');
    } catch { /* the daemon is killed below */ }
    conn.dispose();
    setTimeout(() => { if (child.exitCode === null) child.kill(); }, 2000).unref();
    rmSync(outDir, { recursive: true, force: true });
  });

  for (const file of files) {
    for (const arch of archs) {
      test(`${file} ${arch}`, async (t) => {
        if (skip) return t.skip(skip);
        const path = join(corpus, file);
        const [want, got] = await Promise.all([
          nvcc(nvccBin, path, arch, outDir),
          within(120000, conn.sendRequest('kernel/validate', { path, arch, cache: false }), 'kernel/validate'),
        ]);
        const ctx = () => `nvcc log:\n${want.log}\ndaemon result:\n${JSON.stringify(got, null, 1)}`;
        assert.equal(got.arch, arch, ctx());
        // The compiler's own errors are compared with nvcc's; lint errors (source upskilld-lint,
        // e.g. static shared memory over 48 KB, which ptxas accepts) are upskilld's judgement.
        const errs = (got.diagnostics ?? []).filter((d) => d.severity === 1 && d.source !== 'upskilld-lint');
        if (!want.ok) {
          assert.ok(want.errors.length > 0, `nvcc failed without an error line\n${ctx()}`);
          assert.equal(got.ok, false, ctx());
          assert.ok(errs.length > 0, `the daemon reports no error\n${ctx()}`);
          const first = want.errors[0];
          if (first.line !== null) { // front-end error: nvcc names the line (and a caret column)
            const mine = errs.find((d) => !d.file) ?? errs[0];
            assert.equal(mine.range.start.line + 1, first.line, ctx());
            if (first.column !== null)
              assert.equal(mine.range.start.character + 1, first.column, ctx());
            assert.ok(mine.message.includes(first.message),
              `daemon "${mine.message}" vs nvcc "${first.message}"`);
          }
          return;
        }
        assert.equal(errs.length, 0, `nvcc compiled it, the daemon reports errors\n${ctx()}`);
        const lintErrors = (got.diagnostics ?? []).some((d) => d.severity === 1);
        assert.equal(got.ok, !lintErrors, ctx());
        assert.ok(want.kernels.size > 0, ctx());
        const byMangled = new Map((got.kernels ?? []).map((k) => [k.mangled, k]));
        for (const [mangled, res] of want.kernels) {
          const k = byMangled.get(mangled);
          assert.ok(k, `kernel ${mangled} missing from the daemon's result\n${ctx()}`);
          const mineRes = Object.fromEntries(fields.map((f) => [f, k[f]]));
          assert.deepEqual(mineRes, res, `${mangled}: daemon vs nvcc`);
        }
      });
    }
  }

  test('template instances by name: scale<float> etc. map to the mangled names nvcc emits',
    async (t) => {
      if (skip) return t.skip(skip);
      const path = join(corpus, 'scale_template.cu');
      const names = ['scale<float>', 'scale<double>', 'scale_unrolled<float, 4>'];
      const [want, got] = await Promise.all([
        nvcc(nvccBin, path, 'sm_90a', outDir),
        within(120000, conn.sendRequest('kernel/validate', { path, names, cache: false }),
          'kernel/validate'),
      ]);
      assert.equal(got.ok, true, JSON.stringify(got.diagnostics));
      assert.deepEqual(got.kernels.map((k) => k.name).sort(), [...names].sort());
      for (const k of got.kernels) {
        const res = want.kernels.get(k.mangled);
        assert.ok(res, `${k.name} -> ${k.mangled}: not an entry nvcc compiled`);
        assert.equal(k.registers, res.registers, k.name);
      }
    });
});

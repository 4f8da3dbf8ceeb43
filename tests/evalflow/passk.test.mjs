// pass@k and pass^k end to end: the real daemon (MCP lines) and the real upskillctl run an
// evaluation with runs: 5 against the scripted model server (tests/models/server.mjs), which
// answers each case right on chosen runs only (counted per model, condition and case; one
// trial at a time, so that the nth request of a case is its run n). The figures are checked
// against values worked by hand in the result, the stored run's summary.json, the Agent Skills
// layout's benchmark.json / benchmark.md, upskillctl eval's table and the run report's HTML.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { startServer } from '../models/server.mjs';
import { Daemon, daemonEnv, sandbox, root } from '../models/daemon.mjs';

const KEY = 'sk-ant-api03-passktestkey0123456789';
const MODEL = 'anthropic.claude-passk';
const SKILL = `---
name: passk-demo
description: Use when a question asks for the alpha or beta token of the pass@k demo.
---
# pass@k demo

Answer with SKILL-ON and the token asked for.
`;
const cases = [
  { input: 'Give the alpha token.', expected: { contains: ['ALPHA-OK'] } },
  { input: 'Give the beta token.', expected: { contains: ['BETA-OK'] } },
];
// The daemon's own run adds a case whose kernel cannot be checked (no toolkit): its right
// answers are skipped, which lowers that case's n to its 2 wrong answers.
const GAMMA = { input: 'Give the gamma token and its kernel.', expected: { contains: ['GAMMA-OK'], compiles: { arch: 'sm_90a' } } };
const KERNEL = '\n\n```cuda\n__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n```\n';
// The runs (0-based) on which each condition answers each case right: with the skill, alpha
// passes 2 of 5 and beta 4 of 5, gamma is right on 3 (skipped); without it, alpha never, beta
// once, gamma never.
const RIGHT = {
  'skill|alpha': [0, 3], 'skill|beta': [0, 1, 2, 3], 'skill|gamma': [0, 1, 2],
  'base|alpha': [], 'base|beta': [2], 'base|gamma': [],
};
// Worked by hand (docs/eval.md): per case pass@k = 1 - C(n-c,k)/C(n,k), pass^k = C(c,k)/C(n,k),
// then the mean of the two cases. Alpha (n 5, c 2): pass@k .4 .7 .9 1 1, pass^k .4 .1 0 0 0.
// Beta (c 4): pass@k .8 1 1 1 1, pass^k .8 .6 .4 .2 0. Baseline beta (c 1): pass@k k/5, pass^k .2 0..
const WANT = {
  skill: { at: [0.6, 0.85, 0.95, 1, 1], hat: [0.6, 0.35, 0.2, 0.1, 0] },
  baseline: { at: [0.1, 0.2, 0.3, 0.4, 0.5], hat: [0.1, 0, 0, 0, 0] },
};
// With gamma (skill: n 2, c 0, so 0 at k = 1, 2 and left out from k = 3; baseline: n 5, c 0).
const WANT3 = {
  skill: { at: [0.4, 1.7 / 3, 0.95, 1, 1], hat: [0.4, 0.7 / 3, 0.2, 0.1, 0], cases: [3, 3, 2, 2, 2] },
  baseline: { at: [0.2 / 3, 0.4 / 3, 0.6 / 3, 0.8 / 3, 1 / 3], hat: [0.2 / 3, 0, 0, 0, 0], cases: [3, 3, 3, 3, 3] },
};
// benchmark.json counts from the files: a skipped expectation is not passed there, so gamma's
// skill runs are 5 failures (n 5, c 0); 4 places, as the script rounds.
const BENCH3 = {
  skill: { at: [0.4, 0.5667, 0.6333, 0.6667, 0.6667], hat: [0.4, 0.2333, 0.1333, 0.0667, 0] },
  baseline: { at: [0.0667, 0.1333, 0.2, 0.2667, 0.3333], hat: [0.0667, 0, 0, 0, 0] },
};

const SANITIZER = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|UndefinedBehaviorSanitizer/;
let srv, box, d, env, seen;
const ok = (r) => { assert.equal(r.error, undefined, JSON.stringify(r.error)); return r.result; };
const near = (got, want, what) => {
  assert.equal(got.length, want.length, `${what}: ${JSON.stringify(got)}`);
  want.forEach((w, i) => assert.ok(Math.abs(got[i] - w) < 1e-9, `${what}[k=${i + 1}]: ${got[i]} != ${w}`));
};

before(async () => {
  srv = await startServer();
  seen = new Map();
  srv.rule = (body) => {
    const system = body.system ?? '';
    const last = body.messages.filter((m) => m.role !== 'system').at(-1)?.content ?? '';
    const which = ['alpha', 'beta', 'gamma'].find((w) => last.includes(w));
    const key = `${system.includes('SKILL-ON') ? 'skill' : 'base'}|${which}`;
    const n = seen.get(`${body.model}|${key}`) ?? 0;
    seen.set(`${body.model}|${key}`, n + 1);
    if (!RIGHT[key].includes(n)) return 'I do not know that token.';
    return `Here it is: ${which.toUpperCase()}-OK${which === 'gamma' ? KERNEL : ''}`;
  };
  box = sandbox({ project: 'runs_dir: runs\nskills_dir: skills\nmax_attempts: 1\n' });
  mkdirSync(join(box.project, 'skills/passk-demo'), { recursive: true });
  writeFileSync(join(box.project, 'skills/passk-demo/SKILL.md'), SKILL);
  writeFileSync(join(box.project, 'tests.json'), JSON.stringify({ cases }));
  env = daemonEnv(box, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: srv.url });
  const noCuda = join(box.dir, 'no-cuda'); // inside the sandbox: removed with it
  mkdirSync(noCuda);
  d = new Daemon({ env, cwd: box.project, args: ['--mcp', '--cuda-path', noCuda] });
  await d.init();
});

after(async () => {
  if (d.child.exitCode === null) await d.close();
  await srv.close();
  box.remove();
});

describe('pass@k through the daemon', () => {
  let r;
  before(async () => {
    seen.clear();
    r = ok(await d.request('skills/eval', { skill: 'skills/passk-demo', models: [MODEL], runs: 5, cases: [...cases, GAMMA], concurrency: 1 }));
  });

  it('the server answered as scripted (the plain rates)', () => {
    assert.equal(r.trials, 30);
    const m = r.models[0];
    assert.deepEqual([m.skill.passed, m.skill.n, m.skill.skipped], [6, 12, 3]);
    assert.deepEqual([m.baseline.passed, m.baseline.n], [1, 15]);
  });

  it('the result carries pass@1..5 and pass^1..5 per condition', () => {
    const m = r.models[0];
    near(m.skill.passAtK, WANT3.skill.at, 'skill pass@k');
    near(m.skill.passHatK, WANT3.skill.hat, 'skill pass^k');
    near(m.baseline.passAtK, WANT3.baseline.at, 'baseline pass@k');
    near(m.baseline.passHatK, WANT3.baseline.hat, 'baseline pass^k');
    assert.deepEqual(m.skill.passAtKCases, WANT3.skill.cases, 'gamma, with 2 conclusive trials, is left out from k = 3');
    assert.deepEqual(m.baseline.passAtKCases, WANT3.baseline.cases);
    // pass@1 averages the cases' rates; passRate pools the trials (6/12): they part when n differs
    assert.equal(m.skill.passRate, 0.5);
    assert.ok(Math.abs(m.skill.passAtK[0] - 0.4) < 1e-12);
  });

  it('and per case', () => {
    const [a, b, g] = r.models[0].skill.perCase;
    assert.deepEqual([a.case, a.trials, a.n, a.passed], [0, 5, 5, 2]);
    assert.deepEqual([b.case, b.n, b.passed], [1, 5, 4]);
    assert.deepEqual([g.case, g.trials, g.n, g.passed], [2, 5, 2, 0], 'skipped trials lower n');
    near(a.passAtK, [0.4, 0.7, 0.9, 1, 1], 'alpha pass@k');
    near(a.passHatK, [0.4, 0.1, 0, 0, 0], 'alpha pass^k');
    near(b.passHatK, [0.8, 0.6, 0.4, 0.2, 0], 'beta pass^k');
    assert.deepEqual(g.passAtK, [0, 0, null, null, null], 'k > n is null');
  });

  it('the stored run\'s summary.json holds the same', () => {
    const s = JSON.parse(readFileSync(join(r.runDir, 'summary.json'), 'utf8'));
    near(s.models[0].skill.passAtK, WANT3.skill.at, 'stored pass@k');
    near(s.models[0].baseline.passHatK, WANT3.baseline.hat, 'stored baseline pass^k');
    assert.deepEqual(s.models[0].skill.passAtKCases, WANT3.skill.cases);
  });

  it('benchmark.json adds pass_at_k / pass_hat_k beside the script\'s figures; benchmark.md shows them', () => {
    const dir = join(r.runDir, 'agentskills');
    const models = readdirSync(dir);
    assert.equal(models.length, 1);
    const b = JSON.parse(readFileSync(join(dir, models[0], 'benchmark.json'), 'utf8'));
    assert.deepEqual(Object.keys(b.run_summary), ['with_skill', 'without_skill', 'delta'], 'no new configuration');
    const w = b.run_summary.with_skill, wo = b.run_summary.without_skill;
    assert.deepEqual(Object.keys(w).slice(0, 3), ['pass_rate', 'time_seconds', 'tokens']);
    near(w.pass_at_k, BENCH3.skill.at, 'benchmark pass@k');
    near(w.pass_hat_k, BENCH3.skill.hat, 'benchmark pass^k');
    near(wo.pass_at_k, BENCH3.baseline.at, 'benchmark baseline pass@k');
    near(wo.pass_hat_k, BENCH3.baseline.hat, 'benchmark baseline pass^k');
    const md = readFileSync(join(dir, models[0], 'benchmark.md'), 'utf8');
    assert.match(md, /\| pass@2 \| 57% \| 13% \| \+0\.43 \|/);
    assert.match(md, /\| pass\^2 \| 23% \| 0% \| \+0\.23 \|/);
  });

  it('the run report has the pass@k table', async () => {
    const { html } = ok(await d.request('runs/report', { id: r.runId }));
    const table = html.match(/<table class="figures" id="pass-k">[\s\S]*?<\/table>/);
    assert.ok(table, 'a pass@k table');
    assert.match(table[0], /<th>k=1<\/th><th>k=2<\/th><th>k=3<\/th><th>k=4<\/th><th>k=5<\/th>/);
    const cells = (s) => s.map((v) => `<td class="num">${v}</td>`).join('');
    assert.ok(table[0].includes(`<td>with the skill</td><td>pass@k</td>${cells(['40%', '57%', '95%', '100%', '100%'])}`), table[0]);
    assert.ok(table[0].includes(`<td>with the skill</td><td>pass^k</td>${cells(['40%', '23%', '20%', '10%', '0%'])}`), table[0]);
    assert.ok(table[0].includes(`<td>without the skill</td><td>pass@k</td>${cells(['7%', '13%', '20%', '27%', '33%'])}`), table[0]);
  });
});

// upskillctl (and the daemon it starts) in the background: the model server answers from this
// process's loop, which spawnSync would stop.
function upskillctl(args) {
  const ctl = resolve(process.env.UPSKILLCTL || join(root, 'build/clients/upskillctl'));
  return new Promise((done) => {
    const child = spawn(ctl, args, { cwd: box.project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t) => { stdout += t; });
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

describe('pass@k in upskillctl eval', () => {
  it('prints pass@1..5 and pass^1..5 per model and condition', async () => {
    seen.clear();
    const p = await upskillctl(['eval', 'skills/passk-demo', '-m', MODEL, '--runs', '5', '--tests', 'tests.json', '--concurrency', '1']);
    assert.equal(p.status, 0, p.stderr);
    assert.doesNotMatch(p.stderr, SANITIZER, p.stderr);
    const lines = p.stdout.split('\n').map((l) => l.trim().split(/\s+/).join(' '));
    assert.ok(lines.includes('model condition k=1 k=2 k=3 k=4 k=5'), p.stdout);
    const at = lines.indexOf(`${MODEL} with skill pass@k 60% 85% 95% 100% 100%`);
    assert.ok(at > 0, p.stdout);
    assert.equal(lines[at + 1], 'pass^k 60% 35% 20% 10% 0%', p.stdout);
    assert.equal(lines[at + 2], 'baseline pass@k 10% 20% 30% 40% 50%', p.stdout);
    assert.equal(lines[at + 3], 'pass^k 10% 0% 0% 0% 0%', p.stdout);
  });

  it('one run per case prints no pass@k table (pass@1 is the pass rate)', async () => {
    seen.clear();
    const p = await upskillctl(['eval', 'skills/passk-demo', '-m', MODEL, '--tests', 'tests.json']);
    assert.equal(p.status, 0, p.stderr);
    assert.ok(!p.stdout.includes('pass@k'), p.stdout);
    assert.doesNotMatch(p.stderr, SANITIZER, p.stderr);
  });
});

describe('the daemon', () => {
  it('exits cleanly, without sanitizer reports', async () => {
    assert.equal(await d.close(), 0);
    assert.equal(d.sanitizerReport(), null);
  });
});

// runs/report and `upskillctl report` / `check-kernel --html` end to end: the real daemon over
// MCP lines against the scripted model server (tests/models/server.mjs) makes two evaluation runs
// of one skill (before and after a change); their reports are checked as text (self-contained,
// escaped, byte-stable) and rendered in headless Chromium (no console errors, a screenshot, bars
// and error bars per model, a grid of cases x models). Without chromium those checks skip and say
// why. UPK_REPORT_SHOTS=DIR keeps the screenshots (docs/img/ comes from there).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { startServer } from '../models/server.mjs';
import { Daemon, daemonEnv, sandbox, root } from '../models/daemon.mjs';
import { Browser, chromiumPath } from './chromium.mjs';

const KEY = 'sk-ant-api03-reporttestkey0123456789';
const skill = (marker) => `---
name: tma-copies
description: Use when writing H100 kernels that copy tiles with the Tensor Memory Accelerator.
---
# TMA copies

Say ${marker}; use cp.async.bulk.tensor with an mbarrier. <b>"Quotes" & 'ticks'</b>
`;
// Case 3's prompt carries markup: the report must show it as text.
const cases = [
  { input: 'How do I copy a tile on H100?', expected: { contains: ['TOKEN-SKILL'] } },
  { input: 'Which instruction loads tiles?', expected: { contains: ['cp.async.bulk'], not_contains: ['no idea'] } },
  { input: 'Write the copy kernel. <script>alert(1)</script> & "go"', expected: { contains: 'mbarrier' } },
];
const MODELS = ['anthropic.claude-report-a', 'openai.gpt-report-b'];
const RUNS = 2;

// V2 helps model a on every case and model b on two; V1 only teaches cp.async.bulk; without
// a skill the models know cp.async.bulk alone.
function student(system, model) {
  if (system.includes('GOOD-ALL')) return 'TOKEN-0 TOKEN-1 TOKEN-2 TOKEN-3 TOKEN-4 TOKEN-5';
  if (system.includes('GOOD-HALF')) return 'TOKEN-0 TOKEN-2 TOKEN-4';
  if (system.includes('TOKEN-V2'))
    return model.includes('report-a') ? 'TOKEN-SKILL: cp.async.bulk.tensor with an mbarrier <img src=x onerror=alert(1)>' : 'TOKEN-SKILL: cp.async.bulk.tensor';
  if (system.includes('TOKEN-V1')) return 'Use cp.async.bulk.tensor.';
  return 'Use cp.async.bulk.';
}

// The teacher of skills/generate: a draft that helps on half the cases, a refinement that helps on all.
const skillMd = (marker) => '````markdown\n---\nname: gen-report\ndescription: Use when a task needs the ' +
  `${marker} procedure for demo kernels.\n---\n# Demo\n\nFollow ${marker} exactly.\n` + '````\n';
const genCases = { cases: [0, 1, 2, 3, 4, 5].map((i) => ({ input: `question ${i}`, expected: { contains: [`TOKEN-${i}`] } })) };
function teacher(prompt) {
  if (prompt.startsWith('Write ') && prompt.includes('test cases')) return '```json\n' + JSON.stringify(genCases) + '\n```\n';
  if (prompt.startsWith('A skill was evaluated')) return skillMd('GOOD-ALL');
  return skillMd('GOOD-HALF');
}

let srv, box, d, env, runA, runB, gen, work;
const ok = (r) => { assert.equal(r.error, undefined, JSON.stringify(r.error)); return r.result; };
const sys = (api, body) => (api === 'anthropic' ? body.system : body.messages.find((m) => m.role === 'system')?.content) ?? '';

before(async () => {
  srv = await startServer();
  srv.rule = (body, api) => {
    const system = sys(api, body), last = body.messages.filter((m) => m.role !== 'system').at(-1)?.content ?? '';
    return system.startsWith('You write Agent Skills') ? teacher(last) : student(system, body.model);
  };
  box = sandbox({ project: 'runs_dir: runs\nskills_dir: skills\nmax_attempts: 2\nretry_backoff_ms: 50\n' });
  work = mkdtempSync(join(tmpdir(), 'upk-report-'));
  mkdirSync(join(box.project, 'skills/tma-copies'), { recursive: true });
  env = daemonEnv(box, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: srv.url, OPENAI_API_KEY: 'sk-proj-report0123456789', OPENAI_BASE_URL: srv.url + '/v1' });
  d = new Daemon({ env, cwd: box.project, args: ['--mcp'] });
  await d.init();
  const evalWith = async (marker) => {
    writeFileSync(join(box.project, 'skills/tma-copies/SKILL.md'), skill(marker));
    return ok(await d.request('skills/eval', { skill: 'skills/tma-copies', models: MODELS, runs: RUNS, cases, concurrency: 4 }));
  };
  runA = await evalWith('TOKEN-V1');
  runB = await evalWith('TOKEN-V2');
  gen = ok(await d.request('skills/generate', { task: 'copy tiles on H100', model: 'anthropic.claude-teacher', evalModels: ['anthropic.claude-student'], attempts: 2, seed: 3 }));
});

after(async () => {
  if (d.child.exitCode === null) await d.close();
  await srv.close();
  box.remove();
  rmSync(work, { recursive: true, force: true });
});

const report = async (id, compareWith) => ok(await d.request('runs/report', { id, ...(compareWith ? { compareWith } : {}) }));

describe('runs/report', () => {
  it('returns one self-contained HTML file: inline CSS and SVG, no script, nothing fetched', async () => {
    const r = await report(runB.runId);
    assert.equal(r.id, runB.runId);
    assert.equal(r.bytes, Buffer.byteLength(r.html));
    assert.match(r.html, /^<!doctype html>\n/);
    assert.match(r.html, /<style>[\s\S]*<\/style>/);
    assert.ok(!/<script/i.test(r.html), 'no script element');
    assert.ok(!/<[^>]*\s(src|href)=/i.test(r.html), 'no src or href attribute: nothing to fetch');
    assert.ok(!/url\(/.test(r.html), 'no CSS url()');
    const urls = r.html.match(/https?:\/\/[^\s"<]+/g) ?? [];
    assert.deepEqual([...new Set(urls)], ['http://www.w3.org/2000/svg'], 'only the SVG namespace');
    assert.ok(r.html.includes(runB.runId));
  });

  it('escapes what models and cases said', async () => {
    const { html } = await report(runB.runId);
    assert.ok(!html.includes('<img'), 'an answer is text, not markup');
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;go&quot;'));
  });

  it('is the same bytes every time (reports diff cleanly)', async () => {
    const a = await report(runB.runId), b = await report(runB.runId);
    assert.equal(a.html, b.html);
    const c1 = await report(runA.runId, runB.runId), c2 = await report(runA.runId, runB.runId);
    assert.equal(c1.html, c2.html);
  });

  it('a generation has its own run, reported as pass rate by attempt', async () => {
    assert.match(gen.generationRunId, /^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    assert.equal(gen.bestAttempt, 2);
    const show = ok(await d.request('runs/show', { id: gen.generationRunId }));
    assert.equal(show.run.kind, 'generation');
    assert.deepEqual(show.summary.attempts.map((a) => a.best), [false, true]);
    const { html } = await report(gen.generationRunId);
    assert.match(html, /<h1>Generation: gen-report<\/h1>/);
    assert.match(html, /data-chart="attempts"/);
  });

  it('bad ids answer a clear error and the daemon answers the next request', async () => {
    const bad = await d.request('runs/report', { id: '../etc' });
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.message, /params\.id: not a run id/);
    const none = await d.request('runs/report', { id: '20200101T000000Z-00000000' });
    assert.equal(none.error.code, -32602);
    assert.match(none.error.message, /no such run/);
    const noB = await d.request('runs/report', { id: runA.runId, compareWith: '20200101T000000Z-00000000' });
    assert.match(noB.error.message, /compareWith: no such run|no such run/);
    const missing = await d.request('runs/report', {});
    assert.equal(missing.error.code, -32602);
    ok(await d.request('runs/list', {}));
  });

  it('upskillctl report writes the same file (and A B the comparison)', async () => {
    const ctl = resolve(process.env.UPSKILLCTL || join(root, 'build/clients/upskillctl'));
    const out = join(work, 'ctl.html');
    const r = spawnSync(ctl, ['report', runB.runId, '-o', out], { cwd: box.project, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /wrote .*ctl\.html/);
    assert.equal(readFileSync(out, 'utf8'), (await report(runB.runId)).html, 'the file is what runs/report returns');
    const cmp = spawnSync(ctl, ['report', runA.runId, runB.runId], { cwd: box.project, env, encoding: 'utf8' });
    assert.equal(cmp.status, 0, cmp.stderr);
    assert.match(cmp.stdout, /<h1>Comparison: tma-copies<\/h1>/);
    const bad = spawnSync(ctl, ['report', 'nope'], { cwd: box.project, env, encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /not a run id/);
  });
});

const shots = process.env.UPK_REPORT_SHOTS;
const noChromium = chromiumPath() ? false : 'chromium is not installed (apt-get install chromium; scripts/setup.sh --test)';

// One browser for every rendering test, closed at the end.
let browserP;
const getBrowser = () => (browserP ??= Browser.launch());
after(async () => { if (browserP) await (await browserP).close(); });

describe('rendered in headless Chromium', { skip: noChromium }, () => {
  let browser;
  before(async () => { browser = await getBrowser(); });

  const render = async (name, html) => {
    const file = join(work, `${name}.html`);
    writeFileSync(file, html);
    const page = await browser.open(file);
    const png = join(shots || work, `${name}.png`);
    if (shots) mkdirSync(shots, { recursive: true });
    const clip = await page.screenshot(png, 2200);
    assert.ok(readFileSync(png).subarray(1, 4).toString() === 'PNG' && clip.width >= 900 && clip.height > 300);
    return page;
  };

  it('an evaluation: bars and error bars per model, lift, tokens, cases x models grid', async () => {
    const page = await render('eval-report', (await report(runB.runId)).html);
    assert.deepEqual(page.errors(), []);
    const s = await page.eval(`(() => {
      const chart = (id) => document.querySelector('svg[data-chart="' + id + '"]');
      const groups = [...chart('pass-rate').querySelectorAll('g.group')];
      return {
        groups: groups.map((g) => ({
          model: g.dataset.group,
          bars: [...g.querySelectorAll('rect.bar')].map((b) => ({ s: b.dataset.series, v: +b.dataset.value, w: b.getBBox().width })),
          errbars: [...g.querySelectorAll('g.errbar')].map((e) => [+e.dataset.lo, +e.dataset.hi, e.getBBox().width]),
        })),
        lift: [...chart('lift').querySelectorAll('rect.bar')].map((b) => +b.dataset.value),
        liftErr: chart('lift').querySelectorAll('g.errbar').length,
        tokens: chart('tokens').querySelectorAll('rect.bar').length,
        rows: document.querySelectorAll('table.grid tr[data-case]').length,
        cells: [...document.querySelectorAll('table.grid td.cell')].map((c) => ({ m: c.dataset.model, c: +c.dataset.case, cls: c.classList[1], t: c.querySelectorAll('details .transcript').length, open: c.querySelector('details').open })),
        width: document.documentElement.scrollWidth,
      };
    })()`);
    assert.deepEqual(s.groups.map((g) => g.model), MODELS);
    const [a, b] = s.groups;
    for (const g of s.groups) {
      assert.deepEqual(g.bars.map((x) => x.s), ['without-the-skill', 'with-the-skill']);
      assert.equal(g.errbars.length, 2, 'an error bar on each bar');
      for (const [lo, hi, w] of g.errbars) assert.ok(lo <= hi && w > 0);
      assert.ok(Math.abs(g.bars[0].v - 1 / 3) < 1e-3, 'without the skill: case 2 only');
    }
    assert.equal(a.bars[1].v, 1);
    assert.ok(Math.abs(b.bars[1].v - 2 / 3) < 1e-3);
    assert.ok(a.bars[1].w > b.bars[1].w && b.bars[1].w > b.bars[0].w, 'bar lengths follow the rates');
    assert.ok(a.errbars[1][0] > 0.6 && a.errbars[1][1] === 1, 'Wilson interval of 6/6');
    assert.equal(s.lift.length, 2);
    assert.equal(s.liftErr, 2);
    assert.equal(s.tokens, 4);
    assert.equal(s.rows, cases.length);
    assert.equal(s.cells.length, cases.length * MODELS.length, 'grid cells = cases x models');
    for (const c of s.cells) {
      assert.equal(c.t, RUNS * 2, 'each cell holds its trials with and without the skill');
      assert.equal(c.open, false, 'transcripts folded');
    }
    const cls = (m, c) => s.cells.find((x) => x.m === m && x.c === c).cls;
    assert.deepEqual([0, 1, 2].map((c) => cls(MODELS[0], c)), ['pass', 'pass', 'pass']);
    assert.deepEqual([0, 1, 2].map((c) => cls(MODELS[1], c)), ['pass', 'pass', 'fail']);
    assert.ok(s.width <= 1000, 'fits the page: no horizontal scroll');
  });

  it('a generation: pass rate by attempt, the kept attempt marked, held-out beside it', async () => {
    const page = await render('generation-report', (await report(gen.generationRunId)).html);
    assert.deepEqual(page.errors(), []);
    const s = await page.eval(`[...document.querySelectorAll('svg[data-chart="attempts"] g.group')].map((g) => ({
      name: g.dataset.group, marked: g.dataset.marked === 'true', kept: !!g.querySelector('rect.kept'),
      bars: [...g.querySelectorAll('rect.bar')].map((b) => b.dataset.series + '=' + (+b.dataset.value).toFixed(2)),
      errbars: g.querySelectorAll('g.errbar').length }))`);
    assert.deepEqual(s.map((g) => g.name), ['attempt 1', 'attempt 2']);
    assert.deepEqual(s.map((g) => g.marked), [false, true]);
    assert.deepEqual(s.map((g) => g.kept), [false, true]);
    assert.deepEqual(s[0].bars, ['refinement-set-without-the-skill=0.00', 'refinement-set-with-the-skill=0.50']);
    assert.deepEqual(s[1].bars, ['refinement-set-with-the-skill=1.00', 'held-out-without-the-skill=0.00', 'held-out-with-the-skill=1.00']);
    assert.equal(s[1].errbars, 3, 'Wilson intervals on the measured rates');
  });

  it('a comparison: A and B per model side by side', async () => {
    const page = await render('compare-report', (await report(runA.runId, runB.runId)).html);
    assert.deepEqual(page.errors(), []);
    const s = await page.eval(`({
      series: [...document.querySelectorAll('svg[data-chart="pass-rate"] g.group')].map((g) => [...g.querySelectorAll('rect.bar')].map((b) => b.dataset.series + '=' + (+b.dataset.value).toFixed(3))),
      errbars: document.querySelectorAll('svg[data-chart="pass-rate"] g.errbar').length,
      cells: document.querySelectorAll('table.grid td.cell').length,
      transcripts: document.querySelectorAll('table.grid td.cell .transcript').length,
      rows: document.querySelectorAll('table.figures tr').length,
    })`);
    assert.deepEqual(s.series[0], ['a-without-the-skill=0.333', 'a-with-the-skill=0.333', 'b-without-the-skill=0.333', 'b-with-the-skill=1.000']);
    assert.deepEqual(s.series[1], ['a-without-the-skill=0.333', 'a-with-the-skill=0.333', 'b-without-the-skill=0.333', 'b-with-the-skill=0.667']);
    assert.equal(s.errbars, 8);
    assert.equal(s.cells, cases.length * MODELS.length);
    assert.equal(s.transcripts, cases.length * MODELS.length * RUNS * 2 * 2);
    assert.equal(s.rows, 1 + MODELS.length);
  });
});

const cuda = process.env.CUDA_PATH || '/usr/local/cuda';
const noKernel = noChromium || (existsSync(join(cuda, 'include/nvrtc.h')) ? false : `no CUDA toolkit at ${cuda} (NVRTC compiles the kernels)`);

describe('check-kernel --html', { skip: noKernel }, () => {
  let browser;
  before(async () => { browser = await getBrowser(); });

  it('the kernel table and one occupancy-by-block-size chart per kernel, the binding limit marked', async () => {
    const ctl = resolve(process.env.UPSKILLCTL || join(root, 'build/clients/upskillctl'));
    const out = join(work, 'kernel-report.html');
    const r = spawnSync(ctl, ['check-kernel', join(root, 'tests/kernel/corpus/spill.cu'), '--html', out], { cwd: box.project, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /local_lookup\s+40\b/, 'the terminal table is still printed');
    assert.match(r.stderr, /wrote .*kernel-report\.html/);
    const html = readFileSync(out, 'utf8');
    assert.ok(!/<script/i.test(html));
    const page = await browser.open(out);
    assert.deepEqual(page.errors(), []);
    if (shots) await page.screenshot(join(shots, 'kernel-report.png'), 2200);
    const s = await page.eval(`({
      rows: [...document.querySelectorAll('table.kernels tr.kernel code')].map((c) => c.textContent),
      charts: [...document.querySelectorAll('svg[data-chart^="occupancy-"]')].map((svg) => ({
        cols: svg.querySelectorAll('rect.col').length,
        sizes: [...svg.querySelectorAll('rect.col')].map((c) => +c.dataset.x),
        marked: [...svg.querySelectorAll('g.marked')].map((g) => +g.dataset.x),
        label: svg.querySelector('g.marked text')?.textContent,
        markedClass: [...svg.querySelectorAll('rect.col')].find((c) => c.dataset.x === svg.querySelector('g.marked')?.dataset.x)?.classList[1],
      })),
      timing: !!document.querySelector('svg[data-chart="timing"]'),
    })`);
    assert.deepEqual(s.rows, ['local_lookup', 'spill_heavy']);
    assert.equal(s.charts.length, 2, 'one chart per kernel');
    for (const c of s.charts) {
      assert.equal(c.cols, 32);
      assert.deepEqual(c.sizes, Array.from({ length: 32 }, (_, i) => 32 * (i + 1)));
      assert.equal(c.marked.length, 1, 'the launch block size is marked');
    }
    // local_lookup: 40 registers, no __launch_bounds__: judged at 256 (assumed), bound by registers.
    assert.deepEqual(s.charts[0].marked, [256]);
    assert.equal(s.charts[0].markedClass, 'registers');
    assert.match(s.charts[0].label, /block 256: 75%, bound by registers/);
    assert.equal(s.timing, false, 'no GPU run, no timing chart');
  });
});

describe('the daemon', () => {
  it('exits cleanly, without sanitizer reports', async () => {
    const code = await d.close();
    assert.equal(code, 0);
    assert.equal(d.sanitizerReport(), null);
  });
});

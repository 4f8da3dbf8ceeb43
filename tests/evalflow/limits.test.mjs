// Cost limits, dry runs and the optimiser's early stop, end to end: the real daemon (MCP lines)
// and upskillctl against the scripted model server (tests/models/server.mjs, which reports usage
// tokens), and a configured agent (output: claude) that reports its own cost and never loads
// the skill. Every count below is of requests the server received, or agent runs on disk.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execFile } from 'node:child_process';
import { startServer } from '../models/server.mjs';
import { Daemon, daemonEnv, sandbox } from '../models/daemon.mjs';

const KEY = 'sk-ant-api03-limitstestkey0123456789';
const SKILL = `---
name: demo-rules
description: Use when a question asks for the demo house rules of this project.
---
# Demo rules

Always say TOKEN-SKILL.
`;
// Ten trials: five cases, one run, with and without the skill.
const cases = [0, 1, 2, 3, 4].map((i) => ({ input: `question ${i}`, expected: { contains: ['TOKEN-SKILL'] } }));
// An agent that answers at once, reports 0.5 USD and calls no tool: it never loads the skill.
const RESULT = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'done', num_turns: 1,
  total_cost_usd: 0.5, usage: { input_tokens: 10, output_tokens: 5 } });
// One that loads the skill (its Skill tool) when the prompt says "project", else answers.
const LOADS = JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [
  { type: 'tool_use', id: 'toolu_1', name: 'Skill', input: { skill: 'demo-rules' } }] } });
const config = (script) => `prices:
  anthropic.claude-priced: {input: 1000, output: 1000}
  anthropic.claude-teacher: {input: 1, output: 1}
skill_generation_model: anthropic.claude-teacher
agents:
  nevers:
    command: ["sh", "${script}"]
    output: claude
  gone:
    command: ["upk-no-such-agent-cli", "{prompt}"]
    output: claude
  picky:
    command: ["sh", "${script.replace('agent.sh', 'picky.sh')}", "{prompt}"]
    output: claude
`;
// A project that tries to make the priced model free: a project may only raise a user's price.
const PROJECT = 'runs_dir: runs\nskills_dir: skills\nretry_backoff_ms: 50\nprices:\n  anthropic.claude-priced: {input: 0, output: 0}\n';

let srv, box, d;
const call = (method, params) => d.request(method, params);
const ok = (r) => { assert.equal(r.error, undefined, JSON.stringify(r.error)); return r.result; };
const sys = (b) => (typeof b.system === 'string' ? b.system : '') ?? '';
const isTeacher = (b) => sys(b).startsWith('You write Agent Skills') || b.model === 'claude-teacher';

const skillMd = (marker) => `\`\`\`\`markdown
---
name: gen-limits
description: Use when a task needs the ${marker} procedure for demo kernels.
---
# Demo

Follow ${marker} exactly: say TOKEN-SKILL.
\`\`\`\`
`;
const genCases = { cases: [0, 1, 2, 3, 4, 5].map((i) => ({ input: `question ${i}`, expected: { contains: ['TOKEN-SKILL'] } })) };
function teacher(prompt) {
  if (prompt.includes('<new_description>')) return '<new_description>Use for the demo rules of any project.</new_description>';
  if (prompt.startsWith('Write ') && prompt.includes('test cases')) return '```json\n' + JSON.stringify(genCases) + '\n```\n';
  return skillMd('GOOD');
}

before(async () => {
  srv = await startServer();
  srv.rule = (body) => {
    const last = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    if (isTeacher(body)) return teacher(last);
    return sys(body).includes('TOKEN-SKILL') ? 'TOKEN-SKILL it is' : 'No idea.';
  };
  box = sandbox({ project: PROJECT });
  writeFileSync(join(box.dir, 'agent.sh'), `echo '${RESULT}'\n`);
  writeFileSync(join(box.dir, 'picky.sh'), `case "$1" in *project*) echo '${LOADS}';; esac\necho '${RESULT}'\n`);
  writeFileSync(join(box.home, '.config/upskilld/config.yaml'), config(join(box.dir, 'agent.sh')));
  mkdirSync(join(box.project, 'skills/demo-rules'), { recursive: true });
  writeFileSync(join(box.project, 'skills/demo-rules/SKILL.md'), SKILL);
  writeFileSync(join(box.project, 'tests.json'), JSON.stringify({ cases }));
  writeFileSync(join(box.project, 'queries.json'), JSON.stringify([
    { query: 'what are the demo house rules?', should_trigger: true },
    { query: 'tell me the demo rules of this project', should_trigger: true },
    { query: 'write a haiku', should_trigger: false },
  ]));
  d = new Daemon({ env: daemonEnv(box, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: srv.url }),
    cwd: box.project, args: ['--mcp', '--cuda-path', mkdtempSync(join(tmpdir(), 'upk-nocuda-'))] });
  await d.init();
});

after(async () => {
  if (d.child.exitCode === null) await d.close();
  await srv.close();
  box.remove();
});

// The requests a step made.
async function counted(fn) {
  const n0 = srv.requests.length;
  const r = await fn();
  return [r, srv.requests.slice(n0)];
}

const ctl = process.env.UPSKILLCTL;
const skip = ctl ? false : 'UPSKILLCTL not set';
const run = (args) => new Promise((done) => execFile(ctl, args, { cwd: box.project, encoding: 'utf8', timeout: 120000,
  env: daemonEnv(box, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: srv.url, UPSKILLD: process.env.UPSKILLD }) },
(err, stdout, stderr) => done({ status: err ? err.code ?? 1 : 0, stdout, stderr })));

describe('maxCalls', () => {
  it('3 calls of 10 trials: a partial result that says why, the rest not run, the run stored', async () => {
    const [r, reqs] = await counted(async () => ok(await call('skills/eval',
      { skill: 'demo-rules', models: ['anthropic.claude-a'], cases, concurrency: 1, maxCalls: 3 })));
    assert.equal(reqs.length, 3);
    assert.deepEqual({ ...r.stopped, spent: undefined }, { reason: 'max-calls', limit: 3, spent: undefined, calls: 3 });
    assert.equal(r.notRun, 7);
    assert.equal(r.results.length, 10);
    assert.equal(r.results.filter((t) => t.verdict === 'not-run').length, 7);
    const m = r.models[0];
    assert.equal(m.skill.trials + m.baseline.trials, 3, 'not-run trials are neither passes nor failures');
    assert.equal(m.skill.failed + m.baseline.passed + m.skill.passed + m.baseline.failed, 3);
    assert.equal(r.limits.maxCalls, 3);
    const shown = ok(await call('runs/show', { id: r.runId }));
    assert.equal(shown.summary.stopped.reason, 'max-calls');
    assert.equal(shown.transcripts.length, 3, 'a transcript per trial that ran');
  });

  it('upskillctl eval --max-calls 3 prints why and exits 3', { skip }, async () => {
    const [out, reqs] = await counted(() => run(['eval', 'skills/demo-rules', '-m', 'anthropic.claude-ctl',
      '--tests', 'tests.json', '--concurrency', '1', '--max-calls', '3']));
    assert.equal(out.status, 3, out.stderr);
    assert.equal(reqs.length, 3);
    assert.match(out.stdout, /7 trials not run/);
    assert.match(out.stderr, /stopped: --max-calls reached \(limit 3, .* in 3 calls\)/);
  });
});

describe('maxCostUsd', () => {
  it('stops midway once the priced calls cost the limit', async () => {
    // 1000 USD per million tokens: a call of ~20 tokens costs ~0.02 USD.
    const [r, reqs] = await counted(async () => ok(await call('skills/eval',
      { skill: 'demo-rules', models: ['anthropic.claude-priced'], cases, concurrency: 1, maxCostUsd: 0.05 })));
    assert.equal(r.stopped.reason, 'max-cost-usd');
    assert.equal(r.stopped.limit, 0.05);
    assert.ok(reqs.length > 0 && reqs.length < 10, `${reqs.length} calls`);
    assert.equal(r.stopped.calls, reqs.length);
    assert.ok(r.stopped.spent >= 0.05, `spent ${r.stopped.spent}`);
    // the project's price of 0 did not lower the user's: each call cost what the user's price says
    const tokens = r.results.filter((t) => t.verdict !== 'not-run').reduce((n, t) => n + t.inputTokens + t.outputTokens, 0);
    assert.ok(Math.abs(r.stopped.spent - tokens * 1000 / 1e6) < 1e-9, `${r.stopped.spent} for ${tokens} tokens`);
    assert.equal(r.notRun, 10 - reqs.length);
  });

  it('an agent that reports its own cost needs no price; the limit stops its runs', async () => {
    const r = ok(await call('skills/eval', { skill: 'demo-rules', models: ['agent:nevers'], cases: cases.slice(0, 2),
      maxParallel: 1, maxCostUsd: 0.9 }));
    assert.equal(r.stopped.reason, 'max-cost-usd');
    assert.equal(r.stopped.calls, 2);
    assert.equal(r.stopped.spent, 1);
    assert.equal(r.notRun, 2);
  });

  it('a model with no price is refused at the start, naming it and the config key', async () => {
    const [r, reqs] = await counted(() => call('skills/eval',
      { skill: 'demo-rules', models: ['anthropic.claude-priced', 'anthropic.claude-free'], cases, maxCostUsd: 1 }));
    assert.equal(r.error.code, -32602);
    assert.match(r.error.message, /the model 'anthropic\.claude-free' has no price: set one in the config, e\.g\. prices:/);
    assert.equal(reqs.length, 0);
  });

  it('a limit of 0 or less is refused at the start', async () => {
    for (const [k, v] of [['maxCalls', 0], ['maxCalls', -2], ['maxCostUsd', 0], ['maxCostUsd', -1]]) {
      const [r, reqs] = await counted(() => call('skills/eval', { skill: 'demo-rules', models: ['anthropic.claude-a'], cases, [k]: v }));
      assert.equal(r.error?.code, -32602, `${k}=${v}`);
      assert.match(r.error.message, new RegExp(`params\\.${k} must be > 0`));
      assert.equal(reqs.length, 0);
    }
    const g = await call('skills/generate', { task: 'demo', maxCostUsd: 0 });
    assert.match(g.error.message, /params\.maxCostUsd must be > 0/);
  });

  it('upskillctl refuses --max-cost-usd 0 and a missing price with one clear message', { skip }, async () => {
    const zero = await run(['eval', 'skills/demo-rules', '-m', 'anthropic.claude-a', '--tests', 'tests.json', '--max-cost-usd', '0']);
    assert.equal(zero.status, 2);
    assert.match(zero.stderr, /--max-cost-usd takes a number above 0, not .0./);
    const [none, reqs] = await counted(() => run(['eval', 'skills/demo-rules', '-m', 'anthropic.claude-free',
      '--tests', 'tests.json', '--max-cost-usd', '1']));
    assert.equal(none.status, 1);
    assert.match(none.stderr, /anthropic\.claude-free' has no price/);
    assert.equal(reqs.length, 0);
  });
});

describe('dryRun', () => {
  it('answers the plan and calls nothing', async () => {
    const [a, reqs] = await counted(async () => ok(await call('skills/eval', { skill: 'demo-rules',
      models: ['anthropic.claude-priced', 'anthropic.claude-a'], runs: 2, cases, dryRun: true, maxTokens: 100 })));
    assert.equal(reqs.length, 0);
    assert.equal(a.dryRun, true);
    assert.deepEqual([a.models, a.results, a.runDir], [[], [], null], 'an evaluation with nothing run');
    const r = a.plan;
    assert.equal(r.trials, 2 * 2 * 5 * 2);
    assert.equal(r.calls, 40);
    assert.equal(r.outputTokensPerCall, 100);
    const [priced, free] = r.models;
    assert.equal(priced.model, 'anthropic.claude-priced');
    assert.equal(priced.estimatedTokens.output, 20 * 100);
    assert.ok(priced.estimatedTokens.input > 20 * SKILL.length / 4, 'the skill is in half the prompts');
    assert.ok(Math.abs(priced.estimatedCostUsd - (priced.estimatedTokens.input + priced.estimatedTokens.output) * 1000 / 1e6) < 1e-3);
    assert.equal(free.estimatedCostUsd, null);
    assert.equal(r.estimatedCostUsd, null, 'no total when a model has no price');
  });

  it('upskillctl eval and generate --dry-run print the plan; --json gives it whole', { skip }, async () => {
    const [out, reqs] = await counted(() => run(['eval', 'skills/demo-rules', '-m', 'anthropic.claude-priced',
      '--tests', 'tests.json', '--dry-run']));
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /dry run \(eval of demo-rules\): nothing was called/);
    assert.match(out.stdout, /10 trials = models x 1 runs x 5 cases x 2 conditions/);
    assert.match(out.stdout, /anthropic\.claude-priced +10 +10 +\d+ +10240 +\$\d+\.\d{4}/);
    assert.equal(reqs.length, 0);
    const [js, greqs] = await counted(() => run(['--json', 'generate', 'demo task', '-m', 'anthropic.claude-teacher',
      '--eval-model', 'anthropic.claude-priced', '--dry-run']));
    assert.equal(js.status, 0, js.stderr);
    assert.equal(greqs.length, 0);
    const g = JSON.parse(js.stdout);
    assert.equal(g.stage, 'plan');
    const p = g.plan;
    assert.equal(p.mode, 'generate');
    // at most: 2 attempts x (1 draft + 2 send-backs) and the test writer; 4 refinement cases on
    // 2 attempts plus the baseline, 2 held-out cases with and without the skill
    assert.deepEqual(p.models.map((m) => [m.model, m.calls]), [['anthropic.claude-teacher', 7], ['anthropic.claude-priced', 16]]);
  });
});

describe('optimize', () => {
  it('stops at once when the skill never triggers, without asking the teacher', async () => {
    const [r, reqs] = await counted(async () => ok(await call('skills/eval', { skill: 'demo-rules',
      models: ['agent:nevers'], trigger: 'queries.json', runs: 1, optimize: 3 })));
    assert.equal(reqs.length, 0, 'no teacher call');
    assert.match(r.optimizeStopped, /the skill never triggered: every query's trigger rate is 0/);
    assert.equal(r.iterations.length, 1);
  });

  it('a dry run of trigger mode plans every description it may try and the teacher\'s calls', async () => {
    const [a, reqs] = await counted(async () => ok(await call('skills/eval', { skill: 'demo-rules',
      models: ['agent:picky'], trigger: 'queries.json', optimize: 2, dryRun: true })));
    assert.equal(reqs.length, 0);
    const p = a.plan;
    assert.deepEqual([p.mode, p.runs, p.cases, p.iterations, p.trials], ['trigger', 3, 3, 3, 27]);
    assert.deepEqual(p.models.map((m) => [m.model, m.calls]), [['agent:picky', 27], ['anthropic.claude-teacher', 2]]);
  });

  it('maxCalls counts the teacher: a proposal made with the last call is not evaluated', async () => {
    const [r, reqs] = await counted(async () => ok(await call('skills/eval', { skill: 'demo-rules',
      models: ['agent:picky'], trigger: 'queries.json', runs: 1, optimize: 3, holdout: 0, maxCalls: 4 })));
    assert.equal(reqs.length, 1, 'one teacher call');
    assert.equal(reqs[0].body.model, 'claude-teacher');
    assert.equal(r.iterations.length, 1);
    assert.equal(r.iterations[0].models[0].summary.passed, 2, 'the first description triggers on one query');
    assert.match(r.optimizeStopped, /the cost limit was reached \(max-calls\): the last description proposed was not evaluated/);
    assert.deepEqual([r.stopped.reason, r.stopped.calls], ['max-calls', 4]);
    assert.equal(r.best.iteration, 0);
  });

  it('upskillctl says so', { skip }, async () => {
    const out = await run(['eval', 'skills/demo-rules', '-m', 'agent:nevers', '--trigger', 'queries.json', '--optimize', '2']);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /optimizing stopped: the skill never triggered/);
  });
});

describe('generate', () => {
  const args = { task: 'demo task', model: 'anthropic.claude-teacher', evalModels: ['anthropic.claude-student'] };
  it('maxCalls midway through attempt 1: the attempt so far is saved, not scored on held-out cases', async () => {
    const [r, reqs] = await counted(async () => ok(await call('skills/generate', { ...args, concurrency: 1, maxCalls: 6,
      output: join(box.project, 'skills/gen-limits') })));
    assert.equal(reqs.length, 6);
    assert.equal(reqs.filter((q) => isTeacher(q.body)).length, 2, 'the teacher wrote, the test writer wrote');
    assert.equal(r.stage, 'done');
    assert.equal(r.stopped.reason, 'max-calls');
    assert.equal(r.attempts.length, 1);
    assert.ok(r.attempts[0].trials > 0);
    assert.equal(r.heldOut, null);
  });

  it('a limit reached before any attempt was evaluated fails clearly', async () => {
    const [r, reqs] = await counted(() => call('skills/generate', { ...args, maxCalls: 2 }));
    assert.equal(reqs.length, 2);
    assert.match(r.error.message, /the cost limit was reached \(max-calls\) before any attempt was evaluated/);
    assert.equal(r.error.data.stopped.reason, 'max-calls');
  });

  it('upskillctl generate --max-calls exits 3 with the skill saved', { skip }, async () => {
    const out = await run(['generate', 'demo task', '-m', 'anthropic.claude-teacher', '--eval-model', 'anthropic.claude-student',
      '-o', join(box.project, 'skills/gen-ctl'), '--max-calls', '4']);
    assert.equal(out.status, 3, out.stderr);
    assert.match(out.stdout, /gen-limits -> .*gen-ctl/);
    assert.match(out.stdout, /not scored on held-out cases: a cost limit was reached/);
    assert.match(out.stderr, /stopped: --max-calls reached \(limit 4, .* in 4 calls\)/);
  });
});

// What a run needs is checked before anything is spent; trials that error are counted as errors
// with their reasons, never as a 0 % result.
describe('a run without a model', () => {
  const WAYS = [/ANTHROPIC_API_KEY/, /OPENAI_API_KEY/, /GENERIC_BASE_URL/, /agent:claude-code/, /agent:codex/];
  const noKey = (args) => new Promise((done) => execFile(ctl, args, { cwd: box.project, encoding: 'utf8', timeout: 120000,
    env: daemonEnv(box, { UPSKILLD: process.env.UPSKILLD }) }, (err, stdout, stderr) => done({ status: err ? err.code ?? 1 : 0, stdout, stderr })));
  const stored = async () => ok(await call('runs/list', {})).runs.length;

  it('upskillctl eval with no API key is refused before any trial, naming every way, in a dry run too', { skip }, async () => {
    const before = await stored();
    for (const extra of [[], ['--dry-run']]) {
      const out = await noKey(['eval', 'skills/demo-rules', '-m', 'sonnet', '--tests', 'tests.json', ...extra]);
      assert.equal(out.status, 1, out.stdout);
      assert.match(out.stderr, /anthropic\.claude-sonnet.* needs ANTHROPIC_API_KEY, which is not set/);
      for (const w of WAYS) assert.match(out.stderr, w);
      assert.doesNotMatch(out.stdout, /0%/);
    }
    assert.equal(await stored(), before, 'no run stored');
  });

  it('a server that is down, and an agent CLI not on PATH, are refused before any trial', { skip }, async () => {
    const down = await startServer();
    const url = down.url;
    await down.close();
    const out = await new Promise((done) => execFile(ctl, ['eval', 'skills/demo-rules', '-m', 'anthropic.claude-a', '--tests', 'tests.json'],
      { cwd: box.project, encoding: 'utf8', timeout: 120000, env: daemonEnv(box, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url, UPSKILLD: process.env.UPSKILLD }) },
      (err, stdout, stderr) => done({ status: err ? err.code ?? 1 : 0, stdout, stderr })));
    assert.equal(out.status, 1, out.stdout);
    assert.match(out.stderr, /ANTHROPIC_BASE_URL=.*nothing answers at/);
    const agent = await run(['eval', 'skills/demo-rules', '-m', 'agent:gone', '--tests', 'tests.json']);
    assert.equal(agent.status, 1, agent.stdout);
    assert.match(agent.stderr, /agent:gone: its program 'upk-no-such-agent-cli' is not on PATH/);
  });

  it('over the protocol: an error result (and isError for a tool), no calls made', async () => {
    const [r, reqs] = await counted(() => call('skills/eval', { skill: 'demo-rules', models: ['openai.gpt-x'], cases }));
    assert.equal(r.error?.code, -32803, JSON.stringify(r));
    assert.match(r.error.message, /openai\.gpt-x needs OPENAI_API_KEY/);
    const g = await call('skills/generate', { task: 'demo', model: 'openai.gpt-teacher', dryRun: true });
    assert.match(g.error?.message ?? '', /needs OPENAI_API_KEY/);
    const t = ok(await call('tools/call', { name: 'eval_skill', arguments: { skill: 'demo-rules', models: ['openai.gpt-x'], cases } }));
    assert.equal(t.isError, true, JSON.stringify(t));
    assert.equal(reqs.length, 0);
  });

  it('trials that error are errors with their reason; the rest count', { skip }, async () => {
    srv.plan('claude-part', ['400', 'ok', 'ok', '400']);
    const out = await run(['eval', 'skills/demo-rules', '-m', 'anthropic.claude-part', '--tests', 'tests.json', '--concurrency', '1']);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /2 of 10 trials errored \(left out of the rates\); main reasons:\n\s+2x .*400/);
    assert.match(out.stdout, /with skill .* 4\/4\s+\(1 errored, not counted\)/);
    assert.match(out.stdout, /baseline .* 0\/4\s+\(1 errored, not counted\)/);
  });

  it('a model all of whose trials errored fails the run: non-zero, stored as failed, never 0 %', { skip }, async () => {
    srv.plan('claude-dead', Array(10).fill('400'));
    const out = await run(['eval', 'skills/demo-rules', '-m', 'anthropic.claude-dead', '--tests', 'tests.json']);
    assert.equal(out.status, 1, out.stdout);
    assert.match(out.stderr, /every trial of anthropic\.claude-dead errored \(10 trials errored in all\): .*400.*stored as failed run/);
    assert.doesNotMatch(out.stdout, /0%/);
    const runs = await run(['runs']);
    assert.match(runs.stdout, /demo-rules\s+10 failed\s+anthropic\.claude-dead/);
    srv.plan('claude-dead', Array(10).fill('400'));
    const r = await call('skills/eval', { skill: 'demo-rules', models: ['anthropic.claude-dead'], cases });
    assert.equal(r.error?.code, -32803);
    assert.equal(r.error.data.status, 'failed');
    assert.deepEqual(r.error.data.errored.failedModels, ['anthropic.claude-dead']);
  });
});

describe('shutdown', () => {
  it('the daemon exits cleanly, without sanitizer reports', async () => {
    assert.equal(await d.close(), 0, d.stderr);
    assert.equal(d.sanitizerReport(), null);
  });
});

// Agent CLIs as evaluation targets, end to end: `upskillctl eval` spawns the real daemon, which
// runs the real Claude Code and Codex CLIs from npm (pinned in tests/agents/setup.sh) headless in
// a workspace per run, each pointed at the scripted agent server on loopback through its
// documented setting (ANTHROPIC_BASE_URL; a provider in config.toml, copied from the user's
// CODEX_HOME as an agent's login is). The scripted model loads a skill only when the agent lists
// it, so the test checks against the server's own records that the skill was installed where each
// agent really looks, that upskilld read what the agent did (loaded or not, files written, tokens
// equal to what the server reported for that session), and that it grades and stores it all:
// the report, the Agent Skills layout, a trigger eval, maxParallel, and one clear error per run
// for an agent that is missing, hangs, or prints no JSON, the other runs completing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { execFile, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { defaultPolicy, codexConfig, startAgentServer } from './agent_server.mjs';
import { startServer } from '../models/server.mjs';

const repo = resolve(import.meta.dirname, '../..');
const bin = join(process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm'), 'agents/node_modules/.bin');
const ctl = process.env.UPSKILLCTL ?? join(repo, 'build/clients/upskillctl');
const missing = ['claude', 'codex'].filter((c) => !existsSync(join(bin, c)));
const req = createRequire(join(process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm'), 'package.json'));
let sdkMissing = false;
try { req.resolve('@modelcontextprotocol/sdk/client/index.js'); } catch { sdkMissing = true; }
const skip = missing.length ? `agent CLIs not installed (${missing.join(', ')}): tests/agents/setup.sh` : false;

const SKILL = `---
name: house-rules
description: The house rules for GPU kernels in this repository. Use when asked about house rules.
---
# House rules

When asked about the house rule for reductions, answer with the line below.

ANSWER: use warp shuffles
`;
// The scripted model loads a listed skill named in the prompt; "write F" makes it write F.
const CASES = {
  cases: [
    { input: 'What is the house rule for reductions? Check house-rules and write out.txt',
      expected: { contains: ['warp shuffles'], files: ['out.txt'] } },
    { input: 'Tell me the house-rules answer for reductions', expected: { contains: ['warp shuffles'] } },
  ],
};

let srv, box, env, grader;

// The teacher (generic.teacher): drafts a skill, writes its tests, proposes a description.
const DRAFT = `---
name: gen-rules
description: Notes for this repository.
---
# Reduction rules

ANSWER: use warp shuffles
`;
function teacher(body, user) {
  if (user.includes('<new_description>'))
    return '<new_description>House rules for GPU reductions: use when a reduction runs slowly.</new_description>';
  if (user.startsWith('Write ') && user.includes('test cases'))
    return '```json\n' + JSON.stringify({ cases: [{ input: 'gen-rules: how do we reduce?', expected: { contains: ['warp shuffles'] } }] }) + '\n```\n';
  return '````markdown\n' + DRAFT + '````\n';
}

// The agent loads house-rules / gen-rules only when a word of the query (6+ letters) is in the
// description it was shown: a description that names the task triggers, one that does not, does not.
function byDescription(v) {
  const s = (v.skillsListed ?? []).find((k) => !k.builtin && /rules$/.test(k.name));
  if (!s || v.skillLoaded) return undefined;
  const words = v.prompt.toLowerCase().match(/[a-z]{6,}/g) ?? [];
  return words.some((w) => s.description.toLowerCase().includes(w)) ? { loadSkill: s.name } : { text: 'ok' };
}

// upskillctl --json in the project; its JSON result (or the error it printed). Asynchronous: the
// scripted server answers from this process's event loop while the agents run.
function run(args, { timeout = 600000 } = {}) {
  return new Promise((done) => {
    execFile(ctl, ['--json', ...args], { cwd: join(box, 'proj'), env, encoding: 'utf8', timeout,
      maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      try { done(JSON.parse(stdout)); } catch { assert.fail(`not JSON (${err}): ${stdout}\n${stderr}`); }
    });
  });
}

// The process groups this test's hanging agents started: each writes its shell's pid (the
// group's leader, as the runner starts every agent in a group of its own) to a file of ours.
const groupsIn = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);
const groupAlive = (pgid) => {
  try { process.kill(-pgid, 0); return true; } catch (e) { return e.code !== 'ESRCH'; }
};
const liveGroups = (file) => groupsIn(file).filter(groupAlive);

const transcripts = (runDir) => {
  const out = [];
  for (const m of readdirSync(join(runDir, 'transcripts')))
    for (const f of readdirSync(join(runDir, 'transcripts', m)))
      out.push(JSON.parse(readFileSync(join(runDir, 'transcripts', m, f), 'utf8')));
  return out;
};

describe('agent targets: real Claude Code and Codex against the scripted server', { skip }, () => {
  before(async () => {
    srv = await startAgentServer();
    // The grader (generic.grader over OpenAI Chat): passes a statement when the answer holds it.
    grader = await startServer();
    grader.rule = (body) => {
      const user = body.messages.find((m) => m.role === 'user').content;
      if (body.model !== 'grader') return teacher(body, user);
      const want = /Expectation: .*"([^"]+)"/.exec(user)?.[1] ?? /Expectation: ([^\n]+)/.exec(user)[1];
      const answer = user.split("The agent's final answer:\n")[1] ?? '';
      const passed = answer.toLowerCase().includes(want.toLowerCase().replace(/^it (says|mentions) /, ''));
      return JSON.stringify({ passed, evidence: passed ? `the answer says ${want}` : 'not in the answer' });
    };
    box = mkdtempSync(join(tmpdir(), 'upk-agents-'));
    for (const d of ['proj/skills/house-rules', 'home/.codex', 'tmp', 'state']) mkdirSync(join(box, d), { recursive: true });
    writeFileSync(join(box, 'proj/skills/house-rules/SKILL.md'), SKILL);
    writeFileSync(join(box, 'proj/tests.json'), JSON.stringify(CASES));
    writeFileSync(join(box, 'home/.codex/config.toml'), codexConfig(srv.url));
    writeFileSync(join(box, 'proj/upskill.config.yaml'), `skill_generation_model: generic.teacher
agents:
  ghost:
    command: ["${join(box, 'no-such-agent')}", "{prompt}"]
    output: claude
  hang:
    command: ["sh", "-c", "echo $$ >> ${join(box, 'pids-hang')}; sleep 300; echo late"]
    output: claude
    timeoutMs: 1500
  hang2:
    command: ["sh", "-c", "echo $$ >> ${join(box, 'pids-hang2')}; exec sleep 301"]
    output: claude
  garbage:
    command: ["sh", "-c", "echo 'Welcome! Please log in first.'"]
    output: claude
  broken:
    command: ["sh", "-c", "echo 'error: unexpected argument --full-auto found' >&2; exit 2"]
    output: codex
  failtext:
    command: ["sh", "-c", "echo half an answer; echo 'error: quota exceeded for this account' >&2; exit 3"]
    output: text
  slow:
    command: ["sh", "-c", "echo S $(date +%s.%N) >> ${join(box, 'spans')}; sleep 0.4; echo E $(date +%s.%N) >> ${join(box, 'spans')}; echo warp shuffles"]
`);
    env = {
      PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: join(box, 'home'), TMPDIR: join(box, 'tmp'), XDG_STATE_HOME: join(box, 'state'),
      ANTHROPIC_BASE_URL: srv.url, ANTHROPIC_API_KEY: 'sk-dummy', CLAUDE_CODE_MAX_RETRIES: '1',
      GENERIC_BASE_URL: grader.url + '/generic/v1',
    };
    // The project's agents (commands) are this test's own: trusted as a user would trust them
    // (docs/security.md, "Project config"); untrusted, they would be refused.
    const trusted = spawnSync(ctl, ['trust', join(box, 'proj')], { env, encoding: 'utf8' });
    assert.equal(trusted.status, 0, trusted.stderr);
  });
  // The agents leave nothing outside their run: no marker a sandbox would plant in /tmp.
  const planted = ['.git', '.agents', '.codex', '.aws', '.claude'].map((n) => join(tmpdir(), n));
  const before0 = planted.filter((p) => existsSync(p));
  after(() => { srv?.close(); grader?.close(); if (box && !process.env.KEEP) rmSync(box, { recursive: true, force: true }); });

  let result;
  it('eval -m agent:claude-code -m agent:codex --runs 3 runs every trial in a workspace of its own', async () => {
    result = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '-m', 'agent:codex', '--runs', '3',
      '--tests', 'tests.json']);
    assert.equal(result.code, undefined, JSON.stringify(result));
    assert.equal(result.results.length, 2 * 3 * 2 * 2);
    for (const t of result.results) {
      const skill = t.condition === 'with_skill';
      assert.ok(!t.error, `${t.model} ${t.condition} case ${t.case}: ${t.error}`);
      assert.equal(t.verdict, skill ? 'pass' : 'fail', `${t.model} ${t.condition} case ${t.case}`);
      assert.equal(t.skillLoaded, skill, `${t.model} ${t.condition} case ${t.case}`);
      assert.ok(t.turns >= 1);
    }
    const loaded = (m, c) => result.agents.byCase.find((x) => x.model === m && x.case === c);
    for (const m of ['agent:claude-code', 'agent:codex'])
      for (const c of [0, 1]) {
        assert.equal(loaded(m, c).with_skill.skillLoadedRate, 1, `${m} case ${c}`);
        assert.equal(loaded(m, c).without_skill.skillLoadedRate, 0, `${m} case ${c}`);
      }
  });

  it('pass@k and pass^k per agent and condition (k = 1 .. 3) in the result and benchmark.json', () => {
    for (const m of result.models) {
      assert.deepEqual(m.skill.passAtK, [1, 1, 1], m.model);
      assert.deepEqual(m.skill.passHatK, [1, 1, 1], m.model);
      assert.deepEqual(m.baseline.passAtK, [0, 0, 0], m.model);
      const bench = JSON.parse(readFileSync(join(result.agentSkillsDir, readdirSync(result.agentSkillsDir)
        .find((d) => d.includes(m.model.replace('agent:', ''))), 'benchmark.json'), 'utf8'));
      assert.deepEqual(bench.run_summary.with_skill.pass_hat_k, [1, 1, 1], m.model);
      assert.deepEqual(bench.run_summary.without_skill.pass_at_k, [0, 0, 0], m.model);
    }
  });

  it('installs the skill where each agent looks, and only in the with-skill runs', () => {
    const sessions = srv.summary();
    const listed = (s) => (s.skillsListed ?? []).some((k) => k.name === 'house-rules');
    const withSkill = transcripts(result.runDir).filter((t) => t.condition === 'with_skill');
    const baseline = transcripts(result.runDir).filter((t) => t.condition === 'baseline');
    for (const t of withSkill) {
      const s = sessions[t.agent.sessionId];
      assert.ok(s, `the server saw session ${t.agent.sessionId} (${t.model})`);
      assert.ok(listed(s) && s.skillLoaded, `${t.model}: listed and loaded`);
      const where = t.model === 'agent:codex' ? '.agents/skills' : '.claude/skills';
      assert.ok(existsSync(join(t.agent.dir, 'workspace', where, 'house-rules/SKILL.md')), where);
    }
    for (const t of baseline) {
      const s = sessions[t.agent.sessionId];
      assert.ok(s && !listed(s) && !s.skillLoaded, `${t.model} baseline: not listed`);
    }
  });

  it('reads tokens, tools and files from the agent, not estimates', () => {
    for (const t of transcripts(result.runDir)) {
      const u = srv.usageFor(t.agent.sessionId);
      assert.equal(t.tokens.input, u.input_tokens, `${t.model} input tokens of ${t.agent.sessionId}`);
      assert.equal(t.tokens.output, u.output_tokens, `${t.model} output tokens`);
      if (t.case === 0) assert.deepEqual(t.agent.files, ['out.txt'], `${t.model} ${t.condition}`);
      if (t.condition === 'with_skill')
        assert.ok(t.agent.toolCalls.length >= 1 && t.agent.skillEvidence, t.agent.skillEvidence);
      assert.equal(t.systemPrompt, null, 'an agent has its own system prompt');
      assert.ok(existsSync(join(t.agent.dir, 'stdout.jsonl')), 'the transcript is kept');
    }
    const costs = transcripts(result.runDir).filter((t) => t.model === 'agent:claude-code').map((t) => t.agent.costUsd);
    assert.ok(costs.every((c) => c > 0), 'Claude Code reports its cost');
  });

  it('writes the report and the Agent Skills layout', () => {
    assert.equal(result.layoutError, undefined, result.layoutError);
    for (const m of readdirSync(result.agentSkillsDir)) {
      const bench = JSON.parse(readFileSync(join(result.agentSkillsDir, m, 'benchmark.json'), 'utf8'));
      assert.equal(bench.runs.length, 12, m);
      const g = JSON.parse(readFileSync(join(result.agentSkillsDir, m, 'eval-1/with_skill/run-1/grading.json'), 'utf8'));
      assert.ok(g.expectations.length >= 1 && g.summary.passed === g.summary.total, m);
      assert.ok(existsSync(join(result.agentSkillsDir, m, 'eval-1/with_skill/run-1/outputs/out.txt')), m);
    }
    assert.equal(readdirSync(result.agentSkillsDir).length, 2);
    const html = join(box, 'report.html');
    const r = spawnSync(ctl, ['report', result.runId, '-o', html], { cwd: join(box, 'proj'), env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(html, 'utf8');
    assert.match(text, /Agent runs/);
    assert.match(text, /skill loaded \(Skill tool: house-rules\)/);
  });

  it('evals/evals.json: quoted statements checked, the others judged by the grader', async () => {
    const dir = join(box, 'proj/skills/house-rules');
    mkdirSync(join(dir, 'evals'), { recursive: true });
    writeFileSync(join(dir, 'evals/evals.json'), JSON.stringify({ skill_name: 'house-rules', evals: [
      { id: 7, name: 'reductions', prompt: 'Tell me the house-rules answer for reductions',
        expected_output: 'the house rule', expectations: ['The answer names "warp shuffles"', 'it mentions warp shuffles'] },
    ] }));
    try {
      const r = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '--grader', 'generic.grader']);
      const [skill, base] = ['with_skill', 'baseline'].map((c) => r.results.find((t) => t.condition === c));
      assert.equal(skill.verdict, 'pass', JSON.stringify(skill));
      assert.equal(base.verdict, 'fail');
      const asked = grader.requests.filter((q) => q.body.messages[0].content.startsWith('You grade one run'));
      assert.equal(asked.length, 2, 'one grading per statement in words, per run');
      const layout = join(r.agentSkillsDir, 'agent_claude-code-ad1bbcd0');
      const g = JSON.parse(readFileSync(join(layout, 'eval-7-reductions/with_skill/run-1/grading.json'), 'utf8'));
      assert.deepEqual(g.expectations.map((x) => [x.text, x.passed]),
        [['The answer names "warp shuffles"', true], ['it mentions warp shuffles', true]]);
      assert.match(g.expectations[1].evidence, /grader: the answer says/);
      // Without a grader the statement is skipped: never a pass.
      const n = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '--no-baseline']);
      assert.equal(n.results[0].verdict, 'skipped');
    } finally {
      rmSync(join(dir, 'evals'), { recursive: true, force: true });
    }
  });

  it('trigger mode: the trigger rate of each query, precision and recall', async () => {
    const queries = [
      { query: 'TRIGGER: what is our house rule for reductions?', should_trigger: true },
      { query: 'TRIGGER the reduction rules please', should_trigger: true },
      { query: 'NOTRIGGER: write a haiku about autumn', should_trigger: false },
      { query: 'TRIGGER: what is the weather like', should_trigger: false }, // the model loads it anyway
    ];
    writeFileSync(join(box, 'proj/trigger.json'), JSON.stringify(queries));
    const r = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '--trigger', 'trigger.json']);
    assert.equal(r.mode, 'trigger', JSON.stringify(r).slice(0, 400));
    const m = r.iterations[0].models[0];
    assert.deepEqual(m.results.map((q) => [q.triggers, q.runs]), [[3, 3], [3, 3], [0, 3], [3, 3]]);
    assert.deepEqual(m.results.map((q) => q.pass), [true, true, true, false]);
    assert.ok(Math.abs(m.train.precision - 2 / 3) < 1e-9, String(m.train.precision));
    assert.equal(m.train.recall, 1);
  });

  it('over MCP (the official SDK, which checks each result against the tool\'s outputSchema)',
    { skip: sdkMissing && 'the MCP SDK is not installed: tests/conformance/setup-npm.sh' }, async () => {
    const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
    const daemon = process.env.UPSKILLD ?? join(repo, 'build/daemon/upskilld');
    const transport = new StdioClientTransport({ command: daemon, args: ['--mcp'], cwd: join(box, 'proj'), env,
      stderr: 'ignore' });
    const client = new Client({ name: 'upskilld-agents-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = (args) => client.callTool({ name: 'eval_skill', arguments: args }, undefined, { timeout: 300000 });
      const r = await call({ skill: join(box, 'proj/skills/house-rules'), models: ['agent:codex'],
        tests: join(box, 'proj/tests.json') });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      assert.equal(r.structuredContent.results.filter((t) => t.skillLoaded).length, 2);
      const t = await call({ skill: join(box, 'proj/skills/house-rules'), models: ['agent:codex'], runs: 1,
        trigger: [{ query: 'TRIGGER: house rule?', should_trigger: true }, { query: 'NOTRIGGER: haiku', should_trigger: false }] });
      assert.equal(t.structuredContent.mode, 'trigger');
      assert.equal(t.structuredContent.iterations[0].models[0].summary.passed, 2);
      const bad = await call({ skill: join(box, 'proj/skills/house-rules'), models: ['agent:nope'] });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /no agent 'nope'/);
      const failed = await call({ skill: join(box, 'proj/skills/house-rules'), models: ['agent:broken', 'agent:hang'],
        tests: join(box, 'proj/tests.json'), baseline: false });
      assert.deepEqual(failed.structuredContent.results.map((t) => t.error.split(':')[0]),
        ['the agent exited with status 2', 'the agent exited with status 2',
         'the agent ran past its timeout of 1 s and was stopped', 'the agent ran past its timeout of 1 s and was stopped']);
      assert.deepEqual(await client.ping(), {}, 'the same daemon answers the next message');
    } finally {
      await client.close();
    }
  });

  it('trigger mode --optimize: the teacher\'s description is evaluated, the best kept and written', async () => {
    const md = join(box, 'proj/skills/house-rules/SKILL.md');
    writeFileSync(join(box, 'proj/opt.json'), JSON.stringify([
      { query: 'my reduction runs slowly', should_trigger: true },
      { query: 'weather forecast tomorrow', should_trigger: false },
      // the first description does trigger (wrongly, here): a skill that never triggers is not
      // optimised at all (limits.test.mjs)
      { query: 'repository chores for the weekend', should_trigger: false },
    ]));
    srv.policy = byDescription;
    try {
      const r = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '--trigger', 'opt.json',
        '--optimize', '2', '--holdout', '0', '--apply']);
      assert.equal(r.iterations.length, 2, JSON.stringify(r.iterations.map((i) => i.description)));
      assert.equal(r.iterations[0].models[0].summary.passed, 1);
      assert.equal(r.iterations[1].models[0].summary.passed, 3);
      assert.equal(r.best.iteration, 1);
      assert.match(r.best.description, /GPU reductions/);
      assert.equal(r.applied, md);
      const text = readFileSync(md, 'utf8');
      assert.match(text, /^description: "House rules for GPU reductions: use when a reduction runs slowly\."$/m);
      assert.match(text, /^name: house-rules$/m);
      assert.match(text, /ANSWER: use warp shuffles/);
      const asked = grader.requests.filter((q) => q.body.model === 'teacher');
      assert.equal(asked.length, 1, 'stops once every train query passes');
      const prompt = asked[0].body.messages.at(-1).content;
      assert.match(prompt, /FAILED TO TRIGGER[\s\S]*my reduction runs slowly/, 'the failing train query is shown');
      assert.match(prompt, /The house rules for GPU kernels in this repository/, 'the current description is shown');
    } finally {
      srv.policy = defaultPolicy;
      writeFileSync(md, SKILL);
    }
  });

  it('generate with agent evalModels and a trigger set: refined description written', async () => {
    srv.policy = byDescription;
    try {
      writeFileSync(join(box, 'proj/gen-trigger.json'), JSON.stringify([
        { query: 'gen-rules: my reduction runs slowly', should_trigger: true },
        // the draft's description triggers here (wrongly): a skill that never triggers is not
        // optimised at all (limits.test.mjs)
        { query: 'what is in this repository?', should_trigger: false },
      ]));
      const r = await run(['generate', 'reduction house rules', '-m', 'generic.teacher', '--eval-model', 'agent:claude-code',
        '--attempts', '1', '--trigger', 'gen-trigger.json', '--optimize', '1', '-o', 'skills/gen-rules']);
      assert.equal(r.code, undefined, JSON.stringify(r).slice(0, 600));
      assert.ok(r.results ?? r.attempts, 'the generation result');
      assert.equal(r.trigger.mode, 'trigger');
      assert.equal(r.trigger.best.iteration, 1, JSON.stringify(r.trigger.iterations.map((i) => i.models[0].summary)));
      assert.match(readFileSync(join(box, 'proj/skills/gen-rules/SKILL.md'), 'utf8'), /GPU reductions/);
    } finally {
      srv.policy = defaultPolicy;
    }
  });

  it('cancel: the agents\' process groups are killed and the daemon answers the next message',
    { skip: sdkMissing && 'the MCP SDK is not installed' }, async () => {
    const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
    const daemon = process.env.UPSKILLD ?? join(repo, 'build/daemon/upskilld');
    const transport = new StdioClientTransport({ command: daemon, args: ['--mcp'], cwd: join(box, 'proj'), env,
      stderr: 'ignore' });
    const client = new Client({ name: 'upskilld-agents-cancel', version: '1.0.0' });
    await client.connect(transport);
    try {
      const abort = new AbortController();
      const p = client.callTool({ name: 'eval_skill', arguments: { skill: join(box, 'proj/skills/house-rules'),
        models: ['agent:hang2'], tests: join(box, 'proj/tests.json') } }, undefined, { signal: abort.signal, timeout: 60000 });
      const pids = join(box, 'pids-hang2');
      rmSync(pids, { force: true });
      for (let i = 0; i < 100 && !liveGroups(pids).length; i++) await new Promise((ok) => setTimeout(ok, 100));
      assert.ok(liveGroups(pids).length, 'the agents started');
      abort.abort();
      await assert.rejects(p);
      const started = groupsIn(pids); // read after the cancel: every agent it had started by then
      for (let i = 0; i < 50 && started.some(groupAlive); i++) await new Promise((ok) => setTimeout(ok, 100));
      assert.deepEqual(started.filter(groupAlive), [], 'the agents\' process groups were killed');
      assert.deepEqual(await client.ping(), {});
    } finally {
      await client.close();
    }
  });

  it('runs agents in parallel up to maxParallel', async () => {
    rmSync(join(box, 'spans'), { force: true });
    const r = await run(['eval', 'skills/house-rules', '-m', 'agent:slow', '--tests', 'tests.json', '--runs', '3',
      '--max-parallel', '2']);
    assert.equal(r.results.length, 12);
    // Each run logs "S time" when it starts and "E time" when it ends: sweep for the most at once.
    const events = readFileSync(join(box, 'spans'), 'utf8').trim().split('\n').map((l) => l.split(' '))
      .map(([k, t]) => [Number(t), k === 'S' ? 1 : -1]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    assert.equal(events.length, 24);
    let now = 0, most = 0;
    for (const [, d] of events) most = Math.max(most, (now += d));
    assert.equal(most, 2, 'two at once, never three');
  });

  it('one clear error per run for an agent that is missing, fails to start, hangs or prints no JSON; the rest complete', async () => {
    rmSync(join(box, 'pids-hang'), { force: true }); // the MCP test ran it too
    // A program that is not there is refused before any trial (eval_ready.c), naming it.
    const ghost = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '-m', 'agent:ghost', '--tests', 'tests.json']);
    assert.equal(ghost.code, -32803, JSON.stringify(ghost));
    assert.match(ghost.message, /^agent:ghost: its program '.*no-such-agent' is not on PATH: install it, or set agents\.ghost\.command/);
    // Every run of four agents errored: the evaluation fails (stored as failed), its result the data.
    const failed = await run(['eval', 'skills/house-rules', '-m', 'agent:claude-code', '-m', 'agent:hang',
      '-m', 'agent:garbage', '-m', 'agent:broken', '-m', 'agent:failtext', '--tests', 'tests.json', '--no-baseline']);
    assert.equal(failed.code, -32803, JSON.stringify(failed).slice(0, 400));
    assert.match(failed.message, /^every trial of agent:hang, agent:garbage, agent:broken, agent:failtext errored \(8 trials errored in all\)/);
    const r = failed.data;
    assert.equal(r.status, 'failed');
    const by = (m) => r.results.filter((t) => t.model === m);
    assert.ok(by('agent:claude-code').every((t) => t.verdict === 'pass' && !t.error));
    for (const t of by('agent:hang')) assert.match(t.error, /ran past its timeout of 1 s and was stopped/);
    for (const t of by('agent:garbage')) assert.match(t.error, /printed no JSON: Welcome! Please log in first\./);
    for (const t of by('agent:broken'))
      assert.equal(t.error, 'the agent exited with status 2: error: unexpected argument --full-auto found; ' +
        'the agent printed nothing');
    // Half an answer on stdout does not make a failed run a trial: any failure status is an error.
    for (const t of by('agent:failtext'))
      assert.equal(t.error, 'the agent exited with status 3: error: quota exceeded for this account');
    assert.equal(r.results.length, 10, 'every run of every agent is reported');
    // SIGKILL is delivered, not awaited: on a loaded machine the group may take a moment to go.
    const hung = groupsIn(join(box, 'pids-hang'));
    assert.equal(hung.length, 2, 'both runs of the hanging agent started');
    for (let i = 0; i < 50 && hung.some(groupAlive); i++) await new Promise((ok) => setTimeout(ok, 100));
    assert.deepEqual(hung.filter(groupAlive), [], 'the hung agent\'s process groups were killed');
  });
  it('leaves nothing in the machine\'s temporary folder (a sandbox marks its writable roots)', () => {
    const now = planted.filter((p) => existsSync(p) && !before0.includes(p));
    assert.deepEqual(now, [], `an agent run left ${now.join(', ')}`);
  });
});

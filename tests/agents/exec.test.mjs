// Executable assertions (script, diff, kernel) end to end: `upskillctl eval` spawns the real
// daemon, which runs a configured `text` agent (a shell script of this test's own that writes
// files in its workspace, chosen by a word in the case's input), then judges each trial by a
// script run in the workspace, the workspace's git changes since the run started, and the CUDA
// file it wrote through the kernel service. The hostile cases: a script that hangs (killed with
// its process group at its deadline; the trial an error; the other trials go on), a script that
// leaves a process behind, a missing command, a diff on a workspace whose repository the agent
// removed, a kernel path that is a link out of the workspace. Every process checked is one this
// test's run started (its process group id, written by the script itself).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { execFile, spawnSync } from 'node:child_process';
import { defaultPolicy, codexConfig, startAgentServer } from './agent_server.mjs';

const repo = resolve(import.meta.dirname, '../..');
const ctl = process.env.UPSKILLCTL ?? join(repo, 'build/clients/upskillctl');
const bin = join(process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm'), 'agents/node_modules/.bin');
const missing = ['claude', 'codex'].filter((c) => !existsSync(join(bin, c)));

const SKILL = `---
name: kernel-rules
description: How to write CUDA kernels in this repository. Use when writing a kernel.
---
# Kernel rules

Write kernel.cu and out.txt.
`;

// The agent: a word of its prompt picks what it does in its workspace (its working directory).
const AGENT = `#!/bin/sh
case "$1" in
  *GOOD*) printf '__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\\n' > kernel.cu
          echo hello > out.txt ;;
  *BAD*)  printf '__global__ void scale(float *x) {\\n  x[threadIdx.x] = undefined_thing;\\n}\\n' > kernel.cu ;;
  *UNREPO*) rm -rf .git; echo hi > out.txt ;;
  *LINK*) ln -s /etc/hostname link.cu ;;
esac
echo done
`;

const CASES = {
  cases: [
    { input: 'GOOD: write the kernel', context: { files: { 'README.md': 'the project\n' } },
      expected: {
        script: 'grep -q hello out.txt && echo checked-out',
        diff: { changed: ['kernel.cu', 'out.txt'], unchanged: ['README.md', '.agents/**'], only: true },
        kernel: { path: 'kernel.cu', arch: 'sm_80', resources: { maxRegisters: 64 } },
      } },
    { input: 'BAD: write the kernel',
      expected: { script: { command: 'exit 3', exit: 3 }, diff: { changed: ['**/*.cu'] }, kernel: { path: 'kernel.cu' } } },
    { input: 'HANG: nothing',
      expected: { script: { command: 'echo $$ > hang.pgid; sleep 300 & sleep 300', timeoutMs: 1500 } } },
    { input: 'LEFTOVER: nothing',
      expected: { script: '(sleep 300 >/dev/null 2>&1 &); echo $$ > bg.pgid; test -z "$ANTHROPIC_API_KEY" && test -z "$UPK_EXEC_TEST_TOKEN" && test "$HOME" != "$UPK_EXEC_REAL_HOME" && test -n "$PATH" && echo clean-env' } },
    { input: 'MISSING: nothing', expected: { script: 'no-such-command-upk-exec-test' } },
    { input: 'UNREPO: write out.txt', expected: { diff: { changed: ['out.txt'] } } },
    { input: 'LINK: write a link', expected: { kernel: { path: 'link.cu' } } },
    { input: 'GOOD: and run it',
      expected: { kernel: { path: 'kernel.cu', run: { grid: [1], block: [32],
        args: [{ name: 'x', dtype: 'f32', count: 32, role: 'inout', init: { value: 1 } }] } } } },
  ],
};

let box, env;
// Both suites share the project; it goes when both are done.
after(() => { if (box && !process.env.KEEP) rmSync(box, { recursive: true, force: true }); });

// upskillctl --json in the project; its JSON result (or the error it printed).
function run(args, { timeout = 300000, environ = env } = {}) {
  return new Promise((done) => {
    execFile(ctl, ['--json', ...args], { cwd: join(box, 'proj'), env: environ, encoding: 'utf8', timeout,
      maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      try { done(JSON.parse(stdout)); } catch { assert.fail(`not JSON (${err}): ${stdout}\n${stderr}`); }
    });
  });
}

const transcripts = (runDir) => {
  const out = [];
  for (const m of readdirSync(join(runDir, 'transcripts')))
    for (const f of readdirSync(join(runDir, 'transcripts', m)))
      out.push(JSON.parse(readFileSync(join(runDir, 'transcripts', m, f), 'utf8')));
  return out;
};

// Is any process of group `pgid` (the group the daemon made for one script) still there after
// a few seconds? A killed member lingers until init has reaped it.
async function groupAlive(pgid, tries = 50) {
  for (let i = 0; i < tries; i++) {
    try { process.kill(-pgid, 0); } catch (e) { if (e.code === 'ESRCH') return false; }
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

describe('executable assertions: script, diff and kernel after an agent run', () => {
  before(() => {
    box = mkdtempSync(join(tmpdir(), 'upk-exec-'));
    for (const d of ['proj/skills/kernel-rules', 'home', 'tmp', 'state']) mkdirSync(join(box, d), { recursive: true });
    writeFileSync(join(box, 'proj/skills/kernel-rules/SKILL.md'), SKILL);
    writeFileSync(join(box, 'proj/tests.json'), JSON.stringify(CASES));
    writeFileSync(join(box, 'agent.sh'), AGENT);
    writeFileSync(join(box, 'proj/upskill.config.yaml'), `agents:
  writer:
    command: ["sh", "${join(box, 'agent.sh')}", "{prompt}"]
    output: text
    skillsDir: .agents/skills
`);
    env = {
      PATH: '/usr/local/bin:/usr/bin:/bin', HOME: join(box, 'home'), TMPDIR: join(box, 'tmp'),
      XDG_STATE_HOME: join(box, 'state'), ANTHROPIC_API_KEY: 'sk-must-not-reach-scripts',
      UPK_EXEC_TEST_TOKEN: 'secret', UPK_EXEC_REAL_HOME: join(box, 'home'),
      // UPK_TEST_NO_SANDBOX=1 passed on: the refusals where no sandbox can be had
      ...(process.env.UPK_TEST_NO_SANDBOX ? { UPK_TEST_NO_SANDBOX: process.env.UPK_TEST_NO_SANDBOX } : {}),
    };
    const trusted = spawnSync(ctl, ['trust', join(box, 'proj')], { env, encoding: 'utf8' });
    assert.equal(trusted.status, 0, trusted.stderr);
  });
  let result, byCase;
  const check = (c, kind) => byCase[c].assertions.find((a) => a.type === kind);

  it('judges every trial, a hanging script only failing its own', async () => {
    const t0 = Date.now();
    result = await run(['eval', 'skills/kernel-rules', '-m', 'agent:writer', '--no-baseline', '--tests', 'tests.json']);
    assert.equal(result.code, undefined, JSON.stringify(result));
    assert.equal(result.results.length, CASES.cases.length);
    assert.ok(Date.now() - t0 < 120000, 'the hanging script was stopped at its deadline');
    byCase = {};
    for (const t of transcripts(result.runDir)) byCase[t.case] = t;
    assert.equal(Object.keys(byCase).length, CASES.cases.length);
  });

  it('script: passes on the expected exit status, its output as evidence', () => {
    const s = check(0, 'script');
    assert.equal(s.status, 'pass', s.reason);
    assert.match(s.reason, /exit status 0; its output: checked-out/);
    assert.equal(check(1, 'script').status, 'pass', check(1, 'script').reason);
  });

  it('script: a hang is killed with its process group at the deadline; the trial is an error', async () => {
    const s = check(2, 'script');
    assert.equal(s.status, 'error');
    assert.match(s.reason, /ran past its deadline of 1500 ms and was killed with its process group/);
    assert.equal(result.results.find((r) => r.case === 2).verdict, 'error');
    const pgid = Number(readFileSync(join(byCase[2].agent.dir, 'workspace/hang.pgid'), 'utf8'));
    assert.ok(pgid > 1);
    assert.equal(await groupAlive(pgid), false, `process group ${pgid} is gone`);
  });

  it('script: nothing it started outlives it; no key, HOME or TMPDIR of the user reaches it', async () => {
    const s = check(3, 'script');
    assert.equal(s.status, 'pass', s.reason);
    assert.match(s.reason, /clean-env/);
    const pgid = Number(readFileSync(join(byCase[3].agent.dir, 'workspace/bg.pgid'), 'utf8'));
    assert.equal(await groupAlive(pgid), false, `the background sleep of group ${pgid} was killed`);
  });

  it('script: a missing command is one clear error', () => {
    const s = check(4, 'script');
    assert.equal(s.status, 'error');
    assert.match(s.reason, /command was not found \(exit status 127\)/);
  });

  it('diff: changed, unchanged and only against the commit the run started from', () => {
    const d = check(0, 'diff');
    assert.equal(d.status, 'pass', d.reason);
    assert.match(d.reason, /kernel\.cu/);
    assert.match(d.reason, /2 files changed/);
    assert.equal(check(1, 'diff').status, 'pass', check(1, 'diff').reason);
    // the files the agent wrote do not include the repository
    assert.deepEqual(byCase[0].agent.files, ['kernel.cu', 'out.txt']);
  });

  it('diff: a workspace that is no longer a repository is an error', () => {
    const d = check(5, 'diff');
    assert.equal(d.status, 'error');
    assert.match(d.reason, /not a git repository/);
  });

  it('kernel: the file the agent wrote compiles or not, through the kernel service', (t) => {
    const good = check(0, 'kernel'), bad = check(1, 'kernel');
    if (good.status === 'skipped') {
      assert.match(good.reason, /toolkit|nvcc/i);
      t.skip(`no CUDA toolkit: ${good.reason}`);
      return;
    }
    assert.equal(good.status, 'pass', good.reason);
    assert.match(good.reason, /compiled for sm_80: scale/);
    assert.equal(bad.status, 'fail', bad.reason);
    assert.match(bad.reason, /kernel\.cu does not compile for sm_90a: kernel\.cu:2: .*undefined_thing/);
  });

  it('kernel: a link out of the workspace is never read', () => {
    const k = check(6, 'kernel');
    assert.equal(k.status, 'error');
    assert.match(k.reason, /link\.cu was not read/);
  });

  it('kernel: run is checked on a GPU, and without one skipped with the reason, never passed', (t) => {
    const k = check(7, 'kernel');
    if (k.status === 'pass') {
      assert.match(k.reason, /compiled for sm_90a: scale .*; ran \d+ trials/);
      t.diagnostic(`ran on a GPU: ${k.reason}`);
      return;
    }
    assert.equal(k.status, 'skipped', k.reason);
    assert.match(k.reason, /toolkit|nvcc|the runtime check \(run\) was skipped: .*(device|driver)/i);
  });

  it('grading.json maps each check to an expectation with its evidence', () => {
    const m = readdirSync(result.agentSkillsDir)[0];
    const dir = join(result.agentSkillsDir, m);
    const evals = readdirSync(dir).filter((d) => d.startsWith('eval-'));
    const all = evals.flatMap((e) => {
      const f = join(dir, e, 'with_skill/run-1/grading.json');
      return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')).expectations : [];
    });
    const script = all.find((x) => /checked-out/.test(x.evidence));
    assert.ok(script && script.passed, JSON.stringify(all));
    assert.ok(all.some((x) => /^error: the script ran past its deadline/.test(x.evidence)), 'the hang');
    assert.ok(all.some((x) => x.passed && /files? changed/.test(x.evidence)), 'the diff stat');
  });
});

describe('executable assertions: cancel', () => {
  // upskillctl goes away while a script runs: the daemon, at the end of its shutdown grace
  // (30 s), cancels the evaluation, which kills the script's group long before its own deadline.
  it('a script still running when the evaluation is cancelled is killed with its group', async () => {
    const mark = join(box, 'cancel.pgid');
    writeFileSync(join(box, 'proj/cancel-tests.json'), JSON.stringify({ cases: [
      { input: 'CANCEL: nothing', expected: { script: { command: `echo $$ > ${mark}; sleep 300 & sleep 300`, timeoutMs: 600000 } } },
    ] }));
    const child = execFile(ctl, ['--json', 'eval', 'skills/kernel-rules', '-m', 'agent:writer', '--no-baseline',
      '--tests', 'cancel-tests.json'], { cwd: join(box, 'proj'), env, encoding: 'utf8' });
    const t0 = Date.now();
    while (!existsSync(mark) || !readFileSync(mark, 'utf8').trim()) {
      assert.ok(Date.now() - t0 < 60000, 'the script started');
      await new Promise((r) => setTimeout(r, 100));
    }
    const pgid = Number(readFileSync(mark, 'utf8'));
    assert.ok(await groupAlive(pgid, 10), 'the script runs until the evaluation is cancelled');
    child.kill('SIGTERM');
    let gone = false;
    for (let i = 0; i < 90 && !gone; i++) gone = !(await groupAlive(pgid, 10));
    assert.ok(gone, `process group ${pgid} was killed on cancel`);
  });
});

// The real Claude Code and Codex CLIs, driven by the scripted model server, write a kernel that
// compiles (KERNEL-GOOD) or one that does not (KERNEL-BAD); the same checks judge both agents.
const GOOD_CU = '__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n';
const BAD_CU = '__global__ void scale(float *x) {\n  x[threadIdx.x] = undefined_thing;\n}\n';
const AGENT_CASES = {
  cases: [
    { input: 'KERNEL-GOOD: kernel-rules says to put the kernel in kernel.cu',
      expected: { script: 'test -s kernel.cu && grep -q __global__ kernel.cu',
        diff: { changed: ['kernel.cu'], unchanged: ['.claude/skills/**', '.agents/skills/**'] },
        kernel: { path: 'kernel.cu', resources: { maxRegisters: 128 } } } },
    { input: 'KERNEL-BAD: kernel-rules says to put the kernel in kernel.cu',
      expected: { diff: { changed: ['**/*.cu'] }, kernel: { path: 'kernel.cu' } } },
  ],
};

describe('executable assertions on real Claude Code and Codex runs', {
  skip: missing.length ? `agent CLIs not installed (${missing.join(', ')}): tests/agents/setup.sh` : false,
}, () => {
  let srv, agentEnv;
  before(async () => {
    srv = await startAgentServer();
    srv.policy = (v) => {
      const good = /KERNEL-GOOD/.test(v.prompt ?? ''), bad = /KERNEL-BAD/.test(v.prompt ?? '');
      if ((good || bad) && !v.wrote) return { write: { path: 'kernel.cu', content: good ? GOOD_CU : BAD_CU } };
      return (good || bad) ? { text: 'kernel.cu written' } : defaultPolicy(v);
    };
    mkdirSync(join(box, 'home/.codex'), { recursive: true });
    writeFileSync(join(box, 'home/.codex/config.toml'), codexConfig(srv.url));
    writeFileSync(join(box, 'proj/agent-tests.json'), JSON.stringify(AGENT_CASES));
    agentEnv = { ...env, PATH: `${bin}:${env.PATH}`, ANTHROPIC_BASE_URL: srv.url, ANTHROPIC_API_KEY: 'sk-dummy',
      CLAUDE_CODE_MAX_RETRIES: '1' };
  });
  after(() => srv?.close());

  it('eval -m agent:claude-code -m agent:codex --runs 2: script, diff and kernel judge what each wrote', async (t) => {
    const r = await run(['eval', 'skills/kernel-rules', '-m', 'agent:claude-code', '-m', 'agent:codex', '--runs', '2',
      '--no-baseline', '--tests', 'agent-tests.json'], { environ: agentEnv });
    assert.equal(r.code, undefined, JSON.stringify(r));
    assert.equal(r.results.length, 2 * 2 * 2);
    let toolkit = true;
    for (const tr of transcripts(r.runDir)) {
      const where = `${tr.model} run ${tr.run} case ${tr.case}`;
      assert.ok(!tr.error, `${where}: ${tr.error}`);
      const by = (k) => tr.assertions.find((a) => a.type === k);
      assert.equal(by('diff').status, 'pass', `${where}: ${by('diff').reason}`);
      assert.match(by('diff').reason, /kernel\.cu/);
      if (tr.case === 0) assert.equal(by('script').status, 'pass', `${where}: ${by('script').reason}`);
      const k = by('kernel');
      if (k.status === 'skipped') { toolkit = false; assert.match(k.reason, /toolkit|nvcc/i); continue; }
      assert.equal(k.status, tr.case === 0 ? 'pass' : 'fail', `${where}: ${k.reason}`);
      if (tr.case === 1) assert.match(k.reason, /kernel\.cu:2: .*undefined_thing/);
    }
    for (const res of r.results) assert.equal(res.verdict, !toolkit ? res.verdict : res.case === 0 ? 'pass' : 'fail');
    if (!toolkit) t.diagnostic('no CUDA toolkit: the kernel checks were skipped');
  });
});

// Who may run a `script` (docs/security.md "Eval scripts"): the user's own cases may, as the
// user; the skill's own evals.json only once the user allows it (a stranger wrote them), and
// then in the sandbox; an agent's call over MCP only when upskilld's command line gives agents
// `scripts`, and then in the sandbox too. Without a sandbox those two are refused.
describe('executable assertions: who may run a script', () => {
  const mark = () => join(box, 'STRANGER_RAN');
  const secret = () => join(box, 'home/secret.txt');
  // Reads the HOME's secret, writes outside the workspace, then writes in it (its exit status).
  const hostile = () => `cat ${secret()}; touch ${mark()}; echo inside > in-ws.txt && cat in-ws.txt`;
  let sandbox;
  before(async () => {
    const dir = join(box, 'proj/skills/stranger');
    mkdirSync(join(dir, 'evals'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), SKILL.replace('name: kernel-rules', 'name: stranger'));
    writeFileSync(join(dir, 'evals/evals.json'), JSON.stringify({ skill_name: 'stranger', evals: [
      { id: 1, prompt: 'GOOD: write it', expected: { script: hostile() } }] }));
    writeFileSync(secret(), 'TOPSECRET-upk-exec\n');
    writeFileSync(join(box, 'proj/own-hostile.json'), JSON.stringify({ cases: [
      { input: 'GOOD: write it', expected: { script: hostile() } }] }));
    sandbox = (await run(['status'])).sandbox;
  });
  const scriptOf = (r) => transcripts(r.runDir)[0].assertions.find((a) => a.type === 'script');

  it("the skill's own evals.json: refused (trust/run) until --allow-scripts; nothing ran", async () => {
    rmSync(mark(), { force: true });
    const r = await run(['eval', 'skills/stranger', '-m', 'agent:writer', '--no-baseline']);
    assert.match(r.message ?? '', /1 `script` assertion in the skill's own test cases refused: .*rule trust\/run.*--allow-scripts/,
      JSON.stringify(r));
    assert.equal(r.data?.diagnostics?.[0]?.code, 'trust/run');
    assert.ok(!existsSync(mark()), 'the refused script did not run');
  });

  it("the skill's own evals.json, allowed: runs in the sandbox, the HOME's secret and the world outside unreachable", async (t) => {
    rmSync(mark(), { force: true });
    const ok = await run(['eval', 'skills/stranger', '-m', 'agent:writer', '--no-baseline', '--allow-scripts']);
    if (!sandbox?.available) {
      assert.match(ok.message ?? '', /script` assertion from the skill's own test cases refused: .*runs only in a sandbox.*bubblewrap/,
        JSON.stringify(ok));
      assert.ok(!existsSync(mark()), 'without a sandbox it did not run');
      t.skip(`no sandbox here: ${sandbox?.what}`);
      return;
    }
    assert.equal(ok.results?.[0]?.verdict, 'pass', JSON.stringify(ok).slice(0, 600));
    const s = scriptOf(ok);
    assert.match(s.reason, /inside/, 'it ran, writing in its workspace');
    assert.doesNotMatch(s.reason, /TOPSECRET/, "the HOME's secret was not read");
    assert.match(s.reason, /secret\.txt: No such file/);
    assert.ok(!existsSync(mark()), 'nothing was written outside the workspace');
  });

  it('the same script as the user\'s own case runs as the user', async () => {
    rmSync(mark(), { force: true });
    const own = await run(['eval', 'skills/kernel-rules', '-m', 'agent:writer', '--no-baseline', '--tests', 'own-hostile.json']);
    assert.equal(own.results?.[0]?.verdict, 'pass', JSON.stringify(own).slice(0, 600));
    assert.match(scriptOf(own).reason, /TOPSECRET-upk-exec[\s\S]*inside/);
    assert.ok(existsSync(mark()), 'the user\'s own script wrote where the user can');
  });

  // One MCP session on the daemon (JSON lines on stdio): initialize, then one eval_skill call.
  function mcpEval(daemonArgs, args) {
    return new Promise((done, fail) => {
      const daemon = process.env.UPSKILLD ?? join(repo, 'build/daemon/upskilld');
      const p = execFile(daemon, ['--mcp', ...daemonArgs], { cwd: join(box, 'proj'), env, maxBuffer: 64 << 20 });
      let buf = '';
      p.stdout.on('data', (d) => {
        buf += d;
        for (let i; (i = buf.indexOf('\n')) >= 0;) {
          const m = JSON.parse(buf.slice(0, i));
          buf = buf.slice(i + 1);
          if (m.id === 2) { p.stdin.end(); done(m.result); }
        }
      });
      p.on('error', fail);
      const send = (m) => p.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {},
        clientInfo: { name: 'exec-test', version: '1' } } });
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/call', params: { name: 'eval_skill', arguments: args } });
    });
  }

  it("an agent's cases over MCP: refused unless upskilld --agent-allow=scripts, then sandboxed", async () => {
    rmSync(mark(), { force: true });
    const args = { skill: join(box, 'proj/skills/kernel-rules'), models: ['agent:writer'], baseline: false,
      cases: [{ input: 'GOOD: write it', expected: { script: hostile() } }] };
    const no = await mcpEval([], args);
    assert.equal(no.isError, true, JSON.stringify(no));
    assert.match(no.content[0].text, /`script` assertion in the cases refused: .*rule trust\/run.*--agent-allow=scripts/);
    assert.ok(!existsSync(mark()), 'the refused script did not run');
    const yes = await mcpEval(['--agent-allow=scripts'], args);
    if (!sandbox?.available) {
      assert.equal(yes.isError, true, JSON.stringify(yes));
      assert.match(yes.content[0].text, /from an agent's call refused: .*runs only in a sandbox/);
    } else {
      assert.equal(yes.isError, undefined, JSON.stringify(yes).slice(0, 600));
      assert.equal(yes.structuredContent.results[0].verdict, 'pass');
    }
    assert.ok(!existsSync(mark()), 'allowed by the user, it ran in the sandbox: nothing written outside');
  });
});

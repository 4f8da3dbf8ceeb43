// The real agent CLIs as MCP clients of upskilld (issue 49), set up the way docs/agents.md tells
// their users: Claude Code with `claude mcp add` and `--allowedTools mcp__upskilld`, Codex with
// `[mcp_servers.upskilld]` in config.toml, Gemini CLI (when installed) with `mcpServers` in
// settings.json, `trust: true`. Each is pointed at the scripted model server on
// loopback, whose script finds upskilld's tools through the agent's own tool search (Gemini CLI
// offers them all at once), calls
// find_skill and validate_kernel, then a wrongly typed argument, an unknown tool and a huge source
// (each must come back as a tool error) and find_skill again (the same server still answers). What
// upskilld answered is read from the next request the agent sent the model.
//
// Two runs of each agent share one worker server (Codex puts a fresh directory in front of PATH on
// every run); with the server off, nothing the test started is left once the agent exits. The
// test's processes are told apart by a marker in their environment and a runtime dir of its own.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { codexConfig, startAgentServer } from './agent_server.mjs';

const repo = resolve(import.meta.dirname, '../..');
const bin = join(process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm'), 'agents/node_modules/.bin');
const upskilld = process.env.UPSKILLD ?? join(repo, 'build/daemon/upskilld');
const missing = ['claude', 'codex'].filter((c) => !existsSync(join(bin, c)));
const cuda = process.env.CUDA_PATH || '/usr/local/cuda';
// Gemini CLI is optional (tests/agents/setup.sh installs it; UPK_GEMINI names another copy).
const geminiBin = process.env.UPK_GEMINI ?? join(bin, 'gemini');
const agents = ['claude', 'codex', ...(existsSync(geminiBin) ? ['gemini'] : [])];
const skip = missing.length ? `agent CLIs not installed (${missing.join(', ')}): tests/agents/setup.sh` : false;
const noToolkit = existsSync(join(cuda, 'include/nvrtc.h')) ? false : `no CUDA toolkit at ${cuda}`;

const SAXPY = 'extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) '
  + '{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }';
const HUGE = 'x'.repeat((16 << 20) + 1); // over validate_kernel's 16 MiB cap on inline source

let srv, box, marker;

// Every process of this test's (upskilld, its workers, a worker server) carries UPK_MCPC_MARK.
function markedPids() {
  const out = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    let env;
    try { env = readFileSync(`/proc/${p}/environ`, 'latin1'); } catch { continue; }
    if (env.split('\0').includes(`UPK_MCPC_MARK=${marker}`)) out.push(Number(p));
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The script: one action per tool result so far. Names differ per agent (Claude: mcp__upskilld__X
// after ToolSearch; Codex: X in the namespace mcp__upskilld after tool_search).
// Gemini CLI offers every tool at once (mcp_upskilld_X): no search step.
function steps(api, { huge = true, status = false } = {}) {
  const call = (name, input) => (api === 'anthropic' ? { tool: { name: `mcp__upskilld__${name}`, input } }
    : api === 'gemini' ? { tool: { name: `mcp_upskilld_${name}`, input } }
      : { tool: { namespace: 'mcp__upskilld', name, input } });
  const search = api === 'anthropic'
    ? { tool: { name: 'ToolSearch', input: { query: 'select:mcp__upskilld__find_skill,mcp__upskilld__validate_kernel,mcp__upskilld__status', max_results: 5 } } }
    : { toolSearch: { query: 'find_skill validate_kernel status', limit: 20 } };
  const s = [...(api === 'gemini' ? [] : [search]),
    call('find_skill', { task: 'write a CUDA kernel for H100' }),
    call('validate_kernel', { source: SAXPY, cache: false }),
    call('find_skill', { task: 42 }),
    call('no_such_tool', {}),
    ...(huge ? [call('validate_kernel', { source: HUGE })] : []),
    call('find_skill', { task: 'debug an illegal memory access in a CUDA kernel' }),
    ...(status ? [call('status', {})] : [])];
  return s;
}

function policyFor(script) {
  return (v) => script[v.toolResults.length] ?? { text: 'done' };
}

// Run an agent to its exit in a process group of its own; its stdout, stderr, status, pgid.
function runAgent(cmd, args, opts) {
  return new Promise((done) => {
    const c = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    c.stdout.on('data', (d) => { out += d; });
    c.stderr.on('data', (d) => { err += d; });
    const t = setTimeout(() => { try { process.kill(-c.pid, 'SIGKILL'); } catch { /* gone */ } }, 240000);
    c.on('close', (status) => { clearTimeout(t); done({ status, out, err, pgid: c.pid }); });
  });
}

// The environment upskilld gets from the agent's MCP configuration.
// TMPDIR is part of the worker server's key (its workers' compiles write there): the agents get
// one of their own per run, the server one for all.
// Each agent's runs get a runtime dir (so a worker server) of their own.
const serverEnv = (idle, agent) => ({ XDG_RUNTIME_DIR: runtimeDir(agent), TMPDIR: join(box, 'tmp'), UPSKILLD_WORKER_SERVER_IDLE: String(idle),
  CUDA_PATH: cuda, UPK_MCPC_MARK: marker });

async function claude(name, idle, script) {
  const dir = join(box, name);
  for (const d of ['ws', 'home', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp'),
    ANTHROPIC_BASE_URL: srv.url, ANTHROPIC_API_KEY: 'sk-dummy', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_MAX_RETRIES: '1' };
  const add = await runAgent(join(bin, 'claude'), ['mcp', 'add', 'upskilld', '--scope', 'user',
    ...Object.entries(serverEnv(idle, idle ? 'claude' : 'off')).flatMap(([k, v]) => ['-e', `${k}=${v}`]), '--', upskilld, '--mcp'],
  { cwd: join(dir, 'ws'), env });
  assert.equal(add.status, 0, `claude mcp add: ${add.out}${add.err}`);
  srv.policy = policyFor(script);
  const from = srv.requests.length;
  const r = await runAgent(join(bin, 'claude'), ['-p', `${name}: use upskilld`, '--output-format', 'json',
    '--allowedTools', 'mcp__upskilld'], { cwd: join(dir, 'ws'), env });
  return { ...r, requests: srv.requests.slice(from).filter((q) => q.view) };
}

async function codex(name, idle, script, { approve = true } = {}) {
  const dir = join(box, name);
  for (const d of ['ws', 'home', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  const envToml = Object.entries(serverEnv(idle, idle ? 'codex' : 'off')).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ');
  writeFileSync(join(dir, 'home', 'config.toml'), `${codexConfig(srv.url)}
[mcp_servers.upskilld]
command = ${JSON.stringify(upskilld)}
args = ["--mcp"]
${approve ? 'default_tools_approval_mode = "approve"\n' : ''}env = { ${envToml} }
`);
  srv.policy = policyFor(script);
  const from = srv.requests.length;
  const r = await runAgent(join(bin, 'codex'), ['exec', '--json', '--skip-git-repo-check', `${name}: use upskilld`],
    { cwd: join(dir, 'ws'), env: { PATH: process.env.PATH, HOME: join(dir, 'home'), CODEX_HOME: join(dir, 'home'),
      TMPDIR: join(dir, 'tmp') } });
  return { ...r, requests: srv.requests.slice(from).filter((q) => q.view) };
}

async function gemini(name, idle, script) {
  const dir = join(box, name);
  for (const d of ['ws', 'home/.gemini', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'home/.gemini/settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' } },
    mcpServers: { upskilld: { command: upskilld, args: ['--mcp'], trust: true, env: serverEnv(idle, idle ? 'gemini' : 'off') } } }));
  writeFileSync(join(dir, 'home/.gemini/trustedFolders.json'), JSON.stringify({ [join(dir, 'ws')]: 'TRUST_FOLDER' }));
  srv.policy = policyFor(script);
  const from = srv.requests.length;
  const r = await runAgent(geminiBin, ['-p', `${name}: use upskilld`, '--output-format', 'json'], { cwd: join(dir, 'ws'),
    env: { PATH: process.env.PATH, HOME: join(dir, 'home'), TMPDIR: join(dir, 'tmp'), GEMINI_API_KEY: 'dummy',
      GOOGLE_GEMINI_BASE_URL: srv.url } });
  return { ...r, requests: srv.requests.slice(from).filter((q) => q.view) };
}

const RUNNERS = { claude, codex, gemini };
const API = { claude: 'anthropic', codex: 'responses', gemini: 'gemini' };

// The tool results the model saw, in order (the last request holds them all).
const resultsOf = (run) => run.requests.at(-1)?.view.toolResults ?? [];
// Gemini CLI wraps a result in <untrusted_context>.
const parse = (s) => { try { return JSON.parse(s.replace(/^\s*<untrusted_context>|<\/untrusted_context>\s*$/g, '')); } catch { return null; } };
// Codex wraps an MCP result; Claude hands over its text. Either way the JSON upskilld answered.
const payload = (r) => {
  const j = parse(r.output);
  return j?.structuredContent ?? j?.Ok?.structuredContent ?? j;
};

function checkRun(run, label, { huge = true } = {}) {
  assert.equal(run.status, 0, `${label} exited ${run.status}: ${run.out.slice(-2000)}${run.err.slice(-2000)}`);
  const all = resultsOf(run);
  const searched = run.requests[0]?.view.api !== 'gemini';
  assert.ok(all.length >= (huge ? 6 : 5) + searched, `${label}: the model saw ${all.map((r) => r.name).join(', ')}`);
  if (searched) {
    // Codex returns the tools found as the search's output; Claude adds them to the next request's tools.
    const offered = all[0].output + JSON.stringify(run.requests.slice(1).map((q) => (q.body.tools ?? []).map((t) => t.name)));
    assert.match(offered, /find_skill/, `${label}: tool search did not offer find_skill`);
    assert.match(offered, /validate_kernel/, `${label}: tool search did not offer validate_kernel`);
  }
  const res = all.slice(searched ? 1 : 0);
  const [found, checked, badType, unknown] = res;
  const f = payload(found);
  assert.ok(Array.isArray(f?.results) && f.results.some((s) => s.name === 'h100-cuda-kernels'),
    `${label}: find_skill's answer did not reach the model: ${found.output.slice(0, 500)}`);
  const k = payload(checked);
  assert.equal(k?.ok, true, `${label}: validate_kernel: ${checked.output.slice(0, 800)}`);
  assert.ok(k.kernels?.[0]?.registers > 0, `${label}: no registers in ${checked.output.slice(0, 500)}`);
  // upskilld's message, or Gemini CLI's own (it checks arguments against the schema first).
  assert.match(badType.output, /params[./]task(: expected| must be) string/, `${label}: a wrongly typed argument: ${badType.output.slice(0, 300)}`);
  assert.notEqual(badType.is_error, false, `${label}: a wrongly typed argument is not marked an error`);
  assert.ok(/no_such_tool|not found|unknown tool|No such tool/i.test(unknown.output) && unknown.is_error !== false,
    `${label}: an unknown tool: ${unknown.output.slice(0, 300)}`);
  let next = 4;
  if (huge) {
    const h = res[next++];
    // Not a protocol error: validate_kernel's own answer, ok false with one diagnostic.
    assert.match(h.output, /kernel\/source-too-large[\s\S]*over the 16 MB limit/, `${label}: a huge source: ${h.output.slice(0, 300)}`);
  }
  const again = payload(res[next]);
  assert.ok(Array.isArray(again?.results) && again.results.length > 0,
    `${label}: the server did not answer after the bad calls: ${res[next]?.output.slice(0, 300)}`);
  return { k, status: res[next + 1] ? payload(res[next + 1]) : null };
}

function runtimeDir(agent) {
  const d = join(box, `run-${agent}`);
  mkdirSync(d, { mode: 0o700, recursive: true });
  return d;
}

const sockets = (agent) => (existsSync(join(runtimeDir(agent), 'upskilld'))
  ? readdirSync(join(runtimeDir(agent), 'upskilld')).filter((n) => /^workers-.*\.sock$/.test(n)) : []);

describe('agents as MCP clients: real Claude Code, Codex (and Gemini CLI) call upskilld', { skip: skip || noToolkit }, () => {
  before(async () => {
    box = mkdtempSync(join(tmpdir(), 'upk-mcpc-'));
    marker = box;
    mkdirSync(join(box, 'tmp'), { mode: 0o700 });
    srv = await startAgentServer({});
  });
  after(async () => {
    for (const pid of markedPids()) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    await srv?.close();
    if (box) rmSync(box, { recursive: true, force: true });
  });

  for (const agent of agents) {
    it(`${agent}: two runs find and check through tool search, bad calls are tool errors, one worker server`, async () => {
      const go = RUNNERS[agent];
      const api = API[agent];
      // The server's idle time outlasts both runs however slow the machine (after() kills it).
      const first = await go(`${agent}-1`, 600, steps(api));
      const a = checkRun(first, `${agent} run 1`);
      const second = await go(`${agent}-2`, 600, steps(api, { huge: false, status: true }));
      const b = checkRun(second, `${agent} run 2`, { huge: false });
      assert.equal(sockets(agent).length, 1, `${agent}: not one worker server for both runs: ${sockets(agent).join(', ')}`);
      const w = b.status?.kernels?.workers;
      assert.ok(w?.fromServer >= 1, `${agent} run 2 took no worker from the server: ${JSON.stringify(w)}`);
      assert.equal(w.serverSocket, join(runtimeDir(agent), 'upskilld', sockets(agent)[0]), `${agent}: another socket`);
      const ms = (k) => `${Math.round(k.elapsedMs)} ms (compile ${Math.round(k.compileMs)} ms)`;
      console.log(`# ${agent}: validate_kernel, run 1 (no server yet) ${ms(a.k)}, run 2 (the server's warm worker) ${ms(b.k)}`);
    });
  }

  // Codex set up with no approval at all (headless `codex exec` runs with approval policy never):
  // the read-only tools (annotated readOnlyHint) run, and only the one that runs code asks.
  it('codex: listing, finding and compiling need no approval; running a kernel does', async () => {
    const call = (name, input) => ({ tool: { namespace: 'mcp__upskilld', name, input } });
    const run = await codex('codex-noapprove', 0, [
      { toolSearch: { query: 'list_skills find_skill validate_kernel run_kernel', limit: 20 } },
      call('list_skills', {}),
      call('find_skill', { task: 'write a CUDA kernel for H100' }),
      call('validate_kernel', { source: SAXPY, cache: false }),
      call('run_kernel', { source: SAXPY, run: { kernel: 'saxpy', grid: [1], block: [32], args: [] } }),
    ], { approve: false });
    assert.equal(run.status, 0, `codex exited ${run.status}: ${run.out.slice(-2000)}${run.err.slice(-2000)}`);
    const [, listed, found, checked, ran] = resultsOf(run);
    assert.ok(payload(listed)?.total > 0, `list_skills: ${listed?.output.slice(0, 500)}`);
    assert.ok(payload(found)?.results?.some((s) => s.name === 'h100-cuda-kernels'), `find_skill: ${found?.output.slice(0, 500)}`);
    assert.equal(payload(checked)?.ok, true, `validate_kernel: ${checked?.output.slice(0, 500)}`);
    assert.match(ran?.output ?? '', /requires approval/, `run_kernel ran without approval: ${ran?.output.slice(0, 500)}`);
  });

  for (const agent of agents) {
    it(`${agent}: with the worker server off, nothing of upskilld outlives the agent`, async () => {
      const go = RUNNERS[agent];
      const api = API[agent];
      const live = new Set(markedPids()); // the shared server of the test above
      const run = await go(`${agent}-off`, 0, steps(api, { huge: false }));
      checkRun(run, `${agent} (no server)`, { huge: false });
      let left = [];
      for (let i = 0; i < 50; i++) {
        left = markedPids().filter((p) => !live.has(p));
        if (!left.length) break;
        await sleep(100);
      }
      assert.deepEqual(left, [], `${agent}: processes left: ${left.map((p) => readFileSync(`/proc/${p}/cmdline`, 'latin1')).join(' | ')}`);
      // And nothing else in the agent's process group (upskilld and its local workers stay there).
      const groupAlive = () => { try { process.kill(-run.pgid, 0); return true; } catch (e) { return e.code !== 'ESRCH'; } };
      for (let i = 0; i < 50 && groupAlive(); i++) await sleep(100);
      const inGroup = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
        try { return readFileSync(`/proc/${p}/stat`, 'latin1').replace(/^.*\) /, '').split(' ')[2] === String(run.pgid); } catch { return false; }
      }).map((p) => { try { return readFileSync(`/proc/${p}/cmdline`, 'latin1').replace(/\0/g, ' '); } catch { return p; } });
      assert.deepEqual(inGroup, [], `${agent}: its process group is still alive`);
    });
  }
});

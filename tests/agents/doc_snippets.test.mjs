// The set-up snippets of README.md and docs/agents.md, as a user copies them: each
// `claude|codex|gemini mcp add` line is run by the real CLI (pinned in tests/agents/setup.sh) in a
// home of its own, with `upskilld` on PATH being this build's daemon (and `/path/to/upskilld` its
// path); the CLI's own `mcp list` must then show the server (Claude Code's connects to it). Each
// JSON and TOML block must parse, name a server `upskilld`, and the command it names must answer
// an MCP initialize and tools/list with find_skill; the TOML block must also be accepted by the
// real Codex as its config.toml. A snippet that is wrong, or a new one of a kind this test cannot
// run, fails here.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';

const repo = resolve(import.meta.dirname, '../..');
const bin = join(process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm'), 'agents/node_modules/.bin');
const upskilld = resolve(process.env.UPSKILLD ?? join(repo, 'build/daemon/upskilld'));
const missing = ['claude', 'codex'].filter((c) => !existsSync(join(bin, c)));
const skip = missing.length ? `agent CLIs not installed (${missing.join(', ')}): tests/agents/setup.sh` : false;
const DOCS = ['README.md', 'docs/agents.md'];

// Every fenced block of a document: { doc, line, lang, text }.
function blocks(doc) {
  const out = [];
  const lines = readFileSync(join(repo, doc), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(\w*)\s*$/.exec(lines[i]);
    if (!m || !m[1]) continue;
    const start = i + 1;
    while (++i < lines.length && !/^```\s*$/.test(lines[i]));
    out.push({ doc, line: start, lang: m[1], text: lines.slice(start, i).join('\n') });
  }
  return out;
}

// Each `X mcp add ...` command of the sh blocks and of the inline code spans, its comment cut.
function addCommands(doc) {
  const text = readFileSync(join(repo, doc), 'utf8');
  const found = [];
  for (const b of blocks(doc).filter((x) => x.lang === 'sh')) {
    for (const l of b.text.split('\n')) {
      const cmd = l.replace(/\s+#.*$/, '').trim();
      if (/^(claude|codex|gemini) mcp add /.test(cmd)) found.push({ doc, cmd });
    }
  }
  // Inline spans too, but not prose that elides arguments ("claude mcp add ... -e").
  for (const m of text.matchAll(/`((?:claude|codex|gemini) mcp add [^`]+)`/g)) {
    if (!m[1].includes('...')) found.push({ doc, cmd: m[1] });
  }
  return found;
}

let box, pathDir;
const sub = (s) => s.replaceAll('/path/to/upskilld', upskilld);

function home(name) {
  const h = join(box, name);
  mkdirSync(join(h, 'ws'), { recursive: true });
  return { h, env: { PATH: `${pathDir}:${process.env.PATH}`, HOME: h, CODEX_HOME: h, TMPDIR: box,
    DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } };
}

function cli(name, args, env, cwd) {
  const r = spawnSync(join(bin, name), args, { env, cwd, encoding: 'utf8', timeout: 60000 });
  return { status: r.status, stdout: r.stdout ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

// MCP over stdio, as a client does it: initialize, initialized, tools/list; the tool names.
function mcpTools(command, args, env) {
  return new Promise((done, fail) => {
    const c = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '', err = '';
    const t = setTimeout(() => { c.kill('SIGKILL'); fail(new Error(`no tools/list answer in 20 s: ${err}`)); }, 20000);
    c.stderr.on('data', (d) => { err += d; });
    c.on('error', (e) => { clearTimeout(t); fail(e); });
    c.on('close', (code) => { clearTimeout(t); fail(new Error(`exited (${code}) before answering: ${err}`)); });
    c.stdout.on('data', (d) => {
      buf += d;
      for (let nl; (nl = buf.indexOf('\n')) >= 0;) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.id === 2) {
          clearTimeout(t);
          c.stdin.end();
          done((msg.result?.tools ?? []).map((x) => x.name));
        }
      }
    });
    const send = (m) => c.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {},
      clientInfo: { name: 'doc-snippets', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  });
}

// The server entry of a parsed config, whichever client's shape it has: [command, args].
function serverOf(cfg) {
  const s = cfg.mcpServers?.upskilld ?? cfg.servers?.upskilld ?? cfg.mcp?.upskilld ?? cfg.mcp_servers?.upskilld;
  assert.ok(s, 'no server named upskilld');
  if (Array.isArray(s.command)) return [s.command[0], s.command.slice(1)];
  return [s.command, s.args ?? []];
}

describe('the docs\' agent set-up snippets, as written', { skip }, () => {
  before(() => {
    box = mkdtempSync(join(tmpdir(), 'upk-docsnip-'));
    pathDir = join(box, 'bin');
    mkdirSync(pathDir);
    symlinkSync(upskilld, join(pathDir, 'upskilld'));
  });
  after(() => rmSync(box, { recursive: true, force: true }));

  const adds = DOCS.flatMap(addCommands);
  it('the docs show a `claude mcp add` and a `codex mcp add`', () => {
    for (const agent of ['claude', 'codex']) {
      assert.ok(adds.some((a) => a.cmd.startsWith(`${agent} `)), `no "${agent} mcp add" in ${DOCS.join(', ')}`);
    }
  });

  adds.forEach((a, i) => {
    const agent = a.cmd.split(' ')[0];
    const gemini = agent === 'gemini' && !existsSync(join(bin, 'gemini')) ? 'Gemini CLI not installed' : false;
    it(`${a.doc}: ${a.cmd}`, { skip: gemini }, () => {
      const { h, env } = home(`add${i}`);
      const words = sub(a.cmd).split(/\s+/).slice(1);
      const add = cli(agent, words, env, join(h, 'ws'));
      assert.equal(add.status, 0, `${a.cmd}: ${add.out}`);
      if (agent === 'claude') {
        const list = cli('claude', ['mcp', 'list'], env, join(h, 'ws'));
        assert.match(list.out, /upskilld: .*Connected/, `claude mcp list: ${list.out}`);
      } else if (agent === 'codex') {
        const list = cli('codex', ['mcp', 'list', '--json'], env, join(h, 'ws'));
        const s = JSON.parse(list.stdout).find((x) => x.name === 'upskilld');
        assert.ok(s?.enabled, `codex mcp list: ${list.out}`);
        assert.deepEqual(s.transport.args, ['--mcp']);
      } else {
        const list = cli('gemini', ['mcp', 'list'], env, join(h, 'ws'));
        assert.match(list.out, /upskilld/, `gemini mcp list: ${list.out}`);
      }
    });
  });

  const configs = DOCS.flatMap(blocks).filter((b) => b.lang === 'json' || b.lang === 'toml');
  it('the docs show the JSON and TOML configuration blocks', () => {
    assert.ok(configs.some((b) => b.lang === 'toml'), 'no TOML block');
    assert.ok(configs.filter((b) => b.lang === 'json').length >= 3, 'fewer than three JSON blocks');
  });

  configs.forEach((b, i) => {
    it(`${b.doc}:${b.line}: the ${b.lang} block starts upskilld, which answers tools/list`, async () => {
      const { h, env } = home(`cfg${i}`);
      let cfg;
      if (b.lang === 'json') {
        cfg = JSON.parse(sub(b.text));
      } else {
        // Codex is the TOML client: its own parser and `mcp list` accept the block as config.toml.
        writeFileSync(join(h, 'config.toml'), sub(b.text));
        const list = cli('codex', ['mcp', 'list', '--json'], env, join(h, 'ws'));
        assert.equal(list.status, 0, `codex rejects the block: ${list.out}`);
        cfg = { mcp_servers: Object.fromEntries(JSON.parse(list.stdout)
          .map((x) => [x.name, x.transport])) };
      }
      const [command, args] = serverOf(cfg);
      assert.equal(command, upskilld, 'the command is not the upskilld path');
      const tools = await mcpTools(command, args, { ...env, XDG_RUNTIME_DIR: h });
      assert.ok(tools.includes('find_skill'), `tools/list: ${tools.join(', ')}`);
    });
  });
});

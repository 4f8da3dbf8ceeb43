// MCP 2026-07-28 and the Skills extension (SEP-2640), driven by the official v2 client
// (@modelcontextprotocol/client 2.4.0) over stdio: pinned to 2026-07-28, in auto mode and in
// its default legacy mode; its SkillsClient lists every skill and reads and verifies every
// file (size, sha256, frontmatter). Then the wire itself, as raw JSON lines: discover's shape,
// -32022, the methods 2026-07-28 removed, 2024-11-05, not-found codes in each era.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { daemon, requireFromCache, within } from './common.mjs';

const req = requireFromCache('@modelcontextprotocol/client');
const { Client } = req('@modelcontextprotocol/client');
const { StdioClientTransport } = req('@modelcontextprotocol/client/stdio');
const { SkillsClient } = req('@modelcontextprotocol/client/ext/skills');

// A workspace with project skills (one with references/, a script and binary bytes), a user
// skill, a user copy of a project skill's name (shadowed), and one that breaks the
// extension's rules (not listed).
const ws = mkdtempSync(join(tmpdir(), 'upk-mcp2026-'));
const home = join(ws, 'home');
function skill(dir, name, extra = '', files = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Use for ${name} work.\n${extra}---\n# ${name}\n\nBody.\n`);
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), data);
  }
}
skill(join(ws, '.claude/skills/pdf-forms'), 'pdf-forms',
  'license: MIT\nmetadata:\n  version: "1.2"\n  author: upskilld\nallowed-tools: [Read, Bash]\n',
  { 'references/FORMS.md': '# Forms\n', 'scripts/fill.sh': '#!/bin/sh\necho fill\n',
    'assets/logo.bin': Buffer.from([0, 255, 1, 254, 0x89, 0x50]) });
skill(join(ws, '.agents/skills/k8s-rollout'), 'k8s-rollout', 'compatibility: kubectl 1.30\n');
skill(join(home, '.claude/skills/pdf-forms'), 'pdf-forms');
skill(join(home, '.claude/skills/user-notes'), 'user-notes', 'retries: 3\nratio: 0.5\nflag: true\n');
skill(join(ws, '.claude/skills/Bad_Name'), 'Bad_Name');
const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(ws, 'cache') };
after(() => rmSync(ws, { recursive: true, force: true }));

const modes = {
  pinned: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  auto: { versionNegotiation: { mode: 'auto' } },
  legacy: {},
};
const expected = { pinned: '2026-07-28', auto: '2026-07-28', legacy: '2025-11-25' };

for (const [mode, options] of Object.entries(modes)) {
  describe(`v2 client, ${mode}`, () => {
    let client;
    before(async () => {
      client = new Client({ name: 'upskilld-conformance', version: '2.4.0' }, options);
      const transport = new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: ws, stderr: 'inherit' });
      await within(10000, client.connect(transport), 'connect');
    });
    after(() => client.close());

    test('negotiates the revision', () => {
      assert.equal(client.getNegotiatedProtocolVersion(), expected[mode]);
      assert.equal(client.getServerVersion().name, 'upskilld');
    });

    test('tools: listed in a stable order, a call answers', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      assert.deepEqual(names, [...names].sort(), 'tools/list is sorted by name');
      assert.ok(names.includes('find_skill'));
      const r = await within(10000, client.callTool({ name: 'status', arguments: {} }), 'status');
      assert.notEqual(r.isError, true, JSON.stringify(r));
      assert.equal(r.structuredContent.name, 'upskilld');
    });

    test('SkillsClient lists every skill and verifies every file', async () => {
      const skills = new SkillsClient(client);
      assert.equal(skills.supported, true);
      assert.equal(skills.directoryRead, true);
      const { skills: list, invalid } = await within(60000, skills.list(), 'skills/list');
      assert.deepEqual(invalid, []);
      const uris = list.map((s) => s.uri);
      for (const want of ['skill://project/.claude/skills/pdf-forms/SKILL.md',
        'skill://project/.agents/skills/k8s-rollout/SKILL.md',
        'skill://user/.claude/skills/pdf-forms/SKILL.md',
        'skill://user/.claude/skills/user-notes/SKILL.md'])
        assert.ok(uris.includes(want), `${want} missing from ${uris}`);
      assert.ok(uris.some((u) => u.startsWith('skill://builtin/')), 'built-in skills are listed');
      assert.ok(!uris.some((u) => u.includes('Bad_Name')), 'a skill breaking the rules is left out');
      assert.equal(new Set(uris).size, uris.length, 'one entry per skill directory');
      const shadowed = list.find((s) => s.uri === 'skill://user/.claude/skills/pdf-forms/SKILL.md');
      assert.equal(shadowed._meta['dev.upskilld/shadowed'], true);
      let files = 0;
      for (const s of list)
        for (const r of s.resources) {
          const f = await skills.read(s, r.uri);
          assert.equal(f.verified, true);
          files++;
        }
      const pdf = list.find((s) => s.uri.startsWith('skill://project/.claude/skills/pdf-forms/'));
      assert.deepEqual(pdf.resources.map((r) => r.uri.slice(pdf.uri.length - 'SKILL.md'.length)).sort(),
        ['SKILL.md', 'assets/logo.bin', 'references/FORMS.md', 'scripts/fill.sh']);
      assert.deepEqual(pdf.frontmatter.metadata, { version: '1.2', author: 'upskilld' });
      assert.deepEqual(pdf.frontmatter['allowed-tools'], ['Read', 'Bash']);
      const notes = list.find((s) => s.uri.includes('user-notes'));
      assert.deepEqual([notes.frontmatter.retries, notes.frontmatter.ratio, notes.frontmatter.flag], [3, 0.5, true]);
      const blob = await skills.read(pdf, 'assets/logo.bin');
      assert.deepEqual([...blob.bytes], [0, 255, 1, 254, 0x89, 0x50]);
      const md = await skills.read(pdf);
      assert.match(md.body, /# pdf-forms/);
      assert.ok(files >= 8, `only ${files} files verified`);
    });

    test('skills/get and resources/directory/read', async () => {
      const skills = new SkillsClient(client);
      const uri = 'skill://project/.claude/skills/pdf-forms/SKILL.md';
      const { skill } = await skills.get(uri);
      assert.equal(skill.uri, uri);
      const { resources } = await skills.readDirectory('skill://project/.claude/skills/pdf-forms');
      assert.deepEqual(resources.map((r) => r.name), ['SKILL.md', 'assets', 'references', 'scripts']);
      assert.equal(resources.find((r) => r.name === 'references').mimeType, 'inode/directory');
    });
  });
}

test('a skill changed on disk has its new digest at once', async () => {
  const client = new Client({ name: 'upskilld-conformance', version: '2.4.0' }, modes.pinned);
  await client.connect(new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: ws, stderr: 'inherit' }));
  try {
    const skills = new SkillsClient(client);
    const uri = 'skill://project/.agents/skills/k8s-rollout/SKILL.md';
    const before = (await skills.get(uri)).skill;
    writeFileSync(join(ws, '.agents/skills/k8s-rollout/NOTES.md'), 'new file\n');
    const after = (await skills.get(uri)).skill;
    assert.equal(after.resources.length, before.resources.length + 1);
    const f = await skills.read(after, 'NOTES.md');
    assert.equal(new TextDecoder().decode(f.bytes), 'new file\n');
  } finally {
    await client.close();
  }
});

// ---- the wire, line by line ----

function rawDaemon() {
  const child = spawn(daemon, ['--mcp'], { env, cwd: ws, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    waiting.get(msg.id)?.(msg);
  });
  let next = 1;
  return {
    ask(method, params) {
      const id = next++;
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) }) + '\n');
      return within(30000, new Promise((ok) => waiting.set(id, ok)), method);
    },
    close() { child.stdin.end(); },
  };
}
const meta = (v) => ({ _meta: { 'io.modelcontextprotocol/protocolVersion': v,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {} } });

describe('raw 2026-07-28 wire', () => {
  let d;
  before(() => { d = rawDaemon(); });
  after(() => d.close());

  test('server/discover: versions, capabilities with the extension, cache fields, serverInfo', async () => {
    const { result } = await d.ask('server/discover', meta('2026-07-28'));
    assert.deepEqual(result.supportedVersions, ['2026-07-28']);
    assert.equal(result.resultType, 'complete');
    assert.equal(typeof result.ttlMs, 'number');
    assert.equal(result.cacheScope, 'private');
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'upskilld');
    assert.deepEqual(result.capabilities.extensions['io.modelcontextprotocol/skills'], { directoryRead: true });
    assert.equal(result.capabilities.logging, undefined, 'logging/setLevel is gone in 2026-07-28');
  });

  test('an unknown revision is -32022 naming the supported ones', async () => {
    const { error } = await d.ask('tools/list', meta('2099-01-01'));
    assert.equal(error.code, -32022);
    assert.deepEqual(error.data, { supported: ['2026-07-28'], requested: '2099-01-01' });
  });

  test('ping and logging/setLevel are not methods of 2026-07-28', async () => {
    assert.equal((await d.ask('ping', meta('2026-07-28'))).error.code, -32601);
    assert.equal((await d.ask('logging/setLevel', { level: 'info', ...meta('2026-07-28') })).error.code, -32601);
  });

  test('results carry resultType; lists and reads the cache fields', async () => {
    const tools = (await d.ask('tools/list', meta('2026-07-28'))).result;
    assert.equal(tools.resultType, 'complete');
    assert.ok(tools.ttlMs > 0);
    const call = (await d.ask('tools/call', { name: 'status', arguments: {}, ...meta('2026-07-28') })).result;
    assert.equal(call.resultType, 'complete');
    assert.equal(call.ttlMs, undefined, 'a tool call is not cacheable');
    const page = (await d.ask('skills/list', meta('2026-07-28'))).result;
    assert.equal(page.ttlMs, 0);
    assert.ok(page.skills.length >= 4);
  });

  test('large files are read whole up to 16 MiB; past it, a clear error', async () => {
    const dir = join(ws, '.agents/skills/big-data');
    skill(dir, 'big-data', '', { 'data/two.txt': 'x'.repeat(2 << 20), 'data/huge.txt': 'y'.repeat(17 << 20) });
    const base = 'skill://project/.agents/skills/big-data';
    for (let i = 0; i < 100; i++) { // the live watch indexes the new skill (a 40 ms debounce)
      if ((await d.ask('resources/read', { uri: `${base}/SKILL.md`, ...meta('2026-07-28') })).result) break;
      await new Promise((ok) => setTimeout(ok, 50));
    }
    const two = await d.ask('resources/read', { uri: `${base}/data/two.txt`, ...meta('2026-07-28') });
    assert.equal(two.result.contents[0].text.length, 2 << 20, 'the old 1 MiB cap is gone');
    const huge = await d.ask('resources/read', { uri: `${base}/data/huge.txt`, ...meta('2026-07-28') });
    assert.match(huge.error.message, /larger than the 16 MiB a resource read returns whole/);
    assert.equal(huge.error.data.limit, 16 << 20);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a missing resource is -32602 in 2026-07-28', async () => {
    const { error } = await d.ask('resources/read', { uri: 'skill://project/nope/SKILL.md', ...meta('2026-07-28') });
    assert.equal(error.code, -32602);
    assert.equal(error.data.uri, 'skill://project/nope/SKILL.md');
    const bad = await d.ask('skills/list', { cursor: 'garbage', ...meta('2026-07-28') });
    assert.equal(bad.error.code, -32602);
  });
});

describe('raw legacy wire', () => {
  test('a 2024-11-05 client is answered 2024-11-05; not found is -32002 there', async () => {
    const d = rawDaemon();
    try {
      const init = await d.ask('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '0' } });
      assert.equal(init.result.protocolVersion, '2024-11-05');
      assert.equal(init.result.resultType, undefined, 'legacy results keep their shape');
      assert.deepEqual((await d.ask('ping')).result, {});
      const { error } = await d.ask('resources/read', { uri: 'skill://project/nope/SKILL.md' });
      assert.equal(error.code, -32002);
      const legacy = await d.ask('resources/read', { uri: 'skill://k8s-rollout/SKILL.md' });
      assert.match(legacy.result.contents[0].text, /name: k8s-rollout/);
    } finally {
      d.close();
    }
  });
});

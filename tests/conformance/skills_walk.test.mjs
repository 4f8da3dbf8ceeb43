// The MCP Skills listing walked from a fresh daemon (no index on disk) by the official v2
// client's SkillsClient with its default page limit (listMaxPages 64): a generated tree of
// 4,800 skills, 120 of them breaking the extension's rules (not listable), indexed in small
// batches so that the walk's first page arrives while the first index is written. Every
// listable skill comes back exactly once, in at most 64 pages, every page but the last the
// size the first one fixed, each entry the one skills/get builds from disk (the first walk
// builds what it lists: indexing stores none). Then the cursor's page size, tampered with: -32602. Then a
// client that asks for no progress (nothing resets its request timeout): the first page
// answers with what is indexed so far and the walk goes on through the rest. Then pages read
// the index's stored entries, kept current by the watch: an edit shows in the next listing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { daemon, exited, requireFromCache, within } from './common.mjs';

const req = requireFromCache('@modelcontextprotocol/client');
const { Client } = req('@modelcontextprotocol/client');
const { StdioClientTransport } = req('@modelcontextprotocol/client/stdio');
const { SkillsClient } = req('@modelcontextprotocol/client/ext/skills');

const N = 4800, BAD = 120;
const ws = mkdtempSync(join(tmpdir(), 'upk-walk-'));
const home = join(ws, 'home');
mkdirSync(home);
after(() => rmSync(ws, { recursive: true, force: true }));
const listable = new Set();
for (let i = 0; i < N; i++) {
  const dir = `walk-${String(i).padStart(5, '0')}`;
  // every 40th: a name that is not its directory's (the extension leaves it out)
  const name = i % 40 === 7 ? `other-${i}` : dir;
  mkdirSync(join(ws, '.claude/skills', dir), { recursive: true });
  writeFileSync(join(ws, '.claude/skills', dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Use for walk job ${i}.\n---\n# ${name}\n\nBody.\n`);
  if (name === dir) listable.add(dir);
}
assert.equal(listable.size, N - BAD);

test('a fresh daemon: the default client walks every listable skill once, within 64 pages', async () => {
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(ws, 'cache'), UPSKILLD_SCAN_BATCH: '100' };
  const client = new Client({ name: 'walk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: ws, stderr: 'inherit' });
  await within(10000, client.connect(transport), 'connect');
  const pages = [];
  let tamperedAnswer;
  const onmessage = transport.onmessage;
  transport.onmessage = (m, extra) => {
    if (m.id === 'tampered') return tamperedAnswer(m); // ours, not the client's
    if (m.result?.skills) pages.push({ n: m.result.skills.length, next: m.result.nextCursor });
    onmessage(m, extra);
  };
  try {
    let progress = 0; // the first page waits for the first index, saying so
    const { skills } = await within(120000, new SkillsClient(client).list({},
      { onprogress: () => { progress++; }, resetTimeoutOnProgress: true }), 'skills/list');
    assert.ok(progress > 0, 'the first page arrived while the first index was written, and said so');
    const names = skills.map((s) => /^skill:\/\/project\/\.claude\/skills\/([^/]+)\/SKILL\.md$/.exec(s.uri)?.[1])
      .filter(Boolean);
    assert.equal(names.length, new Set(names).size, 'no skill twice');
    assert.deepEqual(new Set(names), listable, 'every listable skill, nothing else of the tree');
    assert.ok(pages.length <= 64, `${pages.length} pages`);
    const sizes = pages.map((p) => Number(/:(\d+)$/.exec(p.next ?? '')?.[1] ?? 0)).filter(Boolean);
    assert.equal(new Set(sizes).size, 1, `one page size for the whole walk: ${[...new Set(sizes)]}`);
    assert.ok(pages.slice(0, -1).every((p) => p.n <= sizes[0]), 'no page over it');
    // The index stores no listing entry (building one hashes every file): this first walk built
    // them. Each equals what skills/get reads from disk, on pages across the walk.
    const sc = new SkillsClient(client);
    for (let i = 0; i < skills.length; i += Math.ceil(skills.length / 12)) {
      const { skill } = await within(10000, sc.get(skills[i].uri), 'skills/get');
      assert.deepEqual(skills[i], skill, `${skills[i].uri}: the walk's entry is the disk's`);
    }
    // the cursor's page size is checked: a tampered one is refused
    const cursor = pages[0].next.replace(/:\d+$/, ':5');
    const answer = new Promise((ok) => { tamperedAnswer = ok; });
    await transport.send({ jsonrpc: '2.0', id: 'tampered', method: 'skills/list', params: { cursor,
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {} } } });
    const { error } = await within(10000, answer, 'tampered cursor');
    assert.equal(error?.code, -32602);
    assert.match(error.message, /unknown cursor/);
  } finally {
    await client.close();
  }
});

// A walk by a client with no progress token, against a first index still being written. The
// first page's wait is cut to 1 ms (UPSKILLD_LIST_WAIT_MS; 30 s by default, half the SDKs'
// request timeout): it answers with what is indexed, and the later pages wait for theirs.
// A tree of its own, a quarter of the first (a test of the suite stays quick): 1,200 skills in
// batches of 50, six pages of 200.
test('no progress asked: the first page answers before the first index ends, the walk gets the rest', async () => {
  const small = mkdtempSync(join(tmpdir(), 'upk-walk-np-'));
  after(() => rmSync(small, { recursive: true, force: true }));
  const want = new Set();
  for (let i = 0; i < 1200; i++) {
    const dir = `np-${String(i).padStart(5, '0')}`;
    const name = i % 40 === 7 ? `other-${i}` : dir;
    mkdirSync(join(small, '.claude/skills', dir), { recursive: true });
    writeFileSync(join(small, '.claude/skills', dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Use for job ${i}.\n---\n# ${name}\n\nBody.\n`);
    if (name === dir) want.add(dir);
  }
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(small, 'cache'),
    UPSKILLD_SCAN_BATCH: '50', UPSKILLD_LIST_WAIT_MS: '1' };
  const client = new Client({ name: 'walk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: small, stderr: 'inherit' });
  await within(10000, client.connect(transport), 'connect');
  const pages = [];
  const onmessage = transport.onmessage;
  let progress = 0;
  transport.onmessage = (m, extra) => {
    if (m.method === 'notifications/progress') progress++;
    if (m.result?.skills) pages.push({ n: m.result.skills.length, next: m.result.nextCursor });
    onmessage(m, extra);
  };
  try {
    const { skills } = await within(60000, new SkillsClient(client).list(), 'skills/list');
    assert.equal(progress, 0, 'no progress token, no progress');
    const names = skills.map((s) => /^skill:\/\/project\/\.claude\/skills\/([^/]+)\/SKILL\.md$/.exec(s.uri)?.[1])
      .filter(Boolean);
    assert.equal(names.length, new Set(names).size, 'no skill twice');
    assert.deepEqual(new Set(names), want, 'every listable skill, nothing else of the tree');
    assert.ok(pages.length <= 64, `${pages.length} pages`);
  } finally {
    await client.close();
  }
});

test('pages read stored entries, which the watch keeps current', async () => {
  const small = mkdtempSync(join(tmpdir(), 'upk-walk-watch-'));
  after(() => rmSync(small, { recursive: true, force: true }));
  const dir = join(small, '.claude/skills/notes-tool');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: notes-tool\ndescription: Use for notes.\n---\n# Notes\n');
  writeFileSync(join(dir, 'helper.py'), 'print(1)\n');
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(small, 'cache') };
  const client = new Client({ name: 'walk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await within(10000, client.connect(new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: small, stderr: 'inherit' })), 'connect');
  const sha = (path) => `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  const helper = async () => {
    const { skills } = await within(10000, new SkillsClient(client).list(), 'skills/list');
    const s = skills.find((x) => x.uri.endsWith('/notes-tool/SKILL.md'));
    return s?.resources.find((r) => r.uri.endsWith('/notes-tool/helper.py'));
  };
  try {
    assert.equal((await helper())?.digest, sha(join(dir, 'helper.py')));
    // A walk holds the watch set back until a second after its last page: let it be set.
    const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));
    await pause(3000);
    // SKILL.md is left as it was: only the listing's record of the other file can change
    writeFileSync(join(dir, 'helper.py'), 'print(2)  # edited\n');
    const want = sha(join(dir, 'helper.py'));
    let got;
    for (let i = 0; i < 15 && (got = await helper())?.digest !== want; i++) await pause(1200);
    assert.equal(got?.digest, want, 'the listing after the watch saw the edit');
    assert.equal(got.size, Buffer.byteLength('print(2)  # edited\n'));
  } finally {
    await client.close();
  }
  // Edited while no daemon runs: the next daemon, on the same index file, lists the new digest
  // (an entry another process stored is checked against the disk before it is used).
  writeFileSync(join(dir, 'helper.py'), 'print(3)  # again\n');
  const again = new Client({ name: 'walk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await within(10000, again.connect(new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: small, stderr: 'inherit' })), 'connect');
  try {
    const { skills } = await within(10000, new SkillsClient(again).list(), 'skills/list');
    const s = skills.find((x) => x.uri.endsWith('/notes-tool/SKILL.md'));
    const r = s?.resources.find((x) => x.uri.endsWith('/notes-tool/helper.py'));
    assert.equal(r?.digest, sha(join(dir, 'helper.py')), 'edited while no daemon ran');
    const md = s.resources.find((x) => x.uri.endsWith('/notes-tool/SKILL.md'));
    assert.equal(md.digest, sha(join(dir, 'SKILL.md')));
  } finally {
    await again.close();
  }
});

// Entries are kept in memory between walks (skills/catalog_memo.c): a second walk lists what
// the first did, and what is not in a skill's record (whether another copy of its name wins)
// follows the placement, not the kept entry: the user copy of a name is marked shadowed while
// the project's copy exists and is no longer once that copy is gone, its own files unchanged.
test('kept entries: the next walk lists the same; shadowing follows the placements', async () => {
  const small = mkdtempSync(join(tmpdir(), 'upk-walk-kept-'));
  after(() => rmSync(small, { recursive: true, force: true }));
  const skill = (base) => {
    const dir = join(base, '.claude/skills/dup-tool');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: dup-tool\ndescription: Use for duplicates.\n---\n# Dup\n');
    return dir;
  };
  const project = skill(small), user = skill(join(small, 'home'));
  for (let i = 0; i < 30; i++) skill(join(small, `extra-${i}`)); // not roots: never listed
  const env = { ...process.env, HOME: join(small, 'home'), XDG_CACHE_HOME: join(small, 'cache') };
  const client = new Client({ name: 'walk', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await within(10000, client.connect(new StdioClientTransport({ command: daemon, args: ['--mcp'], env, cwd: small, stderr: 'inherit' })), 'connect');
  const walk = async () => (await within(10000, new SkillsClient(client).list(), 'skills/list')).skills
    .filter((s) => s.uri.endsWith('/dup-tool/SKILL.md'));
  const shadowed = (s) => s._meta?.['dev.upskilld/shadowed'] === true;
  try {
    const first = await walk();
    assert.equal(first.length, 2, JSON.stringify(first.map((s) => s.uri)));
    const mine = first.find((s) => s.uri.startsWith('skill://project/'));
    const theirs = first.find((s) => s.uri.startsWith('skill://user/'));
    assert.ok(mine && !shadowed(mine), 'the project copy wins');
    assert.ok(theirs && shadowed(theirs), 'the user copy is marked shadowed');
    assert.deepEqual(await walk(), first, 'a second walk lists the same entries');
    const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));
    await pause(3000); // a walk holds the watch set back until a second after its last page
    rmSync(project, { recursive: true, force: true });
    let now;
    for (let i = 0; i < 15 && ((now = await walk()).length !== 1 || shadowed(now[0])); i++) await pause(1200);
    assert.equal(now.length, 1, 'the project copy is gone');
    assert.ok(now[0].uri.startsWith('skill://user/'));
    assert.ok(!shadowed(now[0]), 'the user copy is no longer shadowed');
    assert.deepEqual({ ...now[0] }, (({ _meta, ...rest }) => rest)(theirs), 'the same entry otherwise');
    assert.ok(user);
  } finally {
    await client.close();
  }
});

// A page's skills are dumped on the skills queue and the text kept beside a kept page; the
// loop writes the rest of the answer with jansson (the id, the cursor, a modern answer's
// members) around that text (protocol/jsonrpc.c: upk_rpc_dump_spliced). Raw lines from the
// daemon's stdout: a page asked for again (its kept text) under an id jansson must escape,
// under a plain id, and by a modern (2026-07-28) request, parses to the answer dumped whole
// (a batch's answers are: 2025-03-26 has batches), for skills whose frontmatter holds what JSON
// escapes.
test('kept answers: the spliced line parses to the answer dumped whole', async () => {
  const small = mkdtempSync(join(tmpdir(), 'upk-walk-text-'));
  after(() => rmSync(small, { recursive: true, force: true }));
  for (let i = 0; i < 450; i++) {
    const dir = join(small, '.claude/skills', `odd-${String(i).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: odd-${String(i).padStart(4, '0')}\ndescription: ` +
      `'Use for "quoted" \\ backslash, caf\u00e9, \u{1F600} and 0} ${i}.'\n---\n# Odd\n`);
  }
  const env = { ...process.env, HOME: join(small, 'home'), XDG_CACHE_HOME: join(small, 'cache') };
  const child = spawn(daemon, ['--mcp'], { env, cwd: small, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  const queued = [];
  lines.on('line', (l) => { if (!l.includes('"method"')) (waiting.shift() ?? ((x) => queued.push(x)))(l); });
  const ask = (msg) => {
    child.stdin.write(JSON.stringify(msg) + '\n');
    return within(60000, queued.length ? Promise.resolve(queued.shift()) : new Promise((ok) => waiting.push(ok)),
      JSON.stringify(msg).slice(0, 80));
  };
  try {
    await ask({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26',
      capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const first = JSON.parse(await ask({ jsonrpc: '2.0', id: 1, method: 'skills/list',
      params: { _meta: { progressToken: 'p' } } }));
    const cursor = first.result.nextCursor;
    assert.match(cursor, /^s1:\d+:200$/);
    const oddId = 'page "2" \\ caf\u00e9 \u2028 0}';
    const a = await ask({ jsonrpc: '2.0', id: oddId, method: 'skills/list', params: { cursor } });
    const b = await ask({ jsonrpc: '2.0', id: 3, method: 'skills/list', params: { cursor } });
    const whole = JSON.parse(await ask([{ jsonrpc: '2.0', id: 3, method: 'skills/list', params: { cursor } }]));
    const pa = JSON.parse(a), pb = JSON.parse(b);
    assert.deepEqual([pb], whole, 'the kept answer is the answer dumped whole');
    // the spliced text goes last (jansson dumps the rest); a batch's answer is dumped in order
    assert.deepEqual(Object.keys(pb.result), ['nextCursor', 'skills'], 'written around the kept text');
    assert.deepEqual(Object.keys(whole[0].result), ['skills', 'nextCursor'], 'dumped whole');
    const modern = JSON.parse(await ask({ jsonrpc: '2.0', id: 'm', method: 'skills/list', params: { cursor,
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {} } } }));
    assert.equal(modern.result.resultType, 'complete', JSON.stringify(modern).slice(0, 300));
    assert.deepEqual(modern.result.skills, pb.result.skills, 'a modern answer: the same skills');
    assert.equal(modern.result.nextCursor, pb.result.nextCursor);
    assert.equal(Object.keys(modern.result).at(-1), 'skills');
    assert.equal(pa.id, oddId, 'the id as sent');
    assert.deepEqual(pa.result, pb.result, 'the same page under another id');
    assert.equal(pa.result.skills.length, 200);
    assert.match(pa.result.skills[0].frontmatter.description, /"quoted" \\ backslash, caf\u00e9, \u{1F600}/u);
    assert.deepEqual(Object.keys(pa), ['jsonrpc', 'id', 'result']);
  } finally {
    child.stdin.end();
    await within(10000, exited(child), 'exit');
  }
});

// A page never waits behind the settling work: while the skills queue runs a long item (the
// catch-up scan, stalled 2 s here by UPSKILLD_FAULT), a walk's kept pages are answered from the
// loop (skills_ext.c: lane_page), the first page too, and the same as the walk before; a
// request that needs the index (skills/get) still waits for the item. Raw stdio, answers
// matched by id.
test('a page asked while a long catch-up scan runs is answered at once from the kept pages', async () => {
  const small = mkdtempSync(join(tmpdir(), 'upk-walk-lane-'));
  after(() => rmSync(small, { recursive: true, force: true }));
  for (let i = 0; i < 450; i++) {
    const dir = join(small, '.claude/skills', `lane-${String(i).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'),
      `---\nname: lane-${String(i).padStart(4, '0')}\ndescription: Use for lane job ${i}.\n---\n# Lane\n`);
  }
  const env = { ...process.env, HOME: join(small, 'home'), XDG_CACHE_HOME: join(small, 'cache'),
    UPSKILLD_FAULT: 'skills.catch_up:1:sleep2000' };
  const child = spawn(daemon, ['--mcp'], { env, cwd: small, stdio: ['pipe', 'pipe', 'pipe'] });
  let stalled;
  const stall = new Promise((ok) => { stalled = ok; });
  createInterface({ input: child.stderr }).on('line', (l) => {
    if (/UPSKILLD_FAULT: sleep 2000 ms at skills\.catch_up/.test(l)) stalled(performance.now());
  });
  const answers = new Map();
  createInterface({ input: child.stdout }).on('line', (l) => {
    const m = JSON.parse(l);
    if (m.id !== undefined && !m.method) answers.get(m.id)?.({ m, t: performance.now() });
  });
  let next = 0;
  const ask = (method, params) => {
    const id = ++next;
    const got = new Promise((ok) => answers.set(id, ok));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return within(60000, got, `${method} ${id}`);
  };
  const walk = async () => {
    const pages = [];
    let cursor;
    do {
      const t0 = performance.now();
      const { m, t } = await ask('skills/list', cursor ? { cursor } : { _meta: { progressToken: 'p' } });
      pages.push({ skills: m.result.skills, ms: t - t0, at: t });
      cursor = m.result.nextCursor;
    } while (cursor);
    return pages;
  };
  try {
    await ask('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const first = await walk();
    assert.equal(first.length, 3, 'pages of 200');
    // the catch-up runs once the walk's hold lapses (a second after its last page)
    const t0 = await within(20000, stall, 'the catch-up scan stalls');
    const get = ask('skills/get', { uri: first[0].skills[0].uri });
    const second = await walk();
    const { t: gotAt } = await get;
    assert.deepEqual(second.map((p) => p.skills), first.map((p) => p.skills), 'the same walk');
    for (const [i, p] of second.entries()) {
      assert.ok(p.at < gotAt, `page ${i + 1} answered before the queued skills/get`);
      assert.ok(p.ms < 1000, `page ${i + 1}: ${p.ms.toFixed(1)} ms during a 2 s stall`);
    }
    assert.ok(gotAt - t0 > 1200, 'the skills/get waited for the stalled scan');
  } finally {
    child.stdin.end();
    await within(20000, exited(child), 'exit');
  }
});

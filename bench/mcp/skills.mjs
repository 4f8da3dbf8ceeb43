// A large skill collection served over MCP and verified by the official v2 client's
// SkillsClient (@modelcontextprotocol/client 2.4.0): every page of skills/list timed, then
// every file of every skill read and checked (size, sha256, frontmatter).
//
//   node --expose-gc bench/mcp/skills.mjs [--skills 40000] [--daemon build/daemon/upskilld] [--no-reference]
//                                         [--corpus DIR] [--before DAEMON] [--list-only] [--runs N]
//                                         [--pause-ms MS]
//
// --before DAEMON walks the same files with another build of upskilld (say, the main branch's)
// in place of the reference, one after the other in this invocation: before/after figures
// taken under the same machine load. Each server is walked by a node process of its own
// (this script, --child): a fresh client heap each, so that one walk's garbage is never
// collected inside another's pages. --runs N repeats the pair N times, the order alternated.
//
// With --corpus, the collection is the first --skills directories (sorted) of DIR, a checkout
// of a public registry (<dir>/SKILL.md each), hard-linked in instead of generated; the skills
// listed are then those the extension lists (a name that breaks its rules is left out).
//
// upskilld is asked pinned to 2026-07-28. The reference, in the same invocation on the same
// files, is the TypeScript SDK's own skills server (skills_server_sdk.mjs; its stdio speaks
// 2025-11-25), walked by the same client. Targets (issue 32): every page <= 50 ms, and the
// whole collection listed within a default client's 64-page walk.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, readdirSync, linkSync, lstatSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { PerformanceObserver } from 'node:perf_hooks';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cache = process.env.UPK_NPM_CACHE || join(root, '.cache/npm');
const req = createRequire(join(cache, 'package.json'));
const { Client } = req('@modelcontextprotocol/client');
const { StdioClientTransport } = req('@modelcontextprotocol/client/stdio');
const { SkillsClient } = req('@modelcontextprotocol/client/ext/skills');

const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const count = Number(arg('--skills', '40000'));
const daemon = resolve(arg('--daemon', join(root, 'build/daemon/upskilld')));
const withReference = !process.argv.includes('--no-reference');
const before = arg('--before', null);
const listOnly = process.argv.includes('--list-only'); // profiling the listing alone
const runs = Number(arg('--runs', '1'));
// The second walk begins this long after the first (a host listing again a little later): past
// the first walk's hold (1 s after its last page) the daemon's settling work (the catch-up scan,
// merge steps, the watch set's listing) runs, and a page must not wait behind it.
const pauseMs = Number(arg('--pause-ms', '0'));
const child = arg('--child', null); // a walk of one server, in a process of its own (below)
const script = fileURLToPath(import.meta.url);

// ---- the collection: every 5th skill has references/, every 7th a script ----
const words = ['pdf', 'kernel', 'deploy', 'migrate', 'review', 'test', 'cache', 'tensor', 'docker',
  'graph', 'schema', 'audit', 'rollout', 'profile', 'index', 'parse', 'render', 'sync'];
const spec = child ? JSON.parse(child) : null;
const ws = spec ? spec.ws : mkdtempSync(join(tmpdir(), 'upk-mcp-skills-'));
const skillsDir = join(ws, '.claude/skills');
let files = 0, bytes = 0;
function put(path, text) { writeFileSync(path, text); files++; bytes += Buffer.byteLength(text); }
const t0 = performance.now();
const corpus = arg('--corpus', null);
// A registry's skill directory, hard-linked file by file (links and special files skipped).
function linkTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) linkTree(join(from, e.name), join(to, e.name));
    else if (e.isFile()) { linkSync(join(from, e.name), join(to, e.name)); files++; bytes += lstatSync(join(to, e.name)).size; }
  }
}
// A registry's directory is <owner>--<repo>--<skill>; an installer names it after the skill's
// frontmatter name (the first of a name, in sorted order; a name used already or not a plain
// directory name keeps the registry's, and the extension leaves it out).
function frontmatterName(dir) {
  try {
    const m = /^name:[ \t]*["']?([^"'\r\n]*?)["']?[ \t]*$/m.exec(readFileSync(join(dir, 'SKILL.md'), 'utf8').slice(0, 4096));
    return m && /^[^/\\.][^/\\]*$/.test(m[1]) ? m[1] : null;
  } catch { return null; }
}
if (spec) {
  // a child walks the collection its parent made
} else if (corpus) {
  const dirs = readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name).sort().slice(0, count);
  const taken = new Set(dirs);
  for (const d of dirs) {
    const name = frontmatterName(join(corpus, d));
    const as = name && !taken.has(name) ? name : d;
    if (as !== d) { taken.add(as); taken.delete(d); }
    linkTree(join(corpus, d), join(skillsDir, as));
  }
} else for (let i = 0; i < count; i++) {
  const name = `${words[i % words.length]}-${words[(i * 7) % words.length]}-${i}`;
  const dir = join(skillsDir, name);
  mkdirSync(dir, { recursive: true });
  put(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Use when you ${words[i % 18]} a ` +
    `${words[(i * 5) % 18]} for the ${words[(i * 11) % 18]} service (skill ${i}).\nmetadata:\n` +
    `  version: "1.${i % 10}"\n---\n# ${name}\n\n## Steps\n\n1. Read the ${words[i % 18]} notes.\n` +
    `2. Run the checks.\n3. Report what changed.\n`);
  if (i % 5 === 0) { mkdirSync(join(dir, 'references')); put(join(dir, 'references/GUIDE.md'), `# Guide ${i}\n`.repeat(20)); }
  if (i % 7 === 0) { mkdirSync(join(dir, 'scripts')); put(join(dir, 'scripts/run.sh'), `#!/bin/sh\necho ${i}\n`); }
}
const genMs = performance.now() - t0;
if (!spec) console.log(`collection: ${corpus ? `the first ${count} directories of ${corpus}` : `${count} skills`}, ${files} files, ${(bytes / 1048576).toFixed(1)} MiB (written in ${(genMs / 1000).toFixed(1)} s)`);

// Round trip of every skills/list page, seen at the transport (the server's time, the pipe and
// the client's JSON.parse), and what the client does with a page before it asks for the next
// (the SDK's schema and rule checks of every entry): pages.client, from an answer to the next
// request. With bytes, each answer is kept to be measured after the walk.
// The client's garbage collections (V8), to tell a slow page's own time from the client's: a
// page over 50 ms is printed with the GC pauses inside its request-to-answer window.
const gcs = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push([e.startTime, e.duration]); })
  .observe({ entryTypes: ['gc'] });
const gcWithin = (a, b) => gcs.reduce((s, [t, d]) => s + Math.max(0, Math.min(b, t + d) - Math.max(a, t)), 0);
const slow = (pages, from) => pages.windows.slice(from).filter(([a, b]) => b - a > 50)
  .map(([a, b]) => `${(b - a).toFixed(0)} (gc ${gcWithin(a, b).toFixed(0)})`).join(', ') || 'none';

function timePages(transport, bytes) {
  const sent = new Map(), pages = [];
  pages.windows = [];
  pages.client = [];
  pages.answers = [];
  let answered = 0;
  const send = transport.send.bind(transport);
  transport.send = (m, o) => {
    if (m.method === 'skills/list') {
      const now = performance.now();
      if (answered) pages.client.push(now - answered);
      sent.set(m.id, now);
    }
    return send(m, o);
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (m, extra) => {
    if (sent.has(m.id)) {
      if (!pages.length && pages.onFirst) pages.onFirst();
      pages.push(performance.now() - sent.get(m.id));
      pages.windows.push([sent.get(m.id), performance.now()]);
      sent.delete(m.id);
      if (bytes) pages.answers.push(m);
      onmessage(m, extra);
      answered = performance.now(); // past the parse: the client's own checks run from here
      return;
    }
    onmessage(m, extra);
  };
  return pages;
}

// The server's CPU time (user + system, ms) so far, from /proc (clock ticks of 10 ms).
function cpuOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch { return NaN; }
}

function rssOf(pid) {
  try { return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024; } catch { return NaN; }
}

async function run(label, command, args, options) {
  const client = new Client({ name: 'skills-bench', version: '1' }, { ...options, listMaxPages: 0 });
  const env = { ...process.env, HOME: join(ws, 'home'), XDG_CACHE_HOME: join(ws, `cache-${label}-${spec?.run ?? 0}`) }; // a fresh index each walk
  const transport = new StdioClientTransport({ command, args, env, cwd: ws, stderr: 'inherit' });
  const c0 = performance.now();
  await client.connect(transport);
  const connectMs = performance.now() - c0;
  const pages = timePages(transport);
  // The server's CPU over the first walk's pages after the first (the first waits for the index).
  let cpuFirstPage = NaN, perf = null;
  pages.onFirst = () => {
    cpuFirstPage = cpuOf(transport.pid);
    if (process.env.PERF_WALK) // profiling aid: perf over the first walk's later pages
      perf = spawn('perf', ['record', '-F', '999', '--call-graph', 'dwarf,16384', '-p', String(transport.pid), '-o', process.env.PERF_WALK], { stdio: 'ignore' });
  };
  const skills = new SkillsClient(client);
  const l0 = performance.now();
  // The first page waits for the first index, saying so in progress: a host that asks for
  // progress keeps waiting past its 60 s request timeout (a registry on a busy machine).
  let progress = 0;
  const { skills: list } = await skills.list({}, { onprogress: () => { progress++; }, resetTimeoutOnProgress: true });
  const listMs = performance.now() - l0;
  const firstPages = [...pages]; // this walk's alone (the recorder stays installed)
  const firstSlow = slow(pages, 1);
  const walkCpu = cpuOf(transport.pid) - cpuFirstPage;
  if (perf) { perf.kill('SIGINT'); await new Promise((r) => perf.on('exit', r)); }
  if (process.env.PAGES_LOG) console.log('first walk pages', pages.map((p) => p.toFixed(0)).join(' '));
  globalThis.gc?.(); // the first walk's garbage is the client's, not a page's latency
  const cpu1 = cpuOf(transport.pid);
  if (pauseMs) await new Promise((ok) => setTimeout(ok, pauseMs));
  const cpu2 = cpuOf(transport.pid);
  const warm = timePages(transport, true); // a second walk: the index is built
  const w0 = performance.now();
  await skills.list();
  const warmMs = performance.now() - w0;
  const warmCpu = cpuOf(transport.pid) - cpu2;
  const pageBytes = warm.answers.map((m) => Buffer.byteLength(JSON.stringify(m))).sort((a, b) => a - b);
  const clientMs = [...warm.client].sort((a, b) => a - b);
  // The client's share measured apart on one captured page: JSON.parse of its text.
  const text = JSON.stringify(warm.answers[Math.floor(warm.answers.length / 2)] ?? {});
  const p0 = performance.now();
  for (let i = 0; i < 5; i++) JSON.parse(text);
  const parseMs = (performance.now() - p0) / 5;
  warm.answers.length = 0;
  if (process.env.PAGE_SAVE) writeFileSync(process.env.PAGE_SAVE, text);
  if (process.env.PAGES_LOG) console.log('second walk pages', warm.map((p) => p.toFixed(0)).join(' '));
  const v0 = performance.now();
  let verified = 0;
  if (!listOnly) for (const s of list) for (const r of s.resources) { await skills.read(s, r.uri); verified++; }
  const verifyMs = performance.now() - v0;
  const rss = rssOf(transport.pid);
  const revision = client.getNegotiatedProtocolVersion();
  await client.close();
  const sorted = [...warm].sort((a, b) => a - b);
  const warmLater = warm.slice(1).sort((a, b) => a - b);
  const later = firstPages.slice(1).sort((a, b) => a - b); // the first walk after its first page
  const uris = new Set(list.map((x) => x.uri ?? x.resources?.[0]?.uri ?? JSON.stringify(x)));
  return { label, revision, skills: list.length, unique: uris.size, connectMs, progress,
    firstP50: later[Math.floor(later.length / 2)], firstMax: later.at(-1),
    pages: firstPages.length, firstPageMs: firstPages[0], listMs, warmPages: warm.length, warmMs,
    firstCpu: cpu1, walkCpu, warmCpu, bytesP50: pageBytes[Math.floor(pageBytes.length / 2)], bytesMax: pageBytes.at(-1), parseMs,
    clientP50: clientMs[Math.floor(clientMs.length / 2)], clientMax: clientMs.at(-1),
    firstSlow, warmSlow: slow(warm, 0), warmLaterMax: warmLater.at(-1),
    pageP50: sorted[Math.floor(sorted.length / 2)], perSkillUs: warmMs * 1000 / list.length, pageP90: sorted[Math.floor(sorted.length * 0.9)], pageMax: sorted.at(-1), verified, verifyMs, rss };
}

if (spec) { // the child: one walk, its figures as the last line of stdout
  const r = await run(spec.label, spec.command, spec.args, spec.options);
  console.log(JSON.stringify(r));
  process.exit(0);
}

// One server walked by a node process of its own; its figures, with the load around it.
function walkApart(run, label, command, args, options) {
  const load0 = loadavg()[0];
  const argv = ['--expose-gc', script, '--child', JSON.stringify({ ws, label, command, args, options, run })];
  if (listOnly) argv.push('--list-only');
  if (pauseMs) argv.push('--pause-ms', String(pauseMs));
  const out = spawnSync(process.execPath, argv, { env: process.env, encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  const last = out.stdout.trim().split('\n').at(-1);
  if (out.status !== 0 || !last?.startsWith('{')) throw new Error(`${label}: the walk failed (${out.status})\n${out.stdout}`);
  process.stdout.write(out.stdout.split('\n').slice(0, -2).map((l) => l + '\n').join(''));
  return { ...JSON.parse(last), load: `${load0.toFixed(1)}-${loadavg()[0].toFixed(1)}` };
}
const servers = [['upskilld', daemon, ['--mcp'], { versionNegotiation: { mode: { pin: '2026-07-28' } } }]];
if (before)
  servers.push(['before', resolve(before), ['--mcp'], { versionNegotiation: { mode: { pin: '2026-07-28' } } }]);
else if (withReference)
  servers.push(['sdk', process.execPath, [join(root, 'bench/mcp/skills_server_sdk.mjs'), skillsDir], {}]);
const results = [];
for (let i = 0; i < runs; i++) {
  const order = i % 2 ? [...servers].reverse() : servers;
  const got = Object.fromEntries(order.map((sv) => [sv[0], walkApart(i, ...sv)]));
  results.push({ order: order.map((sv) => sv[0]), ours: got.upskilld, ref: got[servers[1]?.[0]] });
}
rmSync(ws, { recursive: true, force: true });
let allOk = true;
for (const [i, { order, ours, ref }] of results.entries()) {
  if (runs > 1) console.log(`\nrun ${i + 1} of ${runs}: ${order.join(' then ')}`);
  allOk = report(ours, ref) && allOk;
}
console.log(allOk ? '\nPASS' : '\nFAIL');
process.exit(allOk ? 0 : 1);

function report(ours, ref) {

const f = (v, d = 1) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(d));
const rows = [
  ['revision', ours.revision, ref?.revision, '', '2026-07-28'],
  ['skills listed', ours.skills, ref?.skills, '', corpus ? 'each once' : `${count}`],
  ['distinct skills listed', ours.unique, ref?.unique, '', '= skills listed'],
  ['connect (ms)', f(ours.connectMs), f(ref?.connectMs), ref && f(ours.connectMs / ref.connectMs, 2), ''],
  ['first walk (s): index + list', f(ours.listMs / 1000, 2), f(ref?.listMs / 1000, 2), ref && f(ours.listMs / ref.listMs, 2), ''],
  ['first page (ms), waits for index', f(ours.firstPageMs), f(ref?.firstPageMs), '', ''],
  ['first page: progress notifications', ours.progress, ref?.progress, '', ''],
  ['pages, first walk', ours.pages, ref?.pages, '', '<= 64 (default listMaxPages)'],
  ['first walk page p50 / max (ms), after page 1', `${f(ours.firstP50)} / ${f(ours.firstMax)}`, ref && `${f(ref.firstP50)} / ${f(ref.firstMax)}`, '', '<= 50'],
  ['pages per walk', ours.warmPages, ref?.warmPages, '', '<= 64 (default listMaxPages)'],
  ['second walk (s)', f(ours.warmMs / 1000, 2), f(ref?.warmMs / 1000, 2), ref && f(ours.warmMs / ref.warmMs, 2), ''],
  ['second walk per skill (us)', f(ours.perSkillUs), f(ref?.perSkillUs), ref && f(ours.perSkillUs / ref.perSkillUs, 2), ''],
  ['page p50 (ms)', f(ours.pageP50), f(ref?.pageP50), ref && f(ours.pageP50 / ref.pageP50, 2), ''],
  ['page p90 (ms)', f(ours.pageP90), f(ref?.pageP90), ref && f(ours.pageP90 / ref.pageP90, 2), ''],
  ['page max (ms)', f(ours.pageMax), f(ref?.pageMax), ref && f(ours.pageMax / ref.pageMax, 2), '<= 50'],
  ['page max after page 1 (ms)', f(ours.warmLaterMax), f(ref?.warmLaterMax), ref && f(ours.warmLaterMax / ref.warmLaterMax, 2), '<= 50'],
  ['page bytes p50 / max (KiB)', `${f(ours.bytesP50 / 1024, 0)} / ${f(ours.bytesMax / 1024, 0)}`, ref && `${f(ref.bytesP50 / 1024, 0)} / ${f(ref.bytesMax / 1024, 0)}`, '', ''],
  ['client JSON.parse of a page (ms)', f(ours.parseMs), f(ref?.parseMs), '', 'in the page time'],
  ['client checks p50 / max (ms)', `${f(ours.clientP50)} / ${f(ours.clientMax)}`, ref && `${f(ref.clientP50)} / ${f(ref.clientMax)}`, '', 'between pages'],
  ['files read + verified', ours.verified, ref?.verified, '', `${files}`],
  ['verify all (s)', f(ours.verifyMs / 1000, 2), f(ref?.verifyMs / 1000, 2), ref && f(ours.verifyMs / ref.verifyMs, 2), ''],
  ['verified files / s', f(ours.verified / ours.verifyMs * 1000, 0), ref && f(ref.verified / ref.verifyMs * 1000, 0), ref && f((ours.verified / ours.verifyMs) / (ref.verified / ref.verifyMs), 2), ''],
  ['server CPU, index + first walk (s)', f(ours.firstCpu / 1000, 2), f(ref?.firstCpu / 1000, 2), ref && f(ours.firstCpu / ref.firstCpu, 2), ''],
  ['server CPU, first walk pages 2- (ms)', f(ours.walkCpu, 0), f(ref?.walkCpu, 0), ref && f(ours.walkCpu / ref.walkCpu, 2), ''],
  ['server CPU, second walk (ms)', f(ours.warmCpu, 0), f(ref?.warmCpu, 0), ref && f(ours.warmCpu / ref.warmCpu, 2), ''],
  ['server peak RSS (MiB)', f(ours.rss), f(ref?.rss), ref && f(ours.rss / ref.rss, 2), ''],
  ['load average (1 min) over the walk', ours.load, ref?.load, '', ''],
];
console.log(`\n${'figure'.padEnd(34)} ${'upskilld'.padStart(12)} ${(before ? 'before' : 'TS SDK').padStart(12)} ${'ratio'.padStart(7)}  target`);
for (const [name, a, b, r, t] of rows)
  console.log(`${name.padEnd(34)} ${String(a ?? '-').padStart(12)} ${String(b ?? '-').padStart(12)} ${String(r ?? '').padStart(7)}  ${t}`);
// pages over 50 ms, each with the client's GC pauses inside it (ms)
for (const r of [ours, ref].filter(Boolean))
  console.log(`${r.label}: pages over 50 ms, first walk 2-: ${r.firstSlow}; second walk: ${r.warmSlow}`);
const ok = (corpus ? ours.skills > 0 : ours.skills >= count) && ours.unique === ours.skills &&
  (listOnly || corpus || ours.verified >= files) && ours.pageMax <= 50 && ours.warmPages <= 64 &&
  ours.pages <= 64 && !(ours.firstMax > 50);
return ok;
}

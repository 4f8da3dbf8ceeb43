// Tool schemas (issue 32): every inputSchema and outputSchema that tools/list publishes compiles
// with ajv in strict mode, every array says what its items are (strict validators such as
// OpenAI's refuse tools whose arrays do not), the arguments sent here pass their tool's
// inputSchema, and every answer's structuredContent, refusals included, passes its tool's
// outputSchema (the SDK client checks that too, and throws when it does not). A refusal's
// text names its diagnostics, for clients that show models only text.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { daemon, requireFromCache, within } from './common.mjs';

const req = requireFromCache('@modelcontextprotocol/sdk');
const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
const Ajv = requireFromCache('ajv')('ajv').default;

// A workspace of its own: a project skill, no provider keys, nothing of the user's.
const ws = mkdtempSync(join(tmpdir(), 'upk-schemas-'));
const home = join(ws, 'home');
mkdirSync(join(ws, '.claude/skills/demo-skill'), { recursive: true });
writeFileSync(join(ws, '.claude/skills/demo-skill/SKILL.md'),
  '---\nname: demo-skill\ndescription: Use when checking tool schemas in a demo.\n---\n# Demo\n\nBody.\n');
const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(ws, 'cache'),
  XDG_CONFIG_HOME: join(ws, 'config'), XDG_STATE_HOME: join(ws, 'state') };
for (const k of Object.keys(env))
  if (/_API_KEY$|_BASE_URL$/.test(k)) delete env[k];
// A local OpenAI-compatible server that accepts connections (a dry run checks it is there).
const listener = createServer((s) => s.destroy());
await new Promise((ok) => listener.listen(0, '127.0.0.1', ok));
listener.unref();
env.GENERIC_BASE_URL = `http://127.0.0.1:${listener.address().port}/v1`;
after(() => rmSync(ws, { recursive: true, force: true }));

const BAD_SKILL = '---\nname: Bad_Name\n---\nbody\n';
const GOOD_SKILL = '---\nname: schema-check\ndescription: Use when a schema test installs it.\n---\n# S\n\nDo it.\n';

// Every schema node of type array has items (anyOf alternatives and nested objects too).
function arraysWithoutItems(schema, path = '#', out = []) {
  if (!schema || typeof schema !== 'object') return out;
  const types = [].concat(schema.type ?? []);
  if (types.includes('array') && !schema.items) out.push(path);
  for (const [k, v] of Object.entries(schema.properties ?? {})) arraysWithoutItems(v, `${path}/properties/${k}`, out);
  if (schema.items) arraysWithoutItems(schema.items, `${path}/items`, out);
  (schema.anyOf ?? []).forEach((s, i) => arraysWithoutItems(s, `${path}/anyOf/${i}`, out));
  return out;
}

describe('tool schemas', () => {
  let client, tools;
  const ajv = new Ajv({ strict: true, allErrors: true });
  const input = {}, output = {};
  before(async () => {
    client = new Client({ name: 'upskilld-schemas', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: daemon, args: ['--mcp', '--test-methods'],
      env, cwd: ws, stderr: 'inherit' });
    await within(10000, client.connect(transport), 'connect');
    ({ tools } = await client.listTools());
  });
  after(() => client.close());

  test('every inputSchema and outputSchema compiles in ajv strict mode', () => {
    assert.ok(tools.length >= 16, tools.map((t) => t.name).join());
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(t.outputSchema, `${t.name} has no outputSchema`);
      assert.equal(t.outputSchema.type, 'object', t.name);
      try {
        input[t.name] = ajv.compile(t.inputSchema);
        output[t.name] = ajv.compile(t.outputSchema);
      } catch (e) {
        assert.fail(`${t.name}: ${e.message}`);
      }
    }
  });

  test('every array in every schema has items', () => {
    for (const t of tools) {
      assert.deepEqual(arraysWithoutItems(t.inputSchema), [], `${t.name} inputSchema`);
      assert.deepEqual(arraysWithoutItems(t.outputSchema), [], `${t.name} outputSchema`);
    }
  });

  test('ranges, choices and defaults are published', () => {
    const find = tools.find((t) => t.name === 'find_skill').inputSchema.properties;
    assert.deepEqual([find.limit.minimum, find.limit.maximum, find.limit.default], [1, 100, 5]);
    assert.deepEqual(find.agents.items, { type: 'string' });
    const validate = tools.find((t) => t.name === 'validate_skill').inputSchema.properties;
    assert.deepEqual(validate.mode.enum, ['strict', 'lenient']);
    assert.equal(validate.mode.default, 'strict');
    const from = tools.find((t) => t.name === 'install_skill').inputSchema.properties.from;
    assert.deepEqual(from.anyOf.map((s) => s.type), ['string', 'object']);
    assert.equal(from.anyOf[1].properties.files.items.type, 'object');
  });

  // Call a tool, checking its arguments against its inputSchema first and its
  // structuredContent (when there is one) against its outputSchema after.
  async function call(name, args, ms = 30000) {
    assert.ok(input[name], `no compiled schema for ${name}`);
    assert.ok(input[name](args), `${name} arguments ${JSON.stringify(args)}: ` +
      ajv.errorsText(input[name].errors));
    const r = await within(ms, client.callTool({ name, arguments: args }), name);
    if (r.structuredContent !== undefined)
      assert.ok(output[name](r.structuredContent), `${name} ${r.isError ? 'refusal' : 'result'}: ` +
        `${ajv.errorsText(output[name].errors)}\n${JSON.stringify(r.structuredContent).slice(0, 2000)}`);
    return r;
  }
  const ok = (r) => { assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 2000)); return r.structuredContent; };

  test('status and sleep', async () => {
    assert.equal(ok(await call('status', {})).name, 'upskilld');
    assert.deepEqual(ok(await call('sleep', { ms: 10, steps: 2 })), { slept: 10, steps: 2 });
  });

  test('find_skill, list_skills, get_skill, skills_prompt', async () => {
    const found = ok(await call('find_skill', { task: 'checking tool schemas demo', limit: 5, agents: ['claude'] }, 60000));
    assert.equal(found.results[0]?.name, 'demo-skill', JSON.stringify(found));
    const list = ok(await call('list_skills', { limit: 3 }));
    assert.ok(list.skills.length <= 3);
    ok(await call('list_skills', { scope: 'project', offset: 0 }));
    const got = ok(await call('get_skill', { name: 'demo-skill' }));
    assert.match(got.text, /name: demo-skill/);
    assert.match(ok(await call('skills_prompt', {})).xml, /available_skills/);
  });

  test('a range, a choice and an item type are refused by the table, naming the field', async () => {
    for (const [name, args, want] of [
      ['find_skill', { task: 'x', limit: 500 }, 'params.limit: must be between 1 and 100, got 500'],
      ['validate_skill', { text: 'x', mode: 'loose' }, 'params.mode: expected one of strict, lenient'],
      ['find_skill', { task: 'x', agents: ['claude', 7] }, 'params.agents[1]: expected string, got integer'],
    ]) {
      const r = await client.callTool({ name, arguments: args });
      assert.equal(r.isError, true, JSON.stringify(r));
      assert.equal(r.content[0].text, want);
    }
  });

  test('validate_skill: a failed check lists its diagnostics as text too', async () => {
    const bad = ok(await call('validate_skill', { text: BAD_SKILL }));
    assert.equal(bad.ok, false);
    const r = await call('validate_skill', { text: BAD_SKILL, mode: 'strict' });
    assert.equal(JSON.stringify(JSON.parse(r.content[0].text)), JSON.stringify(r.structuredContent));
    assert.match(r.content[1]?.text ?? '', /^Not ok: \d+ errors?/);
    assert.match(r.content[1].text, /SKILL\.md:2:7 error skill\/name-uppercase: /);
    assert.equal(ok(await call('validate_skill', { text: GOOD_SKILL, mode: 'lenient' })).ok, true);
  });

  test('install_skill refused: the text names each diagnostic; then install and remove', async () => {
    const r = await call('install_skill', { from: { markdown: BAD_SKILL }, scope: 'project' });
    assert.equal(r.isError, true, JSON.stringify(r));
    const text = r.content.map((c) => c.text).join('\n');
    assert.match(text, /^install refused: /);
    for (const d of r.structuredContent.diagnostics.filter((d) => d.code !== 'install/invalid'))
      assert.ok(text.includes(`SKILL.md:${d.range.start.line + 1}:${d.range.start.character + 1} error ${d.code}: ${d.message}`),
        `${d.code} missing from the text:\n${text}`);
    const done = ok(await call('install_skill', { from: { markdown: GOOD_SKILL,
      files: [{ path: 'references/notes.md', content: '# Notes\n' }] }, agents: ['claude'], force: false }));
    assert.equal(done.name, 'schema-check');
    ok(await call('remove_skill', { name: 'schema-check', agents: ['claude'] }));
  });

  test('validate_kernel: a clean kernel and a broken one', async () => {
    const status = ok(await call('status', {}));
    const good = await call('validate_kernel', { source: '__global__ void k(float *x) { x[threadIdx.x] = 1; }',
      blockSizes: [128, 256], fileName: 'k.cu' }, 60000);
    const bad = await call('validate_kernel', { source: '__global__ void k(float *x) { x[0] = y; }' }, 60000);
    assert.equal(bad.structuredContent.ok, false);
    if (status.cuda.toolkit.available) {
      assert.equal(good.structuredContent.ok, true, JSON.stringify(good.structuredContent).slice(0, 2000));
      assert.match(bad.content[1]?.text ?? '', /kernel\.cu:1:\d+ error \S+: .*"y"/);
    }
  });

  test('condense_trace: a result and a refusal', async () => {
    const trace = '## User\n\nFix the build.\n\n## Assistant\n\n```\n$ make\nerror: missing ;\n```\n\nFixed it.\n';
    const c = ok(await call('condense_trace', { text: trace, budget: 500, format: 'markdown' }));
    assert.equal(c.budget, 500);
    const r = await call('condense_trace', { text: '[{"role": "user", "content": "fix it"}, {"role": "assis', format: 'json' });
    assert.equal(r.isError, true, JSON.stringify(r));
    assert.ok(r.structuredContent.code, JSON.stringify(r));
  });

  test('models and runs without a provider: refusals still match their schemas', async () => {
    const c = await call('complete', { model: 'generic.nothing-here', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(c.isError, true, JSON.stringify(c));
    assert.equal(ok(await call('list_runs', { csv: false })).runs.length, 0);
    assert.equal((await call('show_run', { id: '20990101T000000Z-00000000' })).isError, true);
    assert.equal((await call('report_run', { id: 'not-a-run' })).isError, true);
    assert.equal((await call('eval_skill', { skill: 'no-such-skill', models: ['generic.x'], runs: 1 })).isError, true);
    assert.equal((await call('generate_skill', { task: 'x', model: 'generic.x', tests: 2, holdout: 0.5,
      install: { scope: 'project' } })).isError, true);
  });

  test('dry runs of eval_skill and generate_skill match their schemas; a limit of 0 is a refusal', async () => {
    const e = ok(await call('eval_skill', { skill: 'demo-skill', models: ['generic.x'], dryRun: true,
      cases: [{ input: 'hi', expected: { contains: ['x'] } }] }));
    assert.equal(e.plan.trials, 2);
    const g = ok(await call('generate_skill', { task: 'x', model: 'generic.x', dryRun: true }));
    assert.equal(g.plan.mode, 'generate');
    const z = await call('eval_skill', { skill: 'demo-skill', models: ['generic.x'], maxCalls: 0,
      cases: [{ input: 'hi', expected: { contains: ['x'] } }] });
    assert.equal(z.isError, true, JSON.stringify(z));
    assert.match(z.content[0].text, /params\.maxCalls must be > 0/);
  });
});

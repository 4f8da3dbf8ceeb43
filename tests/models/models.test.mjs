// models/complete end to end: the real daemon over pipes (MCP lines) against a scripted model
// server on loopback (server.mjs). Asserts what the daemon sent (path, headers, body, model id),
// what it answered, retries and their timing bounds, concurrency, cancellation, and that API
// keys never come back in answers, errors or logs.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { startServer } from './server.mjs';
import { Daemon, daemonEnv, sandbox } from './daemon.mjs';

const anthropicKey = 'sk-ant-api03-' + randomBytes(12).toString('hex');
const openaiKey = 'sk-proj-' + randomBytes(12).toString('hex');
const config = `# user config (XDG_CONFIG_HOME)
max_attempts: 3
retry_backoff_ms: 100
model_aliases:
  haiku: anthropic.claude-haiku-test
`;
const project = `# the project's upskill.config.yaml
skill_generation_model: sonnet
model_aliases:
  local: generic.llama-local
`;

let srv, box, d;
const complete = (params) => d.request('models/complete', params);
const result = (r) => { assert.equal(r.error, undefined, JSON.stringify(r.error)); return r.result; };
const failure = (r) => { assert.ok(r.error, `expected an error, got ${JSON.stringify(r.result)}`); return r.error; };

function envFor(server, extra = {}) {
  return daemonEnv(box, {
    ANTHROPIC_API_KEY: anthropicKey, ANTHROPIC_BASE_URL: server.url,
    OPENAI_API_KEY: openaiKey, OPENAI_BASE_URL: server.url + '/v1',
    GENERIC_BASE_URL: server.url + '/generic/v1', ...extra,
  });
}

before(async () => {
  srv = await startServer();
  box = sandbox({ config, project });
  d = new Daemon({ env: envFor(srv), cwd: box.project, args: ['--mcp', '-vv'] });
  await d.init();
  await d.request('logging/setLevel', { level: 'debug' }); // logs come back on stdout too
});

after(async () => {
  const code = await d.close();
  await srv.close();
  box.remove();
  assert.equal(code, 0, d.stderr);
  assert.equal(d.sanitizerReport(), null);
});

describe('wire formats', () => {
  it('Anthropic: POST /v1/messages with x-api-key, anthropic-version and the exact body', async () => {
    const r = result(await complete({ model: 'anthropic.claude-test-1', system: 'be brief', prompt: 'hello there', maxTokens: 50, temperature: 0.5 }));
    const [q] = srv.forModel('claude-test-1');
    assert.equal(q.method, 'POST');
    assert.equal(q.url, '/v1/messages');
    assert.equal(q.headers['x-api-key'], anthropicKey);
    assert.equal(q.headers['anthropic-version'], '2023-06-01');
    assert.match(q.headers['content-type'], /^application\/json/);
    assert.equal(q.headers.authorization, undefined);
    assert.deepEqual(q.body, { model: 'claude-test-1', messages: [{ role: 'user', content: 'hello there' }], max_tokens: 50, system: 'be brief', temperature: 0.5 });
    assert.equal(r.text, 'echo: hello there');
    assert.equal(r.model, 'anthropic.claude-test-1');
    assert.equal(r.provider, 'anthropic');
    assert.equal(r.stopReason, 'end_turn');
    assert.deepEqual(r.usage, { inputTokens: 4, outputTokens: 3 });
    assert.equal(r.attempts, 1);
    assert.ok(r.elapsedMs >= 0 && r.requestId.startsWith('req_'));
  });

  it('Anthropic: max_tokens defaults to 4096 (the API requires it)', async () => {
    result(await complete({ model: 'claude-bare-id', prompt: 'x' }));
    assert.equal(srv.forModel('claude-bare-id')[0].body.max_tokens, 4096);
  });

  it('OpenAI: POST /v1/chat/completions with Bearer, system first, max_completion_tokens', async () => {
    const messages = [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three four' }];
    const r = result(await complete({ model: 'openai.gpt-test', system: 'sys', messages, maxTokens: 20 }));
    const [q] = srv.forModel('gpt-test');
    assert.equal(q.url, '/v1/chat/completions');
    assert.equal(q.headers.authorization, `Bearer ${openaiKey}`);
    assert.equal(q.headers['x-api-key'], undefined);
    assert.deepEqual(q.body, { model: 'gpt-test', messages: [{ role: 'system', content: 'sys' }, ...messages], max_completion_tokens: 20 });
    assert.equal(r.text, 'echo: three four');
    assert.equal(r.provider, 'openai');
    assert.equal(r.stopReason, 'end_turn');
    assert.deepEqual(r.usage, { inputTokens: 5, outputTokens: 3 });
  });

  it('OpenAI: a reasoning-effort suffix becomes reasoning_effort', async () => {
    result(await complete({ model: 'openai.o3-mini.low', prompt: 'x' }));
    const [q] = srv.forModel('o3-mini');
    assert.equal(q.body.reasoning_effort, 'low');
  });

  it('generic: GENERIC_BASE_URL, no Authorization without GENERIC_API_KEY, max_tokens', async () => {
    const r = result(await complete({ model: 'generic.qwen-local', prompt: 'hi', maxTokens: 7 }));
    const [q] = srv.forModel('qwen-local');
    assert.equal(q.url, '/generic/v1/chat/completions');
    assert.equal(q.headers.authorization, undefined);
    assert.equal(q.body.max_tokens, 7);
    assert.equal(q.body.max_completion_tokens, undefined);
    assert.equal(r.provider, 'generic');
  });

  it('aliases: built-in sonnet, the user config overriding haiku, the project adding one', async () => {
    assert.equal(result(await complete({ model: 'sonnet', prompt: 'a' })).model, 'anthropic.claude-sonnet-4-5');
    assert.equal(srv.forModel('claude-sonnet-4-5').length, 1);
    assert.equal(result(await complete({ model: 'haiku', prompt: 'a' })).model, 'anthropic.claude-haiku-test');
    assert.equal(result(await complete({ model: 'local', prompt: 'a' })).model, 'generic.llama-local');
    assert.equal(srv.forModel('llama-local')[0].url, '/generic/v1/chat/completions');
  });

  it('reuses the connection for calls one after another', async () => {
    result(await complete({ model: 'anthropic.reuse-a', prompt: 'a' }));
    result(await complete({ model: 'anthropic.reuse-b', prompt: 'b' }));
    assert.equal(srv.forModel('reuse-a')[0].remotePort, srv.forModel('reuse-b')[0].remotePort);
  });
});

describe('faults and retries', () => {
  it('429 with Retry-After: 1 is retried after at least a second', async () => {
    srv.plan('rl-1', ['429:1', 'ok']);
    const r = result(await complete({ model: 'anthropic.rl-1', prompt: 'x' }));
    const qs = srv.forModel('rl-1');
    assert.equal(r.attempts, 2);
    assert.equal(qs.length, 2);
    const gap = qs[1].t - qs[0].t;
    assert.ok(gap >= 950 && gap < 5000, `retry came ${gap} ms later`);
  });

  it('500 then success: retried after a jittered backoff (50-100 % of 100 ms)', async () => {
    srv.plan('flaky-1', ['500', 'ok']);
    const r = result(await complete({ model: 'openai.flaky-1', prompt: 'x' }));
    const qs = srv.forModel('flaky-1');
    assert.equal(r.attempts, 2);
    assert.ok(qs[1].t - qs[0].t >= 45, `retry came ${qs[1].t - qs[0].t} ms later`);
    assert.deepEqual(qs[0].body, qs[1].body); // the same request again
  });

  it('5xx every time: bounded by max_attempts (3), kind server', async () => {
    srv.plan('down-1', ['503', '500', '529', 'ok']);
    const e = failure(await complete({ model: 'anthropic.down-1', prompt: 'x' }));
    assert.equal(e.code, -32803);
    assert.equal(e.data.kind, 'server');
    assert.equal(e.data.attempts, 3);
    assert.equal(e.data.httpStatus, 529);
    assert.equal(srv.forModel('down-1').length, 3);
    assert.match(e.message, /gave up after 3 attempts/);
  });

  it('a stalled connection times out at timeoutMs', async () => {
    srv.plan('stall-1', ['stall', 'stall']);
    const t0 = performance.now();
    const e = failure(await complete({ model: 'anthropic.stall-1', prompt: 'x', timeoutMs: 700 }));
    const took = performance.now() - t0;
    assert.equal(e.data.kind, 'timeout');
    assert.match(e.message, /timed out/);
    assert.ok(took >= 650 && took < 5000, `took ${took} ms`);
  });

  it('a truncated body is retried; truncated every time is a clear error', async () => {
    srv.plan('cut-1', ['truncate', 'ok']);
    assert.equal(result(await complete({ model: 'anthropic.cut-1', prompt: 'x' })).attempts, 2);
    srv.plan('cut-2', ['truncate', 'truncate', 'truncate']);
    const e = failure(await complete({ model: 'anthropic.cut-2', prompt: 'x' }));
    assert.equal(e.data.kind, 'connection');
    assert.match(e.message, /cut short/);
    assert.equal(e.data.attempts, 3);
  });

  it('a malformed 200 body is an error at once (not retried)', async () => {
    srv.plan('bad-json', ['malformed']);
    const e = failure(await complete({ model: 'openai.bad-json', prompt: 'x' }));
    assert.equal(e.data.kind, 'malformed');
    assert.equal(e.data.attempts, 1);
    assert.match(e.message, /(truncated|malformed) response body/);
  });

  it('a connection reset is retried', async () => {
    // curl itself retries once when a reused connection turns out dead; the daemon retries after.
    srv.plan('reset-1', ['reset', 'reset', 'ok']);
    const r = result(await complete({ model: 'openai.reset-1', prompt: 'x' }));
    assert.ok(r.attempts >= 2, `attempts ${r.attempts}`);
    assert.equal(srv.forModel('reset-1').length, 3);
  });

  it('401 is not retried, names the variable, and never quotes the key', async () => {
    srv.plan('auth-1', ['401']);
    const e = failure(await complete({ model: 'openai.auth-1', prompt: 'x' }));
    assert.equal(e.data.kind, 'auth');
    assert.equal(e.data.attempts, 1);
    assert.match(e.message, /OPENAI_API_KEY/);
    assert.match(e.message, /\[redacted\]/); // the server quoted it, the daemon did not
    assert.ok(!JSON.stringify(e).includes(openaiKey));
  });

  it('403 is a permission error', async () => {
    srv.plan('perm-1', ['403']);
    const e = failure(await complete({ model: 'anthropic.perm-1', prompt: 'x' }));
    assert.equal(e.data.kind, 'permission');
  });

  it('an unknown model is a clear error in both formats', async () => {
    const a = failure(await complete({ model: 'anthropic.nope-1', prompt: 'x' }));
    assert.equal(a.data.kind, 'unknown_model');
    assert.match(a.message, /unknown model 'nope-1'/);
    const o = failure(await complete({ model: 'openai.nope-2', prompt: 'x' }));
    assert.equal(o.data.kind, 'unknown_model');
    assert.equal(o.data.httpStatus, 404);
  });

  it('a key echoed back in an answer is redacted', async () => {
    srv.plan('echo-1', ['echo-key']);
    const r = result(await complete({ model: 'anthropic.echo-1', prompt: 'x' }));
    assert.equal(r.text, 'your key is [redacted]');
  });
});

describe('params and configuration', () => {
  it('bad params are -32602 naming the field', async () => {
    assert.match(failure(await complete({ prompt: 'x' })).message, /params\.model/);
    assert.match(failure(await complete({ model: 'sonnet', prompt: 'x', messages: [] })).message, /exactly one of messages or prompt/);
    assert.match(failure(await complete({ model: 'sonnet', messages: [{ role: 'bot', content: 'x' }] })).message, /messages\[0\]\.role/);
    assert.match(failure(await complete({ model: 'sonnet', prompt: 'x', temperature: 3 })).message, /temperature/);
    const e = failure(await complete({ model: 'mystery', prompt: 'x' }));
    assert.equal(e.code, -32602);
    assert.match(e.message, /unknown model name 'mystery'/);
  });

  it('MCP: tools/list has `complete`; tools/call answers structuredContent', async () => {
    const tools = result(await d.request('tools/list', {})).tools;
    const t = tools.find((x) => x.name === 'complete');
    assert.ok(t, 'complete tool listed');
    assert.deepEqual(t.inputSchema.required, ['model']);
    const r = result(await d.request('tools/call', { name: 'complete', arguments: { model: 'anthropic.tool-1', prompt: 'via tool' } }));
    assert.equal(r.isError, undefined);
    assert.equal(r.structuredContent.text, 'echo: via tool');
    srv.plan('tool-2', ['401']);
    const e = result(await d.request('tools/call', { name: 'complete', arguments: { model: 'anthropic.tool-2', prompt: 'x' } }));
    assert.equal(e.isError, true);
    assert.equal(e.structuredContent.kind, 'auth');
  });
});

describe('concurrency and cancellation', () => {
  it('many completions in flight at once; ping answered while they run', async () => {
    srv.delayMs = 600;
    try {
      const calls = Array.from({ length: 16 }, (_, i) => complete({ model: `anthropic.par-${i}`, prompt: `n${i}` }));
      await new Promise((ok) => setTimeout(ok, 150));
      const sent = performance.now();
      const ping = await d.request('ping', {});
      const rs = await Promise.all(calls);
      rs.forEach((r, i) => assert.equal(result(r).text, `echo: n${i}`));
      assert.ok(srv.maxInflight >= 12, `server saw at most ${srv.maxInflight} at once`);
      assert.ok(ping.at < Math.min(...rs.map((r) => r.at)), 'ping answered before any completion');
      console.log(`ping answered in ${(ping.at - sent).toFixed(1)} ms with 16 completions in flight`);
    } finally {
      srv.delayMs = 0;
    }
  });

  it('cancelling removes the transfer: the server sees the connection go, no answer comes', async () => {
    srv.plan('cancel-1', ['stall']);
    const before = srv.closedEarly;
    const p = complete({ model: 'anthropic.cancel-1', prompt: 'x' });
    for (let i = 0; i < 100 && !srv.forModel('cancel-1').length; i++) await new Promise((ok) => setTimeout(ok, 20));
    assert.equal(srv.forModel('cancel-1').length, 1);
    d.cancel(p.id);
    for (let i = 0; i < 150 && srv.closedEarly === before; i++) await new Promise((ok) => setTimeout(ok, 20));
    assert.equal(srv.closedEarly, before + 1, 'the daemon closed the stalled connection');
    await d.request('ping', {});
    assert.ok(!d.order.includes(p.id), 'a cancelled MCP request gets no response');
  });
});

describe('keys stay secret', () => {
  it('neither key appears on stdout (answers, errors, debug logs) or stderr', () => {
    assert.ok(d.notes.some((n) => n.method === 'notifications/message'), 'debug logs were forwarded');
    for (const key of [anthropicKey, openaiKey]) {
      assert.ok(!d.stdout.includes(key), 'key on stdout');
      assert.ok(!d.stderr.includes(key), 'key on stderr');
    }
  });
});

describe('lifecycle', () => {
  it('missing key or URL: a clear error naming the variable, and no request sent', async () => {
    const s2 = await startServer();
    const d2 = new Daemon({ env: daemonEnv(box, { ANTHROPIC_BASE_URL: s2.url }), cwd: box.project });
    try {
      await d2.init();
      const e = failure(await d2.request('models/complete', { model: 'anthropic.k', prompt: 'x' }));
      assert.equal(e.data.kind, 'config');
      assert.match(e.message, /ANTHROPIC_API_KEY/);
      const g = failure(await d2.request('models/complete', { model: 'generic.k', prompt: 'x' }));
      assert.match(g.message, /GENERIC_BASE_URL/);
      assert.equal(s2.requests.length, 0);
    } finally {
      assert.equal(await d2.close(), 0);
      await s2.close();
    }
    assert.equal(d2.sanitizerReport(), null);
  });

  it('a broken config file is reported with its path and line', async () => {
    const b2 = sandbox({ config: 'max_attempts: [1,\n' });
    const d2 = new Daemon({ env: daemonEnv(b2, { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: srv.url }), cwd: b2.project });
    try {
      await d2.init();
      const e = failure(await d2.request('models/complete', { model: 'sonnet', prompt: 'x' }));
      assert.match(e.message, /config\.yaml:\d+:\d+/);
      const b3 = failure(await d2.request('models/complete', { model: 'sonnet', prompt: 'x' }));
      assert.equal(b3.data.kind, 'config');
    } finally {
      assert.equal(await d2.close(), 0);
      b2.remove();
    }
  });

  it('exit with transfers in flight: every handle freed, exit 0, no sanitizer report', async () => {
    const s2 = await startServer();
    // Shutdown waits for the calls in flight up to the grace period, then answers them -32800.
    const d2 = new Daemon({ env: envFor(s2), cwd: box.project, args: ['--mcp', '--shutdown-grace=0.5'] });
    await d2.init();
    s2.plan('hang', ['stall', 'stall', 'stall', 'stall', 'stall', 'stall']);
    for (let i = 0; i < 6; i++) d2.request('models/complete', { model: 'anthropic.hang', prompt: 'x' });
    for (let i = 0; i < 200 && s2.requests.length < 6; i++) await new Promise((ok) => setTimeout(ok, 20));
    assert.equal(s2.requests.length, 6);
    d2.send({ jsonrpc: '2.0', id: 99, method: 'shutdown' });
    d2.send({ jsonrpc: '2.0', method: 'exit' });
    assert.equal(await d2.exit, 0, d2.stderr);
    await s2.close();
    assert.equal(d2.sanitizerReport(), null);
  });

  const valgrind = spawnSync('valgrind', ['--version']).status === 0;
  const sanitized = process.env.UPK_SANITIZE && process.env.UPK_SANITIZE !== 'none';
  it('under valgrind: completions, retries and SIGTERM with transfers in flight leak nothing',
    { skip: !valgrind ? 'valgrind not installed' : sanitized ? 'sanitizer build' : false, timeout: 120000 }, async () => {
      const s2 = await startServer();
      const d2 = new Daemon({ env: envFor(s2), cwd: box.project, args: ['--mcp', '--shutdown-grace=1'],
        wrapper: ['valgrind', '-q', '--leak-check=full', '--errors-for-leak-kinds=definite,indirect', '--error-exitcode=99'] });
      await d2.init();
      s2.plan('vg-retry', ['500', 'ok']);
      s2.plan('vg-hang', ['stall', 'stall']);
      const ok = await d2.request('models/complete', { model: 'anthropic.vg-retry', prompt: 'x' });
      assert.equal(result(ok).attempts, 2);
      d2.request('models/complete', { model: 'anthropic.vg-hang', prompt: 'x' });
      d2.request('models/complete', { model: 'openai.vg-hang', prompt: 'x' });
      for (let i = 0; i < 500 && s2.requests.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(s2.requests.length, 4);
      d2.child.kill('SIGTERM');
      assert.equal(await d2.exit, 0, d2.stderr);
      await s2.close();
    });
});

// A scripted model server on loopback that speaks the real wire formats of the Anthropic Messages
// API (POST /v1/messages, x-api-key, anthropic-version) and OpenAI Chat Completions (POST
// .../chat/completions, Authorization: Bearer), records every request, and injects faults.
//
// Faults are planned per model id: srv.plan('claude-x', ['429:1', '500', 'ok']) makes the next
// three requests for that model answer 429 with Retry-After: 1, then 500, then a real answer.
// Steps: 'ok', '<code>' or '<code>:<retry-after>', 'stall' (read the request, never answer),
// 'truncate' (Content-Length larger than what is sent, then close), 'reset' (destroy the
// socket), 'malformed' (200 with a body that is not JSON), 'echo-key' (200 quoting the key).
// Model ids starting with "nope" are unknown (404 in each provider's own error shape).
// Every answer waits `delayMs` first (0 unless set).
// Answer by rule: srv.rule = (body, api, rec) => text sets what an 'ok' step answers (the request's
// system prompt and messages decide, e.g. with-skill vs baseline); returning undefined falls back
// to the echo. `delayFor(body)` may give a per-request delay instead of `delayMs`.
//
// Standalone (for bench/models): node server.mjs [--delay MS] prints its base URL on stdout.
import http from 'node:http';
import { randomBytes } from 'node:crypto';

const words = (s) => String(s).split(/\s+/).filter(Boolean).length;

function anthropicAnswer(body, text) {
  const input = (body.system ? words(body.system) : 0) + body.messages.reduce((n, m) => n + words(m.content), 0);
  return {
    id: 'msg_' + randomBytes(8).toString('hex'), type: 'message', role: 'assistant', model: body.model,
    content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
    usage: { input_tokens: input, output_tokens: words(text), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function openaiAnswer(body, text) {
  const input = body.messages.reduce((n, m) => n + words(m.content), 0);
  return {
    id: 'chatcmpl-' + randomBytes(8).toString('hex'), object: 'chat.completion',
    created: Math.floor(Date.now() / 1000), model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: input, completion_tokens: words(text), total_tokens: input + words(text) },
  };
}

function errorBody(api, status, message, extra = {}) {
  if (api === 'anthropic') {
    const type = { 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 429: 'rate_limit_error', 529: 'overloaded_error' }[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }
  return { error: { message, type: status === 429 ? 'requests' : 'invalid_request_error', param: null, code: extra.code ?? null } };
}

export async function startServer({ delayMs = 0 } = {}) {
  const requests = [];
  const plans = new Map();
  const sockets = new Set();
  let inflight = 0, maxInflight = 0, closedEarly = 0;
  const srv = {
    requests, delayMs, rule: null, delayFor: null,
    get maxInflight() { return maxInflight; },
    get closedEarly() { return closedEarly; },
    plan(model, steps) { plans.set(model, [...steps]); },
    forModel(model) { return requests.filter((r) => r.body?.model === model); },
  };

  function send(res, status, obj, headers = {}) {
    const text = JSON.stringify(obj);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text),
      'request-id': 'req_' + randomBytes(6).toString('hex'), ...headers });
    res.end(text);
  }

  function answer(req, res, rec) {
    const { api, body } = rec;
    const key = api === 'anthropic' ? req.headers['x-api-key'] : (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const steps = plans.get(body.model);
    const step = (steps && steps.length ? steps.shift() : 'ok');
    rec.step = step;
    if (step === 'stall') return; // keep the socket open, answer nothing
    if (step === 'reset') { req.socket.destroy(); return; }
    if (step === 'truncate') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 4000 });
      res.write('{"id":"msg_cut","type":"message","content":[{"type":"text","text":"cut sh');
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    if (step === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 16 });
      res.end('{"id": "oops", "');
      return;
    }
    const code = /^\d{3}/.test(step) ? Number(step.slice(0, 3)) : 0;
    if (code) {
      const headers = step.includes(':') ? { 'retry-after': step.split(':')[1] } : {};
      const msg = code === 401 ? `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`
        : code === 429 ? 'Rate limit reached for requests' : `scripted ${code}`;
      return send(res, code, errorBody(api, code, msg, code === 401 ? { code: 'invalid_api_key' } : {}), headers);
    }
    if (String(body.model).startsWith('nope')) {
      const msg = api === 'anthropic' ? `model: ${body.model}` : `The model \`${body.model}\` does not exist or you do not have access to it.`;
      return send(res, 404, errorBody(api, 404, msg, { code: 'model_not_found' }));
    }
    const last = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const ruled = step === 'ok' && srv.rule ? srv.rule(body, api, rec) : undefined;
    const text = step === 'echo-key' ? `your key is ${key}` : ruled ?? `echo: ${last}`;
    send(res, 200, api === 'anthropic' ? anthropicAnswer(body, text) : openaiAnswer(body, text));
  }

  const server = http.createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { data += d; });
    req.on('end', () => {
      const api = req.url.endsWith('/v1/messages') ? 'anthropic' : req.url.endsWith('/chat/completions') ? 'openai' : null;
      let body = null;
      try { body = JSON.parse(data); } catch { /* recorded as null */ }
      const rec = { t: performance.now(), method: req.method, url: req.url, headers: req.headers, raw: data, body, api,
        remotePort: req.socket.remotePort };
      requests.push(rec);
      if (!api || !body) return send(res, 400, { error: { message: `unexpected ${req.method} ${req.url}` } });
      inflight++;
      maxInflight = Math.max(maxInflight, inflight);
      let done = false;
      const finish = () => { if (!done) { done = true; inflight--; } };
      res.on('finish', finish);
      res.on('close', () => { if (!res.writableFinished) closedEarly++; finish(); });
      setTimeout(() => answer(req, res, rec), srv.delayFor?.(body) ?? srv.delayMs);
    });
  });
  server.keepAliveTimeout = 30000;
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  srv.url = `http://127.0.0.1:${server.address().port}`;
  srv.close = () => new Promise((ok) => { for (const s of sockets) s.destroy(); server.close(() => ok()); });
  return srv;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--delay');
  const srv = await startServer({ delayMs: i > 0 ? Number(process.argv[i + 1]) : 0 });
  // --skill-rule MARKER: answers contain "MARKER" when the system prompt does (bench/eval).
  const r = process.argv.indexOf('--skill-rule');
  if (r > 0) {
    const marker = process.argv[r + 1];
    srv.rule = (body, api) => {
      const sys = api === 'anthropic' ? body.system ?? '' : body.messages.find((m) => m.role === 'system')?.content ?? '';
      return sys.includes(marker) ? `Use ${marker} here.` : 'No idea.';
    };
  }
  process.stdout.write(srv.url + '\n');
  process.on('SIGTERM', () => srv.close().then(() => process.exit(0)));
}

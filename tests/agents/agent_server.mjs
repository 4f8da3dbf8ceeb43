// A scripted model server on loopback for the real agent CLIs (Claude Code, Codex) run headless.
// It speaks the streamed Anthropic Messages API (POST /v1/messages?beta=true, SSE) as Claude Code
// expects and the streamed OpenAI Responses API (POST /v1/responses, SSE) as Codex expects (and,
// for text and raw tool calls only, Gemini's models/M:streamGenerateContent as Gemini CLI 0.61
// expects with GOOGLE_GEMINI_BASE_URL; its unscripted generateContent side calls get a JSON text
// that fits their schema), records every request, and answers each one with an action chosen by a policy over a parsed view of the
// conversation (which skills were listed, whether one was loaded, what tools returned).
//
// RECIPES (verified with Claude Code 2.1.331 and Codex 0.169.0 from npm, node 20, Debian 12, as root;
// the recorded outputs are in tests/evalskills/fixtures/agents/, see its README.md):
//
// Claude Code, cwd = workspace W, own H (HOME) and T (TMPDIR), stdin /dev/null:
//   cd W && env -i PATH=/usr/bin:/bin HOME=H TMPDIR=T IS_SANDBOX=1 \
//     ANTHROPIC_BASE_URL=http://127.0.0.1:PORT ANTHROPIC_API_KEY=sk-dummy \
//     CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 \
//     DISABLE_ERROR_REPORTING=1 [CLAUDE_CODE_MAX_RETRIES=1] \
//     claude -p "PROMPT" --output-format stream-json --verbose --dangerously-skip-permissions </dev/null
//   - As root, --dangerously-skip-permissions exits 1 at once ("cannot be used with root/sudo
//     privileges for security reasons") unless IS_SANDBOX=1. (--permission-mode acceptEdits instead
//     lets Write/Edit run but denies Bash commands that are not read-only: permission_denials.)
//   - Skills: W/.claude/skills/NAME/SKILL.md, H/.claude/skills, and .claude/skills (and CLAUDE.md) in
//     every parent of W up to / and /etc/claude-code: keep W in a fresh temp folder. No git needed.
//   - stdout: one JSON per line; the last is {"type":"result",...}. Exit 0; exit 1 with
//     is_error: true on an API error. About 1.0-1.5 s per run against this server.
//   - 5xx: retried 10 times with backoff (about 3 minutes), one {"type":"system","subtype":
//     "api_retry"} line each; CLAUDE_CODE_MAX_RETRIES=N caps that. A 400 is not retried but
//     re-sent with fewer beta headers (6 requests in all).
//   - strace -f -e trace=connect: only 127.0.0.1:PORT.
//
// Codex, cwd = workspace W, CODEX_HOME=C (also HOME=C) and TMPDIR=T, stdin /dev/null:
//   cd W && env -i PATH=/usr/bin:/bin HOME=C CODEX_HOME=C TMPDIR=T \
//     codex exec --json --skip-git-repo-check "PROMPT" </dev/null
//   C/config.toml:
//     model = "gpt-5.5"
//     model_provider = "mock"
//     approval_policy = "never"
//     sandbox_mode = "danger-full-access"
//     check_for_update_on_startup = false
//
//     [model_providers.mock]
//     name = "mock"
//     base_url = "http://127.0.0.1:PORT/v1"
//     wire_api = "responses"
//     experimental_bearer_token = "sk-dummy"
//     request_max_retries = 0     # optional: fail fast on 5xx (default: 30 requests, about 25 s)
//     stream_max_retries = 0
//
//     [features]
//     plugins = false
//     remote_plugin = false
//     apps = false
//     tool_suggest = false
//
//     [analytics]
//     enabled = false
//   - Skills: W/.agents/skills/NAME/SKILL.md, also C/skills, HOME/.agents/skills, /etc/codex/skills;
//     C/skills/.system gets its built-ins (imagegen, openai-docs, skill-creator, ...) on first run.
//   - W need not be a git repository with --skip-git-repo-check; without it, outside a git repo,
//     it exits 1: "Not inside a trusted directory and --skip-git-repo-check was not specified."
//   - stdout: JSON lines (thread.started, turn.started, item.started/item.completed, then
//     turn.completed, or error lines and turn.failed with exit 1). stderr always says "Reading
//     additional input from stdin..." even with </dev/null. About 1.0-1.5 s per run.
//   - strace -f -e trace=connect: only 127.0.0.1:PORT (plus failed AF_UNIX nscd look-ups by the
//     shells it spawns).
//
// API: const srv = await startAgentServer({ policy, fault, port, delayMs, log })
//   srv.url (no trailing slash; Codex needs base_url = srv.url + '/v1'), srv.port, srv.requests
//   (every request: {t, method, url, api, headers, body, sessionId, view, action, usage, status}),
//   srv.sessions() (ids), srv.forSession(id), srv.usageFor(id) -> {input_tokens, output_tokens,
//   requests} (sums of what the server reported), srv.summary() (per session: prompt, skills
//   listed, loaded, actions, usage), srv.fault = null | status (answer every model request with
//   that HTTP error, e.g. 500 or 400), srv.close().
//   The same summary is served at GET /_agent/sessions (for shell scripts).
// Usage: each 200 answer reports input_tokens = 100 + 7*turn + h%50 and output_tokens = 20 + 3*turn +
//   (h>>>8)%13 (h from a hash of the session id), so the sums differ per session. Claude's result
//   line and Codex's turn.completed usage equal srv.usageFor(id). (Claude's per-message stream-json
//   lines carry output_tokens: 1, from message_start; only its result line has the real sum.)
// Policy: policy(view, rec) -> action, given view = {api, sessionId, cwd, prompt, skillsListed:
//   [{name, description, path, builtin}], skillLoaded, skillName, skillBody, toolCalls: [{name,
//   input}], toolResults: [{name, input, output}], wrote, turn}. Actions: {text}, {loadSkill: name},
//   {write: {path, content}} (Claude: Write; Codex: apply_patch, or exec_command heredoc with
//   via: 'exec'), {bash: cmd}, {tool: {name, input, namespace}} (raw; namespace: Codex's, e.g.
//   mcp__upskilld for an MCP server's tool), {toolSearch: {query, limit}} (Codex's client-side
//   tool_search; Claude's is {tool: {name: 'ToolSearch', ...}}), {error: status}. Returning undefined
//   falls back to the default policy. The default policy is documented at defaultPolicy below.
//
// Standalone: node tests/agents/agent_server.mjs [--port N] [--fault STATUS] [--verbose] prints its
// base URL on stdout and serves until killed (--verbose logs each decision on stderr).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

const SKILL_HEADER = 'The following skills are available for use with the Skill tool:';
// Skills Claude Code 2.1.331 lists by itself (bundled); names here are never picked by the default
// policy unless the workspace holds a skill of that name.
const CLAUDE_BUILTIN = new Set(['deep-research', 'dataviz', 'update-config', 'keybindings-help', 'verify', 'debug',
  'code-review', 'simplify', 'batch', 'fewer-permission-prompts', 'doctor', 'loop', 'claude-api',
  'workflow-authoring', 'run', 'run-skill-generator', 'plugin-authoring', 'init', 'security-review', 'statusline']);

const id = (p) => p + randomBytes(12).toString('hex');
const hash = (s) => createHash('sha256').update(String(s)).digest().readUInt32BE(0);
const textOf = (c) => typeof c === 'string' ? c
  : Array.isArray(c) ? c.map((b) => typeof b === 'string' ? b : b?.text ?? (b?.type === 'tool_result' ? textOf(b.content) : '')).join('\n')
    : c?.text ?? '';
const answerLine = (body) => /ANSWER:[^\r\n]*/.exec(body ?? '')?.[0]?.trim();
const shq = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

// ---------- parsing what each CLI sent into one view ----------

function parseClaudeSkills(text, cwd) {
  const i = text.indexOf(SKILL_HEADER);
  if (i < 0) return null;
  const out = [];
  for (const line of text.slice(i + SKILL_HEADER.length).replace(/^\s*\n/, '').split('\n')) {
    if (!line.trim()) { if (out.length) break; continue; }
    const m = /^- ([^:\s][^:]*?): ?(.*)$/.exec(line);
    if (m) out.push({ name: m[1], description: m[2] });
    else if (out.length) out.at(-1).description += '\n' + line;
    else break;
  }
  for (const s of out) {
    const p = cwd && path.join(cwd, '.claude', 'skills', s.name, 'SKILL.md');
    s.path = p && fs.existsSync(p) ? p : null;
    s.builtin = !s.path && CLAUDE_BUILTIN.has(s.name);
  }
  return out;
}

function parseCodexSkills(text) {
  const i = text.indexOf('<skills_instructions>');
  if (i < 0) return null;
  const roots = {};
  for (const m of text.slice(i).matchAll(/^- `(r\d+)` = `([^`]+)`$/gm)) roots[m[1]] = m[2];
  const out = [];
  for (const m of text.slice(i).matchAll(/^- ([^:\n`]+): (.*) \(file: ([^)\n]+)\)$/gm)) {
    const [root, ...rest] = m[3].split('/');
    const p = roots[root] ? path.join(roots[root], ...rest) : m[3];
    out.push({ name: m[1], description: m[2], path: p, builtin: /\/skills\/\.system\//.test(p) });
  }
  return out;
}

const stripLineNumbers = (s) => s.split('\n').map((l) => l.replace(/^\s*\d+[\t→]/, '')).join('\n');
const isSkillFile = (s) => /SKILL\.md\b/.test(s ?? '');

function claudeView(body, headers) {
  const msgs = body.messages ?? [];
  const sysText = textOf(body.system) + '\n' + msgs.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n');
  const allText = sysText + '\n' + msgs.map((m) => textOf(m.content)).join('\n');
  const cwd = /Primary working directory: (.+)/.exec(allText)?.[1]?.trim() ?? null;
  const first = msgs.find((m) => m.role === 'user');
  const blocks = typeof first?.content === 'string' ? [{ type: 'text', text: first.content }] : first?.content ?? [];
  const prompt = blocks.filter((b) => b.type === 'text' && !/^\s*<system-reminder>/.test(b.text)).map((b) => b.text).join('\n');
  const calls = new Map();
  const toolCalls = [], toolResults = [];
  let skillName = null, skillBody = null;
  for (const m of msgs) {
    if (!Array.isArray(m.content)) continue;
    for (const [k, b] of m.content.entries()) {
      if (m.role === 'assistant' && b.type === 'tool_use') {
        const c = { id: b.id, name: b.name, input: b.input };
        calls.set(b.id, c); toolCalls.push(c);
      } else if (b.type === 'tool_result') {
        const c = calls.get(b.tool_use_id) ?? { name: null, input: null };
        const output = textOf(b.content);
        toolResults.push({ name: c.name, input: c.input, output, is_error: !!b.is_error });
        if (b.is_error) continue;
        if (c.name === 'Skill') {
          // The body comes as text blocks beside the tool_result (or inside it).
          const rest = m.content.slice(k + 1).filter((x) => x.type === 'text').map((x) => x.text).join('\n');
          const both = output + '\n' + rest;
          if (/Base directory for this skill/.test(both)) { skillName = c.input?.skill ?? skillName; skillBody = both; }
        } else if (c.name === 'Read' && isSkillFile(c.input?.file_path)) {
          skillName = path.basename(path.dirname(c.input.file_path)); skillBody = stripLineNumbers(output);
        } else if (c.name === 'Bash' && isSkillFile(c.input?.command) && /\bcat\b/.test(c.input.command)) {
          skillName = /([^/\s'"]+)\/SKILL\.md/.exec(c.input.command)?.[1] ?? skillName; skillBody = output;
        }
      } else if (m.role === 'user' && b.type === 'text' && /Base directory for this skill/.test(b.text) && !skillBody) {
        skillBody = b.text; // e.g. a skill invoked as /name by the user
      }
    }
  }
  return {
    api: 'anthropic', sessionId: headers['x-claude-code-session-id'] ?? null, model: body.model, cwd, prompt,
    skillsListed: parseClaudeSkills(sysText, cwd) ?? parseClaudeSkills(allText, cwd) ?? [],
    skillLoaded: skillBody != null, skillName, skillBody, toolCalls, toolResults,
    wrote: toolCalls.some((c) => c.name === 'Write' || c.name === 'Edit'),
    turn: msgs.filter((m) => m.role === 'assistant').length,
  };
}

const SKIP_USER = /^\s*(<environment_context>|<user_instructions>|<permissions instructions>|<skills_instructions>|<turn_aborted>|# AGENTS\.md instructions)/;

function codexOutputBody(out) {
  const s = typeof out === 'string' ? out : textOf(out?.content ?? out);
  const i = s.indexOf('\nOutput:\n');
  return i >= 0 ? s.slice(i + 9) : s;
}

function codexView(body, headers) {
  const items = body.input ?? [];
  const text = (it) => textOf(it.content);
  const dev = items.filter((it) => it.type === 'message' && (it.role === 'developer' || it.role === 'system')).map(text).join('\n')
    + '\n' + (body.instructions ?? '');
  const all = items.filter((it) => it.type === 'message').map(text).join('\n');
  const cwd = /<cwd>([^<]+)<\/cwd>/.exec(all)?.[1] ?? null;
  let prompt = '';
  for (const it of items) {
    if (it.type !== 'message' || it.role !== 'user') continue;
    const parts = (Array.isArray(it.content) ? it.content : [{ text: text(it) }]).map((c) => c.text ?? '').filter((t) => t && !SKIP_USER.test(t));
    if (parts.length) { prompt = parts.join('\n'); break; }
  }
  const skillsListed = parseCodexSkills(dev) ?? parseCodexSkills(all) ?? [];
  const calls = new Map();
  const toolCalls = [], toolResults = [];
  let skillName = null, skillBody = null, turn = 0;
  for (const it of items) {
    if (it.type === 'function_call' || it.type === 'custom_tool_call' || it.type === 'local_shell_call' || it.type === 'tool_search_call') {
      turn++;
      let input = it.input ?? it.arguments ?? it.action;
      if (it.type === 'function_call') { try { input = JSON.parse(it.arguments); } catch { /* keep the string */ } }
      const c = { id: it.call_id, name: it.type === 'tool_search_call' ? 'tool_search' : it.name ?? it.type, input };
      calls.set(it.call_id, c); toolCalls.push(c);
    } else if (it.type === 'message' && it.role === 'assistant') {
      turn++;
    } else if (it.type === 'tool_search_output') {
      const c = calls.get(it.call_id) ?? { name: null, input: null };
      toolResults.push({ name: c.name, input: c.input, output: JSON.stringify(it.tools ?? []) });
    } else if (it.type === 'function_call_output' || it.type === 'custom_tool_call_output') {
      const c = calls.get(it.call_id) ?? { name: null, input: null };
      const output = codexOutputBody(it.output);
      toolResults.push({ name: c.name, input: c.input, output });
      const cmd = typeof c.input === 'object' ? c.input?.cmd ?? [].concat(c.input?.command ?? []).join(' ') : '';
      const listed = skillsListed.find((s) => (cmd && cmd.includes(s.path)) || (s.body ??= readSafe(s.path)) && output.includes(s.body.trim()));
      if (listed || (isSkillFile(cmd) && /\b(cat|sed|head|nl)\b/.test(cmd))) {
        skillName = listed?.name ?? /([^/\s'"]+)\/SKILL\.md/.exec(cmd)?.[1] ?? null;
        skillBody = output;
      }
    }
  }
  for (const s of skillsListed) delete s.body;
  return {
    api: 'responses', sessionId: headers['session-id'] ?? headers['thread-id'] ?? headers['x-client-request-id'] ?? null,
    model: body.model, cwd, prompt, skillsListed, skillLoaded: skillBody != null, skillName, skillBody, toolCalls, toolResults,
    wrote: toolCalls.some((c) => c.name === 'apply_patch' || (c.name === 'exec_command' && /^cat > .* <<'UPK_EOF/.test(c.input?.cmd ?? ''))),
    turn,
  };
}

// Gemini CLI (generateContent): contents of {role: user | model, parts: [{text} | {functionCall:
// {name, args}} | {functionResponse: {name, response}}]}. Only text and raw tool calls are scripted.
function geminiView(body, headers) {
  const contents = body.contents ?? [];
  const texts = (c) => (c.parts ?? []).filter((x) => typeof x.text === 'string').map((x) => x.text);
  const first = contents.find((c) => c.role === 'user' && texts(c).length);
  const toolCalls = [], toolResults = [];
  for (const c of contents) {
    for (const part of c.parts ?? []) {
      if (part.functionCall) toolCalls.push({ id: part.functionCall.id, name: part.functionCall.name, input: part.functionCall.args });
      if (part.functionResponse) {
        const r = part.functionResponse.response ?? {};
        toolResults.push({ name: part.functionResponse.name, input: null,
          output: typeof r.output === 'string' ? r.output : JSON.stringify(r), is_error: r.error != null });
      }
    }
  }
  return { api: 'gemini', sessionId: headers['x-gemini-session-id'] ?? null, model: null, cwd: null,
    prompt: first ? texts(first).at(-1) : '', skillsListed: [], skillLoaded: false, skillName: null, skillBody: null,
    toolCalls, toolResults, wrote: false, turn: contents.filter((c) => c.role === 'model').length };
}

// A JSON text that fits a side call's response schema (Gemini CLI's model router asks for one):
// the first enum value, or a placeholder string, per property.
function fitSchema(schema) {
  if (!schema || typeof schema !== 'object') return 'scripted';
  if (schema.enum) return schema.enum[0];
  const t = String(schema.type ?? '').toLowerCase();
  if (t === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fitSchema(v)]));
  if (t === 'array') return [];
  if (t === 'boolean') return false;
  if (t === 'number' || t === 'integer') return 0;
  return 'scripted';
}

function readSafe(p) { try { return fs.readFileSync(p, 'utf8'); } catch { return null; } }

// ---------- the default policy ----------

// (a) A non-built-in listed skill whose name appears in the prompt as a word, or the first one when
//     the prompt says TRIGGER, is loaded once (never when it says NOTRIGGER).
// (b) "write FILE" in the prompt: write FILE once, with the skill's "ANSWER:" line or "no idea".
// (c) Otherwise answer with the skill's "ANSWER:" line, or "I do not know the house rule.".
export function defaultPolicy(v) {
  const p = v.prompt ?? '';
  const own = v.skillsListed.filter((s) => !s.builtin);
  const loadTried = v.toolCalls.some((c) => c.name === 'Skill' || isSkillFile(JSON.stringify(c.input ?? '')));
  if (!v.skillLoaded && !loadTried && !/NOTRIGGER/.test(p)) {
    const word = (n) => new RegExp(`(^|[^\\w-])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w-]|$)`).test(p);
    const s = own.find((x) => word(x.name)) ?? (/(^|[^A-Za-z])TRIGGER\b/.test(p) ? own[0] : null);
    if (s) return { loadSkill: s.name };
  }
  const answer = (v.skillLoaded && answerLine(v.skillBody)) || null;
  const w = /\bwrite\s+([^\s'"`]+?)[.,;:!?'")]*(?=\s|$)/.exec(p);
  if (w && !v.wrote) return { write: { path: w[1], content: answer ?? 'no idea' } };
  return { text: answer ?? 'I do not know the house rule.' };
}

// Codex's config.toml (CODEX_HOME) pointing it at this server (`url`: srv.url), as the recipe
// at the top says.
export function codexConfig(url) {
  return `model = "gpt-5.5"
model_provider = "mock"
approval_policy = "never"
check_for_update_on_startup = false
[model_providers.mock]
name = "mock"
base_url = "${url}/v1"
wire_api = "responses"
experimental_bearer_token = "sk-dummy"
request_max_retries = 0
stream_max_retries = 0
[features]
plugins = false
remote_plugin = false
apps = false
tool_suggest = false
[analytics]
enabled = false
`;
}

// ---------- answering ----------

function usageFor(sessionId, turn) {
  const h = hash(sessionId ?? 'none');
  return { input_tokens: 100 + 7 * turn + (h % 50), output_tokens: 20 + 3 * turn + ((h >>> 8) % 13) };
}

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive',
    'request-id': id('req_'), 'x-request-id': id('req_') });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

// Tool input in deltas of 40 characters, at most about 64 of them (a 16 MiB argument stays quick).
const bigChunks = (s) => chunks(s, Math.max(40, Math.ceil(s.length / 64)));
const chunks = (s, n = 24) => { const out = []; for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n)); return out.length ? out : ['']; };

// Turn an action into one (name, input) tool call or a text, per API.
function claudeBlock(action, view) {
  if (action.text != null) return { text: String(action.text) };
  if (action.loadSkill) return { tool: 'Skill', input: { skill: action.loadSkill } };
  if (action.write) return { tool: 'Write', input: { file_path: path.resolve(view.cwd ?? '/', action.write.path), content: action.write.content } };
  if (action.bash) return { tool: 'Bash', input: { command: action.bash, description: 'Run a command' } };
  if (action.tool) return { tool: action.tool.name, input: action.tool.input };
  throw new Error('unknown action ' + JSON.stringify(action));
}

function codexItem(action, view) {
  if (action.text != null) return { text: String(action.text) };
  const exec = (cmd) => ({ tool: 'exec_command', input: { cmd, ...(view.cwd ? { workdir: view.cwd } : {}) } });
  if (action.loadSkill) {
    const s = view.skillsListed.find((x) => x.name === action.loadSkill);
    return exec(`cat ${shq(s?.path ?? path.join(view.cwd ?? '.', '.agents/skills', action.loadSkill, 'SKILL.md'))}`);
  }
  if (action.write) {
    const { path: p, content, via } = action.write;
    if (via === 'exec') return exec(`cat > ${shq(p)} <<'UPK_EOF'\n${content}\nUPK_EOF`);
    const body = String(content).split('\n').map((l) => '+' + l).join('\n');
    return { tool: 'apply_patch', custom: true, input: `*** Begin Patch\n*** Add File: ${p}\n${body}\n*** End Patch\n` };
  }
  if (action.bash) return exec(action.bash);
  if (action.tool) {
    return { tool: action.tool.name, input: action.tool.input, custom: typeof action.tool.input === 'string',
      namespace: action.tool.namespace };
  }
  if (action.toolSearch) return { search: action.toolSearch };
  throw new Error('unknown action ' + JSON.stringify(action));
}

function answerClaude(res, body, out, usage) {
  const msgId = id('msg_');
  const ev = [['message_start', { type: 'message_start', message: { id: msgId, type: 'message', role: 'assistant', model: body.model,
    content: [], stop_reason: null, stop_sequence: null,
    usage: { input_tokens: usage.input_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } } }],
  ['ping', { type: 'ping' }]];
  if (out.text != null) {
    ev.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }]);
    for (const c of chunks(out.text)) ev.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: c } }]);
  } else {
    ev.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: id('toolu_'), name: out.tool, input: {} } }]);
    for (const c of bigChunks(JSON.stringify(out.input))) ev.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: c } }]);
  }
  ev.push(['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: out.text != null ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens } }],
    ['message_stop', { type: 'message_stop' }]);
  sse(res, ev);
}

function answerResponses(res, body, out, usage) {
  const respId = id('resp_');
  let seq = 0;
  const e = (type, data) => [type, { type, sequence_number: seq++, ...data }];
  const base = { id: respId, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model };
  let item;
  const ev = [e('response.created', { response: { ...base, status: 'in_progress', output: [] } }),
    e('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } })];
  if (out.text != null) {
    const itemId = id('msg_');
    item = { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: out.text, annotations: [] }] };
    ev.push(e('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
      e('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }));
    for (const c of chunks(out.text)) ev.push(e('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: c }));
    ev.push(e('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text: out.text }),
      e('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: item.content[0] }));
  } else if (out.search) {
    // Codex's client-side tool search (its deferred MCP tools): a tool_search_call item.
    item = { id: id('tsc_'), type: 'tool_search_call', status: 'completed', call_id: id('call_'), execution: 'client',
      arguments: out.search };
    ev.push(e('response.output_item.added', { output_index: 0, item }));
  } else if (out.custom) {
    const itemId = id('ctc_');
    item = { id: itemId, type: 'custom_tool_call', status: 'completed', call_id: id('call_'), name: out.tool, input: out.input };
    ev.push(e('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', input: '' } }));
    for (const c of chunks(out.input, 40)) ev.push(e('response.custom_tool_call_input.delta', { item_id: itemId, output_index: 0, delta: c }));
    ev.push(e('response.custom_tool_call_input.done', { item_id: itemId, output_index: 0, input: out.input }));
  } else {
    const itemId = id('fc_'), args = JSON.stringify(out.input);
    item = { id: itemId, type: 'function_call', status: 'completed', call_id: id('call_'), name: out.tool, arguments: args,
      ...(out.namespace ? { namespace: out.namespace } : {}) };
    ev.push(e('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }));
    for (const c of bigChunks(args)) ev.push(e('response.function_call_arguments.delta', { item_id: itemId, output_index: 0, delta: c }));
    ev.push(e('response.function_call_arguments.done', { item_id: itemId, output_index: 0, arguments: args }));
  }
  ev.push(e('response.output_item.done', { output_index: 0, item }),
    e('response.completed', { response: { ...base, status: 'completed', output: [item], usage: {
      input_tokens: usage.input_tokens, input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output_tokens, output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens } } }));
  sse(res, ev);
}

function answerGemini(res, out, usage) {
  const part = out.text != null ? { text: String(out.text) } : { functionCall: { name: out.tool, args: out.input ?? {} } };
  const chunk = { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: usage.input_tokens, candidatesTokenCount: usage.output_tokens,
      totalTokenCount: usage.input_tokens + usage.output_tokens }, modelVersion: 'scripted' };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
}

function errorBody(api, status, message) {
  if (api === 'anthropic') {
    const type = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
      429: 'rate_limit_error', 529: 'overloaded_error' }[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } };
}

export async function startAgentServer(opts = {}) {
  const requests = [];
  const usage = new Map();
  const sockets = new Set();
  const policy = opts.policy ?? defaultPolicy;
  const log = opts.log ?? (() => {});
  const srv = {
    requests, fault: opts.fault ?? null, delayMs: opts.delayMs ?? 0, policy,
    sessions: () => [...new Set(requests.filter((r) => r.sessionId).map((r) => r.sessionId))],
    forSession: (s) => requests.filter((r) => r.sessionId === s),
    usageFor: (s) => ({ ...(usage.get(s) ?? { input_tokens: 0, output_tokens: 0, requests: 0 }) }),
    summary() {
      const out = {};
      for (const s of srv.sessions()) {
        const rs = srv.forSession(s).filter((r) => r.view);
        const last = rs.at(-1)?.view;
        out[s] = { api: rs[0]?.api, prompt: rs[0]?.view.prompt, cwd: rs[0]?.view.cwd, requests: rs.length,
          skillsListed: (rs[0]?.view.skillsListed ?? []).map(({ name, path: p, builtin }) => ({ name, path: p, builtin })),
          skillLoaded: rs.some((r) => r.view.skillLoaded), skillName: rs.map((r) => r.view.skillName).filter(Boolean).at(-1) ?? null,
          answer: last?.skillLoaded ? answerLine(last.skillBody) ?? null : null,
          actions: rs.map((r) => r.action), statuses: rs.map((r) => r.status), usage: srv.usageFor(s) };
      }
      return out;
    },
  };

  const sendJson = (res, status, obj, headers = {}) => {
    const text = JSON.stringify(obj);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': id('req_'), ...headers });
    res.end(text);
  };

  function handle(req, res, rec) {
    const u = new URL(req.url, 'http://x');
    const p = u.pathname.replace(/\/+$/, '') || '/';
    if (req.method === 'HEAD' || (req.method === 'GET' && p === '/')) { res.writeHead(200, { 'content-type': 'text/plain' }); return res.end(req.method === 'HEAD' ? undefined : 'ok'); }
    if (req.method === 'GET' && p === '/_agent/sessions') return sendJson(res, 200, srv.summary());
    if (req.method === 'GET' && /\/models$/.test(p)) {
      return sendJson(res, 200, { object: 'list', data: [{ id: 'claude-opus-5-5', type: 'model', object: 'model', display_name: 'scripted' },
        { id: 'gpt-5.5', object: 'model', owned_by: 'scripted' }], models: [], has_more: false });
    }
    if (req.method === 'POST' && /\/messages\/count_tokens$/.test(p)) {
      return sendJson(res, 200, { input_tokens: Math.ceil(rec.raw.length / 4) });
    }
    const gemini = req.method === 'POST' ? /\/models\/[^/:]+:(streamGenerateContent|generateContent)$/.exec(p) : null;
    if (gemini?.[1] === 'generateContent' && rec.body) { // a side call (model routing): not scripted
      const text = JSON.stringify(fitSchema(rec.body.generationConfig?.responseJsonSchema ?? rec.body.generationConfig?.responseSchema));
      return sendJson(res, 200, { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }] });
    }
    const api = req.method === 'POST' && /\/v1\/messages$/.test(p) ? 'anthropic' : req.method === 'POST' && /\/responses$/.test(p) ? 'responses'
      : gemini ? 'gemini' : null;
    rec.api = api;
    if (!api) { log(`unexpected ${req.method} ${req.url}`); return sendJson(res, 404, { error: { message: `unexpected ${req.method} ${req.url}` } }); }
    if (!rec.body) return sendJson(res, 400, errorBody(api, 400, 'body is not JSON'));
    const view = api === 'anthropic' ? claudeView(rec.body, req.headers) : api === 'gemini' ? geminiView(rec.body, req.headers)
      : codexView(rec.body, req.headers);
    rec.view = view;
    rec.sessionId = view.sessionId;
    let action;
    try {
      action = srv.fault ? { error: srv.fault } : (srv.policy(view, rec) ?? defaultPolicy(view));
    } catch (e) { action = { error: 500, message: `policy failed: ${e.message}` }; }
    rec.action = action;
    log(`${api} ${view.sessionId} turn ${view.turn} -> ${JSON.stringify(action)}`);
    if (action.error) {
      rec.status = action.error;
      return sendJson(res, action.error, errorBody(api, action.error, action.message ?? `scripted ${action.error}`));
    }
    const out = api === 'anthropic' || api === 'gemini' ? claudeBlock(action, view) : codexItem(action, view);
    const u2 = usageFor(view.sessionId, view.turn);
    rec.usage = u2;
    rec.status = 200;
    const sum = usage.get(view.sessionId) ?? { input_tokens: 0, output_tokens: 0, requests: 0 };
    sum.input_tokens += u2.input_tokens; sum.output_tokens += u2.output_tokens; sum.requests++;
    usage.set(view.sessionId, sum);
    if (api === 'gemini') return answerGemini(res, out, u2);
    (api === 'anthropic' ? answerClaude : answerResponses)(res, rec.body, out, u2);
  }

  const server = http.createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { data += d; });
    req.on('end', () => {
      let body = null;
      try { body = data ? JSON.parse(data) : null; } catch { /* recorded as null */ }
      const rec = { t: performance.now(), method: req.method, url: req.url, headers: req.headers, raw: data, body,
        api: null, sessionId: null, view: null, action: null, usage: null, status: null };
      if (!req.url.startsWith('/_agent/')) requests.push(rec);
      setTimeout(() => {
        try { handle(req, res, rec); } catch (e) { log(`error: ${e.stack}`); if (!res.headersSent) sendJson(res, 500, { error: { message: e.message } }); }
      }, srv.delayMs);
    });
  });
  server.keepAliveTimeout = 30000;
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((ok, fail) => { server.once('error', fail); server.listen(opts.port ?? 0, '127.0.0.1', ok); });
  srv.port = server.address().port;
  srv.url = `http://127.0.0.1:${srv.port}`;
  srv.close = () => new Promise((ok) => { for (const s of sockets) s.destroy(); server.close(() => ok()); });
  return srv;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : undefined; };
  const srv = await startAgentServer({
    port: arg('--port') ? Number(arg('--port')) : 0, fault: arg('--fault') ? Number(arg('--fault')) : null,
    log: process.argv.includes('--verbose') ? (s) => process.stderr.write(s + '\n') : undefined,
  });
  process.stdout.write(srv.url + '\n');
  const stop = () => srv.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

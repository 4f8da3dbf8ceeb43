/* Trace condensation: reading JSON traces with jansson.
 *
 * Accepted: a message array, {"messages": [...]}, Claude Code's session
 * JSONL ({"type": "user"|"assistant", "message": {"role", "content"}} per
 * line, with summary / system / snapshot lines around), and Codex CLI's
 * rollout JSONL (condense_codex.c). Messages may be Anthropic-shaped
 * (content blocks text / tool_use / tool_result with is_error) or
 * OpenAI-shaped (tool_calls with JSON-string arguments, role "tool"
 * answers). Tools are recognised by their input, not their name: a
 * "command" is a shell command, a path with content is a file write, a
 * path with old/new strings (or MultiEdit's "edits") is an edit, a patch
 * is a Codex apply_patch. Anything else: a clear error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_jsonint.h"
#include "common/xalloc.h"

#define EXPECTED                                                                                   \
  "expected a JSON array of {role, content} messages (Anthropic or OpenAI, or "                    \
  "{\"messages\": [...]}), Claude Code session lines ({\"type\": \"user\"|\"assistant\", "         \
  "\"message\": ...}) or Codex rollout lines ({\"type\": \"response_item\", \"payload\": ...})"

const char *jr_str(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* The first of several keys that holds a string. */
static const char *any_str(json_t *o, const char *const *keys) {
  for (; *keys; keys++)
    if (jr_str(o, *keys))
      return jr_str(o, *keys);
  return NULL;
}

static const char *const PATH_KEYS[] = {"file_path", "path", "target_file", "filename", NULL};
static const char *const EDIT_KEYS[] = {"old_string", "old_str", "new_string", "new_str", NULL};

static int remember(jread *r, const char *id, const char *label, bool shell, bool read) {
  if (!id)
    return 0;
  jcall *p = upk_xrealloc(r->calls, (r->n_calls + 1) * sizeof *p);
  r->calls = p;
  jcall *c = &p[r->n_calls++];
  c->id = upk_xstrdup(id);
  c->label = upk_xstrdup(label ? label : "a tool");
  c->shell = shell;
  c->read = read;
  return c->id && c->label ? 0 : -ENOMEM;
}

int jr_shell(jread *r, const char *id, const char *cmd) {
  int rc = upk__ct_command(r->t, cmd);
  return rc ? rc : remember(r, id, cmd, true, false);
}

static int edits(jread *r, const char *path, json_t *in) {
  static const char *const olds[] = {"old_string", "old_str", NULL};
  static const char *const news[] = {"new_string", "new_str", NULL};
  const char *o = any_str(in, olds), *n = any_str(in, news);
  if (o && n)
    return upk__ct_edit(r->t, path, o, n);
  json_t *list = json_object_get(in, "edits"); /* MultiEdit */
  for (size_t i = 0; i < json_array_size(list); i++) {
    json_t *e = json_array_get(list, i);
    o = any_str(e, olds);
    n = any_str(e, news);
    int rc = o && n ? upk__ct_edit(r->t, path, o, n) : 0;
    if (rc)
      return rc;
  }
  return 0;
}

int jr_tool_call(jread *r, const char *id, const char *name, json_t *in) {
  static const char *const contents[] = {"content", "file_text", "contents", NULL};
  static const char *const patches[] = {"patch", "input", NULL};
  const char *cmd = jr_str(in, "command") ? jr_str(in, "command") : jr_str(in, "cmd");
  const char *path = any_str(in, PATH_KEYS), *content = any_str(in, contents);
  const char *patch = any_str(in, patches);
  int rc = 0;
  if (cmd && !path)
    return jr_shell(r, id, cmd);
  bool read = false;
  if (path && content)
    rc = upk__ct_write(r->t, path, content);
  else if (path && !(read = !json_object_get(in, "edits") && !any_str(in, EDIT_KEYS) &&
                            !json_object_get(in, "pattern"))) /* not Grep, Glob */
    rc = edits(r, path, in);
  else if (!path && patch && strstr(patch, "*** Begin Patch"))
    rc = upk__ct_apply_patch(r->t, patch) == -ENOMEM ? -ENOMEM : 0;
  return rc ? rc : remember(r, id, read ? path : name, false, read);
}

/* OpenAI: {"function": {"name", "arguments": "<JSON text>"}}. */
static int openai_calls(jread *r, json_t *calls) {
  for (size_t i = 0; i < json_array_size(calls); i++) {
    json_t *c = json_array_get(calls, i), *fn = json_object_get(c, "function");
    const char *args = jr_str(fn, "arguments");
    json_t *in = args ? json_loads(args, 0, NULL) : NULL;
    int rc = jr_tool_call(r, jr_str(c, "id"), jr_str(fn, "name"),
                          in ? in : json_object_get(fn, "input"));
    json_decref(in);
    if (rc)
      return rc;
  }
  return 0;
}

/* Text of a content value: a string, or a list of blocks with "text". */
static char *text_of(json_t *content) {
  if (json_is_string(content))
    return upk_xstrdup(json_string_value(content));
  char *out = NULL;
  for (size_t i = 0; i < json_array_size(content); i++) {
    const char *s = jr_str(json_array_get(content, i), "text");
    if (s && upk__ct_append(&out, "%s\n", s))
      break;
  }
  return out ? out : upk_xstrdup("");
}

int jr_tool_result(jread *r, const char *id, const char *text, bool is_error) {
  const jcall *c = NULL;
  for (size_t i = r->n_calls; id && i > 0; i--)
    if (strcmp(r->calls[i - 1].id, id) == 0) {
      c = &r->calls[i - 1];
      break;
    }
  if (c && c->read && !is_error) /* what a file holds: the base of its edits */
    return upk__ct_read(r->t, c->label, text);
  /* Outputs of reads and searches are code, full of the word "error":
   * only a shell command's output is searched for errors. */
  if (!is_error && !(c && c->shell))
    return 0;
  return upk__ct_output(r->t, c ? c->label : NULL, text, is_error);
}

static int result_block(jread *r, json_t *b) {
  char *text = text_of(json_object_get(b, "content"));
  if (!text)
    return -ENOMEM;
  int rc = jr_tool_result(r, jr_str(b, "tool_use_id"), text,
                          json_is_true(json_object_get(b, "is_error")));
  free(text);
  return rc;
}

/* Text an agent harness injects into user turns, not the person's words. */
static bool harness_text(const char *s) {
  static const char *const tags[] = {"<system-reminder>",
                                     "<command-",
                                     "<local-command",
                                     "Caveat: The messages below",
                                     "<environment_context>",
                                     "<user_instructions>",
                                     "# AGENTS.md instructions",
                                     "<permissions instructions>",
                                     "[Request interrupted",
                                     "<user-prompt-submit-hook>",
                                     NULL};
  s += strspn(s, " \t\r\n");
  for (const char *const *t = tags; *t; t++)
    if (strncmp(s, *t, strlen(*t)) == 0)
      return true;
  return false;
}

int jr_text(jread *r, bool user, const char *s) {
  return s && !harness_text(s) ? upk__ct_text(r->t, user, s) : 0;
}

static int blocks(jread *r, bool user, json_t *content) {
  if (json_is_string(content))
    return jr_text(r, user, json_string_value(content));
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < json_array_size(content); i++) {
    json_t *b = json_array_get(content, i);
    const char *type = jr_str(b, "type");
    if (!type)
      continue;
    if (strcmp(type, "text") == 0)
      rc = jr_text(r, user, jr_str(b, "text"));
    else if (strcmp(type, "tool_use") == 0)
      rc = jr_tool_call(r, jr_str(b, "id"), jr_str(b, "name"), json_object_get(b, "input"));
    else if (strcmp(type, "tool_result") == 0)
      rc = result_block(r, b);
  }
  return rc;
}

/* One message, or one Claude Code line wrapping a message. */
static int entry(jread *r, json_t *e) {
  if (!json_is_object(e))
    return 0;
  int codex = upk__ct_codex_line(r, e);
  if (codex)
    return codex < 0 ? codex : 0;
  json_t *msg = json_object_get(e, "message");
  json_t *m = json_is_object(msg) ? msg : e;
  const char *role = jr_str(m, "role") ? jr_str(m, "role") : jr_str(e, "type");
  if (!role || json_is_true(json_object_get(e, "isMeta")))
    return 0;                      /* summaries, snapshots and other bookkeeping lines */
  if (strcmp(role, "tool") == 0) { /* OpenAI */
    r->known++;
    char *text = text_of(json_object_get(m, "content"));
    int rc = text ? jr_tool_result(r, jr_str(m, "tool_call_id"), text, false) : -ENOMEM;
    free(text);
    return rc;
  }
  bool user = strcmp(role, "user") == 0 || strcmp(role, "human") == 0;
  if (!user && strcmp(role, "assistant") != 0)
    return 0; /* system prompts are not what the agent did */
  r->known++;
  /* A subagent's prompt (Claude Code's sidechain) is not the person's. */
  bool sidechain = json_is_true(json_object_get(e, "isSidechain"));
  json_t *content = json_object_get(m, "content");
  int rc = sidechain && user && json_is_string(content) ? 0 : blocks(r, user, content);
  return rc ? rc : openai_calls(r, json_object_get(m, "tool_calls"));
}

/* One object per line; lines that are not JSON objects are counted and
 * left out (a session being written ends in a cut line). */
static int lines(jread *r, const char *text, size_t len, size_t *good) {
  int rc = 0;
  for (size_t at = 0; rc == 0 && at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
    json_t *e = n ? json_loadb(text + at, n, 0, NULL) : NULL;
    if (json_is_object(e)) {
      ++*good;
      rc = entry(r, e);
    } else if (n && strspn(text + at, " \t\r") < n) {
      r->t->bad_lines++;
    }
    json_decref(e);
    at += n + 1;
  }
  return rc;
}

static int read_all(jread *r, const char *text, size_t len, upk_trace_format *f) {
  json_error_t err;
  bool whole = *f == UPK_TRACE_AUTO || *f == UPK_TRACE_JSON;
  json_t *root = whole ? json_loadb(text, len, 0, &err) : NULL;
  json_t *list = json_is_object(root) ? json_object_get(root, "messages") : root;
  int rc = 0;
  if (json_is_array(list)) {
    *f = UPK_TRACE_JSON;
    for (size_t i = 0; rc == 0 && i < json_array_size(list); i++)
      rc = entry(r, json_array_get(list, i));
  } else if (json_is_object(root)) {
    *f = UPK_TRACE_JSONL; /* a single message, or a one-line JSONL file */
    rc = entry(r, root);
  } else if (*f == UPK_TRACE_JSON) {
    rc = upk__ct_reject(r->t, "trace/not-json", "not JSON (line %d, column %d: %s); " EXPECTED,
                        err.line, err.column, err.text);
  } else {
    size_t good = 0;
    rc = lines(r, text, len, &good);
    *f = UPK_TRACE_JSONL;
    if (rc == 0 && !good && whole && (size_t)err.position >= len)
      rc = upk__ct_reject(r->t, "trace/truncated",
                          "the JSON ends early, at line %d (a truncated file?); " EXPECTED,
                          err.line);
    else if (rc == 0 && !good) {
      r->t->not_json = true;
      rc = upk__ct_reject(r->t, "trace/not-json", "not JSON, nor JSON lines%s%s; " EXPECTED,
                          whole ? ": " : "", whole ? err.text : "");
    }
  }
  json_decref(root);
  return rc;
}

int upk__ct_read_json(ctrace *t, const char *text, size_t len, upk_trace_format *f) {
  jread r = {.t = t};
  int rc = read_all(&r, text, len, f);
  if (rc == 0 && r.codex)
    *f = UPK_TRACE_CODEX;
  if (rc == 0 && !r.known)
    rc = upk__ct_reject(t, "trace/unknown-shape",
                        "JSON, but no message in it has a known shape; " EXPECTED);
  for (size_t i = 0; i < r.n_calls; i++) {
    free(r.calls[i].id);
    free(r.calls[i].label);
  }
  free(r.calls);
  return rc;
}

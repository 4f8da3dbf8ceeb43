/* Trace condensation: reading JSON traces with jansson.
 *
 * Accepted: a message array, {"messages": [...]}, or JSON lines (Claude
 * Code's session files: {"type", "message": {"role", "content"}} per line).
 * Messages may be Anthropic-shaped (content blocks text / tool_use /
 * tool_result with is_error) or OpenAI-shaped (tool_calls with JSON-string
 * arguments, role "tool" answers). Tools are recognised by their input, not
 * their name: a "command" is a shell command, a path with content is a file
 * write, a path with old/new strings (or MultiEdit's "edits") is an edit. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "condense_int.h"

typedef struct {
  char *id, *label; /* the call's id; the command, or the tool's name */
  bool shell;
} call;

typedef struct {
  ctrace *t;
  call *calls;
  size_t n_calls;
} jread;

static const char *str(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* The first of several keys that holds a string. */
static const char *any_str(json_t *o, const char *const *keys) {
  for (; *keys; keys++)
    if (str(o, *keys))
      return str(o, *keys);
  return NULL;
}

static const char *const PATH_KEYS[] = {"file_path", "path", "target_file", "filename", NULL};

static int remember(jread *r, const char *id, const char *label, bool shell) {
  if (!id)
    return 0;
  call *p = realloc(r->calls, (r->n_calls + 1) * sizeof *p);
  if (!p)
    return -ENOMEM;
  r->calls = p;
  call *c = &p[r->n_calls++];
  c->id = strdup(id);
  c->label = strdup(label ? label : "a tool");
  c->shell = shell;
  return c->id && c->label ? 0 : -ENOMEM;
}

static int edits(jread *r, const char *path, json_t *in) {
  static const char *const olds[] = {"old_string", "old_str", NULL};
  static const char *const news[] = {"new_string", "new_str", NULL};
  const char *o = any_str(in, olds), *n = any_str(in, news);
  if (o && n)
    return ct_edit(r->t, path, o, n);
  json_t *list = json_object_get(in, "edits"); /* MultiEdit */
  for (size_t i = 0; i < json_array_size(list); i++) {
    json_t *e = json_array_get(list, i);
    o = any_str(e, olds);
    n = any_str(e, news);
    int rc = o && n ? ct_edit(r->t, path, o, n) : 0;
    if (rc)
      return rc;
  }
  return 0;
}

static int tool_call(jread *r, const char *id, const char *name, json_t *in) {
  static const char *const contents[] = {"content", "file_text", "contents", NULL};
  const char *cmd = str(in, "command") ? str(in, "command") : str(in, "cmd");
  const char *path = any_str(in, PATH_KEYS), *content = any_str(in, contents);
  int rc = 0;
  if (cmd && !path) {
    rc = ct_command(r->t, cmd);
    return rc ? rc : remember(r, id, cmd, true);
  }
  if (path && content)
    rc = ct_write(r->t, path, content);
  else if (path)
    rc = edits(r, path, in);
  return rc ? rc : remember(r, id, name, false);
}

/* OpenAI: {"function": {"name", "arguments": "<JSON text>"}}. */
static int openai_calls(jread *r, json_t *calls) {
  for (size_t i = 0; i < json_array_size(calls); i++) {
    json_t *c = json_array_get(calls, i), *fn = json_object_get(c, "function");
    const char *args = str(fn, "arguments");
    json_t *in = args ? json_loads(args, 0, NULL) : NULL;
    int rc = tool_call(r, str(c, "id"), str(fn, "name"), in ? in : json_object_get(fn, "input"));
    json_decref(in);
    if (rc)
      return rc;
  }
  return 0;
}

/* A tool result's text: a string or a list of text blocks. */
static char *result_text(json_t *content) {
  if (json_is_string(content))
    return strdup(json_string_value(content));
  size_t len = 0;
  for (size_t i = 0; i < json_array_size(content); i++) {
    const char *s = str(json_array_get(content, i), "text");
    len += s ? strlen(s) + 1 : 0;
  }
  char *out = calloc(len + 1, 1);
  for (size_t i = 0; out && i < json_array_size(content); i++) {
    const char *s = str(json_array_get(content, i), "text");
    if (s) {
      strcat(out, s);
      strcat(out, "\n");
    }
  }
  return out;
}

static int tool_result(jread *r, const char *id, json_t *content, bool is_error) {
  const call *c = NULL;
  for (size_t i = 0; id && i < r->n_calls; i++)
    if (strcmp(r->calls[i].id, id) == 0)
      c = &r->calls[i];
  /* Outputs of reads and searches are code, full of the word "error":
   * only a shell command's output is searched for errors. */
  if (!is_error && !(c && c->shell))
    return 0;
  char *text = result_text(content);
  if (!text)
    return -ENOMEM;
  int rc = ct_output(r->t, c ? c->label : NULL, text, is_error);
  free(text);
  return rc;
}

/* Text an agent harness injects into user turns, not the person's words. */
static bool harness_text(const char *s) {
  static const char *const tags[] = {"<system-reminder>", "<command-", "<local-command",
                                     "Caveat: The messages below", NULL};
  for (const char *const *t = tags; *t; t++)
    if (strncmp(s, *t, strlen(*t)) == 0)
      return true;
  return false;
}

static int text(jread *r, bool user, const char *s) {
  return s && !harness_text(s) ? ct_text(r->t, user, s) : 0;
}

static int blocks(jread *r, bool user, json_t *content) {
  if (json_is_string(content))
    return text(r, user, json_string_value(content));
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < json_array_size(content); i++) {
    json_t *b = json_array_get(content, i);
    const char *type = str(b, "type");
    if (!type)
      continue;
    if (strcmp(type, "text") == 0)
      rc = text(r, user, str(b, "text"));
    else if (strcmp(type, "tool_use") == 0)
      rc = tool_call(r, str(b, "id"), str(b, "name"), json_object_get(b, "input"));
    else if (strcmp(type, "tool_result") == 0)
      rc = tool_result(r, str(b, "tool_use_id"), json_object_get(b, "content"),
                       json_is_true(json_object_get(b, "is_error")));
  }
  return rc;
}

/* One message, or one Claude Code line wrapping a message. */
static int entry(jread *r, json_t *e) {
  json_t *msg = json_object_get(e, "message");
  json_t *m = json_is_object(msg) ? msg : e;
  const char *role = str(m, "role") ? str(m, "role") : str(e, "type");
  if (!role)
    return 0; /* summaries, snapshots and other bookkeeping lines */
  if (strcmp(role, "tool") == 0)
    return tool_result(r, str(m, "tool_call_id"), json_object_get(m, "content"), false);
  bool user = strcmp(role, "user") == 0 || strcmp(role, "human") == 0;
  if (!user && strcmp(role, "assistant") != 0)
    return 0; /* system prompts are not what the agent did */
  int rc = blocks(r, user, json_object_get(m, "content"));
  return rc ? rc : openai_calls(r, json_object_get(m, "tool_calls"));
}

static int entries(jread *r, json_t *list) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < json_array_size(list); i++)
    rc = entry(r, json_array_get(list, i));
  return rc;
}

/* One object per line; lines that are not JSON objects are skipped, but at
 * least one must be. */
static int lines(jread *r, const char *text, size_t len) {
  size_t good = 0;
  int rc = 0;
  for (size_t at = 0; rc == 0 && at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
    json_t *e = json_loadb(text + at, n, 0, NULL);
    if (json_is_object(e)) {
      good++;
      rc = entry(r, e);
    }
    json_decref(e);
    at += n + 1;
  }
  return rc ? rc : good ? 0 : -EINVAL;
}

int ct_read_json(ctrace *t, const char *text, size_t len, bool *jsonl) {
  jread r = {.t = t};
  int rc;
  json_t *root = *jsonl ? NULL : json_loadb(text, len, 0, NULL);
  json_t *list = json_is_object(root) ? json_object_get(root, "messages") : root;
  if (json_is_array(list)) {
    rc = entries(&r, list);
  } else if (json_is_object(root)) {
    rc = entry(&r, root); /* a single message, or a one-line JSONL file */
    *jsonl = true;
  } else {
    *jsonl = true;
    rc = lines(&r, text, len);
  }
  json_decref(root);
  for (size_t i = 0; i < r.n_calls; i++) {
    free(r.calls[i].id);
    free(r.calls[i].label);
  }
  free(r.calls);
  return rc;
}

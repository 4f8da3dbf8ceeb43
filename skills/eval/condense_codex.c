/* Trace condensation: Codex CLI rollouts (~/.codex/sessions/.../rollout-*.jsonl).
 *
 * Each line is {"timestamp", "type", "payload"}: session_meta, turn_context,
 * event_msg (a UI echo of the same turns), compacted, and response_item,
 * whose payload is an OpenAI Responses item: message (input_text /
 * output_text parts), reasoning, function_call (shell with an argv,
 * shell_command / exec_command with a string, arguments as JSON text),
 * local_shell_call, function_call_output (plain text with "Exit code: N",
 * or JSON {"output", "metadata": {"exit_code"}}), custom_tool_call
 * (apply_patch with the patch as input) and custom_tool_call_output.
 * Older rollouts write the items bare, without the envelope. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense_jsonint.h"
#include "common/xalloc.h"

/* ---- apply_patch ----------------------------------------------------------- */

/* One file's hunks: lines ' ' (both), '-' (old), '+' (new); "@@" splits. */
static int update(ctrace *t, const char *path, const char *p, const char *end) {
  char *o = NULL, *n = NULL;
  int rc = 0;
  for (; rc == 0 && p < end;) {
    size_t k = strcspn(p, "\n");
    if (k > (size_t)(end - p))
      k = (size_t)(end - p);
    bool hunk_end = strncmp(p, "@@", 2) == 0;
    if (hunk_end && (o || n)) {
      rc = upk__ct_edit(t, path, o ? o : "", n ? n : "");
      free(o);
      free(n);
      o = n = NULL;
    } else if (!hunk_end && k > 0 && strchr(" -+", *p)) {
      if (*p != '+')
        rc = upk__ct_append(&o, "%.*s\n", (int)k - 1, p + 1);
      if (rc == 0 && *p != '-')
        rc = upk__ct_append(&n, "%.*s\n", (int)k - 1, p + 1);
    }
    p += k + (p[k] == '\n');
  }
  if (rc == 0 && (o || n))
    rc = upk__ct_edit(t, path, o ? o : "", n ? n : "");
  free(o);
  free(n);
  return rc;
}

static int add(ctrace *t, const char *path, const char *p, const char *end) {
  char *content = NULL;
  int rc = 0;
  for (; rc == 0 && p < end;) {
    size_t k = strcspn(p, "\n");
    if (*p == '+')
      rc = upk__ct_append(&content, "%.*s\n", (int)k - 1, p + 1);
    p += k + (p[k] == '\n');
  }
  rc = rc ? rc : upk__ct_write(t, path, content ? content : "");
  free(content);
  return rc;
}

int upk__ct_apply_patch(ctrace *t, const char *patch) {
  const char *p = strstr(patch, "*** Begin Patch");
  if (!p)
    return -EINVAL;
  int rc = 0;
  while (rc == 0 && (p = strstr(p, "\n*** "))) {
    p += 5;
    const char *eol = p + strcspn(p, "\n"), *next = strstr(eol, "\n*** ");
    const char *end = next ? next + 1 : eol + strlen(eol);
    char path[512];
    bool upd = strncmp(p, "Update File: ", 13) == 0, addf = strncmp(p, "Add File: ", 10) == 0;
    if (!upd && !addf)
      continue; /* Delete File, Move to, End Patch */
    const char *name = p + (upd ? 13 : 10);
    snprintf(path, sizeof path, "%.*s", (int)(eol - name), name);
    /* A "*** Move to:" line belongs to this file's block. */
    while (next && strncmp(next + 5, "Move to: ", 9) == 0) {
      next = strstr(next + 5, "\n*** ");
      end = next ? next + 1 : eol + strlen(eol);
    }
    rc = upd ? update(t, path, eol + (*eol == '\n'), end) : add(t, path, eol + (*eol == '\n'), end);
    p = end - 1;
  }
  return rc;
}

/* ---- shell commands and outputs --------------------------------------------- */

/* An argv as one command line: ["bash", "-lc", "make"] is "make". */
static char *argv_line(json_t *argv) {
  size_t n = json_array_size(argv);
  const char *a0 = json_string_value(json_array_get(argv, 0));
  const char *a1 = json_string_value(json_array_get(argv, 1));
  if (n == 3 && a0 && a1 && (strstr(a0, "sh")) && a1[0] == '-' && strchr(a1, 'c'))
    return upk_xstrdup(json_string_value(json_array_get(argv, 2)) ?: "");
  char *out = NULL;
  for (size_t i = 0; i < n; i++) {
    const char *s = json_string_value(json_array_get(argv, i));
    if (s && upk__ct_append(&out, "%s%s", i ? " " : "", s))
      break;
  }
  return out ? out : upk_xstrdup("");
}

static int shell_call(jread *r, const char *id, json_t *args) {
  json_t *cmd = json_object_get(args, "command");
  const char *s = json_string_value(cmd) ?: jr_str(args, "cmd");
  const char *a0 = json_string_value(json_array_get(cmd, 0));
  if (a0 && strcmp(a0, "apply_patch") == 0) { /* ["apply_patch", "*** Begin Patch..."] */
    int rc = upk__ct_apply_patch(r->t, json_string_value(json_array_get(cmd, 1)) ?: "");
    return rc == -ENOMEM ? rc : 0;
  }
  char *line = s ? upk_xstrdup(s) : json_is_array(cmd) ? argv_line(cmd) : NULL;
  if (!line)
    return s || json_is_array(cmd) ? -ENOMEM : 0;
  int rc =
      strstr(line, "*** Begin Patch") ? upk__ct_apply_patch(r->t, line) : jr_shell(r, id, line);
  free(line);
  return rc == -EINVAL ? 0 : rc;
}

/* An exit code in "Exit code: N" / "Process exited with code N"; -1. */
static long exit_code(const char *s) {
  static const char *const marks[] = {"Exit code: ", "exited with code ", "exit_code: ", NULL};
  for (const char *const *m = marks; *m; m++) {
    const char *p = strstr(s, *m);
    if (p && p - s < 200)
      return strtol(p + strlen(*m), NULL, 10);
  }
  return -1;
}

static int call_output(jread *r, json_t *item) {
  json_t *out = json_object_get(item, "output");
  const char *s = json_string_value(out);
  json_t *inner = s && *s == '{' ? json_loads(s, 0, NULL) : NULL;
  json_t *meta = json_object_get(inner ? inner : out, "metadata");
  const char *text = jr_str(inner ? inner : out, "output") ?: s ?: "";
  json_t *code = json_object_get(meta, "exit_code");
  long exit = json_is_integer(code) ? (long)json_integer_value(code) : exit_code(text);
  int rc = jr_tool_result(r, jr_str(item, "call_id"), text, exit > 0);
  json_decref(inner);
  return rc;
}

/* ---- items ------------------------------------------------------------------ */

static int message(jread *r, json_t *item) {
  const char *role = jr_str(item, "role");
  bool user = role && strcmp(role, "user") == 0;
  if (!role || (!user && strcmp(role, "assistant") != 0))
    return 0; /* developer / system: the harness's instructions */
  json_t *content = json_object_get(item, "content");
  if (json_is_string(content))
    return jr_text(r, user, json_string_value(content));
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < json_array_size(content); i++)
    rc = jr_text(r, user, jr_str(json_array_get(content, i), "text"));
  return rc;
}

static int function_call(jread *r, json_t *item) {
  const char *name = jr_str(item, "name") ?: "", *id = jr_str(item, "call_id");
  const char *args = jr_str(item, "arguments");
  json_t *in = args ? json_loads(args, 0, NULL) : NULL;
  int rc;
  if (!strcmp(name, "shell") || !strcmp(name, "shell_command") || !strcmp(name, "exec_command") ||
      !strcmp(name, "container.exec"))
    rc = shell_call(r, id, in);
  else
    rc = jr_tool_call(r, id, name, in);
  json_decref(in);
  return rc;
}

static int item(jread *r, json_t *it) {
  const char *type = jr_str(it, "type") ?: "";
  if (!strcmp(type, "message"))
    return message(r, it);
  if (!strcmp(type, "function_call"))
    return function_call(r, it);
  if (!strcmp(type, "local_shell_call"))
    return shell_call(r, jr_str(it, "call_id"), json_object_get(it, "action"));
  if (!strcmp(type, "custom_tool_call")) {
    const char *in = jr_str(it, "input") ?: "";
    int rc = strstr(in, "*** Begin Patch") ? upk__ct_apply_patch(r->t, in) : 0;
    return rc == -ENOMEM ? rc : 0;
  }
  if (!strcmp(type, "function_call_output") || !strcmp(type, "custom_tool_call_output"))
    return call_output(r, it);
  return 0; /* reasoning (encrypted or summarised), web searches */
}

static bool item_type(const char *type) {
  static const char *const types[] = {"message",
                                      "function_call",
                                      "function_call_output",
                                      "custom_tool_call",
                                      "custom_tool_call_output",
                                      "local_shell_call",
                                      "reasoning",
                                      NULL};
  for (const char *const *t = types; type && *t; t++)
    if (!strcmp(type, *t))
      return true;
  return false;
}

/* Responses message parts are input_text / output_text; Anthropic's
 * {"type": "message"} has text / tool_use blocks, read elsewhere. */
static bool responses_parts(json_t *msg) {
  const char *t = jr_str(json_array_get(json_object_get(msg, "content"), 0), "type");
  return t && (!strncmp(t, "input_", 6) || !strncmp(t, "output_", 7));
}

int upk__ct_codex_line(jread *r, json_t *line) {
  const char *type = jr_str(line, "type");
  json_t *payload = json_object_get(line, "payload");
  if (type && json_is_object(payload)) {
    static const char *const meta[] = {"session_meta", "turn_context", "event_msg", "compacted",
                                       NULL};
    for (const char *const *m = meta; *m; m++)
      if (!strcmp(type, *m)) { /* event_msg echoes the items: read once */
        r->codex = true;
        r->known++;
        return 1;
      }
    if (strcmp(type, "response_item"))
      return 0;
    r->codex = true;
    r->known++;
    int rc = item(r, payload);
    return rc ? rc : 1;
  }
  /* A bare Responses item (older rollouts, OpenAI Responses input lists);
   * a message with a role is left to the message reader. */
  if (!item_type(type) || (!strcmp(type, "message") && !responses_parts(line)))
    return 0;
  r->known++;
  int rc = item(r, line);
  return rc ? rc : 1;
}

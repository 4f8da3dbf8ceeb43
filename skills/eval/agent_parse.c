/* Reading what an agent did from its output (agent.h): Claude Code's
 * stream-json (or its single --output-format json object), Codex's exec
 * --json events, or plain text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/agent.h"
#include "common/xalloc.h"

enum { SHOW_MAX = 200 };

static long num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

static void add_tokens(long *sum, long v) {
  if (v >= 0)
    *sum = (*sum < 0 ? 0 : *sum) + v;
}

static int set_str(char **dst, const char *s) {
  free(*dst);
  *dst = s ? upk_xstrdup(s) : NULL;
  return !s || *dst ? 0 : -ENOMEM;
}

static int add_tool(upk_agent_result *r, const char *name, const json_t *input) {
  char **v = upk_xrealloc(r->tools, (r->n_tools + 1) * sizeof *v);
  r->tools = v;
  v[r->n_tools] = upk_xstrdup(name);
  r->n_tools++;
  return json_array_append_new(r->tool_calls, json_pack("{s:s,s:O}", "name", name, "input",
                                                        input ? (json_t *)input : json_null()))
             ? -ENOMEM
             : 0;
}

/* Does `text` (a path or a command) name SKILL_NAME/SKILL.md? */
static bool names_skill_file(const char *text, const char *skill) {
  char needle[300];
  snprintf(needle, sizeof needle, "%s/SKILL.md", skill);
  const char *p = text ? strstr(text, needle) : NULL;
  return p && (p == text || strchr("/ '\"", p[-1]));
}

static void loaded(upk_agent_result *r, const char *how) {
  if (r->skill_loaded == 1)
    return;
  r->skill_loaded = 1;
  set_str(&r->skill_evidence, how);
}

/* ---- Claude Code ---- */

/* Skill {"skill": "NAME"} (a plugin's skill is "plugin:NAME"), or a Read or
 * Bash that opens the SKILL.md. */
static void claude_skill_use(upk_agent_result *r, const char *tool, const json_t *in,
                             const char *skill) {
  char how[400];
  const char *s = json_string_value(json_object_get(in, "skill"));
  const char *colon = s ? strrchr(s, ':') : NULL;
  if (!strcmp(tool, "Skill") && s && !strcmp(colon ? colon + 1 : s, skill)) {
    snprintf(how, sizeof how, "Skill tool: %s", s);
    loaded(r, how);
  }
  const char *path = json_string_value(json_object_get(in, "file_path"));
  const char *cmd = json_string_value(json_object_get(in, "command"));
  if ((!strcmp(tool, "Read") && names_skill_file(path, skill)) ||
      (!strcmp(tool, "Bash") && names_skill_file(cmd, skill))) {
    snprintf(how, sizeof how, "%s %.300s", tool, path ? path : cmd);
    loaded(r, how);
  }
}

static int claude_assistant(upk_agent_result *r, const json_t *msg, const char *skill) {
  const json_t *content = json_object_get(msg, "content"), *b;
  size_t i;
  json_array_foreach(content, i, b) {
    const char *type = json_string_value(json_object_get(b, "type"));
    const char *name = json_string_value(json_object_get(b, "name"));
    if (!type || strcmp(type, "tool_use") || !name)
      continue;
    const json_t *in = json_object_get(b, "input");
    if (add_tool(r, name, in))
      return -ENOMEM;
    if (skill)
      claude_skill_use(r, name, in, skill);
  }
  return 0;
}

static int claude_result(upk_agent_result *r, const json_t *o) {
  const json_t *u = json_object_get(o, "usage");
  const char *text = json_string_value(json_object_get(o, "result"));
  r->input_tokens = num(u, "input_tokens");
  r->output_tokens = num(u, "output_tokens");
  r->cache_read_tokens = num(u, "cache_read_input_tokens");
  add_tokens(&r->input_tokens, num(u, "cache_creation_input_tokens"));
  add_tokens(&r->input_tokens, r->cache_read_tokens);
  r->turns = (int)num(o, "num_turns");
  const json_t *cost = json_object_get(o, "total_cost_usd");
  r->cost_usd = json_is_number(cost) ? json_number_value(cost) : -1;
  const json_t *ms = json_object_get(o, "duration_ms");
  r->agent_ms = json_is_number(ms) ? json_number_value(ms) : -1;
  if (json_is_true(json_object_get(o, "is_error"))) {
    const char *sub = json_string_value(json_object_get(o, "subtype"));
    char why[600];
    snprintf(why, sizeof why, "the agent reported an error (%s): %.500s", sub ? sub : "error",
             text ? text : "no message");
    return set_str(&r->error, why);
  }
  return set_str(&r->answer, text);
}

static int claude_line(upk_agent_result *r, const json_t *o, const char *skill, bool *seen_result) {
  const char *type = json_string_value(json_object_get(o, "type"));
  const char *sid = json_string_value(json_object_get(o, "session_id"));
  if (sid && !r->session_id && set_str(&r->session_id, sid))
    return -ENOMEM;
  if (!type)
    return 0;
  if (!strcmp(type, "assistant"))
    return claude_assistant(r, json_object_get(o, "message"), skill);
  if (!strcmp(type, "result")) {
    *seen_result = true;
    return claude_result(r, o);
  }
  return 0;
}

/* ---- Codex ---- */

static int codex_item(upk_agent_result *r, const json_t *item, const char *skill) {
  const char *type = json_string_value(json_object_get(item, "type"));
  if (!type)
    return 0;
  if (!strcmp(type, "agent_message"))
    return set_str(&r->answer, json_string_value(json_object_get(item, "text")));
  if (!strcmp(type, "command_execution")) {
    const char *cmd = json_string_value(json_object_get(item, "command"));
    json_t *in = json_pack("{s:s?}", "command", cmd);
    int rc = in ? add_tool(r, "exec_command", in) : -ENOMEM;
    json_decref(in);
    if (!rc && skill && names_skill_file(cmd, skill)) {
      char how[400];
      snprintf(how, sizeof how, "exec_command %.300s", cmd);
      loaded(r, how);
    }
    return rc;
  }
  if (!strcmp(type, "file_change"))
    return add_tool(r, "apply_patch", json_object_get(item, "changes"));
  if (!strcmp(type, "mcp_tool_call") || !strcmp(type, "web_search")) {
    const char *tool = json_string_value(json_object_get(item, "tool"));
    return add_tool(r, tool ? tool : type, json_object_get(item, "arguments"));
  }
  if (!strcmp(type, "error"))
    return set_str(&r->error, json_string_value(json_object_get(item, "message")));
  return 0;
}

static int codex_line(upk_agent_result *r, const json_t *o, const char *skill, bool *seen_result) {
  const char *type = json_string_value(json_object_get(o, "type"));
  if (!type)
    return 0;
  if (!strcmp(type, "thread.started"))
    return set_str(&r->session_id, json_string_value(json_object_get(o, "thread_id")));
  if (!strcmp(type, "item.completed"))
    return codex_item(r, json_object_get(o, "item"), skill);
  if (!strcmp(type, "turn.completed")) {
    const json_t *u = json_object_get(o, "usage");
    *seen_result = true;
    set_str(&r->error, NULL); /* it recovered from what it reported on the way */
    r->turns = r->turns < 0 ? 1 : r->turns + 1;
    add_tokens(&r->input_tokens, num(u, "input_tokens"));
    add_tokens(&r->output_tokens, num(u, "output_tokens"));
    add_tokens(&r->cache_read_tokens, num(u, "cached_input_tokens"));
    return 0;
  }
  if (!strcmp(type, "turn.failed") || !strcmp(type, "error")) {
    const json_t *e = json_object_get(o, "error");
    const char *m = json_string_value(json_object_get(e ? e : o, "message"));
    char why[600];
    snprintf(why, sizeof why, "the agent reported an error: %.500s", m ? m : type);
    *seen_result = true;
    return set_str(&r->error, why);
  }
  return 0;
}

/* ---- both ---- */

static void init(upk_agent_result *r) {
  memset(r, 0, sizeof *r);
  r->input_tokens = r->output_tokens = r->cache_read_tokens = -1;
  r->turns = -1;
  r->cost_usd = r->agent_ms = -1;
}

static int no_json(upk_agent_result *r, const char *out, size_t len, bool any_json) {
  char why[SHOW_MAX + 200];
  size_t n = len < SHOW_MAX ? len : SHOW_MAX;
  if (!len)
    snprintf(why, sizeof why, "the agent printed nothing");
  else if (any_json)
    snprintf(why, sizeof why, "the agent's output ended before its result: %.*s", (int)n,
             out + len - n);
  else
    snprintf(why, sizeof why, "the agent printed no JSON: %.*s", (int)n, out);
  for (char *p = why; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  return set_str(&r->error, why);
}

int upk_agent_parse(upk_agent_format format, const char *out, size_t len, const char *skill_name,
                    upk_agent_result *r) {
  init(r);
  if (!(r->tool_calls = json_array()))
    return -ENOMEM;
  r->skill_loaded = format == UPK_AGENT_OUT_TEXT ? -1 : 0;
  if (format == UPK_AGENT_OUT_TEXT) {
    r->answer = upk_xstrndup(out, len);
    return 0;
  }
  bool seen_result = false, any_json = false;
  int rc = 0;
  for (size_t at = 0; at < len && !rc;) {
    const char *nl = memchr(out + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (out + at)) : len - at;
    json_t *o = n ? json_loadb(out + at, n, JSON_DECODE_ANY, NULL) : NULL;
    if (json_is_object(o)) {
      any_json = true;
      rc = format == UPK_AGENT_OUT_CLAUDE ? claude_line(r, o, skill_name, &seen_result)
                                          : codex_line(r, o, skill_name, &seen_result);
    }
    json_decref(o);
    at += n + 1;
  }
  if (!rc && !seen_result && !r->error)
    rc = no_json(r, out, len, any_json);
  return rc;
}

void upk_agent_result_free(upk_agent_result *r) {
  free(r->answer);
  free(r->error);
  free(r->session_id);
  json_decref(r->tool_calls);
  for (size_t i = 0; i < r->n_tools; i++)
    free(r->tools[i]);
  free(r->tools);
  free(r->skill_evidence);
  for (size_t i = 0; i < r->n_files; i++) {
    free(r->files[i]);
    free(r->previews ? r->previews[i] : NULL);
  }
  free(r->files);
  free(r->previews);
  memset(r, 0, sizeof *r);
}

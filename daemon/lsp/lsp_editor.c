/* Kernel facts where the code is (LSP): code lenses above each kernel, hovers on kernel
 * names, code actions on diagnostics, workspace/executeCommand, and for SKILL.md hovers and
 * completion of frontmatter keys and a token-count lens.
 *
 * Every answer comes from the open document's last check (documents.c): nothing compiles
 * here, so a lens or hover on an unchanged file costs a lookup. The text formats live in
 * lsp_text.c. Commands that do real work start the method they name (skills/lookup,
 * skills/install) as a job, so they answer exactly as those methods do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "daemon/core/jobs.h"
#include "daemon/lsp/documents.h"
#include "daemon/mcp/face_jobs.h"
#include "gpu/compile/srcscan.h"
#include "protocol/jsonrpc.h"
#include "daemon/lsp/lsp_editor.h"
#include "daemon/lsp/lsp_fix.h"
#include "daemon/lsp/lsp_text.h"
#include "daemon/methods.h"

static const char *const COMMANDS[] = {"upskilld.findSkill", "upskilld.installSkill",
                                       "upskilld.kernelInfo"};

json_t *upk_editor_capabilities(void) {
  json_t *cmds = json_array();
  for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++)
    json_array_append_new(cmds, json_string(COMMANDS[i]));
  return json_pack("{s:{s:b},s:b,s:{s:[s]},s:{s:[s],s:b},s:{s:o}}", "codeLensProvider",
                   "resolveProvider", 0, "hoverProvider", 1, "codeActionProvider",
                   "codeActionKinds", "quickfix", "completionProvider", "triggerCharacters", "\n",
                   "resolveProvider", 0, "executeCommandProvider", "commands", cmds);
}

static json_t *range_json(int line, int col, int end_line, int end_col) {
  return json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line", line, "character", col, "end",
                   "line", end_line, "character", end_col);
}

/* ---- code lenses ---- */

/* A lens's text is its command's title; the command shows the kernel's full table. */
static json_t *lens(int line, char *title, const char *command, json_t *args) {
  json_t *l = json_pack("{s:o,s:{s:s,s:s,s:o}}", "range", range_json(line, 0, line, 0), "command",
                        "title", title ? title : "", "command", command, "arguments", args);
  free(title);
  return l;
}

/* The first error's line (one-based) in a failed check, 0 when none is positioned. */
static int first_error_line(json_t *result) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "diagnostics"), i, d) {
    if (json_integer_value(json_object_get(d, "severity")) == 1)
      return (int)json_integer_value(
                 json_object_get(json_object_get(json_object_get(d, "range"), "start"), "line")) +
             1;
  }
  return 0;
}

static json_t *kernel_named(json_t *result, const char *name) {
  json_t *k;
  size_t i;
  json_array_foreach(json_object_get(result, "kernels"), i, k) {
    const char *kn = json_string_value(json_object_get(k, "name"));
    if (kn && upk_kernel_name_is(kn, name))
      return k;
  }
  return NULL;
}

/* While the text does not compile (a typo mid-edit), each kernel the text still defines keeps
 * its last good figures, marked stale, where it is now; a kernel new since then says why it
 * has none. */
static void stale_lenses(const upk_doc_view *v, json_t *out) {
  upk_src_facts f;
  if (upk_src_scan(v->text, v->len, &f))
    return;
  int err = first_error_line(v->result);
  for (size_t i = 0; i < f.n_kernels; i++) {
    const upk_src_kernel *sk = &f.kernels[i];
    json_t *k = v->good ? kernel_named(v->good, sk->name) : NULL;
    char *title = NULL;
    if (k) {
      char *figures = upk_kernel_lens_title(k, v->runs ? json_object_get(v->runs, sk->name) : NULL);
      if (figures)
        title = upk_xasprintf("(stale) %s", figures);
      free(figures);
    } else {
      title = upk_xasprintf("%s: no figures yet (compile error at line %d)", sk->name, err);
    }
    json_array_append_new(out, lens(sk->line, title, k ? "upskilld.kernelInfo" : "",
                                    k ? json_pack("[s,s]", v->uri, sk->name) : json_array()));
  }
  upk_src_facts_free(&f);
}

/* A lens on each launch line: the figures there ("launch: 16x16 = 256 threads, 100% (warps)"),
 * once per line (a template's instantiations share it). */
static void launch_lenses(json_t *kernel, json_t *seen, json_t *out) {
  json_t *l;
  size_t i;
  json_array_foreach(json_object_get(kernel, "launches"), i, l) {
    json_t *x;
    size_t j;
    json_array_foreach(json_object_get(l, "lines"), j, x) {
      char key[32];
      snprintf(key, sizeof key, "%lld", (long long)json_integer_value(x));
      if (json_object_get(seen, key))
        continue;
      json_object_set_new(seen, key, json_true());
      json_array_append_new(
          out, lens((int)json_integer_value(x), upk_launch_title(l), "", json_array()));
    }
  }
}

static json_t *code_lenses(const upk_doc_view *v) {
  json_t *out = json_array(), *k, *seen;
  size_t i;
  if (v->is_skill) {
    json_array_append_new(out, lens(0, upk_skill_tokens_title(v->text, v->len), "", json_array()));
    return out;
  }
  if (v->result && !json_is_true(json_object_get(v->result, "ok"))) {
    stale_lenses(v, out);
    return out;
  }
  seen = json_object(); /* launch lines already given a lens */
  json_array_foreach(json_object_get(v->result, "kernels"), i, k) {
    int line = (int)json_integer_value(json_object_get(k, "line"));
    const char *name = json_string_value(json_object_get(k, "name"));
    if (line < 0 || !name)
      continue;
    json_t *run = v->runs ? json_object_get(v->runs, name) : NULL;
    json_array_append_new(out, lens(line, upk_kernel_lens_title(k, run), "upskilld.kernelInfo",
                                    json_pack("[s,s]", v->uri, name)));
    launch_lenses(k, seen, out);
  }
  json_decref(seen);
  return out;
}

void upk_editor_answer_lenses(upk_server *s, const char *uri, json_t *id) {
  upk_doc_view v;
  json_t *r = upk_docs_view(s, uri, &v) ? code_lenses(&v) : json_array();
  upk_session_answer(s, NULL, upk_rpc_result(id, r));
}

/* ---- positions ---- */

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

/* The identifier (letters, digits, _ and -) around `params.position`, into `word`. */
static bool word_at(const upk_doc_view *v, json_t *params, char *word, size_t n, int *line) {
  json_t *pos = json_object_get(params, "position");
  *line = (int)json_integer_value(json_object_get(pos, "line"));
  long at = upk_lsp_offset(v->text, v->len, *line,
                           (int)json_integer_value(json_object_get(pos, "character")));
  if (at < 0)
    return false;
  long a = at, b = at;
  while (a > 0 && ident_char(v->text[a - 1]))
    a--;
  while ((size_t)b < v->len && ident_char(v->text[b]))
    b++;
  if (b == a || (size_t)(b - a) >= n)
    return false;
  memcpy(word, v->text + a, (size_t)(b - a));
  word[b - a] = '\0';
  return true;
}

/* ---- hover ---- */

/* A kernel's table (malloc'd; NULL when the text defines no such kernel with figures): from the
 * last check, or, while the text does not compile, from the last good one, marked stale. */
static char *kernel_markdown(const upk_doc_view *v, const char *name, int line) {
  if (!v->result)
    return NULL;
  if (json_is_true(json_object_get(v->result, "ok")) || !v->good)
    return upk_kernel_hover(v->result, v->runs, name, line);
  char *old = upk_kernel_hover(v->good, v->runs, name, line), *text = NULL;
  if (old)
    text = upk_xasprintf("*Stale: the text does not compile now; these figures are from its "
                         "last good compile.*\n\n%s",
                         old);
  free(old);
  return text;
}

static json_t *markdown(char *text) {
  json_t *h = text ? json_pack("{s:{s:s,s:s}}", "contents", "kind", "markdown", "value", text)
                   : json_null();
  free(text);
  return h;
}

static json_t *hover(const upk_doc_view *v, json_t *params) {
  char word[256];
  int line;
  if (!word_at(v, params, word, sizeof word, &line))
    return json_null();
  if (v->is_skill)
    return markdown(upk_skill_key_hover(v->text, v->len, line, word));
  return markdown(kernel_markdown(v, word, line));
}

/* ---- completion (SKILL.md frontmatter keys) ---- */

static json_t *completion(const upk_doc_view *v, json_t *params) {
  json_t *pos = json_object_get(params, "position");
  int line = (int)json_integer_value(json_object_get(pos, "line"));
  if (!v->is_skill)
    return json_array();
  return upk_skill_key_completions(v->text, v->len, line);
}

/* ---- code actions ---- */

static json_t *find_skill_action(json_t *diag) {
  const char *code = json_string_value(json_object_get(diag, "code"));
  const char *msg = json_string_value(json_object_get(diag, "message"));
  char task[600], title[160];
  snprintf(task, sizeof task, "%s%s%.500s", code ? code : "", code ? ": " : "", msg ? msg : "");
  snprintf(title, sizeof title, "Find a skill for this (%.120s)", code ? code : "diagnostic");
  return json_pack("{s:s,s:s,s:[O],s:{s:s,s:s,s:[{s:s,s:i}]}}", "title", title, "kind", "quickfix",
                   "diagnostics", diag, "command", "title", title, "command", "upskilld.findSkill",
                   "arguments", "task", task, "limit", 5);
}

static json_t *code_actions(const upk_doc_view *v, json_t *params) {
  json_t *out = json_array(), *d;
  size_t i;
  json_array_foreach(json_object_get(json_object_get(params, "context"), "diagnostics"), i, d) {
    json_t *fix = upk_lint_fix(v->uri, v->text, v->len, d);
    if (fix)
      json_array_append_new(out, fix);
    json_array_append_new(out, find_skill_action(d));
  }
  return out;
}

/* ---- workspace/executeCommand ---- */

#define FIND_SKILL_WAIT_MS 30000

/* The command's params hold the client's workDoneToken; its first argument, the method's. */
static void start_method(upk_server *s, upk_batch *b, json_t *id, const char *name, json_t *params,
                         json_t *args) {
  const upk_method *m = upk_method_find(name, upk_session_options(s)->test_methods);
  if (!json_is_object(args)) {
    upk_session_answer(s, b,
                       upk_rpc_error(id, UPK_RPC_INVALID_PARAMS,
                                     "params.arguments[0]: an object with the method's params",
                                     NULL));
    return;
  }
  upk_job_start(s, b, m, id, params, args, &upk_face_job_plain);
}

/* "Find a skill for this" shows a pick list: one from a half-built index would be wrong, so
 * it waits for the first scan (the client sees $/progress meanwhile) unless told otherwise. */
static void find_skill(upk_server *s, upk_batch *b, json_t *id, json_t *params, json_t *a0) {
  json_t *args = json_is_object(a0) ? json_copy(a0) : json_incref(a0);
  if (json_is_object(args) && !json_object_get(args, "waitMs"))
    json_object_set_new(args, "waitMs", json_integer(FIND_SKILL_WAIT_MS));
  start_method(s, b, id, "skills/lookup", params, args);
  json_decref(args);
}

static void execute(upk_server *s, upk_batch *b, json_t *id, json_t *params) {
  const char *cmd = json_string_value(json_object_get(params, "command"));
  json_t *args = json_object_get(params, "arguments"), *a0 = json_array_get(args, 0);
  if (cmd && !strcmp(cmd, "upskilld.findSkill")) {
    find_skill(s, b, id, params, a0);
  } else if (cmd && !strcmp(cmd, "upskilld.installSkill")) {
    start_method(s, b, id, "skills/install", params, a0);
  } else if (cmd && !strcmp(cmd, "upskilld.kernelInfo")) {
    upk_doc_view v;
    const char *name = json_string_value(json_array_get(args, 1));
    char *text =
        upk_docs_view(s, json_string_value(a0), &v) && name ? kernel_markdown(&v, name, -1) : NULL;
    json_t *r = text ? json_pack("{s:s}", "markdown", text) : json_null();
    free(text);
    upk_session_answer(s, b, upk_rpc_result(id, r));
  } else {
    char msg[200];
    snprintf(msg, sizeof msg, "params.command: unknown command %.100s (one of %s, %s, %s)",
             cmd ? cmd : "(none)", COMMANDS[0], COMMANDS[1], COMMANDS[2]);
    upk_session_answer(s, b, upk_rpc_error(id, UPK_RPC_INVALID_PARAMS, msg, NULL));
  }
}

/* ---- dispatch ---- */

static const char *const DOC_METHODS[] = {"textDocument/codeLens", "textDocument/hover",
                                          "textDocument/codeAction", "textDocument/completion"};

bool upk_editor_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                        json_t *params) {
  if (!strcmp(method, "workspace/executeCommand")) {
    execute(s, b, id, params);
    return true;
  }
  size_t which = 0, n = sizeof DOC_METHODS / sizeof *DOC_METHODS;
  while (which < n && strcmp(method, DOC_METHODS[which]))
    which++;
  if (which == n)
    return false;
  const char *uri =
      json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  upk_doc_view v;
  json_t *r;
  if (!uri) {
    upk_session_answer(s, b,
                       upk_rpc_error(id, UPK_RPC_INVALID_PARAMS,
                                     "params.textDocument.uri: expected a string", NULL));
    return true;
  }
  if (!upk_docs_view(s, uri, &v)) /* not a document we check: nothing to add */
    r = which == 1 ? json_null() : json_array();
  else if (which == 0 && upk_docs_wait_check(s, uri, id))
    return true; /* the first lenses of a text come with its check */
  else if (which == 0)
    r = code_lenses(&v);
  else if (which == 1)
    r = hover(&v, params);
  else if (which == 2)
    r = code_actions(&v, params);
  else
    r = completion(&v, params);
  upk_session_answer(s, b, upk_rpc_result(id, r));
  return true;
}

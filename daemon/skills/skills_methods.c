/* The skills methods: validate, lookup, list, get, prompt, install, remove, and the MCP
 * resources that serve skills as skill://<name>/<file>. Each handler parses its params on the
 * loop, does its work on the skills queue (index.h / install.h / validate.h are blocking and not
 * thread-safe) and answers from the loop. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skills/agents.h"
#include "common/diag_json.h"
#include "skills/install.h"
#include "skills/skills_lock.h"
#include "daemon/skills/skills_source.h"
#include "daemon/core/jobs.h"
#include "daemon/core/session.h"
#include "common/log.h"
#include "skills/prompt.h"
#include "skills/relevance.h"
#include "daemon/core/guard.h"
#include "daemon/skills/skills_call.h"
#include "daemon/skills/skills_fold.h"
#include "daemon/skills/install_judge.h"
#include "daemon/skills/judge_service.h"
#include "daemon/skills/skills_methods.h"
#include "daemon/skills/skills_service.h"
#include "daemon/core/tool_results.h"
#include "skills/validate.h"
#include "common/xalloc.h"

#define LOOKUP_MAX_WAIT_MS 120000
#define LOOKUP_TOOL_WAIT_MS 30000
/* A raw skills/lookup's wait for the first index when neither it nor the session says: seven
 * directories index in well under 100 ms, a registry of 40,000 in ~10 s. */
#define LOOKUP_WAIT_MS 2000
#define STRINGS UPK_ITEMS(UPK_T_STRING)
#define DESC_SHORT 200 /* bytes of a hit's description unless full */
#define NEAREST_MAX 3  /* hits kept when none fits */

/* ---- parameter specs: types, ranges, choices and defaults, checked before a handler runs ---- */

static const upk_param validate_params[] = {
    {"path", UPK_T_STRING, 0, "A skill directory or its SKILL.md (relative to the workspace)."},
    {"text", UPK_T_STRING, 0, "SKILL.md text to check instead of a path."},
    {"mode", UPK_T_STRING, 0, "strict: the specification; lenient: how agents load skills.",
     UPK_ONE_OF("strict", "lenient"), .def = "strict"},
    {0},
};
static const upk_param lookup_params[] = {
    {"task", UPK_T_STRING, 1, "What the agent is about to do, in plain words."},
    {"limit", UPK_T_INTEGER, 0, "How many skills to return.", UPK_RANGE(1, 100), .def = "10",
     .tool_def = "5"},
    {"full", UPK_T_BOOLEAN, 0, "Whole descriptions, not the first sentence.", .def = "true",
     .tool_def = "false"},
    {"agents", UPK_T_ARRAY, 0, "Only skills these agents see (claude, codex, ...).", STRINGS},
    {"waitMs", UPK_T_INTEGER, 0,
     "While the first index of the skills is built, wait up to this long for it, then answer "
     "partially, with indexing (default 30000 as an MCP tool, else "
     "initializationOptions.skills.lookupWaitMs, 2000 unless set).",
     UPK_RANGE(0, LOOKUP_MAX_WAIT_MS), .tool_def = UPK_STRINGIFY(LOOKUP_TOOL_WAIT_MS), .expert = 1},
    {0},
};
static const upk_param list_params[] = {
    {"agent", UPK_T_STRING, 0, "Only skills this agent sees."},
    {"scope", UPK_T_STRING, 0, "Only skills of this scope.",
     UPK_ONE_OF("project", "user", "builtin", "extra")},
    {"offset", UPK_T_INTEGER, 0, "Skip this many entries (paging).", UPK_MIN(0), .def = "0",
     .expert = 1},
    {"cursor", UPK_T_STRING, 0, "The nextCursor of the page before."},
    {"limit", UPK_T_INTEGER, 0, "At most this many entries.", UPK_RANGE(1, 10000), .def = "1000",
     .tool_def = "50"},
    {"fold", UPK_T_BOOLEAN, 0, "false: one entry per placement (agent directory).", .def = "false",
     .tool_def = "true"},
    {"full", UPK_T_BOOLEAN, 0, "Whole descriptions, not the first sentence.", .def = "true",
     .tool_def = "false"},
    {"waitMs", UPK_T_INTEGER, 0,
     "While the first index of the skills is built, wait up to this long for it (default 0: "
     "answer at once, partial, with indexing).",
     UPK_RANGE(0, LOOKUP_MAX_WAIT_MS), .def = "0", .expert = 1},
    {0},
};
static const upk_param get_params[] = {
    {"name", UPK_T_STRING, 1, "The skill's name."},
    {"agent", UPK_T_STRING, 0, "Resolve the name as this agent would (shadowing)."},
    {0},
};
static const upk_param prompt_params[] = {
    {"agent", UPK_T_STRING, 0, "The skills this agent sees (default: all)."},
    {0},
};
static const upk_param file_fields[] = {
    {"path", UPK_T_STRING, 1, "Relative, e.g. references/api.md."},
    {"content", UPK_T_TEXT, 1, NULL},
    {0},
};
static const upk_param skill_text_fields[] = {
    {"markdown", UPK_T_TEXT, 1, "The SKILL.md text."},
    {"files", UPK_T_ARRAY, 0, "Its other files.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = file_fields)},
    {0},
};
static const upk_param install_params[] = {
    {"from", UPK_T_ANY, 1,
     "A skill directory or SKILL.md; owner/repo[/path][@ref]; a git URL; or {markdown, files}.",
     UPK_ANY_OF(
         {.type = UPK_T_STRING,
          .description = "A skill directory or SKILL.md path; or a source of several: "
                         "owner/repo[/path][@ref], a git URL (#ref), a directory."},
         {.type = UPK_T_OBJECT, .description = "The skill itself.", .props = skill_text_fields})},
    {"skills", UPK_T_ARRAY, 0, "Which of the source's skills.", STRINGS},
    {"all", UPK_T_BOOLEAN, 0, "Every skill of the source.", .def = "false"},
    {"list", UPK_T_BOOLEAN, 0, "List the source's skills; install nothing.", .def = "false"},
    {"allowRisky", UPK_T_BOOLEAN, 0,
     "Install even when the audit (of every install, whatever its source) finds high risks "
     "(recorded in the lock).",
     .def = "false", .expert = 1},
    {"agents", UPK_T_ARRAY, 0, "Agents to install for (default: agents and claude).", STRINGS},
    {"scope", UPK_T_STRING, 0, "project: the workspace; user: the home directory.",
     UPK_ONE_OF("project", "user"), .def = "project"},
    {"force", UPK_T_BOOLEAN, 0, "Replace a different skill of the same name.", .def = "false",
     .expert = 1},
    {0},
};
static const upk_param remove_params[] = {
    {"name", UPK_T_STRING, 1, "The skill to remove."},
    {"agents", UPK_T_ARRAY, 0, "Only from these agents' directories.", STRINGS},
    {"scope", UPK_T_STRING, 0, NULL, UPK_ONE_OF("project", "user"), .def = "project"},
    {0},
};

static void do_validate(upk_call *c, upk_index *ix) {
  const char *path = upk_call_str(c, "path"), *text = upk_call_str(c, "text");
  upk_validate_mode m = strcmp(json_string_value(json_object_get(c->params, "mode")), "lenient")
                            ? UPK_VALIDATE_STRICT
                            : UPK_VALIDATE_LENIENT;
  upk_diags d = {0};
  size_t errors;
  if (path) {
    char *abs = upk_call_path(c, path);
    errors = upk_skill_validate_path(abs, m, &d);
    free(abs);
  } else {
    errors = upk_skill_validate_text(text, json_string_length(json_object_get(c->params, "text")),
                                     m, &d);
  }
  c->result =
      json_pack("{s:b,s:I,s:I,s:s,s:o}", "ok", errors == 0, "errors", (json_int_t)errors,
                "warnings", (json_int_t)upk_diags_count(&d, UPK_SEV_WARNING), "mode",
                m == UPK_VALIDATE_STRICT ? "strict" : "lenient", "diagnostics", upk_diags_json(&d));
  upk_diags_free(&d);
}

static void validate_handler(upk_job *job, json_t *params) {
  json_t *path = json_object_get(params, "path"), *text = json_object_get(params, "text");
  if (!path == !text) {
    upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "params: give exactly one of path or text");
    return;
  }
  if (path && !upk_guard_path(job, json_string_value(path), false, "params.path"))
    return;
  upk_call_start(job, params, do_validate);
}

/* ---- lookup, list, get, prompt ---- */

static json_t *entry_json(const upk_index_entry *e) {
  json_t *j = json_pack("{s:s,s:s,s:s,s:s,s:s?,s:s,s:b,s:b,s:I}", "name", e->name, "description",
                        e->description ? e->description : "", "path", e->path, "dir", e->dir,
                        "agent", e->agent, "scope", upk_index_scope_name(e->scope), "shadowed",
                        e->shadowed, "usable", e->usable, "tokens", (json_int_t)e->tokens);
  if (j && e->diags.len)
    json_object_set_new(j, "diagnostics", upk_diags_json(&e->diags));
  return j;
}

/* What a client must know to trust an answer: the first scan is still under
 * way (ask again), or a root was cut at the directory limit. */
static void add_index_state(upk_index *ix, json_t *r) {
  size_t done, total, n;
  if (upk_index_scanning(ix, &done, &total))
    json_object_set_new(
        r, "indexing",
        json_pack("{s:I,s:I}", "done", (json_int_t)done, "total", (json_int_t)total));
  char **dirs;
  if (upk_index_truncated(ix, &dirs, &n) || !n)
    return;
  json_t *roots = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(roots, json_string(dirs[i]));
  upk_index_strings_free(dirs, n);
  json_object_set_new(r, "truncated", json_true());
  json_object_set_new(r, "truncatedRoots", roots);
}

static size_t agents_param(json_t *arr, const char **out, size_t cap) {
  size_t n = 0, i;
  json_t *v;
  json_array_foreach(arr, i, v) {
    if (n < cap && json_is_string(v))
      out[n++] = json_string_value(v);
  }
  return n;
}

/* The hits as the answer lists them: each with its relevance (skills/relevance.h), best first.
 * When the best is under the cut, no skill fits: the answer says noMatch. A tool's answer
 * (full: false) has short descriptions, and when none fits only the nearest few. */
static json_t *hits_json(upk_call *c, const upk_index_hits *hits) {
  const char *task = upk_call_str(c, "task");
  bool full = json_is_true(json_object_get(c->params, "full"));
  double *rel = upk_xcalloc(hits->len + 1, sizeof *rel), best = 0;
  size_t words = upk_relevance_task_words(task);
  for (size_t i = 0; i < hits->len; i++) {
    rel[i] = upk_hit_relevance_of(words, &hits->items[i]);
    best = rel[i] > best ? rel[i] : best;
  }
  bool none = best < UPK_RELEVANCE_CUT;
  size_t n = none && !full && hits->len > NEAREST_MAX ? NEAREST_MAX : hits->len;
  json_t *results = json_array();
  for (size_t i = 0; i < n; i++) {
    const upk_index_hit *h = &hits->items[i];
    const char *d = h->e.description ? h->e.description : "";
    json_array_append_new(
        results,
        json_pack("{s:s,s:o,s:s,s:s?,s:s,s:f,s:f,s:s}", "name", h->e.name, "description",
                  full ? json_string(d) : upk_skills_short_description(d, DESC_SHORT), "path",
                  h->e.path, "agent", h->e.agent, "scope", upk_index_scope_name(h->e.scope),
                  "relevance", round(rel[i] * 1000) / 1000, "score", h->score, "why",
                  h->why ? h->why : ""));
  }
  free(rel);
  return json_pack("{s:o,s:b,s:f}", "results", results, "noMatch", none, "relevanceCut",
                   UPK_RELEVANCE_CUT);
}

static void do_lookup(upk_call *c, upk_index *ix) {
  if (!upk_call_need_index(c, ix))
    return;
  if (upk_call_wait_scan(c, ix))
    return;
  const char *agents[32];
  size_t n = agents_param(json_object_get(c->params, "agents"), agents, 32);
  json_int_t limit = json_integer_value(json_object_get(c->params, "limit"));
  upk_index_hits hits = {0};
  int rc = upk_index_lookup(ix, upk_call_str(c, "task"), (size_t)limit, agents, n, &hits);
  if (rc) {
    upk_call_fail(c, rc == -EINVAL ? UPK_RPC_INVALID_PARAMS : UPK_RPC_REQUEST_FAILED, NULL, "%s",
                  rc == -EINVAL ? "params.task: describe the task in words" : upk_index_errmsg(ix));
    return;
  }
  c->result = hits_json(c, &hits);
  upk_index_hits_free(&hits);
  add_index_state(ix, c->result);
}

static bool check_agents(upk_job *job, json_t *params) {
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(params, "agents"), i, v) {
    if (!json_is_string(v) || !upk_agent_find(json_string_value(v))) {
      upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "params.agents[%zu]: unknown agent%s%s", i,
                   json_is_string(v) ? " " : "", json_is_string(v) ? json_string_value(v) : "");
      return false;
    }
  }
  return true;
}

/* How long a lookup waits for the first index: its waitMs (an MCP tool call gets 30 s from the
 * table: find_skill's agent does not know to ask again); else the session's bound
 * (lookupWaitMs, checked at initialize), 2 s unless set. The wait itself is one for every face:
 * the call is parked on the skills queue and runs again after each batch of the scan
 * (upk_call_wait_scan). */
static json_int_t lookup_wait_ms(const upk_job *job, json_t *params) {
  json_t *wait = json_object_get(params, "waitMs");
  if (wait)
    return json_integer_value(wait);
  json_t *bound = json_object_get(json_object_get(upk_session_init_options(job->server), "skills"),
                                  "lookupWaitMs");
  return json_is_integer(bound) ? json_integer_value(bound) : LOOKUP_WAIT_MS;
}

/* The table checked limit's and waitMs's ranges. */
static void lookup_handler(upk_job *job, json_t *params) {
  if (check_agents(job, params))
    upk_call_start_waiting(job, params, do_lookup, lookup_wait_ms(job, params));
}

/* The shadows of the names on this page (all of them would be another giant answer). */
static json_t *page_shadows(upk_index *ix, const upk_index_entries *page) {
  json_t *names = json_object(), *shadows = json_array();
  for (size_t i = 0; i < page->len; i++)
    json_object_set_new(names, page->items[i].name, json_true());
  upk_index_shadow *sh = NULL;
  size_t n = 0;
  /* the page is in name order: only its names' shadows are read */
  const char *first = page->len ? page->items[0].name : NULL;
  const char *last = page->len ? page->items[page->len - 1].name : NULL;
  if (page->len && upk_index_shadows_between(ix, first, last, &sh, &n) == 0) {
    for (size_t i = 0; i < n; i++)
      if (json_object_get(names, sh[i].name))
        json_array_append_new(shadows, json_pack("{s:s,s:s?,s:s,s:s}", "name", sh[i].name, "agent",
                                                 sh[i].agent, "winner", sh[i].winner, "shadowed",
                                                 sh[i].shadowed));
    upk_index_shadows_free(sh, n);
  }
  json_decref(names);
  return shadows;
}

/* What a cursor belongs to: the listing's filters and shape. */
static char *listing_key(upk_call *c) {
  const char *agent = upk_call_str(c, "agent"), *scope = upk_call_str(c, "scope");
  return upk_xasprintf("list|%s|%s|%d", agent ? agent : "", scope ? scope : "",
                       json_is_true(json_object_get(c->params, "fold")));
}

/* The page's offset: the cursor's, else offset; -1 (the call failed) for a bad cursor. */
static long long list_offset(upk_call *c, const char *key) {
  const char *cursor = upk_call_str(c, "cursor");
  if (!cursor)
    return json_integer_value(json_object_get(c->params, "offset"));
  long long off = upk_skills_cursor_offset(cursor, key);
  if (off < 0)
    upk_call_fail(c, UPK_RPC_INVALID_PARAMS, NULL,
                  "params.cursor: not a cursor of this listing (altered, or from a listing with "
                  "other agent, scope or fold): list again without a cursor");
  return off;
}

/* Every placement (fold false), or one entry per skill: the page of either. */
static json_t *list_page(upk_call *c, upk_index *ix, const char *agent, const upk_index_scope *sc,
                         size_t offset, size_t limit, size_t *total, json_t **shadows) {
  upk_index_entries page = {0};
  bool fold = json_is_true(json_object_get(c->params, "fold"));
  int rc = fold ? upk_index_list(ix, agent, sc, &page)
                : upk_index_list_page(ix, agent, sc, offset, limit, &page, total);
  if (rc) {
    upk_call_fail(c, UPK_RPC_REQUEST_FAILED, NULL, "%s", upk_index_errmsg(ix));
    return NULL;
  }
  json_t *skills;
  if (fold) {
    skills = upk_skills_fold(&page, json_is_true(json_object_get(c->params, "full")), offset, limit,
                             total);
    *shadows = json_array(); /* each entry says whether it is shadowed */
  } else {
    skills = json_array();
    for (size_t i = 0; i < page.len; i++)
      json_array_append_new(skills, entry_json(&page.items[i]));
    *shadows = page_shadows(ix, &page);
  }
  upk_index_entries_free(&page);
  return skills;
}

static void do_list(upk_call *c, upk_index *ix) {
  upk_index_scope sc;
  const char *scope = upk_call_str(c, "scope"); /* one of the table's choices */
  if (!upk_call_need_index(c, ix) || upk_call_wait_scan(c, ix))
    return;
  bool by_scope = scope && upk_index_scope_parse(scope, &sc) == 0;
  char *key = listing_key(c);
  long long off = list_offset(c, key);
  size_t limit = (size_t)json_integer_value(json_object_get(c->params, "limit")), total = 0;
  json_t *shadows = NULL, *skills = NULL;
  if (off >= 0)
    skills = list_page(c, ix, upk_call_str(c, "agent"), by_scope ? &sc : NULL, (size_t)off, limit,
                       &total, &shadows);
  if (!skills) {
    free(key);
    return;
  }
  size_t next = (size_t)off + json_array_size(skills);
  char *cursor = next < total ? upk_skills_cursor(next, key) : NULL;
  free(key);
  c->result =
      json_pack("{s:o,s:o,s:I,s:I,s:o,s:s?}", "skills", skills, "shadows", shadows, "total",
                (json_int_t)total, "offset", (json_int_t)off, "nextOffset",
                next < total ? json_integer((json_int_t)next) : json_null(), "nextCursor", cursor);
  free(cursor);
  add_index_state(ix, c->result);
}

static void do_get(upk_call *c, upk_index *ix) {
  if (!upk_call_need_index(c, ix))
    return;
  upk_index_skill sk = {0};
  int rc = upk_index_get(ix, upk_call_str(c, "name"), upk_call_str(c, "agent"), &sk);
  if (rc) {
    upk_call_fail(c, rc == -ENOENT ? UPK_RPC_INVALID_PARAMS : UPK_RPC_REQUEST_FAILED, NULL,
                  rc == -ENOENT ? "no skill named '%s'" : "%s",
                  rc == -ENOENT ? upk_call_str(c, "name") : upk_index_errmsg(ix));
    return;
  }
  json_t *files = json_array();
  for (size_t i = 0; i < sk.n_files; i++)
    json_array_append_new(files, json_string(sk.files[i]));
  json_t *meta = sk.meta_text ? json_loads(sk.meta_text, 0, NULL) : NULL;
  json_t *r = entry_json(&sk.e);
  json_object_set_new(r, "text", json_stringn(sk.text, sk.text_len));
  json_object_set_new(r, "files", files);
  json_object_set_new(r, "meta", meta ? meta : json_null());
  upk_index_skill_free(&sk);
  c->result = r;
}

static void do_prompt(upk_call *c, upk_index *ix) {
  if (!upk_call_need_index(c, ix))
    return;
  upk_index_entries all = {0};
  if (upk_index_list(ix, upk_call_str(c, "agent"), NULL, &all) != 0) {
    upk_call_fail(c, UPK_RPC_REQUEST_FAILED, NULL, "%s", upk_index_errmsg(ix));
    return;
  }
  char *xml = upk_prompt_from_entries(all.items, all.len);
  upk_index_entries_free(&all);
  c->result = json_pack("{s:s}", "xml", xml ? xml : "");
  free(xml);
}

static void agent_filter_waiting(upk_job *job, json_t *params, upk_call_fn fn, json_int_t wait_ms) {
  const char *agent = json_string_value(json_object_get(params, "agent"));
  if (agent && *agent && !upk_agent_find(agent)) {
    upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "params.agent: unknown agent %s", agent);
    return;
  }
  upk_call_start_waiting(job, params, fn, wait_ms);
}

static void agent_filter_handler(upk_job *job, json_t *params, upk_call_fn fn) {
  agent_filter_waiting(job, params, fn, 0);
}

static void list_handler(upk_job *job, json_t *params) {
  agent_filter_waiting(job, params, do_list, json_integer_value(json_object_get(params, "waitMs")));
}
static void get_handler(upk_job *job, json_t *params) {
  agent_filter_handler(job, params, do_get);
}
static void prompt_handler(upk_job *job, json_t *params) {
  agent_filter_handler(job, params, do_prompt);
}

/* ---- install / remove ---- */

json_t *upk_install_targets_json(const upk_install_result *res) {
  json_t *a = json_array();
  for (size_t i = 0; i < res->n_targets; i++) {
    const upk_install_target *t = &res->targets[i];
    json_t *agents = json_array();
    for (size_t k = 0; k < t->n_agents; k++)
      json_array_append_new(agents, json_string(t->agents[k]));
    json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:b,s:b,s:b,s:s?}", "root", t->root, "path",
                                       t->path, "agents", agents, "replaced", t->replaced,
                                       "unchanged", t->unchanged, "removed", t->removed, "error",
                                       t->status ? strerror(-t->status) : NULL));
  }
  return a;
}

static void finish_install(upk_call *c, upk_index *ix, int rc, upk_install_result *res,
                           const char *verb) {
  for (size_t i = 0; i < res->n_targets; i++)
    if (res->targets[i].status == 0)
      upk_skills_touch(c->server, ix, res->targets[i].path);
  json_t *diags = upk_diags_json(&res->diags);
  if (rc == 0) {
    c->result = json_pack("{s:s?,s:o,s:o}", "name", res->name, "targets",
                          upk_install_targets_json(res), "diagnostics", diags);
    if (res->hash[0])
      json_object_set_new(c->result, "hash", json_string(res->hash));
    return;
  }
  const char *why = res->diags.len ? res->diags.items[res->diags.len - 1].message : strerror(-rc);
  upk_call_fail(
      c, rc == -EINVAL ? UPK_RPC_INVALID_PARAMS : UPK_RPC_REQUEST_FAILED,
      json_pack("{s:o,s:o}", "diagnostics", diags, "targets", upk_install_targets_json(res)),
      "%s refused: %s", verb, why);
}

typedef struct file_list {
  upk_install_file *items;
  size_t n;
} file_list;

/* from.files, whose shape the table checked: [{path, content}]. */
static void read_files(json_t *from, file_list *fl) {
  json_t *files = json_object_get(from, "files");
  fl->n = json_array_size(files);
  fl->items = upk_xcalloc(fl->n ? fl->n : 1, sizeof *fl->items);
  for (size_t i = 0; fl->items && i < fl->n; i++) {
    json_t *f = json_array_get(files, i), *content = json_object_get(f, "content");
    fl->items[i] = (upk_install_file){json_string_value(json_object_get(f, "path")),
                                      json_string_value(content), json_string_length(content)};
  }
}

/* The scope a request asked for: the table allows project (its default) or user. */
static upk_scope scope_of(upk_call *c) {
  return strcmp(upk_call_str(c, "scope"), "user") ? UPK_SCOPE_PROJECT : UPK_SCOPE_USER;
}

static void do_install(upk_call *c, upk_index *ix) {
  if (upk_install_judge_first(c, do_install))
    return; /* the user's audit.judge reads the skill first (install_judge.h) */
  json_t *from = json_object_get(c->params, "from");
  const char *agents[32];
  upk_install_req req = {0};
  req.n_agents = agents_param(json_object_get(c->params, "agents"), agents, 32);
  req.agents = agents;
  req.scope = scope_of(c);
  req.project_root = upk_session_workspace(c->server);
  req.force = json_is_true(json_object_get(c->params, "force"));
  req.audit = true; /* whatever the source: a path, the text itself (a source: audit_passes) */
  req.allow_risky = json_is_true(json_object_get(c->params, "allowRisky"));
  file_list fl = {0};
  char *path = NULL;
  if (json_is_string(from)) {
    path = upk_call_path(c, json_string_value(from));
    if (!upk_install_is_one_skill(path, c->params)) {
      upk_install_source(c, ix, &req, json_string_value(from));
      free(path);
      return;
    }
    req.from_path = path;
  } else {
    read_files(from, &fl);
    if (!fl.items) {
      upk_call_fail(c, UPK_RPC_INTERNAL_ERROR, NULL, "out of memory");
      return;
    }
    json_t *md = json_object_get(from, "markdown");
    req.markdown = json_string_value(md);
    req.markdown_len = json_string_length(md);
    req.files = fl.items;
    req.n_files = fl.n;
  }
  upk_install_result res;
  int rc = upk_install(&req, &res);
  if (!rc && path && req.scope == UPK_SCOPE_PROJECT) /* every install is locked, or says why */
    upk_install_lock_path(&req, res.name, path, res.high || upk_install_judge_risky(c), &res.diags);
  finish_install(c, ix, rc, &res, "install");
  upk_install_result_free(&res);
  free(fl.items);
  free(path);
}

/* The table checked from's shape and scope's value. An agent installs from the places it may
 * read, into the project unless --agent-allow=user-skills lets it reach the user's (guard.h). */
static bool install_guarded(upk_job *job, json_t *params) {
  const char *from = json_string_value(json_object_get(params, "from"));
  if (from && !upk_guard_source(job, from, "params.from"))
    return false;
  if (strcmp(json_string_value(json_object_get(params, "scope")), "user"))
    return upk_guard_workspace(job, "scope 'project'");
  return upk_guard_allow(job, UPK_AGENT_ALLOW_USER_SKILLS,
                         "scope 'user' (the skill directories every project of yours reads)");
}

static void install_handler(upk_job *job, json_t *params) {
  if (install_guarded(job, params) && check_agents(job, params))
    upk_call_start(job, params, do_install);
}

/* The project's skills-lock.json forgets a skill removed from the project (when it has it). */
static void forget_locked(upk_call *c, const char *name, upk_diags *d) {
  char err[512];
  json_t *lock = upk_skills_lock_read(upk_session_workspace(c->server), err, sizeof err);
  bool has = json_object_get(json_object_get(lock, "skills"), name) != NULL;
  json_decref(lock);
  if (has && upk_skills_lock_set(upk_session_workspace(c->server), name, NULL, err, sizeof err))
    upk_diags_add(d, UPK_SEV_WARNING, "source/lock-write", "upskilld-source",
                  (upk_range){-1, 0, -1, 0}, "%s", err);
}

static void do_remove(upk_call *c, upk_index *ix) {
  const char *agents[32];
  upk_remove_req req = {0};
  req.name = upk_call_str(c, "name");
  req.n_agents = agents_param(json_object_get(c->params, "agents"), agents, 32);
  req.agents = agents;
  req.scope = scope_of(c);
  req.project_root = upk_session_workspace(c->server);
  upk_install_result res;
  int rc = upk_remove(&req, &res);
  if (rc == -ENOENT) {
    upk_call_fail(c, UPK_RPC_INVALID_PARAMS, NULL, "no installed skill named '%s' in %s scope",
                  req.name, req.scope == UPK_SCOPE_USER ? "user" : "project");
  } else {
    if (rc == 0 && req.scope == UPK_SCOPE_PROJECT)
      forget_locked(c, req.name, &res.diags);
    finish_install(c, ix, rc, &res, "remove");
  }
  upk_install_result_free(&res);
}

/* ---- audit ---- */

static const upk_param audit_params[] = {
    {"from", UPK_T_STRING, 1, "A skill directory, owner/repo[/path][@ref] or a git URL (#ref)."},
    {"skills", UPK_T_ARRAY, 0, "Only these skills of the source.", STRINGS},
    {"judge", UPK_T_STRING, 0,
     "Also have this model read each skill (its findings must quote the file)."},
    {"judgeFailure", UPK_T_STRING, 0,
     "When the judge fails: warn (the rules' verdict stands) or fail (a high finding).",
     UPK_ONE_OF("warn", "fail"), .def = "warn", .expert = true},
    {"judgeTimeoutMs", UPK_T_INTEGER, 0, "The judge's deadline per skill.", UPK_RANGE(100, 600000),
     .def = "120000", .expert = true},
    {"dryRun", UPK_T_BOOLEAN, 0, "With judge: say what the judge would read; call nothing.",
     .def = "false", .expert = true},
    {"maxCostUsd", UPK_T_NUMBER, 0, "With judge: the most USD its calls may cost (config prices).",
     .expert = true},
    {0},
};

static void do_audit(upk_call *c, upk_index *ix) {
  upk_audit_source(c, ix, upk_call_str(c, "from"));
}

static void audit_handler(upk_job *job, json_t *params) {
  if (!upk_guard_source(job, json_string_value(json_object_get(params, "from")), "params.from") ||
      !upk_audit_judge_allowed(job, params))
    return;
  json_t *p = json_copy(params);
  json_object_set_new(p, "auditOnly", json_true());
  upk_call_start(job, p, do_audit);
  json_decref(p);
}

/* ---- restore / check: the project's skills-lock.json ---- */

static const upk_param restore_params[] = {
    {"frozen", UPK_T_BOOLEAN, 0,
     "Refuse any drift from the lock's hashes; never rewrite it (as npm ci).", .def = "false"},
    {0},
};
static const upk_param check_params[] = {
    {"names", UPK_T_ARRAY, 0, "Only these skills.", STRINGS},
    {"update", UPK_T_BOOLEAN, 0, "Reinstall the outdated from their sources.", .def = "false"},
    {0},
};

/* Lock installs go where the skills CLI puts them by default for us, agents and claude, and
 * keep its symbolic links (.claude/skills/x -> ../../.agents/skills/x) as they are. */
static upk_install_req lock_req(upk_call *c) {
  return (upk_install_req){.scope = UPK_SCOPE_PROJECT,
                           .project_root = upk_session_workspace(c->server),
                           .force = true,
                           .keep_links = true};
}

static void do_restore(upk_call *c, upk_index *ix) {
  upk_install_req req = lock_req(c);
  upk_restore_skills(c, ix, &req, json_is_true(json_object_get(c->params, "frozen")));
}

static void do_check(upk_call *c, upk_index *ix) {
  upk_install_req req = lock_req(c);
  upk_check_skills(c, ix, &req, json_is_true(json_object_get(c->params, "update")));
}

static void restore_handler(upk_job *job, json_t *params) {
  if (upk_guard_workspace(job, "restoring the project's skills-lock.json"))
    upk_call_start(job, params, do_restore);
}

static void check_handler(upk_job *job, json_t *params) {
  if (upk_guard_workspace(job, "checking the project's skills-lock.json"))
    upk_call_start(job, params, do_check);
}

static void remove_handler(upk_job *job, json_t *params) {
  if (install_guarded(job, params) && check_agents(job, params))
    upk_call_start(job, params, do_remove);
}

/* ---- table entries ---- */

const upk_method upk_skills_methods[] = {
    {"skills/lookup", "find_skill", "Find the skill for a task",
     "Call first when starting a task: the installed skills that fit it, best first, with a "
     "relevance in [0, 1]; noMatch: true when none fits.",
     lookup_params, lookup_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT,
     .result = upk_result_find_skill},
    {"skills/list", "list_skills", "List skills",
     "Call to see which skills are installed: one entry per skill (its scope, agents, "
     "problems), paged.",
     list_params, list_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT,
     .result = upk_result_list_skills},
    {"skills/get", "get_skill", "Read a skill",
     "Call to read a skill found by find_skill: its SKILL.md, files and metadata.", get_params,
     get_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT, .result = upk_result_get_skill},
    {"skills/prompt", "skills_prompt", "Skills prompt block",
     "Call to get the <available_skills> block for a system prompt.", prompt_params, prompt_handler,
     UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT, .result = upk_result_skills_prompt},
    {"skills/validate", "validate_skill", "Validate a skill",
     "Call after writing or editing a SKILL.md: errors and warnings with line and column.",
     validate_params, validate_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT,
     .result = upk_result_validate_skill},
    {"skills/audit", "audit_skill", "Audit skills before installing them",
     "Call before installing a skill from elsewhere: its risky lines (downloads run, "
     "credentials read, data sent out, hidden text) with file and line.",
     audit_params, audit_handler,
     UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT | UPK_METHOD_OPEN_WORLD,
     .result = upk_result_audit},
    {"skills/restore", "restore_skills", "Restore the project's locked skills",
     "Call to install what the project's skills-lock.json names, each at its locked commit.",
     restore_params, restore_handler,
     UPK_METHOD_DESTRUCTIVE | UPK_METHOD_IDEMPOTENT | UPK_METHOD_OPEN_WORLD,
     .result = upk_result_restore},
    {"skills/check", "check_skills", "Check locked skills for updates",
     "Call to learn which locked skills have newer versions at their source.", check_params,
     check_handler, UPK_METHOD_DESTRUCTIVE | UPK_METHOD_OPEN_WORLD, /* update */
     .result = upk_result_check},
    {"skills/install", "install_skill", "Install a skill",
     "Call when the user asks to install a skill (path, owner/repo or text): validated, "
     "audited, placed where agents read skills.",
     install_params, install_handler,
     UPK_METHOD_DESTRUCTIVE | UPK_METHOD_IDEMPOTENT | UPK_METHOD_OPEN_WORLD,
     .result = upk_result_install},
    {"skills/remove", "remove_skill", "Remove a skill",
     "Call when the user asks to remove an installed skill.", remove_params, remove_handler,
     UPK_METHOD_DESTRUCTIVE | UPK_METHOD_IDEMPOTENT, .result = upk_result_install},
};

const size_t upk_skills_methods_count = sizeof upk_skills_methods / sizeof *upk_skills_methods;

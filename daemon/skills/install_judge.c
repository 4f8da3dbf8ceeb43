/* The user's judge before an install (install_judge.h). */
#include "daemon/skills/install_judge.h"

#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/diag_json.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "daemon/core/session.h"
#include "daemon/skills/judge_service.h"
#include "skills/audit.h"
#include "skills/audit_judge.h"
#include "skills/fsutil.h"

typedef struct gate {
  upk_audit_judge *judge;
  json_t *entries;   /* [{path, findings, judge}]: one a skill (judge_service.h) */
  int high;          /* the high findings allowRisky let in */
  char *tmp;         /* an inline skill, written out for the judge to read; removed after */
  bool each;         /* a lock's skills: each refused or let in on its own (`place` decides) */
  upk_call_fn place; /* the install itself, on the queue */
  void *prev;        /* the caller's state, and how it is freed */
  void (*prev_free)(void *);
} gate;

static void gate_free(void *p) {
  gate *g = p;
  if (g->tmp && upk_rmtree_at(AT_FDCWD, g->tmp))
    upk_warn("install: cannot remove %s", g->tmp);
  if (g->prev_free)
    g->prev_free(g->prev);
  upk_audit_judge_free(g->judge);
  json_decref(g->entries);
  free(g->tmp);
  free(g);
}

void *upk_install_judge_state(const upk_call *c) {
  return c->state_free == gate_free ? ((gate *)c->state)->prev : c->state;
}

bool upk_install_judge_risky(const upk_call *c) {
  return c->state_free == gate_free && ((const gate *)c->state)->high > 0;
}

/* One skill's directory for the judge, beside the rules' findings it reads. */
static void add_skill(gate *g, const char *dir, const char *repo, const char *path) {
  upk_diags rules = {0};
  upk_audit_skill_in(dir, repo, &rules);
  json_t *entry = json_pack("{s:s,s:[]}", "path", path, "findings");
  upk_audit_judge_add(g->judge, dir, &rules, entry);
  json_array_append_new(g->entries, entry);
  upk_diags_free(&rules);
}

/* ---- back on the queue: what the judge said, as the install's ---- */

/* One line of the judge's report as a diagnostic of the install, on SKILL.md. */
static void install_note(json_t *diags, upk_severity sev, const char *file, const char *msg) {
  upk_diags d = {0};
  upk_diags_add(&d, sev, "audit/judge", UPK_JUDGE_SOURCE, (upk_range){-1, 0, -1, 0}, "%s", msg);
  d.items[0].file = upk_xstrdup(file);
  json_array_append_new(diags, upk_diag_json(&d.items[0]));
  upk_diags_free(&d);
}

/* The judge's findings in `entry` (their files under `prefix`, "": none), a warning when it
 * failed under judgeFailure warn and a note of its unverified findings, into `diags`. Returns
 * how many are high: those refuse the install. */
static size_t install_diags(const json_t *entry, const char *prefix, json_t *diags) {
  size_t i, high = 0;
  json_t *f;
  bool failed_hard = false;
  json_array_foreach(json_object_get(entry, "findings"), i, f) {
    const char *file = json_string_value(json_object_get(f, "file"));
    json_t *c = json_deep_copy(f);
    if (prefix && *prefix)
      json_object_set_new(c, "file", json_sprintf("%s/%s", prefix, file ? file : "SKILL.md"));
    high += json_integer_value(json_object_get(f, "severity")) == UPK_SEV_ERROR;
    const char *code = json_string_value(json_object_get(c, "code"));
    failed_hard |= code && !strcmp(code, "audit/judge-failed");
    json_array_append_new(diags, c);
  }
  const json_t *report = json_object_get(entry, "judge");
  char *md = upk_xasprintf("%s%sSKILL.md", prefix ? prefix : "", prefix && *prefix ? "/" : "");
  const char *error = json_string_value(json_object_get(report, "error"));
  if (error && !failed_hard) {
    char *msg = upk_xasprintf("%s (audit.judgeFailure warn: the rules' verdict stands)", error);
    install_note(diags, UPK_SEV_WARNING, md, msg);
    free(msg);
  }
  size_t unverified = json_array_size(json_object_get(report, "unverified"));
  if (unverified) {
    char *msg = upk_xasprintf("the judge (%s) gave %zu finding(s) whose quote is not in the file "
                              "named: dropped, not counted",
                              json_string_value(json_object_get(report, "judge")), unverified);
    install_note(diags, UPK_SEV_INFO, md, msg);
    free(msg);
  }
  free(md);
  return high;
}

/* The judge's high findings refuse the install (-1: the call has failed), unless allowRisky.
 * A lock's skills (g->each) are refused one by one ("refused" on each entry, unless its own
 * allowRisky): `place` says what that means for the call. */
static int verdict(upk_call *c, gate *g, json_t *said) {
  size_t i, high = 0;
  json_t *e;
  json_array_foreach(g->entries, i, e) {
    const char *path = json_string_value(json_object_get(e, "path"));
    const char *slash = strrchr(path, '/');
    char *prefix = upk_xstrndup(path, slash ? (size_t)(slash - path) : 0);
    size_t h = install_diags(e, prefix, said);
    high += h;
    json_object_set_new(e, "refused",
                        json_boolean(h && !json_is_true(json_object_get(e, "risky"))));
    free(prefix);
  }
  if (!high || g->each || json_is_true(json_object_get(c->params, "allowRisky")))
    return (int)high;
  const json_t *report = json_object_get(json_array_get(g->entries, 0), "judge");
  upk_call_fail(c, UPK_RPC_REQUEST_FAILED, json_object(),
                "install refused: the judge (%s) found %zu high risk(s) (diagnostics); allowRisky "
                "(--allow-risky) installs it anyway",
                json_string_value(json_object_get(report, "judge")), high);
  return -1;
}

static void gate_ask(upk_call *c, int cancel_fd) {
  upk_audit_judge_ask(((gate *)c->state)->judge, cancel_fd);
}

static void gate_done(upk_call *c, upk_index *ix) {
  gate *g = c->state;
  json_t *said = json_array();
  upk_audit_judge_finish(g->judge);
  g->high = verdict(c, g, said);
  if (g->high >= 0)
    g->place(c, ix);
  json_t *into = c->result ? c->result : c->data; /* the judge's findings join the install's */
  if (into && !json_object_get(into, "diagnostics"))
    json_object_set_new(into, "diagnostics", json_array());
  json_array_extend(json_object_get(into, "diagnostics"), said);
  json_decref(said);
}

static gate *gate_new(upk_call *c, upk_call_fn place) {
  upk_audit_judge *j = upk_audit_judge_for_install(upk_session_workspace(c->server));
  if (!j)
    return NULL;
  gate *g = upk_xcalloc(1, sizeof *g);
  *g = (gate){.judge = j, .entries = json_array(), .place = place};
  return g;
}

static void gate_start(upk_call *c, gate *g) {
  g->prev = c->state;
  g->prev_free = c->state_free;
  c->state = g;
  c->state_free = gate_free;
  upk_call_then(c, gate_ask, gate_done);
}

bool upk_install_judge_source(upk_call *c, const upk_found_skills *found, const bool *pick,
                              const char *repo, upk_call_fn place) {
  gate *g = gate_new(c, place);
  for (size_t i = 0; g && i < found->len; i++)
    if (pick[i])
      add_skill(g, found->items[i].dir, repo, found->items[i].skill_path);
  if (g)
    gate_start(c, g);
  return g != NULL;
}

bool upk_install_judge_lock(upk_call *c, size_t n, const upk_found_skill *const *skills,
                            const char *const *repos, const bool *risky, upk_call_fn place) {
  gate *g = n ? gate_new(c, place) : NULL;
  for (size_t i = 0; g && i < n; i++) {
    add_skill(g, skills[i]->dir, repos[i], skills[i]->skill_path);
    json_object_set_new(json_array_get(g->entries, i), "risky", json_boolean(risky[i]));
  }
  if (g) {
    g->each = true;
    gate_start(c, g);
  }
  return g != NULL;
}

const char *upk_install_judge_refused(const upk_call *c, size_t i) {
  if (c->state_free != gate_free)
    return NULL;
  const json_t *e = json_array_get(((const gate *)c->state)->entries, i);
  return json_is_true(json_object_get(e, "refused"))
             ? json_string_value(json_object_get(json_object_get(e, "judge"), "judge"))
             : NULL;
}

/* ---- one skill ---- */

/* An inline skill ({markdown, files}) in a private directory, as the judge reads a skill. A
 * path the install would refuse is not written (the install says why). NULL when it cannot be
 * written: the judge then fails, saying it cannot read the skill. */
static char *write_inline(const json_t *from) {
  char buf[PATH_MAX];
  if (upk_private_tmpdir("judge", buf, sizeof buf))
    return NULL;
  char *dir = upk_xstrdup(buf);
  upk_tree t = {0};
  const json_t *md = json_object_get(from, "markdown"), *f;
  int rc = upk_tree_add(&t, "SKILL.md", json_string_value(md), json_string_length(md), false);
  size_t i;
  json_array_foreach(json_object_get(from, "files"), i, f) {
    const char *path = json_string_value(json_object_get(f, "path"));
    const json_t *content = json_object_get(f, "content");
    if (!rc && upk_rel_path_ok(path) && strcmp(path, "SKILL.md"))
      rc = upk_tree_add(&t, path, json_string_value(content), json_string_length(content), false);
  }
  const char *bad;
  int dfd = rc ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  bool ok = dfd >= 0 && !upk_tree_check(&t, &bad) && !upk_tree_write(dfd, &t);
  if (dfd >= 0)
    close(dfd);
  upk_tree_free(&t);
  if (ok)
    return dir;
  if (upk_rmtree_at(AT_FDCWD, dir))
    upk_warn("install: cannot remove %s", dir);
  free(dir);
  return NULL;
}

bool upk_install_is_one_skill(const char *path, const json_t *params) {
  struct stat st;
  if (json_object_get(params, "skills") || json_is_true(json_object_get(params, "all")) ||
      json_is_true(json_object_get(params, "list")) || !path || stat(path, &st) < 0)
    return false;
  if (S_ISREG(st.st_mode))
    return true;
  char *md = upk_xasprintf("%s/SKILL.md", path);
  bool one = stat(md, &st) == 0;
  free(md);
  return one;
}

/* The skill's directory: params.from's (a SKILL.md named: the directory holding it), or its
 * text written out into g->tmp. NULL: a source of several, which has its own gate. */
static char *skill_dir(upk_call *c, gate *g) {
  const json_t *from = json_object_get(c->params, "from");
  if (!json_is_string(from)) {
    g->tmp = write_inline(from);
    return upk_xstrdup(g->tmp ? g->tmp : "");
  }
  char *dir = upk_call_path(c, json_string_value(from));
  struct stat st;
  if (!upk_install_is_one_skill(dir, c->params)) {
    free(dir);
    return NULL;
  }
  if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && strrchr(dir, '/'))
    *strrchr(dir, '/') = '\0';
  return dir;
}

bool upk_install_judge_first(upk_call *c, upk_call_fn place) {
  gate *g = c->state_free == gate_free ? NULL : gate_new(c, place);
  char *dir = g ? skill_dir(c, g) : NULL;
  if (!dir) {
    if (g)
      gate_free(g);
    return false;
  }
  add_skill(g, dir, NULL, "SKILL.md");
  free(dir);
  gate_start(c, g);
  return true;
}

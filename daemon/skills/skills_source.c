/* skills/install from a source of skills (skills/source.h): a git repository (owner/repo, a
 * URL) or a local directory holding several; listed, chosen by name or all, validated together
 * before any is placed, installed, and recorded in the project's skills-lock.json. Runs on the
 * skills queue (install.h blocks), except the git fetches: they wait on the network, so they
 * run beside the queue on a thread of their own (upk_call_then), each with its deadline
 * (UPSKILLD_FETCH_TIMEOUT) and killed when the client cancels. */
#include "daemon/skills/skills_source.h"
#include "daemon/skills/skills_source_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <limits.h>

#include "common/env_options.h"
#include "common/trust.h"
#include "models/config.h"
#include "common/diag_json.h"
#include "skills/audit.h"
#include "skills/install.h"
#include "skills/skills_lock.h"
#include "daemon/skills/install_judge.h"
#include "daemon/skills/judge_service.h"
#include "daemon/skills/skills_service.h"
#include "skills/source.h"
#include "skills/validate.h"
#include "common/xalloc.h"

/* The deadline of one fetch (git init, fetch, checkout together). */
int upk__src_fetch_timeout_ms(void) {
  unsigned s = upk_env_opts()->fetch_timeout;
  return (int)(s ? s : upk_env_opts_entry(UPK_ENV_FETCH_TIMEOUT)->def) * 1000;
}

static json_t *source_json(const src_call *sc) {
  return json_pack("{s:s,s:s,s:s,s:s*,s:s*,s:s}", "type", sc->src.lock_type, "url", sc->src.url,
                   "path", sc->src.subpath, "ref", sc->src.ref, "commit", sc->commit, "lock",
                   sc->src.lock_source);
}

static json_t *found_json(const src_call *sc) {
  json_t *a = json_array();
  for (size_t i = 0; i < sc->found.len; i++)
    json_array_append_new(a, json_pack("{s:s,s:s,s:s}", "name", sc->found.items[i].name,
                                       "description", sc->found.items[i].description, "path",
                                       sc->found.items[i].skill_path));
  return a;
}

__attribute__((format(printf, 3, 4))) static void fail(src_call *sc, int code, const char *fmt,
                                                       ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_t *data = json_pack("{s:o,s:o,s:o}", "diagnostics", upk_diags_json(&sc->diags), "source",
                           source_json(sc), "found", found_json(sc));
  upk_call_fail(sc->c, code, data, "%s", msg);
}

/* A skill name as a client may ask for one: one plain name, never a path. */
static bool plain_name(const char *n) {
  return n && *n && strcmp(n, ".") && strcmp(n, "..") && !strpbrk(n, "/\\");
}

/* The skills asked for (params.skills, case-insensitive, or all), into `pick` (found order). */
static bool choose(src_call *sc, bool *pick) {
  json_t *names = json_object_get(sc->c->params, "skills"), *n;
  bool all = json_is_true(json_object_get(sc->c->params, "all")) ||
             (!names && json_is_true(json_object_get(sc->c->params, "auditOnly")));
  size_t i, k;
  if (!names && !all && sc->found.len > 1) {
    fail(sc, UPK_RPC_INVALID_PARAMS,
         "%s holds several skills: name them (skills: [...], upskillctl --skill) or take all "
         "(all: true, --all); the error's data lists them (found)",
         sc->src.lock_source);
    return false;
  }
  for (i = 0; i < sc->found.len; i++)
    pick[i] = all || !names;
  json_array_foreach(names, k, n) {
    const char *nm = json_string_value(n);
    if (!plain_name(nm)) {
      fail(sc, UPK_RPC_INVALID_PARAMS,
           "params.skills: '%s' is not a skill name (one plain name: no '/', '\\', '.' or "
           "'..') (rule source/bad-path)",
           nm ? nm : "");
      return false;
    }
    for (i = 0; i < sc->found.len && strcasecmp(sc->found.items[i].name, json_string_value(n));)
      i++;
    if (i == sc->found.len) {
      fail(sc, UPK_RPC_INVALID_PARAMS,
           "no skill named '%s' in the source; the error's data lists those it holds (found)",
           json_string_value(n));
      return false;
    }
    pick[i] = true;
  }
  return true;
}

/* Diagnostics d[from..] name their file as it lies in the source (skills/NAME/SKILL.md, beside
 * f's SKILL.md), never a bare SKILL.md or the fetched copy: a person reads which skill. */
static void name_files(upk_diags *d, size_t from, const upk_found_skill *f) {
  const char *slash = strrchr(f->skill_path, '/');
  int dir = slash ? (int)(slash - f->skill_path) : 0;
  size_t root = strlen(f->dir);
  for (size_t i = from; i < d->len; i++) {
    const char *file = d->items[i].file ? d->items[i].file : "SKILL.md";
    if (!strncmp(file, f->dir, root) && file[root] == '/')
      file += root + 1; /* the fetched copy's path */
    char *named = dir ? upk_xasprintf("%.*s/%s", dir, f->skill_path, file) : upk_xstrdup(file);
    free(d->items[i].file);
    d->items[i].file = named;
  }
}

/* Whether d holds a diagnostic like x: the same code, place and words. */
static bool holds(const upk_diags *d, const upk_diag *x) {
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].range.line == x->range.line && d->items[i].code && x->code &&
        !strcmp(d->items[i].code, x->code) && !strcmp(d->items[i].message, x->message))
      return true;
  return false;
}

/* Drop from d what `said` holds already (kept in order, the dropped freed). */
static void drop_said(upk_diags *d, const upk_diags *said) {
  upk_diags gone = {.items = upk_xcalloc(d->len + 1, sizeof *d->items), .cap = d->len + 1};
  size_t keep = 0;
  for (size_t i = 0; i < d->len; i++) {
    if (holds(said, &d->items[i]))
      gone.items[gone.len++] = d->items[i];
    else
      d->items[keep++] = d->items[i];
  }
  d->len = keep;
  upk_diags_free(&gone);
}

/* A found skill valid as agents load skills (a source's are others', with their conventions:
 * extra frontmatter fields, long bodies) and with a name every agent loads: its errors. */
size_t upk__src_errors_of(src_call *sc, const upk_found_skill *f) {
  upk_diags d = {0};
  upk_skill_validate_path(f->dir, UPK_VALIDATE_INSTALL, &d);
  if (!upk_source_path_clean(sc->dir, f->dir, &d) && !upk_diags_count(&d, UPK_SEV_ERROR))
    upk_diags_add(&d, UPK_SEV_ERROR, "source/symlink-outside", "upskilld-source",
                  (upk_range){-1, 0, -1, 0}, "%s cannot be reached in the source without a link",
                  f->skill_path);
  upk_source_check_tree(f->dir, sc->dir, &d);
  name_files(&d, 0, f);
  size_t errors = upk_diags_count(&d, UPK_SEV_ERROR);
  upk_diags_take(&sc->diags, &d);
  upk_diags_free(&d);
  return errors;
}

/* Every chosen skill valid (upk__src_errors_of), or nothing is placed. */
static bool all_valid(src_call *sc, const bool *pick) {
  size_t errors = 0;
  for (size_t i = 0; i < sc->found.len; i++)
    if (pick[i])
      errors += upk__src_errors_of(sc, &sc->found.items[i]);
  if (errors)
    fail(sc, UPK_RPC_REQUEST_FAILED,
         "install refused: %s has skills that are not valid "
         "(diagnostics); nothing was installed",
         sc->src.lock_source);
  return errors == 0;
}

/* Every source's skills are audited before install (a local directory too: what it holds may
 * be a stranger's, copied in): high findings refuse the install unless allowRisky, which the
 * lock then records. */
static bool audit_passes(src_call *sc, const bool *pick) {
  int high = 0;
  sc->audited = true;
  for (size_t i = 0; i < sc->found.len; i++)
    if (pick[i]) {
      size_t first = sc->diags.len;
      high += upk_audit_skill_in(sc->found.items[i].dir, sc->dir, &sc->diags);
      name_files(&sc->diags, first, &sc->found.items[i]);
    }
  bool allow = json_is_true(json_object_get(sc->c->params, "allowRisky"));
  if (high > 0 && !allow)
    fail(sc, UPK_RPC_REQUEST_FAILED,
         "install refused: the audit of %s found %d high risk(s) (diagnostics); allowRisky "
         "(--allow-risky) installs it anyway",
         sc->src.lock_source, high);
  sc->risky = high > 0;
  return high == 0 || allow;
}

/* The skills-lock.json entry of found skill f, as the skills CLI writes one. */
static json_t *lock_entry(const src_call *sc, const upk_found_skill *f) {
  char hex[65];
  if (upk_skills_lock_hash(f->dir, hex))
    return NULL;
  bool local = sc->src.kind == UPK_SOURCE_PATH;
  json_t *e = json_pack("{s:s,s:s,s:s}", "source", sc->src.lock_source, "sourceType",
                        sc->src.lock_type, "computedHash", hex);
  if (!strcmp(sc->src.lock_type, "git"))
    json_object_set_new(e, "sourceUrl", json_string(sc->src.url));
  if (sc->src.ref)
    json_object_set_new(e, "ref", json_string(sc->src.ref));
  if (!local)
    json_object_set_new(e, "skillPath", json_string(f->skill_path));
  if (sc->commit)
    json_object_set_new(e, "commit", json_string(sc->commit));
  if (sc->risky)
    json_object_set_new(e, "allowRisky", json_true());
  return e;
}

/* A local directory as skills-lock.json names it: relative to the project when inside it (so a
 * teammate's restore finds it in their checkout), else NULL: no one else could restore it. */
static char *local_lock_source(const char *project, const char *dir) {
  char real[PATH_MAX], root[PATH_MAX];
  if (!project || !realpath(dir, real) || !realpath(project, root))
    return NULL;
  size_t n = strlen(root);
  if (strncmp(real, root, n) || (real[n] != '/' && real[n]))
    return NULL;
  return upk_xstrdup(real[n] ? real + n + 1 : ".");
}

static void not_locked(upk_diags *d, const char *name, const char *dir) {
  upk_diags_add(d, UPK_SEV_WARNING, "source/not-locked", "upskilld-source",
                (upk_range){-1, 0, -1, 0},
                "%s is not recorded in skills-lock.json: %s is outside the project, so a "
                "teammate's `upskillctl restore` could not find it; copy it into the project, or "
                "install it from a git source",
                name, dir);
}

void upk_install_lock_path(const upk_install_req *req, const char *name, const char *from,
                           bool risky, upk_diags *diags) {
  char hex[65], err[512];
  struct stat st;
  char *dir = stat(from, &st) == 0 && !S_ISDIR(st.st_mode) ? upk_xstrdup(from) : NULL;
  if (dir && strrchr(dir, '/'))
    *strrchr(dir, '/') = '\0';
  const char *skill = dir ? dir : from;
  char *rel = local_lock_source(req->project_root, skill);
  if (!rel) {
    not_locked(diags, name, skill);
  } else if (!upk_skills_lock_hash(skill, hex)) {
    json_t *e =
        json_pack("{s:s,s:s,s:s}", "source", rel, "sourceType", "local", "computedHash", hex);
    if (risky)
      json_object_set_new(e, "allowRisky", json_true());
    if (upk_skills_lock_set(req->project_root, name, e, err, sizeof err))
      upk_diags_add(diags, UPK_SEV_WARNING, "source/lock-write", "upskilld-source",
                    (upk_range){-1, 0, -1, 0}, "%s", err);
  }
  free(rel);
  free(dir);
}

int upk__src_install_one(src_call *sc, const upk_found_skill *f) {
  upk_install_req req = *sc->base;
  req.lenient = true;       /* others' skills: as their agents load them */
  req.audit = !sc->audited; /* restore and check --update: the copy is audited as it is placed */
  req.allow_risky = sc->risky;
  char *source = upk_xasprintf("%s%s%s", sc->src.lock_source, sc->commit ? "@" : "",
                               sc->commit ? sc->commit : "");
  req.from_path = f->dir;
  req.source = source;
  upk_install_result res;
  int rc = upk_install(&req, &res);
  for (size_t i = 0; i < res.n_targets; i++)
    if (res.targets[i].status == 0)
      upk_skills_touch(sc->c->server, sc->ix, res.targets[i].path);
  json_array_append_new(sc->installed, json_pack("{s:s,s:s,s:s,s:o}", "name", f->name, "hash",
                                                 res.hash, "skillPath", f->skill_path, "targets",
                                                 upk_install_targets_json(&res)));
  /* The install validates the skill again: what upk__src_errors_of reported already is said once.
   */
  name_files(&res.diags, 0, f);
  drop_said(&res.diags, &sc->diags);
  upk_diags_take(&sc->diags, &res.diags);
  upk_install_result_free(&res);
  free(source);
  char err[512];
  char *rel = sc->src.kind == UPK_SOURCE_PATH ? local_lock_source(req.project_root, sc->dir) : NULL;
  if (rel) { /* the lock names a local source as others find it: relative to the project */
    free(sc->src.lock_source);
    sc->src.lock_source = rel;
  } else if (!rc && sc->src.kind == UPK_SOURCE_PATH && req.scope == UPK_SCOPE_PROJECT) {
    not_locked(&sc->diags, f->name, sc->dir);
    return rc;
  }
  if (!rc && req.scope == UPK_SCOPE_PROJECT && !sc->keep_lock &&
      upk_skills_lock_set(req.project_root, f->name, lock_entry(sc, f), err, sizeof err))
    upk_diags_add(&sc->diags, UPK_SEV_WARNING, "source/lock-write", "upskilld-source",
                  (upk_range){-1, 0, -1, 0}, "%s", err);
  return rc;
}

static void install_chosen(src_call *sc, const bool *pick) {
  sc->installed = json_array();
  for (size_t i = 0; i < sc->found.len; i++) {
    if (pick[i] && upk__src_install_one(sc, &sc->found.items[i])) {
      fail(sc, UPK_RPC_REQUEST_FAILED, "install of %s refused (diagnostics)",
           sc->found.items[i].name);
      return;
    }
  }
  json_t *first = json_array_get(sc->installed, 0);
  sc->c->result = json_pack("{s:O,s:O,s:O,s:o,s:o,s:o}", "name", json_object_get(first, "name"),
                            "hash", json_object_get(first, "hash"), "targets",
                            json_object_get(first, "targets"), "skills", sc->installed, "source",
                            source_json(sc), "diagnostics", upk_diags_json(&sc->diags));
  sc->installed = NULL;
}

/* skills/audit: each chosen skill's findings and counts by severity; installs nothing. */
/* A SKILL.md whose frontmatter does not load: agents differ on what they make of it, and its
 * name and description are what a reviewer reads first. */
static void broken_finding(upk_diags *d, const char *why) {
  upk_range whole = {-1, 0, -1, 0};
  upk_diags_add(d, UPK_SEV_WARNING, "audit/frontmatter", UPK_AUDIT_SOURCE, whole,
                "SKILL.md: its frontmatter does not load (%s); audited under its directory's name",
                why);
  d->items[d->len - 1].file = upk_xstrdup("SKILL.md");
  d->items[d->len - 1].category = upk_xstrdup("frontmatter");
}

/* An install or audit from a source, across its steps (upk_call_then): c->state. */
typedef struct src_state {
  src_call sc;
  upk_install_req base;
  const char *agents[32];
  int fetched; /* the fetch's return code */
} src_state;

/* The judge reads beside the queue (judge_service.h), then its findings join the rules'. */
static void judge_ask(upk_call *c, int cancel_fd) {
  upk_audit_judge_ask(((src_state *)c->state)->sc.judge, cancel_fd);
}

static void judge_done(upk_call *c, upk_index *ix) {
  (void)ix;
  src_call *sc = &((src_state *)c->state)->sc;
  upk_audit_judge_finish(sc->judge);
  c->result = sc->judged;
  sc->judged = NULL;
}

static void audit_report(src_call *sc, const bool *pick) {
  json_t *out = json_array();
  sc->judge = upk_audit_judge_new(sc->c->params, upk_session_workspace(sc->c->server));
  for (size_t i = 0; i < sc->found.len; i++) {
    if (!pick[i])
      continue;
    upk_diags d = {0};
    if (sc->found.items[i].broken)
      broken_finding(&d, sc->found.items[i].broken);
    upk_audit_skill_in(sc->found.items[i].dir, sc->dir, &d);
    json_t *entry =
        json_pack("{s:s,s:s,s:i,s:i,s:i,s:o}", "name", sc->found.items[i].name, "path",
                  sc->found.items[i].skill_path, "high", (int)upk_diags_count(&d, UPK_SEV_ERROR),
                  "medium", (int)upk_diags_count(&d, UPK_SEV_WARNING), "low",
                  (int)upk_diags_count(&d, UPK_SEV_INFO), "findings", upk_diags_json(&d));
    if (sc->judge)
      upk_audit_judge_add(sc->judge, sc->found.items[i].dir, &d, entry);
    json_array_append_new(out, entry);
    upk_diags_free(&d);
  }
  json_t *r = json_pack("{s:o,s:o,s:o}", "skills", out, "source", source_json(sc), "diagnostics",
                        upk_diags_json(&sc->diags));
  if (!sc->judge) {
    sc->c->result = r;
    return;
  }
  sc->judged = r;
  upk_call_then(sc->c, judge_ask, judge_done);
}

/* The user's judge has read the chosen skills and let them in (install_judge.h). */
static void judged_install(upk_call *c, upk_index *ix) {
  src_call *sc = &((src_state *)upk_install_judge_state(c))->sc;
  bool *pick = upk_xcalloc(sc->found.len, sizeof *pick);
  sc->ix = ix;
  sc->risky |= upk_install_judge_risky(c);
  if (choose(sc, pick))
    install_chosen(sc, pick);
  free(pick);
}

/* A project lock this version cannot rewrite stops the install before anything is placed. */
static bool lock_writable(src_call *sc) {
  char err[512];
  if (sc->base->scope != UPK_SCOPE_PROJECT)
    return true;
  json_t *lock = upk_skills_lock_read(sc->base->project_root, err, sizeof err);
  json_decref(lock);
  if (!lock)
    fail(sc, UPK_RPC_REQUEST_FAILED, "install refused: %s", err);
  return lock != NULL;
}

/* The git host for owner/repo sources; an untrusted project's skills.gitHost is refused by
 * the config's loader and said in `diags` (may be NULL) as a warning coded with its rule. */
char *upk__src_git_host(const upk_call *c, upk_diags *diags) {
  upk_config cfg;
  char err[256];
  char *host = NULL;
  if (upk_config_load(&cfg, upk_session_workspace(c->server), NULL, err, sizeof err) == 0 &&
      cfg.git_host)
    host = upk_xstrdup(cfg.git_host);
  json_t *r;
  size_t i;
  json_array_foreach(diags ? cfg.refused : NULL, i, r) {
    const char *rule = json_string_value(json_object_get(r, "rule"));
    upk_diags_add(diags, UPK_SEV_WARNING, rule ? rule : "trust/send", "upskilld-source",
                  (upk_range){-1, 0, -1, 0}, "%s",
                  json_string_value(json_object_get(r, "message")));
  }
  upk_config_free(&cfg);
  return host;
}

/* Parse the source and the names asked for; false (the call failed) when they cannot be. */
static bool run_parse(src_call *sc, const char *spec) {
  json_t *n;
  size_t k;
  json_array_foreach(json_object_get(sc->c->params, "skills"), k, n) {
    if (!plain_name(json_string_value(n))) {
      upk_call_fail(sc->c, UPK_RPC_INVALID_PARAMS, NULL,
                    "params.skills: '%s' is not a skill name (one plain name: no '/', '\\', "
                    "'.' or '..') (rule source/bad-path)",
                    json_string_value(n) ? json_string_value(n) : "");
      return false;
    }
  }
  char err[512], *host = upk__src_git_host(sc->c, &sc->diags);
  int rc =
      upk_source_parse(spec, host, upk_session_workspace(sc->c->server), &sc->src, err, sizeof err);
  free(host);
  if (rc)
    upk_call_fail(sc->c, UPK_RPC_INVALID_PARAMS, NULL, "params.from: %s", err);
  return rc == 0;
}

/* What the source holds, then list, audit or install (on the queue, after the fetch). */
static void run_found(src_call *sc, int rc) {
  bool list = json_is_true(json_object_get(sc->c->params, "list"));
  bool audit_only = json_is_true(json_object_get(sc->c->params, "auditOnly"));
  if (!rc) /* an audit answers for every SKILL.md, however broken or named */
    rc = (audit_only && !list ? upk_source_discover_every : upk_source_discover)(
        sc->dir, sc->src.subpath, &sc->found, &sc->diags);
  /* An audit reads nothing through a link: it audits what was found and keeps the refusal
   * among its diagnostics; an install is refused whole. */
  if (rc == -EPERM && audit_only && !list && sc->found.len)
    rc = 0;
  if (rc == -EPERM && !list) {
    bool audit = json_is_true(json_object_get(sc->c->params, "auditOnly"));
    fail(sc, UPK_RPC_REQUEST_FAILED,
         "%s refused: %s has links or paths that lead outside it (diagnostics)%s",
         audit ? "audit" : "install", sc->src.lock_source, audit ? "" : "; nothing was installed");
    return;
  }
  if (rc && rc != -EPERM) {
    fail(sc, UPK_RPC_REQUEST_FAILED, "%s",
         sc->diags.len ? sc->diags.items[sc->diags.len - 1].message : "no such path in the source");
    return;
  }
  if (!sc->found.len) {
    fail(sc, UPK_RPC_REQUEST_FAILED, "no skills in %s (no SKILL.md with a name and description)",
         sc->src.lock_source);
    return;
  }
  if (list) {
    sc->c->result = json_pack("{s:[],s:o,s:o,s:o}", "targets", "source", source_json(sc), "found",
                              found_json(sc), "diagnostics", upk_diags_json(&sc->diags));
    return;
  }
  bool *pick = upk_xcalloc(sc->found.len, sizeof *pick);
  bool chosen = choose(sc, pick); /* else the failure is in the call */
  if (chosen && json_is_true(json_object_get(sc->c->params, "auditOnly")))
    audit_report(sc, pick);
  else if (chosen && all_valid(sc, pick) && audit_passes(sc, pick) && lock_writable(sc) &&
           !upk_install_judge_source(sc->c, &sc->found, pick, sc->dir, judged_install))
    install_chosen(sc, pick);
  free(pick);
}

void upk__src_call_free(src_call *sc) {
  upk_source_free(&sc->src);
  upk_found_skills_free(&sc->found);
  upk_diags_free(&sc->diags);
  json_decref(sc->installed);
  json_decref(sc->judged);
  upk_audit_judge_free(sc->judge);
  free(sc->dir);
  free(sc->commit);
}

static void src_state_free(void *p) {
  src_state *st = p;
  upk__src_call_free(&st->sc);
  free(st);
}

/* Beside the queue: the fetch, which waits on the network. */
static void src_fetch(upk_call *c, int cancel_fd) {
  src_state *st = c->state;
  st->fetched = upk_source_fetch(&st->sc.src, NULL, upk__src_fetch_timeout_ms(), cancel_fd,
                                 &st->sc.dir, &st->sc.commit, &st->sc.diags);
}

/* Back on the queue with the checkout. */
static void src_after_fetch(upk_call *c, upk_index *ix) {
  src_state *st = c->state;
  st->sc.ix = ix;
  run_found(&st->sc, st->fetched);
}

static void src_start(upk_call *c, upk_index *ix, const upk_install_req *base, const char *spec) {
  src_state *st = upk_xcalloc(1, sizeof *st);
  st->base = *base;
  for (size_t i = 0; i < base->n_agents && i < 32; i++)
    st->agents[i] = base->agents[i];
  st->base.agents = st->agents;
  st->sc = (src_call){.c = c, .ix = ix, .base = &st->base};
  c->state = st;
  c->state_free = src_state_free;
  if (!run_parse(&st->sc, spec))
    return;
  if (st->sc.src.kind == UPK_SOURCE_PATH) { /* nothing to wait for */
    st->fetched =
        upk_source_fetch(&st->sc.src, NULL, 0, -1, &st->sc.dir, &st->sc.commit, &st->sc.diags);
    run_found(&st->sc, st->fetched);
  } else {
    upk_call_then(c, src_fetch, src_after_fetch);
  }
}

void upk_install_source(upk_call *c, upk_index *ix, const upk_install_req *base, const char *spec) {
  src_start(c, ix, base, spec);
}

void upk_audit_source(upk_call *c, upk_index *ix, const char *spec) {
  upk_install_req none = {0};
  src_start(c, ix, &none, spec);
}

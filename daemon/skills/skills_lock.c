/* upskillctl restore and check: what the project's skills-lock.json names, fetched (beside the
 * queue, as a source install's fetch), checked and audited before anything moves, read by the
 * user's judge when audit.judge is configured (install_judge.h), then installed through the
 * source install's own steps (skills_source_int.h). */
#include "daemon/skills/skills_source.h"
#include "daemon/skills/skills_source_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/trust.h"
#include "common/diag_json.h"
#include "common/xalloc.h"
#include "daemon/skills/install_judge.h"
#include "skills/audit.h"
#include "skills/skills_lock.h"

typedef struct locked {
  char *name;
  json_t *entry;
  src_call sc;
  long found;  /* the entry's skill among sc.found; -1 when missing */
  bool wanted; /* check: among params.names (restore: all) */
  long judged; /* its place among the skills the user's judge read; -1: not read */
  json_t *row; /* check: its row of the answer (lock_pass.rows holds it) */
  int rc;      /* parsing and fetching its source: 0 or a negative errno */
} locked;

/* The source an entry names, at its commit when it has one and `at_commit` (else its ref).
 * malloc'd. */
static char *entry_spec(const json_t *e, const char *workspace, const char *host, bool at_commit) {
  const char *type = json_string_value(json_object_get(e, "sourceType"));
  const char *source = json_string_value(json_object_get(e, "source"));
  const char *url = json_string_value(json_object_get(e, "sourceUrl"));
  const char *rev = at_commit ? json_string_value(json_object_get(e, "commit")) : NULL;
  char *spec = NULL;
  if (!rev)
    rev = json_string_value(json_object_get(e, "ref"));
  if (!source || !type)
    return NULL;
  if (!strcmp(type, "local")) {
    spec = upk_xasprintf("%s%s%s", source[0] == '/' ? "" : workspace, source[0] == '/' ? "" : "/",
                         source);
    return spec;
  }
  if (url)
    source = url;
  if (!strcmp(type, "github") && !url)
    return upk_xasprintf("%s/%s%s%s", host ? host : "https://github.com", source, rev ? "#" : "",
                         rev ? rev : "");
  return upk_xasprintf("%s%s%s", source, rev ? "#" : "", rev ? rev : "");
}

/* The entry's skill in what its source holds: by skillPath, else by name. */
static long find_entry_skill(const locked *l) {
  const char *path = json_string_value(json_object_get(l->entry, "skillPath"));
  for (size_t i = 0; i < l->sc.found.len; i++)
    if (path ? !strcmp(l->sc.found.items[i].skill_path, path)
             : !strcasecmp(l->sc.found.items[i].name, l->name))
      return (long)i;
  return -1;
}

/* A lock is the project's (a workspace input, docs/security.md): a source on this machine
 * outside the project (a local path, a file:// URL) is read only for a project the user
 * trusts (rule trust/read); false with the refusal in sc.diags. */
static bool lock_source_allowed(locked *l, const char *workspace) {
  const upk_source *src = &l->sc.src;
  const char *path = src->kind == UPK_SOURCE_PATH       ? src->url
                     : !strncmp(src->url, "file://", 7) ? src->url + 7
                                                        : NULL;
  char real[PATH_MAX], ws[PATH_MAX], why[1024], what[PATH_MAX + 128];
  if (!path || !workspace)
    return path == NULL;
  if (!realpath(path, real))
    snprintf(real, sizeof real, "%s", path);
  if (!realpath(workspace, ws))
    snprintf(ws, sizeof ws, "%s", workspace);
  size_t n = strlen(ws);
  if ((!strncmp(real, ws, n) && (real[n] == '/' || !real[n])) ||
      upk_trust_check(workspace) == UPK_TRUST_YES)
    return true;
  snprintf(what, sizeof what, "skills-lock.json: %s names %s, outside the project,", l->name, path);
  upk_diags_add(
      &l->sc.diags, UPK_SEV_ERROR, "lock/outside-project", "upskilld-source",
      (upk_range){-1, 0, -1, 0}, "%s",
      upk_policy_refusal(why, sizeof why, UPK_ORIGIN_WORKSPACE, UPK_POWER_READ, what, workspace));
  return false;
}

/* Parse what the entry names (at its recorded commit when `at_commit`): l->rc. On the queue. */
static void locate_parse(locked *l, const char *host, bool at_commit) {
  src_call *sc = &l->sc;
  char err[512];
  char *spec = entry_spec(l->entry, upk_session_workspace(sc->c->server), host, at_commit);
  l->rc = spec ? upk_source_parse(spec, host, upk_session_workspace(sc->c->server), &sc->src, err,
                                  sizeof err)
               : -EINVAL;
  if (l->rc)
    upk_diags_add(&sc->diags, UPK_SEV_ERROR, "lock/bad-entry", "upskilld-source",
                  (upk_range){-1, 0, -1, 0}, "skills-lock.json: %s: %s", l->name,
                  spec ? err : "no source or sourceType");
  free(spec);
  if (!l->rc && !lock_source_allowed(l, upk_session_workspace(sc->c->server)))
    l->rc = -EPERM;
}

/* Fetch it: beside the queue (it waits on the network). */
static void locate_fetch(locked *l, int cancel_fd) {
  src_call *sc = &l->sc;
  if (!l->rc)
    l->rc = upk_source_fetch(&sc->src, NULL, upk__src_fetch_timeout_ms(), cancel_fd, &sc->dir,
                             &sc->commit, &sc->diags);
}

/* Find the entry's skill in what was fetched; false with a diagnostic in sc.diags. */
static bool locate_find(locked *l) {
  src_call *sc = &l->sc;
  int rc = l->rc;
  if (!rc)
    rc = upk_source_discover(sc->dir, sc->src.subpath, &sc->found, &sc->diags);
  l->found = rc ? -1 : find_entry_skill(l);
  if (!rc && l->found < 0)
    upk_diags_add(&sc->diags, UPK_SEV_ERROR, "lock/skill-missing", "upskilld-source",
                  (upk_range){-1, 0, -1, 0}, "skills-lock.json: %s is no longer in %s", l->name,
                  sc->src.lock_source);
  /* The lock keeps the ref as asked (a commit was only where to fetch). */
  free(sc->src.ref);
  const char *ref = json_string_value(json_object_get(l->entry, "ref"));
  sc->src.ref = ref ? upk_xstrdup(ref) : NULL;
  return l->found >= 0;
}

/* Whether the skill as fetched hashes (into hex) to what the lock recorded. */
static bool hash_matches(const locked *l, char hex[65]) {
  const char *want = json_string_value(json_object_get(l->entry, "computedHash"));
  if (upk_skills_lock_hash(l->sc.found.items[l->found].dir, hex))
    snprintf(hex, 65, "(unreadable)");
  return want && !strcmp(hex, want);
}

/* --frozen: the fetched skill's hash is the lock's, or a diagnostic says how it drifted. */
static bool same_hash(locked *l) {
  char hex[65];
  const char *want = json_string_value(json_object_get(l->entry, "computedHash"));
  if (hash_matches(l, hex))
    return true;
  upk_diags_add(&l->sc.diags, UPK_SEV_ERROR, "lock/drift", "upskilld-source",
                (upk_range){-1, 0, -1, 0},
                "skills-lock.json: %s from %s hashes to %s, the lock says %s", l->name,
                l->sc.src.lock_source, hex, want ? want : "(none)");
  return false;
}

static locked *load_locked(upk_call *c, upk_index *ix, const upk_install_req *base, size_t *n) {
  char err[512];
  json_t *lock = upk_skills_lock_read(base->project_root, err, sizeof err), *e;
  const char *name;
  if (!lock) {
    upk_call_fail(c, UPK_RPC_REQUEST_FAILED, NULL, "%s", err);
    return NULL;
  }
  json_t *skills = json_object_get(lock, "skills");
  locked *ls = upk_xcalloc(json_object_size(skills) + 1, sizeof *ls);
  *n = 0;
  json_object_foreach(skills, name, e) {
    locked *l = &ls[(*n)++];
    l->name = upk_xstrdup(name);
    l->entry = json_incref(e);
    l->sc = (src_call){.c = c, .ix = ix, .base = base};
    l->wanted = true;
  }
  json_decref(lock);
  return ls;
}

static void free_locked(locked *ls, size_t n) {
  for (size_t i = 0; i < n; i++) {
    upk__src_call_free(&ls[i].sc);
    json_decref(ls[i].entry);
    free(ls[i].name);
  }
  free(ls);
}

/* What restore and check both work through, across their steps (c->state): the lock's
 * entries, the git host to fetch them from, and the diagnostics gathered on the way. */
typedef struct lock_pass {
  locked *ls;
  size_t n;
  char *host;
  upk_diags all;
  upk_install_req base;
  bool frozen, update;
  bool checked;   /* restore: every entry found, valid and through the rules' audit */
  bool *outdated; /* check --update: the entries to install again */
  json_t *rows;   /* check: an answer's row per wanted entry */
} lock_pass;

static void lock_pass_free(void *arg) {
  lock_pass *p = arg;
  upk_diags_free(&p->all);
  free(p->outdated);
  json_decref(p->rows);
  free(p->host);
  free_locked(p->ls, p->n);
  free(p);
}

/* Beside the queue: every wanted entry's source fetched, one after another. */
static void lock_fetch(upk_call *c, int cancel_fd) {
  lock_pass *p = c->state;
  for (size_t i = 0; i < p->n; i++)
    if (p->ls[i].wanted)
      locate_fetch(&p->ls[i], cancel_fd);
}

/* Read the lock and parse each wanted entry's source (`at_commit`: restore's), then fetch
 * them beside the queue and go on with `next`. */
static void lock_pass_start(upk_call *c, upk_index *ix, const upk_install_req *base, bool at_commit,
                            upk_call_fn next) {
  lock_pass *p = upk_xcalloc(1, sizeof *p);
  p->base = *base;
  c->state = p;
  c->state_free = lock_pass_free;
  p->ls = load_locked(c, ix, &p->base, &p->n);
  if (!p->ls)
    return;
  p->host = upk__src_git_host(c, NULL);
  json_t *only = json_object_get(c->params, "names"), *nm;
  for (size_t i = 0; i < p->n; i++) {
    locked *l = &p->ls[i];
    size_t k;
    l->wanted = !only || at_commit;
    json_array_foreach(only, k, nm) l->wanted |= !strcasecmp(json_string_value(nm), l->name);
    if (l->wanted)
      locate_parse(l, p->host, at_commit);
  }
  upk_call_then(c, lock_fetch, next);
}

/* A restore audits each entry's skill before anything moves: high findings refuse the restore
 * unless the entry records allowRisky. The findings are kept only when they refuse. */
static bool lock_audit(locked *l) {
  src_call *sc = &l->sc;
  upk_diags d = {0};
  sc->risky = json_is_true(json_object_get(l->entry, "allowRisky"));
  sc->audited = true;
  int high = upk_audit_skill_in(sc->found.items[l->found].dir, sc->dir, &d);
  bool ok = high == 0 || (high > 0 && sc->risky);
  if (!ok) {
    upk_diags_take(&sc->diags, &d);
    upk_diags_add(&sc->diags, UPK_SEV_ERROR, "install/audit", "upskilld-source",
                  (upk_range){-1, 0, -1, 0},
                  "skills-lock.json: the audit of %s found %d high risk(s) (diagnostics) and its "
                  "entry has no allowRisky; `upskillctl install SOURCE --allow-risky` accepts them",
                  l->name, high > 0 ? high : 0);
  }
  upk_diags_free(&d);
  return ok;
}

/* The lock's skills for the user's judge (install_judge.h): `which` of them, or all when NULL;
 * false when there is no judge (go on at once), else `place` runs once it has read them. */
static bool lock_judge(upk_call *c, lock_pass *p, const bool *which, upk_call_fn place) {
  const upk_found_skill **skills = upk_xcalloc(p->n + 1, sizeof *skills);
  const char **repos = upk_xcalloc(p->n + 1, sizeof *repos);
  bool *risky = upk_xcalloc(p->n + 1, sizeof *risky);
  size_t k = 0;
  for (size_t i = 0; i < p->n; i++) {
    locked *l = &p->ls[i];
    l->judged = -1;
    if (which && !which[i])
      continue;
    l->judged = (long)k;
    skills[k] = &l->sc.found.items[l->found];
    repos[k] = l->sc.dir;
    risky[k++] = json_is_true(json_object_get(l->entry, "allowRisky"));
  }
  bool asked = upk_install_judge_lock(c, k, skills, repos, risky, place);
  free(skills);
  free(repos);
  free(risky);
  return asked;
}

/* The judge refused entry l (high findings, no allowRisky): a diagnostic saying so. */
static bool judge_lets_in(const upk_call *c, locked *l) {
  const char *judge = l->judged < 0 ? NULL : upk_install_judge_refused(c, (size_t)l->judged);
  if (judge)
    upk_diags_add(&l->sc.diags, UPK_SEV_ERROR, "install/judge", "upskilld-source",
                  (upk_range){-1, 0, -1, 0},
                  "skills-lock.json: the judge (%s) found high risk(s) in %s (diagnostics) and its "
                  "entry has no allowRisky; `upskillctl install SOURCE --allow-risky` accepts them",
                  judge, l->name);
  return !judge;
}

/* Every entry checked (and, with a judge, read by it): install them all, or none. */
static void restore_place(upk_call *c, upk_index *ix) {
  lock_pass *p = upk_install_judge_state(c);
  bool ok = p->checked, frozen = p->frozen;
  for (size_t i = 0; p->checked && i < p->n; i++) { /* every refusal said, not the first */
    ok &= judge_lets_in(c, &p->ls[i]);
    upk_diags_take(&p->all, &p->ls[i].sc.diags);
  }
  json_t *restored = json_array();
  for (size_t i = 0; ok && i < p->n; i++) {
    p->ls[i].sc.ix = ix;
    p->ls[i].sc.keep_lock = frozen;
    p->ls[i].sc.installed = json_array();
    ok = upk__src_install_one(&p->ls[i].sc, &p->ls[i].sc.found.items[p->ls[i].found]) == 0;
    json_array_extend(restored, p->ls[i].sc.installed);
    upk_diags_take(&p->all, &p->ls[i].sc.diags);
  }
  if (ok)
    c->result =
        json_pack("{s:o,s:o}", "restored", restored, "diagnostics", upk_diags_json(&p->all));
  else
    upk_call_fail(
        c, UPK_RPC_REQUEST_FAILED,
        json_pack("{s:o,s:o}", "diagnostics", upk_diags_json(&p->all), "restored", restored),
        "restore%s: %s", frozen ? " --frozen refused" : " failed",
        p->all.len ? p->all.items[p->all.len - 1].message : "see diagnostics");
}

static void restore_after_fetch(upk_call *c, upk_index *ix) {
  lock_pass *p = c->state;
  bool ok = true, frozen = p->frozen;
  for (size_t i = 0; i < p->n; i++) { /* everything fetched and checked before anything moves */
    p->ls[i].sc.ix = ix;
    p->ls[i].judged = -1;
    ok &= locate_find(&p->ls[i]) && (!frozen || same_hash(&p->ls[i])) &&
          upk__src_errors_of(&p->ls[i].sc, &p->ls[i].sc.found.items[p->ls[i].found]) == 0 &&
          lock_audit(&p->ls[i]);
    upk_diags_take(&p->all, &p->ls[i].sc.diags);
  }
  p->checked = ok;
  if (!ok || !lock_judge(c, p, NULL, restore_place)) /* the user's audit.judge reads them first */
    restore_place(c, ix);
}

void upk_restore_skills(upk_call *c, upk_index *ix, const upk_install_req *base, bool frozen) {
  lock_pass_start(c, ix, base, true, restore_after_fetch);
  if (c->state)
    ((lock_pass *)c->state)->frozen = frozen;
}

/* check --update, once the user's judge (if any) has read the outdated: each installed again
 * and its entry rewritten, but one the judge refused. */
static void check_place(upk_call *c, upk_index *ix) {
  lock_pass *p = upk_install_judge_state(c);
  for (size_t i = 0; i < p->n; i++) {
    locked *l = &p->ls[i];
    if (!p->outdated[i])
      continue;
    l->sc.ix = ix;
    l->sc.installed = json_array();
    l->sc.risky = json_is_true(json_object_get(l->entry, "allowRisky"));
    json_object_set_new(
        l->row, "updated",
        json_boolean(judge_lets_in(c, l) &&
                     upk__src_install_one(&l->sc, &l->sc.found.items[l->found]) == 0));
    upk_diags_take(&p->all, &l->sc.diags);
  }
  c->result = json_pack("{s:O,s:o}", "skills", p->rows, "diagnostics", upk_diags_json(&p->all));
}

/* What each lock entry's source holds now (at its ref, not its recorded commit): outdated when
 * the skill hashes otherwise than the lock says, as the skills CLI decides. With `update`, the
 * outdated are installed again (check_place) and their entries rewritten. */
static void check_after_fetch(upk_call *c, upk_index *ix) {
  lock_pass *p = c->state;
  p->rows = json_array();
  p->outdated = upk_xcalloc(p->n + 1, sizeof *p->outdated);
  bool any = false;
  for (size_t i = 0; i < p->n; i++) {
    locked *l = &p->ls[i];
    if (!l->wanted)
      continue;
    l->sc.ix = ix;
    char hex[65];
    bool located = locate_find(l), outdated = located && !hash_matches(l, hex);
    l->row = json_pack("{s:s,s:s?,s:s*,s:s*,s:b}", "name", l->name, "source",
                       json_string_value(json_object_get(l->entry, "source")), "commit",
                       json_string_value(json_object_get(l->entry, "commit")), "latest",
                       l->sc.commit, "outdated", outdated);
    json_array_append_new(p->rows, l->row);
    p->outdated[i] = outdated && p->update;
    any |= p->outdated[i];
    upk_diags_take(&p->all, &l->sc.diags);
  }
  if (!any || !lock_judge(c, p, p->outdated, check_place)) /* the user's audit.judge first */
    check_place(c, ix);
}

void upk_check_skills(upk_call *c, upk_index *ix, const upk_install_req *base, bool update) {
  lock_pass_start(c, ix, base, false, check_after_fetch);
  if (c->state)
    ((lock_pass *)c->state)->update = update;
}

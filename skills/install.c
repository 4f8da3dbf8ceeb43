/* Installing and removing skills; the design is described in install.h, the
 * on-disk state of one skills directory is handled in install_root.c. */
#include "skills/install.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fault.h"
#include "skills/fsutil.h"
#include "skills/install_root.h"
#include "skills/skill.h"
#include "skills/audit.h"
#include "skills/validate.h"
#include "skills/vcs.h"
#include "common/xalloc.h"

int upk_install_test_no_exchange;

/* Shared state of one install or remove; dirs[] runs parallel to res->targets. */
typedef struct job {
  const upk_install_req *req;
  const upk_env *env; /* where the manifests live ($XDG_STATE_HOME) */
  upk_install_result *res;
  upk_resolved_dir *dirs;
  upk_tree tree;
  upk_diags vdiags; /* validation results: reported before everything else */
  char *source;
  bool inline_src, staged_validated, audited;
} job;

static upk_validate_mode mode_of(const job *j) {
  return j->req && j->req->lenient ? UPK_VALIDATE_INSTALL : UPK_VALIDATE_STRICT;
}

/* ---- targets ---------------------------------------------------------- */

static int new_target(job *j, upk_resolved_dir *d, const char *name) {
  upk_install_result *res = j->res;
  size_t i = res->n_targets;
  upk_install_target *t = upk_xrealloc(res->targets, (i + 1) * sizeof *t);
  if (t)
    res->targets = t;
  upk_resolved_dir *ds = t ? upk_xrealloc(j->dirs, (i + 1) * sizeof *ds) : NULL;
  if (!ds)
    return -ENOMEM;
  j->dirs = ds;
  memset(&t[i], 0, sizeof t[i]);
  ds[i] = *d;
  memset(d, 0, sizeof *d);
  res->n_targets++;
  t[i].root = upk_xstrdup(ds[i].path);
  t[i].path = upk_xasprintf("%s/%s", ds[i].path, name);
  return 0;
}

/* Add agent a's directory as a target; agents sharing a directory share it. */
static int add_target(job *j, const upk_agent *a, upk_scope scope, const char *project_root,
                      const upk_env *env, const char *name) {
  upk_install_result *res = j->res;
  upk_resolved_dir d;
  int rc = upk_agent_resolve(a, scope, project_root, env, &d);
  if (rc < 0) {
    upk_fs_diag(&res->diags, UPK_SEV_ERROR, "install/no-directory", NULL, "%s",
                rc == -EINVAL ? "project scope needs an absolute project_root"
                              : "user scope needs HOME set to an absolute path");
    return rc == -ENOMEM ? rc : -EINVAL;
  }
  size_t i = 0;
  while (i < res->n_targets && strcmp(res->targets[i].root, d.path) != 0)
    i++;
  rc = i == res->n_targets ? new_target(j, &d, name) : 0;
  upk_resolved_dir_free(&d);
  if (rc < 0)
    return rc;
  upk_install_target *t = &res->targets[i];
  const char **ids = upk_xrealloc(t->agents, (t->n_agents + 1) * sizeof *ids);
  t->agents = ids;
  t->agents[t->n_agents++] = a->id;
  return 0;
}

/* Targets for the requested agents; none given: `defaults` (NULL: all). */
static int add_targets(job *j, const char *const *ids, size_t n, const char *const *defaults,
                       size_t n_defaults, upk_scope scope, const char *project_root,
                       const upk_env *env, const char *name) {
  if (!n) {
    ids = defaults;
    n = defaults ? n_defaults : upk_agents_count();
  }
  for (size_t i = 0; i < n; i++) {
    const upk_agent *a = ids ? upk_agent_find(ids[i]) : upk_agent_at(i);
    if (!a) {
      upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/unknown-agent", NULL,
                  "unknown agent '%s' (known: claude, codex or agents, cursor, opencode, "
                  "copilot, gemini, windsurf, goose, antigravity)",
                  ids[i] ? ids[i] : "(null)");
      return -EINVAL;
    }
    int rc = add_target(j, a, scope, project_root, env, name);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static void job_free(job *j) {
  for (size_t i = 0; j->dirs && i < j->res->n_targets; i++)
    upk_resolved_dir_free(&j->dirs[i]);
  free(j->dirs);
  upk_tree_free(&j->tree);
  upk_diags_free(&j->vdiags);
  free(j->source);
}

void upk_install_result_free(upk_install_result *res) {
  for (size_t i = 0; i < res->n_targets; i++) {
    free(res->targets[i].root);
    free(res->targets[i].path);
    free(res->targets[i].agents);
  }
  free(res->targets);
  free(res->name);
  upk_diags_free(&res->diags);
  memset(res, 0, sizeof *res);
}

/* ---- reading and validating the source ------------------------------- */

static int refuse_invalid(job *j, size_t errors) {
  upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/invalid", NULL,
              "the skill has %zu validation error%s; nothing was installed", errors,
              errors == 1 ? "" : "s");
  return -EINVAL;
}

/* The skill's name from its frontmatter (diagnostics of this second parse
 * are dropped: validation already reported them). */
static char *skill_name(const char *path, const char *text, size_t len, char **dir) {
  upk_skill s;
  upk_diags scratch = {0};
  memset(&s, 0, sizeof s);
  int rc =
      path ? upk_skill_load(path, &s, &scratch) : upk_skill_parse(text, len, NULL, &s, &scratch);
  char *name = rc == 0 && s.name ? upk_xstrdup(s.name) : NULL;
  if (dir)
    *dir = rc == 0 && s.dir ? upk_xstrdup(s.dir) : NULL;
  upk_skill_free(&s);
  upk_diags_free(&scratch);
  return name;
}

static int load_from_path(job *j, char **name) {
  const char *from = j->req->from_path;
  char *dir = NULL;
  *name = skill_name(from, NULL, 0, &dir);
  size_t errors = upk_skill_validate_path(from, mode_of(j), &j->vdiags);
  if (errors) {
    free(dir);
    return refuse_invalid(j, errors);
  }
  int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  int rc = fd < 0 ? (dir ? -errno : -EINVAL) : upk_tree_load(fd, &j->tree, &j->res->diags);
  if (fd < 0)
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/source", from, "cannot open %s: %s",
                dir ? dir : from, strerror(-rc));
  if (fd >= 0)
    close(fd);
  char abs[PATH_MAX];
  const char *src = j->req->source ? j->req->source : dir && realpath(dir, abs) ? abs : from;
  j->source = upk_xstrdup(src);
  free(dir);
  return rc < 0 ? rc : j->source ? 0 : -ENOMEM;
}

static int load_inline(job *j, char **name) {
  const upk_install_req *rq = j->req;
  *name = skill_name(NULL, rq->markdown, rq->markdown_len, NULL);
  size_t errors = upk_skill_validate_text(rq->markdown, rq->markdown_len, mode_of(j), &j->vdiags);
  if (errors)
    return refuse_invalid(j, errors);
  int rc = upk_tree_add(&j->tree, "SKILL.md", rq->markdown, rq->markdown_len, false);
  for (size_t i = 0; !rc && i < rq->n_files; i++) {
    const upk_install_file *f = &rq->files[i];
    if (!upk_rel_path_ok(f->path) || (!f->content && f->len)) {
      upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/bad-path", NULL,
                  "files[%zu].path '%s' must be a relative path inside the skill, without "
                  "'..', '.', empty components, a leading '/' or '\\'",
                  i, f->path ? f->path : "(null)");
      return -EINVAL;
    }
    rc = upk_tree_add(&j->tree, f->path, f->content, f->len, false);
  }
  if (!rc && (j->tree.n > UPK_TREE_MAX_FILES || j->tree.bytes > UPK_TREE_MAX_BYTES)) {
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/too-large", NULL,
                "the skill has more than %u files or %u MiB", UPK_TREE_MAX_FILES,
                UPK_TREE_MAX_BYTES >> 20);
    rc = -EFBIG;
  }
  j->source = upk_xstrdup(rq->source ? rq->source : "inline");
  return rc < 0 ? rc : j->source ? 0 : -ENOMEM;
}

/* No VCS metadata goes into a skill (vcs.h): inline files naming it are refused; a tree read
 * from a directory drops it, with one warning for each place it was found. */
static int drop_vcs(job *j) {
  upk_tree *t = &j->tree;
  size_t kept = 0;
  char last[512] = "";
  for (size_t i = 0; i < t->n; i++) {
    upk_tree_file *f = &t->files[i];
    size_t len;
    const char *bad = upk_vcs_in_path(f->rel, &len);
    if (!bad) {
      t->files[kept++] = *f;
      continue;
    }
    int upto = (int)(bad - f->rel + len);
    if (j->inline_src) {
      upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/vcs-metadata", NULL,
                  "'%s' puts version-control metadata ('%.*s') into the skill; refused: a "
                  "skill never carries .git, .hg or the like (git would run what their config "
                  "names in the project)",
                  f->rel, (int)len, bad);
      for (size_t k = i; k < t->n; k++) /* keep the tree whole for upk_tree_free */
        t->files[kept++] = t->files[k];
      t->n = kept;
      return -EINVAL;
    }
    bool same = upto < (int)sizeof last && !strncmp(last, f->rel, (size_t)upto) && !last[upto];
    if (!same) {
      snprintf(last, sizeof last, "%.*s", upto, f->rel);
      upk_fs_diag(&j->res->diags, UPK_SEV_WARNING, "install/vcs-skipped", NULL,
                  "'%s' is version-control metadata: not copied into the skill", last);
    }
    t->bytes -= f->len;
    free(f->rel);
    free(f->data);
  }
  t->n = kept;
  return 0;
}

/* Validate, load the files, name and hash the skill. */
static int prepare(job *j) {
  const upk_install_req *rq = j->req;
  char *name = NULL;
  int rc;
  j->inline_src = !rq->from_path;
  if (!rq->from_path && !rq->markdown) {
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/no-source", NULL,
                "give either a path or the SKILL.md text to install");
    return -EINVAL;
  }
  rc = rq->from_path ? load_from_path(j, &name) : load_inline(j, &name);
  j->res->name = name;
  if (rc < 0)
    return rc;
  rc = drop_vcs(j);
  if (rc < 0)
    return rc;
  if (!upk_install_name_ok(name)) {
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/bad-name", NULL,
                "the skill name '%s' cannot be used as a directory name", name ? name : "");
    return -EINVAL;
  }
  const char *bad;
  rc = upk_tree_check(&j->tree, &bad);
  if (rc < 0) {
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/duplicate-path", NULL,
                rc == -EEXIST ? "'%s' is given twice" : "'%s' is both a file and a directory", bad);
    return -EINVAL;
  }
  return upk_tree_hash(&j->tree, j->res->hash);
}

/* ---- placing one copy ------------------------------------------------- */

static json_t *jstr(const char *s) {
  json_t *v = json_string(s); /* refuses text that is not UTF-8 */
  return v ? v : json_string("(not UTF-8)");
}

static json_t *make_entry(const job *j, const upk_install_target *t) {
  char now[32], hash[80];
  time_t tt = time(NULL);
  struct tm tm;
  gmtime_r(&tt, &tm);
  strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
  snprintf(hash, sizeof hash, "sha256:%s", j->res->hash);
  json_t *agents = json_array();
  for (size_t i = 0; agents && i < t->n_agents; i++)
    json_array_append_new(agents, json_string(t->agents[i]));
  return json_pack("{s:o, s:s, s:s, s:I, s:I, s:o*, s:s}", "source", jstr(j->source), "sourceType",
                   j->inline_src ? "inline" : "path", "hash", hash, "files", (json_int_t)j->tree.n,
                   "bytes", (json_int_t)j->tree.bytes, "agents", agents, "updatedAt", now);
}

/* Diagnostics about the staged copy name the place it is going to. */
static void rebase_files(upk_diags *d, const char *from, const char *to) {
  size_t n = strlen(from);
  for (size_t i = 0; i < d->len; i++) {
    char *f = d->items[i].file;
    if (f && strncmp(f, from, n) == 0) {
      d->items[i].file = upk_xasprintf("%s%s", to, f + n);
      free(f);
    }
  }
}

/* Inline skills are validated again once staged, as a directory, which adds
 * the checks validate_text cannot make (e.g. files the body refers to).
 * tmp NULL: validate the identical copy already installed at final. */
static int validate_staged(job *j, const char *root, const char *tmp, const char *final) {
  char *path = tmp ? upk_xasprintf("%s/%s/%s", root, tmp, j->res->name) : upk_xstrdup(final);
  upk_diags vd = {0};
  size_t errors = upk_skill_validate_path(path, mode_of(j), &vd);
  rebase_files(&vd, path, final);
  free(path);
  j->staged_validated = true;
  upk_diags_free(&j->vdiags);
  j->vdiags = vd;
  return errors ? refuse_invalid(j, errors) : 0;
}

/* req->audit: the copy about to be placed (staged in tmp, or tmp NULL: the identical one at
 * final) is audited once, whatever its source; high findings refuse it unless allow_risky. */
static int audit_staged(job *j, const char *root, const char *tmp, const char *final) {
  if (!j->req->audit || j->audited)
    return 0;
  j->audited = true;
  char *path = tmp ? upk_xasprintf("%s/%s/%s", root, tmp, j->res->name) : upk_xstrdup(final);
  upk_diags ad = {0};
  int high = upk_audit_skill(path, &ad);
  rebase_files(&ad, path, final);
  free(path);
  upk_diags_take(&j->vdiags, &ad);
  upk_diags_free(&ad);
  j->res->high = high > 0 ? high : 0;
  if (high < 0 || (high > 0 && !j->req->allow_risky)) {
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/audit", NULL,
                high < 0 ? "the skill could not be audited (%s); nothing was installed"
                         : "the audit of %s found %d high risk(s) (diagnostics); nothing was "
                           "installed; allowRisky (--allow-risky) installs it anyway",
                high < 0 ? strerror(-high) : j->res->name, high);
    return -EINVAL;
  }
  return 0;
}

/* Write the staged copy and the intent (its manifest entry) into tmp. */
static int stage(job *j, size_t i, int tfd, const char *tmp) {
  const char *name = j->res->name;
  if (mkdirat(tfd, name, 0755) < 0)
    return -errno;
  int sfd = upk_open_subdir(tfd, name);
  if (sfd < 0)
    return sfd;
  int rc = upk_tree_write(sfd, &j->tree);
  close(sfd);
  if (!rc && j->inline_src && !j->staged_validated)
    rc = validate_staged(j, j->res->targets[i].root, tmp, j->res->targets[i].path);
  if (!rc)
    rc = audit_staged(j, j->res->targets[i].root, tmp, j->res->targets[i].path);
  json_t *intent = rc ? NULL
                      : json_pack("{s:s, s:s, s:o}", "name", name, "hash", j->res->hash, "entry",
                                  make_entry(j, &j->res->targets[i]));
  char *text = intent ? json_dumps(intent, JSON_COMPACT) : NULL;
  if (!rc)
    rc = text ? upk_write_file_at(tfd, UPK_INTENT_NAME, text, strlen(text), 0600) : -ENOMEM;
  free(text);
  json_decref(intent);
  return rc ? rc : upk_fsync_dir(tfd);
}

static bool no_exchange(int err) {
  return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP;
}

/* Move the staged copy into place. Replacing swaps the two directories in
 * one step; the fallback sets the old copy aside first (recover_one puts it
 * back if we die in between). */
static int commit(int rfd, int tfd, const char *name, bool replace) {
  int rc = 0;
  /* Tests force the fallback with UPSKILLD_FAULT=install.exchange:1:EINVAL. */
  int forced = upk_install_test_no_exchange ? -EINVAL : replace ? upk_fault("install.exchange") : 0;
  if (!replace) {
    if (renameat2(tfd, name, rfd, name, RENAME_NOREPLACE) < 0 &&
        (!no_exchange(errno) || renameat(tfd, name, rfd, name) < 0))
      rc = -errno;
  } else if (forced || renameat2(tfd, name, rfd, name, RENAME_EXCHANGE) < 0) {
    if (!no_exchange(forced ? -forced : errno))
      return forced ? forced : -errno;
    if (renameat(rfd, name, tfd, UPK_OLD_NAME) < 0)
      return -errno;
    if ((rc = upk_fault("install.aside")) < 0 || renameat(tfd, name, rfd, name) < 0) {
      rc = rc < 0 ? rc : -errno;
      renameat(tfd, UPK_OLD_NAME, rfd, name);
    }
  }
  int rc2 = upk_fsync_dir(rfd);
  return rc ? rc : rc2 ? rc2 : upk_fsync_dir(tfd);
}

static int refuse_existing(job *j, const char *path, upk_entry_kind k) {
  if (k == UPK_ENTRY_OTHER) {
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/not-a-skill", path,
                "%s exists and is not a skill directory (no SKILL.md); it is left alone", path);
    return -EPERM;
  }
  upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/exists", path,
              "%s already holds a different %s; install with force to replace it", path,
              k == UPK_ENTRY_SYMLINK ? "entry (a symbolic link)" : "skill of that name");
  return -EEXIST;
}

/* Write target t's manifest entry. */
static int record(const job *j, const upk_install_target *t, int rfd) {
  json_t *entry = make_entry(j, t);
  if (!entry)
    return -ENOMEM; /* never pass NULL: that would drop the entry */
  return upk_manifest_update(rfd, t->root, j->env, j->res->name, entry, &j->res->diags);
}

/* Install into target i, whose root is open and locked. */
/* Target i is a symbolic link that resolves to another target of this install (placed before
 * it, or to be placed). */
static bool links_to_target(const job *j, size_t i) {
  char here[PATH_MAX], there[PATH_MAX];
  if (!realpath(j->res->targets[i].path, here))
    return false;
  for (size_t k = 0; k < j->res->n_targets; k++)
    if (k != i && realpath(j->res->targets[k].path, there) && !strcmp(here, there))
      return true;
  return false;
}

static int place(job *j, size_t i, int rfd) {
  upk_install_target *t = &j->res->targets[i];
  const char *name = j->res->name;
  bool same;
  upk_entry_kind k = upk_entry_classify(rfd, name, j->res->hash, &same);
  if (k == UPK_ENTRY_SYMLINK && j->req->keep_links && links_to_target(j, i)) {
    t->unchanged = t->linked = true; /* it shows the new copy where it points */
    return 0;
  }
  if (k == UPK_ENTRY_SKILL && same) {
    t->unchanged = true;
    int rc = 0;
    if (j->inline_src && !j->staged_validated)
      rc = validate_staged(j, t->root, NULL, t->path);
    rc = rc ? rc : audit_staged(j, t->root, NULL, t->path);
    return rc ? rc : record(j, t, rfd);
  }
  if (k == UPK_ENTRY_OTHER || (k != UPK_ENTRY_NONE && !j->req->force))
    return refuse_existing(j, t->path, k);
  char tmp[64];
  int tfd = upk_tmp_make(rfd, tmp);
  if (tfd < 0)
    return tfd;
  int rc = stage(j, i, tfd, tmp);
  if (!rc)
    rc = upk_fault("install.staged");
  if (!rc)
    rc = commit(rfd, tfd, name, k != UPK_ENTRY_NONE);
  close(tfd);
  if (!rc) {
    t->replaced = k != UPK_ENTRY_NONE;
    upk_fault("install.committed"); /* crash only: the copy is in place */
    rc = record(j, t, rfd);
  }
  if (!rc)
    upk_fault("install.recorded");
  upk_tmp_drop(rfd, tmp);
  return rc;
}

static int install_one(job *j, size_t i) {
  int lfd, rfd = upk_root_open(&j->dirs[i], j->env, true, &lfd, &j->res->diags);
  if (rfd < 0)
    return rfd;
  int rc = place(j, i, rfd);
  if (rc < 0 && rc != -EEXIST && rc != -EPERM && rc != -EINVAL)
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/failed", j->res->targets[i].path,
                "installing into %s failed: %s", j->res->targets[i].path, strerror(-rc));
  upk_root_close(rfd, lfd);
  return rc;
}

/* Without force, look for a conflict in every target before writing any, so
 * a refusal leaves all of them untouched. (Checked again under the lock.) */
static int precheck(job *j) {
  int rc = 0;
  for (size_t i = 0; !j->req->force && i < j->res->n_targets; i++) {
    int rfd = upk_open_beneath(j->dirs[i].base, j->dirs[i].rel, false);
    if (rfd < 0)
      continue; /* created (or reported) by the install itself */
    bool same;
    upk_entry_kind k = upk_entry_classify(rfd, j->res->name, j->res->hash, &same);
    close(rfd);
    if (k != UPK_ENTRY_NONE && !(k == UPK_ENTRY_SKILL && same)) {
      j->res->targets[i].status = refuse_existing(j, j->res->targets[i].path, k);
      rc = rc ? rc : j->res->targets[i].status;
    }
  }
  return rc;
}

/* Validation diagnostics first, then everything that happened after. */
static void finish_diags(job *j) {
  upk_diags rest = j->res->diags;
  j->res->diags = j->vdiags;
  memset(&j->vdiags, 0, sizeof j->vdiags);
  upk_diags_take(&j->res->diags, &rest);
  upk_diags_free(&rest);
}

int upk_install(const upk_install_req *rq, upk_install_result *res) {
  static const char *const defaults[] = {"agents", "claude"};
  memset(res, 0, sizeof *res);
  job j = {.req = rq, .env = rq->env, .res = res};
  int rc = prepare(&j);
  if (!rc)
    rc = add_targets(&j, rq->agents, rq->n_agents, defaults, 2, rq->scope, rq->project_root,
                     rq->env, res->name);
  if (!rc)
    rc = precheck(&j);
  /* A problem in one directory does not stop the others, except a skill
   * found invalid once staged: that holds for every copy. */
  for (size_t i = 0; !rc && i < res->n_targets; i++)
    if ((res->targets[i].status = install_one(&j, i)) == -EINVAL)
      break;
  for (size_t i = 0; !rc && i < res->n_targets; i++)
    rc = res->targets[i].status;
  finish_diags(&j);
  job_free(&j);
  return rc;
}

/* ---- remove ----------------------------------------------------------- */

/* Take the skill out of one root: rename it into staging (atomic for
 * readers), drop its manifest entry, then delete it. */
static int remove_one(job *j, size_t i, const char *name) {
  upk_install_target *t = &j->res->targets[i];
  int lfd, rfd = upk_root_open(&j->dirs[i], j->env, false, &lfd, &j->res->diags);
  if (rfd < 0)
    return rfd;
  upk_entry_kind k = upk_entry_classify(rfd, name, NULL, NULL);
  int rc = k == UPK_ENTRY_NONE ? -ENOENT : k != UPK_ENTRY_SKILL ? -EPERM : 0;
  if (rc == -EPERM)
    upk_fs_diag(&j->res->diags, UPK_SEV_ERROR, "install/not-a-skill", t->path,
                "%s is %s, not a skill directory; it is left alone", t->path,
                k == UPK_ENTRY_SYMLINK ? "a symbolic link" : "not a directory with SKILL.md");
  char tmp[64];
  int tfd = rc ? -1 : upk_tmp_make(rfd, tmp);
  if (!rc && tfd < 0)
    rc = tfd;
  if (!rc && renameat(rfd, name, tfd, name) < 0)
    rc = -errno;
  if (tfd >= 0) {
    if (!rc && !(rc = upk_fsync_dir(rfd)))
      t->removed = true;
    close(tfd);
    if (t->removed) {
      upk_fault("remove.moved"); /* crash only: the skill is already out of place */
      upk_manifest_update(rfd, t->root, j->env, name, NULL, &j->res->diags);
      upk_fault("remove.recorded");
    }
    upk_tmp_drop(rfd, tmp);
  }
  upk_root_close(rfd, lfd);
  return rc;
}

/* Keep only the targets where something was found (remove with no agents). */
static void drop_absent(job *j) {
  upk_install_result *res = j->res;
  size_t w = 0;
  for (size_t i = 0; i < res->n_targets; i++) {
    if (res->targets[i].status == -ENOENT) {
      free(res->targets[i].root);
      free(res->targets[i].path);
      free(res->targets[i].agents);
      upk_resolved_dir_free(&j->dirs[i]);
      continue;
    }
    res->targets[w] = res->targets[i];
    j->dirs[w++] = j->dirs[i];
  }
  res->n_targets = w;
}

int upk_remove(const upk_remove_req *rq, upk_install_result *res) {
  memset(res, 0, sizeof *res);
  job j = {.env = rq->env, .res = res};
  if (!upk_install_name_ok(rq->name)) {
    upk_fs_diag(&res->diags, UPK_SEV_ERROR, "install/bad-name", NULL, "'%s' is not a skill name",
                rq->name ? rq->name : "");
    return -EINVAL;
  }
  res->name = upk_xstrdup(rq->name);
  int rc = res->name ? add_targets(&j, rq->agents, rq->n_agents, NULL, 0, rq->scope,
                                   rq->project_root, rq->env, rq->name)
                     : -ENOMEM;
  bool any = false;
  for (size_t i = 0; !rc && i < res->n_targets; i++) {
    res->targets[i].status = remove_one(&j, i, rq->name);
    any |= res->targets[i].removed;
  }
  for (size_t i = 0; !rc && i < res->n_targets; i++)
    if (res->targets[i].status != -ENOENT)
      rc = res->targets[i].status;
  if (!rq->n_agents)
    drop_absent(&j);
  if (!rc && !any) {
    upk_fs_diag(&res->diags, UPK_SEV_ERROR, "install/not-installed", NULL,
                "no skill named '%s' is installed there", rq->name);
    rc = -ENOENT;
  }
  job_free(&j);
  return rc;
}

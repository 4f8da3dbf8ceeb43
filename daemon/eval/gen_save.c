/* Saving a generated skill (thread pool) and installing it (skills queue).
 *
 * The skill directory is written whole into a temporary directory beside its
 * destination (same file system), every file and the directory fsync'd, then
 * renamed into place: renameat2(RENAME_EXCHANGE) when a skill is already
 * there (readers see the old or the new skill, never a mix), a plain
 * no-replace rename otherwise. A cancel seen before the rename removes the
 * temporary directory; after it the new skill is whole. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fault.h"
#include "skills/fsutil.h"
#include "daemon/eval/gen_int.h"
#include "protocol/jsonrpc.h"
#include "common/log.h"
#include "skills/meta.h"
#include "skills/eval/runs.h"
#include "daemon/skills/skills_service.h"
#include "common/xalloc.h"

static int save_err(upk_gen *g, int rc, const char *what) {
  snprintf(g->save_err, sizeof g->save_err, "%s: %s", what, strerror(-rc));
  return rc;
}

static char *meta_text(upk_gen *g, const gen_attempt *b) {
  upk_skill_meta m;
  char when[32], *text = NULL;
  time_t now = time(NULL);
  struct tm tm;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
  if (upk_meta_init(&m))
    return NULL;
  double rate = isfinite(g->final_rate) ? g->final_rate : b->rate;
  if (!upk_opt_str_set(&m.generated_by, g->spec.teacher.name) &&
      !upk_opt_str_set(&m.generated_at, when) && !upk_opt_str_set(&m.source_task, g->task) &&
      !upk_evalcases_to_meta(&g->cases, &m)) {
    m.test_pass_rate_state = isfinite(rate) ? UPK_JSON_SET : UPK_JSON_NULL;
    m.test_pass_rate = isfinite(rate) ? rate : 0;
    text = upk_meta_dump(&m);
  }
  upk_meta_free(&m);
  return text;
}

/* Write SKILL.md and skill_meta.json into the new directory `tmp`. */
static int write_tree(upk_gen *g, int pfd, const char *tmp, const gen_attempt *b) {
  int dfd = upk_open_subdir(pfd, tmp);
  if (dfd < 0)
    return save_err(g, dfd, "cannot open the staging directory");
  char *meta = meta_text(g, b);
  int rc = meta ? 0 : save_err(g, -ENOMEM, "skill_meta.json");
  if (!rc)
    rc = upk_write_file_at(dfd, "SKILL.md", b->skill_md, strlen(b->skill_md), 0644);
  if (!rc)
    rc = upk_write_file_at(dfd, "skill_meta.json", meta, strlen(meta), 0644);
  if (!rc)
    rc = upk_fsync_dir(dfd);
  if (!rc)
    rc = upk_fault("gen.staged");
  if (rc && !g->save_err[0]) {
    char what[PATH_MAX + 32];
    snprintf(what, sizeof what, "cannot write %s", g->dest);
    save_err(g, rc, what);
  }
  free(meta);
  close(dfd);
  return rc;
}

/* Move tmp into place as `name`; a directory already there must be a skill. */
static int commit(upk_gen *g, int pfd, const char *tmp, const char *name) {
  struct stat st;
  if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
    if (errno != ENOENT)
      return save_err(g, -errno, g->dest);
    return renameat2(pfd, tmp, pfd, name, RENAME_NOREPLACE) < 0 ? save_err(g, -errno, g->dest) : 0;
  }
  char probe[PATH_MAX];
  snprintf(probe, sizeof probe, "%s/SKILL.md", name);
  if (!S_ISDIR(st.st_mode) || faccessat(pfd, probe, F_OK, AT_SYMLINK_NOFOLLOW) < 0) {
    snprintf(g->save_err, sizeof g->save_err,
             "%s exists and is not a skill directory: not replaced", g->dest);
    return -EEXIST;
  }
  if (renameat2(pfd, tmp, pfd, name, RENAME_EXCHANGE) < 0)
    return save_err(g, -errno, g->dest);
  g->replaced = true;
  upk_fault("gen.committed"); /* crash only: the new copy is in place */
  upk_rmtree_at(pfd, tmp);    /* the old copy, now under the temporary name */
  return 0;
}

/* Staging directories are named GEN_TMP_PREFIX<pid>.<random>. One whose process is gone
 * was left by a killed save (the new copy before its rename, or the old one after it):
 * nothing else owns it, so it is deleted. */
#define GEN_TMP_PREFIX ".upskilld-gen."

static void sweep_stale(int pfd, const char *parent) {
  DIR *dir = upk_opendir_at(pfd);
  if (!dir)
    return;
  struct dirent *e;
  while ((e = readdir(dir))) {
    const char *p = e->d_name;
    if (strncmp(p, GEN_TMP_PREFIX, strlen(GEN_TMP_PREFIX)))
      continue;
    long pid = strtol(p + strlen(GEN_TMP_PREFIX), NULL, 10);
    if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
      continue; /* its owner still runs */
    int rc = upk_rmtree_at(pfd, p);
    upk_warn("generate: %s %s/%s, left by an interrupted save%s%s",
             rc ? "cannot delete" : "deleted", parent, p, rc ? ": " : "", rc ? strerror(-rc) : "");
  }
  closedir(dir);
}

static int save_into(upk_gen *g, const gen_attempt *b) {
  char parent[PATH_MAX], tmp[64];
  snprintf(parent, sizeof parent, "%s", g->dest);
  char *slash = strrchr(parent, '/');
  if (!slash || !slash[1])
    return save_err(g, -EINVAL, g->dest);
  *slash = '\0';
  const char *name = slash + 1;
  int rc = upk_mkdir_p(parent[0] ? parent : "/", 0755);
  int pfd = rc ? rc : open(parent[0] ? parent : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pfd < 0)
    return save_err(g, pfd == -1 ? -errno : pfd, parent);
  sweep_stale(pfd, parent[0] ? parent : "/");
  rc = -EEXIST;
  for (int tries = 0; tries < 100 && rc == -EEXIST; tries++) {
    snprintf(tmp, sizeof tmp, GEN_TMP_PREFIX "%ld.%08lx", (long)getpid(), (unsigned long)random());
    rc = mkdirat(pfd, tmp, 0755) == 0 ? 0 : -errno;
  }
  if (rc) {
    close(pfd);
    char what[PATH_MAX + 48];
    snprintf(what, sizeof what, "cannot create a staging directory in %s", parent);
    return save_err(g, rc, what);
  }
  if (!rc)
    rc = write_tree(g, pfd, tmp, b);
  if (!rc && atomic_load(&g->cancelled))
    rc = -ECANCELED; /* the last moment to leave nothing behind */
  if (!rc)
    rc = commit(g, pfd, tmp, name);
  if (rc)
    upk_rmtree_at(pfd, tmp);
  else
    upk_fsync_dir(pfd);
  close(pfd);
  return rc;
}

/* The generation's own run: run.json of kind "generation" and, as its
 * summary, the attempts and the held-out score (runs/report draws them). A
 * failure here loses the record, not the skill. */
static void write_record(upk_gen *g) {
  const char **models = upk_xcalloc(g->spec.n_eval_models + 1, sizeof *models);
  for (size_t i = 0; models && i < g->spec.n_eval_models; i++)
    models[i] = g->eval_models[i].name;
  upk_run_meta meta = {"generation", g->name, models,    g->spec.n_eval_models,
                       g->spec.runs, true,    g->cases.n};
  upk_run run;
  if (models && g->record && g->runs_dir && upk_run_create(g->runs_dir, &meta, &run) == 0) {
    if (upk_run_write_summary(&run, g->record) == 0)
      snprintf(g->record_id, sizeof g->record_id, "%s", run.id);
    upk_run_free(&run);
  }
  free(models);
}

static void save_work(uv_work_t *w) {
  upk_gen *g = w->data;
  const gen_attempt *b = &g->attempts[g->best];
  free(g->name);
  g->name = upk__gen_skill_name(b->skill_md);
  if (!g->name) {
    g->save_rc = save_err(g, -EINVAL, "the skill has no name");
    return;
  }
  g->dest = g->output ? upk_xstrdup(g->output) : upk_xasprintf("%s/%s", g->skills_dir, g->name);
  g->save_rc = save_into(g, b);
  if (g->save_rc == 0)
    write_record(g);
}

static void install_work(upk_index *ix, void *arg) {
  upk_gen *g = arg;
  char cwd[PATH_MAX];
  upk_install_req req = {.from_path = g->dest,
                         .agents = (const char *const *)g->agents,
                         .n_agents = g->spec.n_agents,
                         .scope = g->spec.scope,
                         .project_root = g->workspace              ? g->workspace
                                         : getcwd(cwd, sizeof cwd) ? cwd
                                                                   : "/",
                         .force = true, /* asked for by name: replace an older version */
                         /* audited as every install is: a teacher's text may carry a high risk */
                         .audit = true};
  g->inst_rc = upk_install(&req, &g->inst);
  g->installed = true;
  for (size_t i = 0; i < g->inst.n_targets; i++)
    if (g->inst.targets[i].status == 0)
      upk_skills_touch(g->server, ix, g->inst.targets[i].path);
}

static void install_done(void *arg, int status) {
  upk_gen *g = arg;
  g->in_work = false;
  if (atomic_load(&g->cancelled)) {
    upk__gen_free(g);
    return;
  }
  if (status && !g->installed)
    g->inst_rc = status;
  upk__gen_finish(g);
}

static void save_done(uv_work_t *w, int status) {
  upk_gen *g = w->data;
  g->in_work = false;
  if (atomic_load(&g->cancelled)) {
    upk__gen_free(g);
    return;
  }
  if (status || g->save_rc) {
    upk__gen_fail(g, UPK_RPC_REQUEST_FAILED, NULL, "save: %s",
                  g->save_err[0] ? g->save_err : uv_strerror(status));
    return;
  }
  upk__gen_progress(g, "save", "saved %s%s", g->dest, g->replaced ? " (replaced)" : "");
  if (!g->spec.install) {
    upk__gen_finish(g);
    return;
  }
  upk__gen_progress(g, "install", "installing %s", g->name);
  g->in_work = true;
  int rc = upk_skills_submit(g->server, install_work, install_done, g);
  if (rc) {
    g->in_work = false;
    g->inst_rc = rc;
    upk__gen_finish(g);
  }
}

/* summary.json of the generation's run (built here, on the loop). */
static char *record_text(const upk_gen *g) {
  json_t *r = upk__gen_base_result(g);
  if (!r)
    return NULL;
  json_object_set_new(r, "bestAttempt", json_integer((json_int_t)g->best + 1));
  json_object_set_new(r, "heldOut", g->final ? json_incref(g->final) : json_null());
  json_object_set_new(r, "finalPassRate",
                      isfinite(g->final_rate) ? json_real(g->final_rate) : json_null());
  json_object_set_new(r, "task", g->task ? json_string(g->task) : json_null());
  char *text = json_dumps(r, JSON_INDENT(2));
  json_decref(r);
  return text;
}

void upk__gen_save(upk_gen *g) {
  upk__gen_progress(g, "save", "saving attempt %zu", g->best + 1);
  free(g->record);
  g->record = record_text(g);
  g->work.data = g;
  g->in_work = true;
  int rc = uv_queue_work(upk_session_loop(g->server), &g->work, save_work, save_done);
  if (rc) {
    g->in_work = false;
    upk__gen_fail(g, UPK_RPC_INTERNAL_ERROR, NULL, "save: %s", uv_strerror(rc));
  }
}

#include "skills_service.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "agents.h"
#include "install.h"
#include "log.h"
#include "upk_config.h"

#define DEBOUNCE_MS 40

typedef struct watch {
  uv_fs_event_t h;
  upk_skills_svc *svc;
  char *dir;
  struct watch *next;
  bool keep; /* mark for the resync sweep */
} watch;

struct upk_skills_svc {
  upk_server *server;
  upk_serial queue;
  upk_index *index;
  char open_error[512];
  upk_index_root *roots;
  size_t n_roots;
  char **strings; /* owned strings the roots point at */
  size_t n_strings;
  watch *watches;
  uv_timer_t debounce;
  json_t *pending; /* paths changed since the last refresh (object used as a set) */
  bool closing;
  int open_handles; /* handles not yet closed; freed at 0 with nothing queued */
};

/* One queue item: a caller's work, or the service's own scan/refresh. */
typedef struct item {
  upk_skills_svc *svc;
  upk_skills_work work;
  upk_serial_done done;
  void *arg;
  json_t *paths;     /* refresh: changed paths; NULL for a full scan */
  char **watch_dirs; /* computed on the queue, applied on the loop */
  size_t n_watch;
  json_t *seen; /* watch_dirs as a set, while it is computed */
} item;

const char *upk_skills_library_dir(void) {
  static char dir[PATH_MAX];
  if (dir[0])
    return dir;
  const char *env = getenv("UPSKILLD_LIBRARY");
  if (env && *env) {
    snprintf(dir, sizeof dir, "%s", env);
    return dir;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) { /* installed: <prefix>/bin/upskilld -> <prefix>/share/upskilld/library */
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    *slash = '\0';
    snprintf(dir, sizeof dir, "%s/../share/upskilld/library", exe);
    if (access(dir, R_OK) == 0)
      return dir;
  }
  snprintf(dir, sizeof dir, "%s", UPK_LIBRARY_DIR);
  return dir;
}

static const char *keep_string(upk_skills_svc *svc, const char *s) {
  char **p = realloc(svc->strings, (svc->n_strings + 1) * sizeof *p);
  if (!p)
    return NULL;
  svc->strings = p;
  return svc->strings[svc->n_strings++] = strdup(s);
}

static void add_root(upk_skills_svc *svc, const char *dir, const char *agent, upk_index_scope sc,
                     int priority) {
  upk_index_root *r = realloc(svc->roots, (svc->n_roots + 1) * sizeof *r);
  if (!r)
    return;
  svc->roots = r;
  r[svc->n_roots++] = (upk_index_root){keep_string(svc, dir), agent, sc, priority, 1};
}

static void add_spec(upk_skills_svc *svc, const upk_dirspec *d, const upk_agent *a,
                     const char *workspace) {
  upk_resolved_dir rd;
  if (upk_dirspec_resolve(d, workspace, NULL, &rd) != 0)
    return;
  bool project = upk_dirspec_scope(d) == UPK_SCOPE_PROJECT;
  add_root(svc, rd.path, a->id, project ? UPK_INDEX_PROJECT : UPK_INDEX_USER, project ? 20 : 10);
  upk_resolved_dir_free(&rd);
}

/* Every directory any agent reads, each tagged with that agent. */
static void build_roots(upk_skills_svc *svc, const char *workspace, json_t *extra) {
  for (size_t i = 0; i < upk_agents_count(); i++) {
    const upk_agent *a = upk_agent_at(i);
    add_spec(svc, &a->project, a, workspace);
    add_spec(svc, &a->user, a, workspace);
    for (size_t k = 0; k < a->n_reads; k++)
      add_spec(svc, &a->reads[k], a, workspace);
  }
  size_t i;
  json_t *v;
  json_array_foreach(extra, i, v) {
    if (json_is_string(v))
      add_root(svc, json_string_value(v), NULL, UPK_INDEX_EXTRA, 5);
  }
  add_root(svc, upk_skills_library_dir(), NULL, UPK_INDEX_BUILTIN, 0);
}

/* ---- watch set: computed on the queue thread ---- */

/* Each directory once; a set keeps that linear with thousands of skills. */
static void push_dir(item *it, const char *dir) {
  if (!it->seen && !(it->seen = json_object()))
    return;
  if (json_object_get(it->seen, dir))
    return;
  char **p = realloc(it->watch_dirs, (it->n_watch + 1) * sizeof *p);
  if (!p)
    return;
  it->watch_dirs = p;
  it->watch_dirs[it->n_watch++] = strdup(dir);
  json_object_set_new_nocheck(it->seen, dir, json_true()); /* any bytes: it is only a set */
}

/* A missing root is watched through its nearest existing ancestor, so that
 * creating `.claude/skills` is noticed too. */
static void watch_root(item *it, const char *root) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", root);
  struct stat st;
  while (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
      return;
    *slash = '\0';
  }
  push_dir(it, dir);
}

/* A root's subdirectories are watched too, with or without a SKILL.md yet:
 * `mkdir x && write x/SKILL.md` shows the root only the mkdir, and the file
 * must still be noticed when it lands a moment later. */
static void watch_children(item *it, const char *root) {
  enum { MAX_CHILDREN = 4096 }; /* a bigger root: its indexed skills' dirs are watched */
  DIR *d = opendir(root);
  struct dirent *e;
  char dir[PATH_MAX];
  for (int n = 0; d && n < MAX_CHILDREN && (e = readdir(d)); n++) {
    struct stat st;
    if (e->d_name[0] == '.')
      continue;
    snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
    if (e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN && !stat(dir, &st) && S_ISDIR(st.st_mode)))
      push_dir(it, dir);
  }
  if (d)
    closedir(d);
}

static void compute_watch_set(item *it, upk_index *ix) {
  upk_skills_svc *svc = it->svc;
  for (size_t i = 0; i < svc->n_roots; i++) {
    watch_root(it, svc->roots[i].dir);
    watch_children(it, svc->roots[i].dir);
  }
  upk_index_entries all = {0};
  if (ix && upk_index_list(ix, NULL, NULL, &all) == 0) {
    for (size_t i = 0; i < all.len; i++)
      push_dir(it, all.items[i].dir);
    upk_index_entries_free(&all);
  }
}

/* Finish or undo what a killed install or remove left in the agents' skills directories,
 * before they are scanned; each repair is logged. */
static void repair_roots(upk_skills_svc *svc) {
  for (size_t i = 0; i < svc->n_roots; i++) {
    if (!svc->roots[i].agent)
      continue; /* builtin and extra roots: upskilld never installs there */
    size_t k = 0;
    while (k < i && strcmp(svc->roots[k].dir, svc->roots[i].dir))
      k++;
    if (k < i)
      continue; /* a directory several agents read: once is enough */
    upk_diags d = {0};
    int rc = upk_install_repair(svc->roots[i].dir, &d);
    for (k = 0; k < d.len; k++)
      upk_warn("skills: %s", d.items[k].message);
    if (rc < 0)
      upk_warn("skills: cannot check %s for an interrupted install: %s", svc->roots[i].dir,
               strerror(-rc));
    upk_diags_free(&d);
  }
}

/* Why a cache file at `path` cannot be written, if the disk can tell: its nearest existing
 * directory is read-only or forbidden (EROFS, EACCES), or its file system is full. */
static const char *dir_problem(const char *path) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash;
  while ((slash = strrchr(dir, '/')) && slash != dir) {
    *slash = 0;
    if (access(dir, F_OK) == 0)
      break;
  }
  struct statvfs vfs;
  if (access(dir, W_OK) < 0)
    return strerror(errno);
  return statvfs(dir, &vfs) == 0 && vfs.f_bavail == 0 ? strerror(ENOSPC) : NULL;
}

/* Open the index at `db` (NULL: in memory), set its roots and scan. 0, or a negative errno
 * with a sentence naming the file in `why` and no index open. */
static int open_scan_at(upk_skills_svc *svc, const char *db, char *why, size_t len) {
  upk_index_options opt = {.db_path = db};
  int rc = upk_index_open(&svc->index, &opt);
  if (!rc) {
    upk_index_set_roots(svc->index, svc->roots, svc->n_roots);
    upk_index_stats st;
    upk_diags diags = {0};
    rc = upk_index_scan(svc->index, &st, &diags);
    if (rc >= 0)
      upk_info("skills: %zu found in %zu roots (%zu parsed, %zu unchanged) in %.1f ms", st.skills,
               svc->n_roots, st.parsed, st.unchanged, st.ms);
    upk_diags_free(&diags);
    if (!db)
      rc = 0; /* in memory there is nothing to fall back to: serve what was indexed */
  }
  if (rc >= 0)
    return 0;
  const char *dp = db ? dir_problem(db) : NULL;
  snprintf(why, len, "cannot use the skill index %s: %s", db ? db : ":memory:",
           dp           ? dp
           : svc->index ? upk_index_errmsg(svc->index)
                        : strerror(-rc));
  upk_index_close(svc->index);
  svc->index = NULL;
  return rc;
}

static void open_and_scan(upk_skills_svc *svc) {
  repair_roots(svc);
  char *db = getenv("UPSKILLD_INDEX") ? strdup(getenv("UPSKILLD_INDEX"))
                                      : upk_index_default_path(svc->server->workspace);
  char why[sizeof svc->open_error];
  int rc = open_scan_at(svc, db, why, sizeof why);
  if (rc < 0 && db) {
    /* The file is only a cache: on a full, read-only or forbidden disk, serve from memory. */
    upk_warn("skills: %s; using an in-memory index instead", why);
    rc = open_scan_at(svc, NULL, why, sizeof why);
  }
  if (rc < 0)
    snprintf(svc->open_error, sizeof svc->open_error, "%s", why);
  free(db);
}

static void service_work(void *arg) {
  item *it = arg;
  upk_skills_svc *svc = it->svc;
  if (!svc->index && !svc->open_error[0])
    open_and_scan(svc);
  if (it->work) {
    it->work(svc->index, it->arg);
    return;
  }
  if (svc->index && it->paths) {
    const char *path;
    json_t *v;
    bool rescan = false;
    json_object_foreach(it->paths, path, v) {
      if (upk_index_refresh(svc->index, path, NULL) <= 0)
        rescan = true; /* above every root (a root appeared or vanished) */
    }
    if (rescan)
      upk_index_scan(svc->index, NULL, NULL);
  }
  compute_watch_set(it, svc->index);
}

/* ---- watchers, on the loop ---- */

static void svc_maybe_free(upk_skills_svc *svc);

static void on_handle_closed(uv_handle_t *h) {
  upk_skills_svc *svc = h->data;
  if (h->type == UV_FS_EVENT) {
    watch *w = (watch *)h;
    free(w->dir);
    free(w);
  }
  svc->open_handles--;
  svc_maybe_free(svc);
}

static void schedule_refresh(upk_skills_svc *svc);

static void on_debounce(uv_timer_t *t) {
  schedule_refresh(t->data);
}

static void on_fs_event(uv_fs_event_t *h, const char *filename, int events, int status) {
  watch *w = (watch *)h;
  upk_skills_svc *svc = w->svc;
  if (svc->closing)
    return;
  char path[PATH_MAX];
  if (filename)
    snprintf(path, sizeof path, "%s/%s", w->dir, filename);
  else
    snprintf(path, sizeof path, "%s", w->dir);
  json_object_set_new(svc->pending, path, json_true());
  if (!uv_is_active((uv_handle_t *)&svc->debounce))
    uv_timer_start(&svc->debounce, on_debounce, DEBOUNCE_MS, 0);
}

static void apply_watch_set(upk_skills_svc *svc, item *it) {
  /* A directory watched from now on may have changed since the queue looked at it:
   * after the first set, each new watch is followed by one refresh of its directory. */
  bool recheck_new = svc->watches != NULL;
  for (watch *w = svc->watches; w; w = w->next)
    w->keep = false;
  for (size_t i = 0; i < it->n_watch; i++) {
    watch *w = svc->watches;
    while (w && strcmp(w->dir, it->watch_dirs[i]))
      w = w->next;
    if (w) {
      w->keep = true;
      continue;
    }
    w = calloc(1, sizeof *w);
    w->svc = svc;
    w->dir = strdup(it->watch_dirs[i]);
    w->keep = true;
    uv_fs_event_init(svc->server->loop, &w->h);
    w->h.data = svc;
    svc->open_handles++;
    if (uv_fs_event_start(&w->h, on_fs_event, w->dir, 0) != 0) {
      upk_debug("skills: cannot watch %s", w->dir);
      uv_close((uv_handle_t *)&w->h, on_handle_closed);
      continue;
    }
    w->next = svc->watches;
    svc->watches = w;
    if (recheck_new) {
      json_object_set_new(svc->pending, w->dir, json_true());
      if (!uv_is_active((uv_handle_t *)&svc->debounce))
        uv_timer_start(&svc->debounce, on_debounce, DEBOUNCE_MS, 0);
    }
  }
  for (watch **pp = &svc->watches; *pp;) { /* drop directories no longer of interest */
    watch *w = *pp;
    if (w->keep) {
      pp = &w->next;
      continue;
    }
    *pp = w->next;
    uv_close((uv_handle_t *)&w->h, on_handle_closed);
  }
}

static void item_free(item *it) {
  for (size_t i = 0; i < it->n_watch; i++)
    free(it->watch_dirs[i]);
  free(it->watch_dirs);
  json_decref(it->seen);
  json_decref(it->paths);
  free(it);
}

static void service_done(void *arg, int status) {
  item *it = arg;
  upk_skills_svc *svc = it->svc;
  if (it->done)
    it->done(it->arg, status);
  else if (status == 0 && !svc->closing)
    apply_watch_set(svc, it);
  item_free(it);
  svc_maybe_free(svc);
}

static int submit(upk_skills_svc *svc, item *it) {
  it->svc = svc;
  int rc = upk_serial_submit(&svc->queue, service_work, service_done, it);
  if (rc)
    item_free(it);
  return rc;
}

static void schedule_refresh(upk_skills_svc *svc) {
  item *it = calloc(1, sizeof *it);
  it->paths = svc->pending;
  svc->pending = json_object();
  submit(svc, it);
}

/* ---- lifecycle ---- */

int upk_skills_start(upk_server *s) {
  upk_skills_svc *svc = calloc(1, sizeof *svc);
  if (!svc)
    return UV_ENOMEM;
  svc->server = s;
  svc->pending = json_object();
  upk_serial_init(&svc->queue, s->loop);
  uv_timer_init(s->loop, &svc->debounce);
  svc->debounce.data = svc;
  svc->open_handles = 1;
  json_t *extra = json_object_get(json_object_get(s->init_options, "skills"), "extraDirs");
  build_roots(svc, s->workspace, extra);
  s->skills = svc;
  return submit(svc, calloc(1, sizeof(item))); /* open, scan, then start watching */
}

int upk_skills_submit(upk_server *s, upk_skills_work work, upk_serial_done done, void *arg) {
  if (!s->skills)
    return UV_ECANCELED;
  item *it = calloc(1, sizeof *it);
  if (!it)
    return UV_ENOMEM;
  it->work = work;
  it->done = done;
  it->arg = arg;
  return submit(s->skills, it);
}

const char *upk_skills_open_error(upk_server *s) {
  return s->skills ? s->skills->open_error : "skills are not started";
}

void upk_skills_touch(upk_server *s, upk_index *ix, const char *path) {
  if (ix && upk_index_refresh(ix, path, NULL) <= 0)
    upk_index_scan(ix, NULL, NULL);
}

static void svc_maybe_free(upk_skills_svc *svc) {
  if (!svc->closing || svc->open_handles > 0 || upk_serial_busy(&svc->queue))
    return;
  if (svc->index)
    upk_index_close(svc->index); /* the queue is idle: no other thread uses it */
  for (size_t i = 0; i < svc->n_strings; i++)
    free(svc->strings[i]);
  free(svc->strings);
  free(svc->roots);
  json_decref(svc->pending);
  svc->server->skills = NULL;
  free(svc);
}

void upk_skills_stop(upk_server *s) {
  upk_skills_svc *svc = s->skills;
  if (!svc || svc->closing)
    return;
  svc->closing = true;
  upk_serial_close(&svc->queue);
  uv_close((uv_handle_t *)&svc->debounce, on_handle_closed);
  while (svc->watches) {
    watch *w = svc->watches;
    svc->watches = w->next;
    uv_close((uv_handle_t *)&w->h, on_handle_closed);
  }
}

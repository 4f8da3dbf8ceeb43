#include "skills_service.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
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
/* Skills indexed per queue item of the first scan: requests queued meanwhile
 * wait at most one batch (~0.1-0.3 s) and are answered with the progress. */
#define SCAN_BATCH 4000
#define WATCH_SLICE 2000 /* watches started per loop turn */
/* Pages per table merged per queue item once a scan is done (upk_index_tidy):
 * ~10-30 ms each, so lookups queued meanwhile wait little. */
#define TIDY_PAGES 200

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
  char *index_db; /* the index file in use; NULL: in memory */
  upk_index_root *roots;
  size_t n_roots;
  char **strings; /* owned strings the roots point at */
  size_t n_strings;
  watch *watches;
  json_t *by_dir; /* watches by directory (a set kept with the list: no rebuild per refresh) */
  uv_timer_t debounce;
  json_t *pending; /* paths changed since the last refresh (object used as a set) */
  bool closing;
  int open_handles; /* handles not yet closed; freed at 0 with nothing queued */
  int max_dirs;     /* 0: the library's default */
  /* Loop-side copies of the scan's state, for upskilld/status. */
  bool scanning;
  size_t scan_done, scan_total;
  long indexed;
  long refreshes, rescans; /* watch-driven work since start, for upskilld/status */
  bool tidying;            /* merge steps queued (upk_index_tidy) */
  unsigned tidy_steps;     /* of the merge under way, and when it began (uv_hrtime) */
  uint64_t tidy_t0;
  json_t *truncated;       /* roots cut at the directory limit (array of strings) */
  /* A watch set being applied a slice per loop turn (apply_watch_set). */
  struct item *applying;
  size_t apply_next;
  bool apply_recheck;
  uv_idle_t apply_idle;
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
  json_t *seen;   /* watch_dirs as a set, while it is computed */
  bool step;      /* a batch of the first scan */
  bool rescanned; /* a refresh that had to rescan every root */
  bool tidy;      /* one merge step of the full-text index */
  bool tidy_next; /* a scan was completed: merge what it wrote, step by step */
  bool more;      /* the merge step left work to do */
  bool additive;  /* watch_dirs are to add to the set, not the whole set */
  bool watch_next; /* a scan ended: the whole watch set is to be listed, in an item of its own */
  bool watch_only; /* that item: list the watch set, nothing else */
  bool scanning;  /* after this item: the first scan is still under way */
  size_t done_n, total;
  long indexed;
  json_t *truncated; /* set when a scan completed */
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

static void push_dir_cb(const char *dir, void *it) {
  push_dir(it, dir);
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
  if (ix) /* directories only: building 60,000 entries to read one field cost seconds */
    upk_index_each_dir(ix, push_dir_cb, it);
}

/* After a refresh that rescanned nothing, only the refreshed directories can need a new
 * watch (a skill directory just created): the whole set, 60,000 directories read back from
 * the index and compared on the loop, kept the queue busy ~300 ms after each change in a
 * registry, and lookups waited. Removed directories' watches end with them (inotify drops a
 * deleted directory); the next full set, after a scan, tidies the list. */
static void add_refreshed_dirs(item *it, const char *const *paths, size_t n) {
  it->additive = true;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", paths[i]);
    char *slash = strrchr(dir, '/');
    bool is_dir = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    if (!is_dir && slash && slash != dir) { /* a file, or one just removed: its directory */
      *slash = '\0';
      is_dir = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    }
    if (is_dir)
      push_dir(it, dir);
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

static json_t *truncated_roots(upk_index *ix) {
  char **dirs;
  size_t n;
  json_t *a = json_array();
  if (upk_index_truncated(ix, &dirs, &n) == 0) {
    for (size_t i = 0; i < n; i++)
      json_array_append_new(a, json_string(dirs[i]));
    upk_index_strings_free(dirs, n);
  }
  return a;
}

/* Open the index at `db` (NULL: in memory), set its roots and begin the first scan (the walk
 * only; batches follow). 0, or a negative errno with a sentence naming the file in `why` and no
 * index open. */
static int open_begin_at(upk_skills_svc *svc, const char *db, char *why, size_t len) {
  upk_index_options opt = {.db_path = db, .max_dirs = svc->max_dirs};
  int rc = upk_index_open(&svc->index, &opt);
  if (!rc) {
    upk_index_set_roots(svc->index, svc->roots, svc->n_roots);
    size_t total = 0;
    rc = upk_index_scan_begin(svc->index, &total, NULL);
    if (rc >= 0)
      upk_info("skills: %zu skill directories found in %zu roots", total, svc->n_roots);
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

/* The index file is only a cache: on a full, read-only or forbidden disk, serve from memory. */
static void fall_back_to_memory(upk_skills_svc *svc, const char *why) {
  upk_warn("skills: %s; using an in-memory index instead", why);
  char again[sizeof svc->open_error];
  if (open_begin_at(svc, NULL, again, sizeof again) < 0)
    snprintf(svc->open_error, sizeof svc->open_error, "%s", again);
}

static void open_and_begin(upk_skills_svc *svc) {
  repair_roots(svc);
  svc->index_db = getenv("UPSKILLD_INDEX") ? strdup(getenv("UPSKILLD_INDEX"))
                                           : upk_index_default_path(svc->server->workspace);
  char why[sizeof svc->open_error];
  int rc = open_begin_at(svc, svc->index_db, why, sizeof why);
  if (rc < 0 && svc->index_db) {
    free(svc->index_db);
    svc->index_db = NULL;
    fall_back_to_memory(svc, why);
  } else if (rc < 0)
    snprintf(svc->open_error, sizeof svc->open_error, "%s", why);
}

/* One batch of the first scan; when it completes, what it found is logged. A batch that
 * cannot write the index file (a disk that filled up) moves the index to memory. */
static void scan_batch(item *it, upk_skills_svc *svc) {
  upk_index_stats st;
  /* No diagnostics: nobody reads them here, and the last step's shadowing report (every
   * shadowed placement, 48,000 in a registry of 60,000) was a fifth of a restart. */
  int rc = upk_index_scan_step(svc->index, SCAN_BATCH, &st, NULL);
  if (rc < 0 && svc->index_db) {
    char why[sizeof svc->open_error];
    const char *dp = dir_problem(svc->index_db);
    snprintf(why, sizeof why, "cannot use the skill index %s: %s", svc->index_db,
             dp ? dp : upk_index_errmsg(svc->index));
    upk_index_close(svc->index);
    svc->index = NULL;
    free(svc->index_db);
    svc->index_db = NULL;
    fall_back_to_memory(svc, why);
    return; /* the next batch goes on in memory */
  }
  if (rc < 0)
    upk_index_scan(svc->index, &st, NULL); /* a failed batch in memory: one plain scan instead */
  if (rc != 1) {
    upk_info("skills: %zu found (%zu parsed, %zu unchanged) in %.1f ms", st.skills, st.parsed,
             st.unchanged, st.ms);
    it->tidy_next = st.parsed > 0;
    it->truncated = truncated_roots(svc->index);
#ifdef __GLIBC__
    malloc_trim(0); /* the scan's list of directories (MBs for a registry) is freed: give it back */
#endif
  }
}

static void list_watch_set(item *it, upk_skills_svc *svc) {
  uint64_t t0 = uv_hrtime();
  compute_watch_set(it, svc->index);
  upk_debug("skills: %zu directories to watch, listed in %.1f ms", it->n_watch,
            (double)(uv_hrtime() - t0) / 1e6);
}

static void service_work(void *arg) {
  item *it = arg;
  upk_skills_svc *svc = it->svc;
  if (!svc->index && !svc->open_error[0])
    open_and_begin(svc);
  if (it->work) {
    it->work(svc->index, it->arg);
    return;
  }
  if (it->tidy) {
    it->more = svc->index && upk_index_tidy(svc->index, TIDY_PAGES) == 1;
    return;
  }
  if (it->watch_only) {
    list_watch_set(it, svc);
    return;
  }
  if (svc->index && it->step && upk_index_scanning(svc->index, NULL, NULL))
    scan_batch(it, svc);
  if (svc->index && it->paths) {
    const char *path, **paths = calloc(json_object_size(it->paths) + 1, sizeof *paths);
    json_t *v;
    size_t n = 0;
    uint64_t t0 = uv_hrtime();
    json_object_foreach(it->paths, path, v) {
      if (paths)
        paths[n++] = path;
    }
    /* a path above every root: a root appeared or vanished */
    bool rescan = !paths || upk_index_refresh_many(svc->index, paths, n, NULL) != 0;
    upk_index_stats st = {0};
    if (rescan && !upk_index_scanning(svc->index, NULL, NULL))
      upk_index_scan(svc->index, &st, NULL);
    if (!rescan)
      add_refreshed_dirs(it, paths, n);
    it->rescanned = rescan;
    it->tidy_next = st.parsed > 0;
    upk_debug("skills: refreshed %zu path(s) (%s%s) in %.2f ms%s", n, n ? paths[0] : "",
              n > 1 ? ", ..." : "", (double)(uv_hrtime() - t0) / 1e6,
              rescan ? " (with a rescan)" : "");
    free(paths);
  }
  it->scanning = upk_index_scanning(svc->index, &it->done_n, &it->total);
  it->indexed = svc->index ? upk_index_count(svc->index) : 0;
  /* Listing the watch set reads every skill directory back (190 ms at 60,000 skills): in an
   * item of its own, so that lookups queued meanwhile answer first. */
  it->watch_next = !it->scanning && !it->additive;
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

/* Whether PATH is ROOT or one of its ancestors (ROOT begins with PATH, then '/' or its end). */
static bool leads_to(const char *path, const char *root) {
  size_t n = strlen(path);
  return !strncmp(root, path, n) && (root[n] == '/' || root[n] == '\0');
}

/* A change in a directory watched only because it is a missing root's nearest ancestor
 * (often $HOME) matters only when it is a step toward that root (`.claude` appearing):
 * anything else there (a shell's history, a log file) is not about skills, and taking it
 * as "a root appeared" rescanned every root on each write: a loop, once the daemon's own
 * log file lived in such a directory. */
static bool event_matters(const upk_skills_svc *svc, const char *dir, const char *path) {
  for (size_t i = 0; i < svc->n_roots; i++)
    if (leads_to(svc->roots[i].dir, dir) || leads_to(path, svc->roots[i].dir))
      return true; /* inside a root, or on the way to one */
  return false;
}

/* PATH changed: refreshed with the rest of its burst once the debounce timer fires. */
static void note_changed(upk_skills_svc *svc, const char *path) {
  json_object_set_new(svc->pending, path, json_true());
  if (!uv_is_active((uv_handle_t *)&svc->debounce))
    uv_timer_start(&svc->debounce, on_debounce, DEBOUNCE_MS, 0);
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
  if (event_matters(svc, w->dir, path))
    note_changed(svc, path);
}

static watch *watch_of(upk_skills_svc *svc, const char *dir) {
  json_t *hit = json_object_get(svc->by_dir, dir);
  return hit ? (watch *)(intptr_t)json_integer_value(hit) : NULL;
}

static void start_watch(upk_skills_svc *svc, const char *dir, bool recheck) {
  watch *w = calloc(1, sizeof *w);
  if (!w || !(w->dir = strdup(dir))) {
    free(w);
    return;
  }
  w->svc = svc;
  w->keep = true;
  uv_fs_event_init(svc->server->loop, &w->h);
  w->h.data = svc;
  svc->open_handles++;
  if (uv_fs_event_start(&w->h, on_fs_event, w->dir, 0) != 0) {
    upk_debug("skills: cannot watch %s", w->dir);
    uv_close((uv_handle_t *)&w->h, on_handle_closed);
    return;
  }
  w->next = svc->watches;
  svc->watches = w;
  json_object_set_new_nocheck(svc->by_dir, w->dir, json_integer((json_int_t)(intptr_t)w));
  if (recheck)
    note_changed(svc, w->dir);
}

static void item_free(item *it);

/* Up to `max` more directories of the set being applied; the last slice closes the watches not
 * in a whole set and frees the item. */
static void apply_slice(upk_skills_svc *svc, size_t max) {
  item *it = svc->applying;
  size_t end = it->n_watch - svc->apply_next > max ? svc->apply_next + max : it->n_watch;
  for (size_t i = svc->apply_next; i < end; i++) {
    watch *w = watch_of(svc, it->watch_dirs[i]);
    if (w)
      w->keep = true;
    else
      start_watch(svc, it->watch_dirs[i], svc->apply_recheck);
  }
  svc->apply_next = end;
  if (end < it->n_watch)
    return;
  svc->applying = NULL;
  uv_idle_stop(&svc->apply_idle);
  if (!it->additive)
    for (watch **pp = &svc->watches; *pp;) { /* drop directories no longer of interest */
      watch *w = *pp;
      if (w->keep) {
        pp = &w->next;
        continue;
      }
      *pp = w->next;
      json_object_del(svc->by_dir, w->dir);
      uv_close((uv_handle_t *)&w->h, on_handle_closed);
    }
  item_free(it);
}

static void on_apply_idle(uv_idle_t *h) {
  apply_slice(h->data, WATCH_SLICE);
}

/* The queue's watch set, applied on the loop: the whole set (watches not in it are closed), or
 * directories to add (it->additive). Takes the item. By directory, hashed: a list walk per
 * directory was quadratic, seconds on the loop for a collection of 10,000 skills. A slice of
 * WATCH_SLICE per loop turn: 40,000 inotify watches take ~90 ms, and the first lookup's answer,
 * ready meanwhile, waited for all of them (a fifth of a restart). A change in a directory
 * before its watch starts is missed, as it was between the walk and the watches before. */
static void apply_watch_set(upk_skills_svc *svc, item *it) {
  if (svc->applying) /* a set still being applied: finish it, this one follows it */
    apply_slice(svc, SIZE_MAX);
  /* A directory watched from now on may have changed since the queue looked at it:
   * after the first set, each new watch is followed by one refresh of its directory. */
  svc->apply_recheck = svc->watches != NULL;
  if (!it->additive)
    for (watch *w = svc->watches; w; w = w->next)
      w->keep = false;
  svc->applying = it;
  svc->apply_next = 0;
  apply_slice(svc, WATCH_SLICE);
  if (svc->applying)
    uv_idle_start(&svc->apply_idle, on_apply_idle);
}

static void item_free(item *it) {
  for (size_t i = 0; i < it->n_watch; i++)
    free(it->watch_dirs[i]);
  free(it->watch_dirs);
  json_decref(it->seen);
  json_decref(it->paths);
  json_decref(it->truncated);
  free(it);
}

static int submit(upk_skills_svc *svc, item *it);

/* Say, where people look, that a root was cut at the directory limit. */
static void note_truncated(upk_skills_svc *svc, json_t *roots) {
  size_t i;
  json_t *v;
  json_array_foreach(roots, i, v) {
    upk_warn("skills: %s has more than %d directories; the rest are not indexed (raise "
             "initializationOptions.skills.maxDirs if this root really is that large)",
             json_string_value(v), svc->max_dirs > 0 ? svc->max_dirs : UPK_INDEX_MAX_DIRS);
  }
  json_decref(svc->truncated);
  svc->truncated = json_incref(roots);
}

/* Loop side of a service item: copy its state; queue the next batch of the first scan. */
static void service_item_done(upk_skills_svc *svc, item *it) {
  if (it->work)
    return;
  svc->scanning = it->scanning;
  svc->scan_done = it->done_n;
  svc->scan_total = it->total;
  svc->indexed = it->indexed;
  svc->refreshes += it->paths != NULL;
  svc->rescans += it->rescanned;
  if (it->truncated)
    note_truncated(svc, it->truncated);
  if (it->scanning && !svc->closing && (it->step || !it->paths)) {
    item *next = calloc(1, sizeof *next);
    if (next) {
      next->step = true;
      submit(svc, next);
    }
  }
}

/* Queue the next merge step while there is work and nobody is closing; say when a merge ends. */
static void queue_tidy(upk_skills_svc *svc, bool more) {
  if (!svc->tidying) {
    svc->tidy_steps = 0;
    svc->tidy_t0 = uv_hrtime();
  } else if (!more)
    upk_info("skills: index merged in %u step(s) of %d pages, %.1f ms", svc->tidy_steps,
             TIDY_PAGES, (double)(uv_hrtime() - svc->tidy_t0) / 1e6);
  item *next = more && !svc->closing ? calloc(1, sizeof *next) : NULL;
  if (next)
    next->tidy = true;
  svc->tidying = next && submit(svc, next) == 0; /* submit frees it on failure */
  svc->tidy_steps += svc->tidying;
}

static void service_done(void *arg, int status) {
  item *it = arg;
  upk_skills_svc *svc = it->svc;
  if (it->done)
    it->done(it->arg, status);
  else if (it->tidy)
    queue_tidy(svc, status == 0 && it->more);
  else if (status == 0 && !svc->closing) {
    if (it->tidy_next && !svc->tidying)
      queue_tidy(svc, true);
    if (it->watch_only) {
      apply_watch_set(svc, it);
      it = NULL; /* the watch set's now */
    } else {
      service_item_done(svc, it);
      if (it->additive) {
        apply_watch_set(svc, it);
        it = NULL;
      } else if (it->watch_next) {
        item *next = calloc(1, sizeof *next);
        if (next) {
          next->watch_only = true;
          submit(svc, next);
        }
      }
    }
  }
  if (it)
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
  svc->by_dir = json_object();
  upk_serial_init(&svc->queue, s->loop);
  uv_timer_init(s->loop, &svc->debounce);
  svc->debounce.data = svc;
  uv_idle_init(s->loop, &svc->apply_idle);
  svc->apply_idle.data = svc;
  svc->open_handles = 2;
  json_t *opts = json_object_get(s->init_options, "skills");
  build_roots(svc, s->workspace, json_object_get(opts, "extraDirs"));
  const char *env = getenv("UPSKILLD_MAX_DIRS");
  svc->max_dirs = json_is_integer(json_object_get(opts, "maxDirs"))
                      ? (int)json_integer_value(json_object_get(opts, "maxDirs"))
                  : env ? atoi(env)
                        : 0;
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
  if (ix && upk_index_refresh(ix, path, NULL) <= 0 && !upk_index_scanning(ix, NULL, NULL))
    upk_index_scan(ix, NULL, NULL);
}

json_t *upk_skills_status(upk_server *s) {
  upk_skills_svc *svc = s->skills;
  if (!svc)
    return json_null();
  json_t *j = json_pack(
      "{s:I,s:b,s:b,s:I,s:o,s:I,s:I}", "indexed", (json_int_t)svc->indexed, "scanning",
      svc->scanning, "merging", svc->tidying,
      "maxDirs", (json_int_t)(svc->max_dirs > 0 ? svc->max_dirs : UPK_INDEX_MAX_DIRS),
      "truncatedRoots", svc->truncated ? json_incref(svc->truncated) : json_array(), "refreshes",
      (json_int_t)svc->refreshes, "rescans", (json_int_t)svc->rescans);
  if (svc->scanning)
    json_object_set_new(j, "indexing",
                        json_pack("{s:I,s:I}", "done", (json_int_t)svc->scan_done, "total",
                                  (json_int_t)svc->scan_total));
  return j;
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
  json_decref(svc->by_dir);
  json_decref(svc->truncated);
  free(svc->index_db);
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
  uv_close((uv_handle_t *)&svc->apply_idle, on_handle_closed);
  if (svc->applying) {
    item_free(svc->applying);
    svc->applying = NULL;
  }
  while (svc->watches) {
    watch *w = svc->watches;
    svc->watches = w->next;
    uv_close((uv_handle_t *)&w->h, on_handle_closed);
  }
}

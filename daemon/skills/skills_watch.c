/* The skill service's watches (skills_service_int.h): which directories are watched, computed on
 * the index queue after a scan or refresh, applied on the loop a slice per turn; changes seen
 * there are debounced into refreshes. */
#include "daemon/skills/skills_service_int.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/log.h"
#include "common/xalloc.h"

/* ---- the watch set, computed on the queue thread ---- */

UPK_MAP_TYPED(dir_set, char)
UPK_MAP_TYPED(watch_map, watch)

watch_set *upk__watch_set_new(bool additive) {
  watch_set *set = upk_xcalloc(1, sizeof *set);
  set->additive = additive;
  return set;
}

void upk__watch_set_free(watch_set *set) {
  if (!set)
    return;
  for (size_t i = 0; i < set->n; i++)
    free(set->dirs[i]);
  free(set->dirs);
  upk_map_clear(&set->seen);
  free(set);
}

/* Each directory once; a set keeps that linear with thousands of skills. */
static void push_dir(watch_set *set, const char *dir) {
  if (dir_set_get(&set->seen, dir))
    return;
  UPK_GROW(set->dirs, set->cap, set->n + 1);
  char *copy = upk_xstrdup(dir);
  set->dirs[set->n++] = copy;
  dir_set_set(&set->seen, copy, copy);
}

static void push_dir_cb(const char *dir, void *set) {
  push_dir(set, dir);
}

/* A missing root is watched through its nearest existing ancestor, so that
 * creating `.claude/skills` is noticed too. */
static void watch_root(watch_set *set, const char *root) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", root);
  struct stat st;
  while (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
      return;
    *slash = '\0';
  }
  push_dir(set, dir);
}

/* A root's subdirectories are watched too, with or without a SKILL.md yet:
 * `mkdir x && write x/SKILL.md` shows the root only the mkdir, and the file
 * must still be noticed when it lands a moment later. */
static void watch_children(watch_set *set, const char *root) {
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
      push_dir(set, dir);
  }
  if (d)
    closedir(d);
}

bool upk__watch_compute(upk_skills_svc *svc, watch_set *set, int64_t *cursor, upk_index *ix) {
  if (!*cursor)
    for (size_t i = 0; i < svc->n_roots; i++) {
      watch_root(set, svc->roots[i].dir);
      watch_children(set, svc->roots[i].dir);
    }
  /* directories only: building 60,000 entries to read one field cost seconds */
  return ix && upk_index_each_dir(ix, cursor, svc->watch_page, push_dir_cb, set) == 1;
}

/* After a refresh that rescanned nothing, only the refreshed directories can need a new
 * watch (a skill directory just created): the whole set, 60,000 directories read back from
 * the index and compared on the loop, kept the queue busy ~300 ms after each change in a
 * registry, and lookups waited. Removed directories' watches end with them (inotify drops a
 * deleted directory); the next full set, after a scan, tidies the list. */
void upk__watch_add_refreshed(watch_set *set, const char *const *paths, size_t n) {
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
      push_dir(set, dir);
  }
}

/* ---- on the loop ---- */

static void on_debounce(uv_timer_t *t) {
  upk__skills_schedule_refresh(t->data);
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

static void start_watch(upk_skills_svc *svc, const char *dir, bool recheck) {
  watch *w = upk_xcalloc(1, sizeof *w);
  w->dir = upk_xstrdup(dir);
  w->svc = svc;
  w->keep = true;
  uv_fs_event_init(upk_session_loop(svc->server), &w->h);
  w->h.data = svc;
  svc->open_handles++;
  if (uv_fs_event_start(&w->h, on_fs_event, w->dir, 0) != 0) {
    upk_debug("skills: cannot watch %s", w->dir);
    uv_close((uv_handle_t *)&w->h, upk__skills_on_closed);
    return;
  }
  w->next = svc->watches;
  svc->watches = w;
  watch_map_set(&svc->by_dir, w->dir, w);
  if (recheck)
    note_changed(svc, w->dir);
}

/* Up to `max` more directories of the set being applied, for at most WATCH_SLICE_NS unless
 * the whole set is asked for; the last slice closes the watches not in a whole set and frees
 * the set. */
static void apply_slice(upk_skills_svc *svc, size_t max) {
  watch_set *set = svc->applying;
  size_t end = set->n - svc->apply_next > max ? svc->apply_next + max : set->n;
  uint64_t until = max == SIZE_MAX ? UINT64_MAX : uv_hrtime() + WATCH_SLICE_NS;
  for (size_t i = svc->apply_next; i < end; i++) {
    watch *w = watch_map_get(&svc->by_dir, set->dirs[i]);
    if (w)
      w->keep = true;
    else
      start_watch(svc, set->dirs[i], svc->apply_recheck);
    if (i % 16 == 15 && uv_hrtime() > until)
      end = i + 1;
  }
  svc->apply_next = end;
  if (end < set->n)
    return;
  svc->applying = NULL;
  uv_idle_stop(&svc->apply_idle);
  if (!set->additive && !svc->apply_recheck) /* the first set */
    upk__skills_catch_up(svc);
  if (!set->additive)
    for (watch **pp = &svc->watches; *pp;) { /* drop directories no longer of interest */
      watch *w = *pp;
      if (w->keep) {
        pp = &w->next;
        continue;
      }
      *pp = w->next;
      watch_map_remove(&svc->by_dir, w->dir);
      uv_close((uv_handle_t *)&w->h, upk__skills_on_closed);
    }
  upk__watch_set_free(set);
}

static void on_apply_idle(uv_idle_t *h) {
  apply_slice(h->data, WATCH_SLICE);
}

/* The queue's watch set, applied on the loop: the whole set (watches not in it are closed), or
 * directories to add (set->additive). Takes the set. By directory, hashed: a list walk per
 * directory was quadratic, seconds on the loop for a collection of 10,000 skills. A slice of
 * WATCH_SLICE per loop turn: 40,000 inotify watches take ~90 ms, and the first lookup's answer,
 * ready meanwhile, waited for all of them (a fifth of a restart). A change in a directory
 * before its watch starts is missed, as it was between the walk and the watches before. */
void upk__watch_apply(upk_skills_svc *svc, watch_set *set) {
  if (svc->applying) /* a set still being applied: finish it, this one follows it */
    apply_slice(svc, SIZE_MAX);
  /* A directory watched from now on may have changed since the queue looked at it:
   * after the first set, each new watch is followed by one refresh of its directory. */
  svc->apply_recheck = svc->watches != NULL;
  if (!set->additive)
    for (watch *w = svc->watches; w; w = w->next)
      w->keep = false;
  svc->applying = set;
  svc->apply_next = 0;
  apply_slice(svc, WATCH_SLICE);
  if (svc->applying)
    uv_idle_start(&svc->apply_idle, on_apply_idle);
}

#include "daemon/skills/skills_service_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "common/log.h"
#include "common/env_options.h"
#include "common/fault.h"
#include "models/config.h"
#include "common/xalloc.h"

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
  upk_index_options opt = {
      .db_path = db, .max_dirs = svc->max_dirs, .project_dir = upk_session_workspace(svc->server)};
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
  upk__skills_repair_roots(svc);
  svc->index_db = upk_env_opts()->index
                      ? upk_xstrdup(upk_env_opts()->index)
                      : upk_index_default_path(upk_session_workspace(svc->server));
  char why[sizeof svc->open_error];
  int rc = open_begin_at(svc, svc->index_db, why, sizeof why);
  if (rc < 0 && svc->index_db) {
    free(svc->index_db);
    svc->index_db = NULL;
    fall_back_to_memory(svc, why);
  } else if (rc < 0)
    snprintf(svc->open_error, sizeof svc->open_error, "%s", why);
}

/* Whether a scan that parsed `parsed` skills leaves the full-text index worth merging: the first
 * index writes with FTS5's own merging off (and a session may have stopped before its merge
 * ended); after a few changes its merging as it writes is enough, and a whole merge after one
 * skill edited while the daemon was down rewrote every segment of a 60,000-skill index,
 * seconds of a core taken from lookups. */
static bool worth_merging(upk_skills_svc *svc, size_t parsed) {
  return upk_index_merge_pending(svc->index) ||
         (parsed > 0 && parsed * 20 >= (size_t)upk_index_count(svc->index));
}

/* One batch of the first scan; when it completes, what it found is logged. A batch that
 * cannot write the index file (a disk that filled up) moves the index to memory. */
static void scan_batch(scan_result *out, upk_skills_svc *svc) {
  upk_index_stats st;
  /* No diagnostics: nobody reads them here, and the last step's shadowing report (every
   * shadowed placement, 48,000 in a registry of 60,000) was a fifth of a restart. */
  int rc = upk_index_scan_step(svc->index, svc->scan_batch, &st, NULL);
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
    upk_info("skills: %zu found (%zu parsed, %zu unchanged%s) in %.1f ms", st.skills, st.parsed,
             st.unchanged, st.same_tree ? ", the tree as last indexed" : "", st.ms);
    out->merge = worth_merging(svc, st.parsed);
    out->fill = upk_index_fill_pending(svc->index);
    out->truncated = truncated_roots(svc->index);
    /* the scan's list of directories (MBs for a registry) is freed: give it back, and a small
     * page cache when nothing follows (a large one once the session goes quiet: release_due) */
    upk_index_release_memory(svc->index,
                             !out->merge && !out->fill && upk_index_cache_small(svc->index));
  }
}

/* One page of the watch set; the last one logs how long the listing took in all. */
static void list_watch_set(item *it, upk_skills_svc *svc) {
  uint64_t t0 = uv_hrtime();
  it->u.list.more = upk__watch_compute(svc, it->u.list.set, &it->u.list.cursor, svc->index);
  it->u.list.ns += uv_hrtime() - t0;
  if (!it->u.list.more)
    upk_debug("skills: %zu directories to watch, listed in %.1f ms", it->u.list.set->n,
              (double)it->u.list.ns / 1e6);
}

/* One full scan once the first watch set is in place (upk__skills_catch_up). */
static void catch_up(scan_result *out, upk_skills_svc *svc) {
  if (!svc->index || upk_index_scanning(svc->index, NULL, NULL))
    return;
  upk_fault("skills.catch_up"); /* tests: `sleepMS` makes it a long one */
  upk_index_stats st = {0};
  int rc = upk_index_scan(svc->index, &st, NULL);
  if (rc == 0 && st.parsed + st.removed)
    upk_info("skills: %zu changed while the watches were set (%zu parsed, %zu removed)",
             st.parsed + st.removed, st.parsed, st.removed);
  upk_debug("skills: looked again once watched in %.1f ms%s", st.ms,
            rc             ? ": failed"
            : st.same_tree ? ", the tree as last indexed"
                           : "");
  out->merge = worth_merging(svc, st.parsed);
  out->fill = upk_index_fill_pending(svc->index);
  if (st.same_tree) /* nothing new to watch: no second listing */
    out->watch = WATCH_ADD;
}

/* Refresh the changed paths; a path above every root (a root appeared or vanished) rescans. */
static void refresh(scan_result *out, upk_skills_svc *svc, json_t *changed) {
  if (!svc->index)
    return;
  const char *path, **paths = upk_xcalloc(json_object_size(changed) + 1, sizeof *paths);
  json_t *v;
  size_t n = 0;
  uint64_t t0 = uv_hrtime();
  json_object_foreach(changed, path, v) {
    paths[n++] = path;
  }
  bool rescan = upk_index_refresh_many(svc->index, paths, n, NULL) != 0;
  upk_index_stats st = {0};
  if (rescan && !upk_index_scanning(svc->index, NULL, NULL))
    upk_index_scan(svc->index, &st, NULL);
  if (!rescan) { /* only the refreshed directories can need a new watch */
    out->add = upk__watch_set_new(true);
    upk__watch_add_refreshed(out->add, paths, n);
    out->watch = WATCH_ADD;
  }
  out->rescanned = rescan;
  out->merge = worth_merging(svc, st.parsed);
  out->fill = upk_index_fill_pending(svc->index);
  upk_debug("skills: refreshed %zu path(s) (%s%s) in %.2f ms%s", n, n ? paths[0] : "",
            n > 1 ? ", ..." : "", (double)(uv_hrtime() - t0) / 1e6,
            rescan ? " (with a rescan)" : "");
  free(paths);
}

/* The scan kinds (open, scan step, catch-up, refresh) on the queue: the work, then the state the
 * loop copies and what it queues next. */
static void scan_work(item *it, upk_skills_svc *svc) {
  scan_result *out = &it->u.scan.out;
  out->watch = WATCH_KEEP;
  switch (it->kind) {
  case ITEM_SCAN_STEP:
    if (svc->index && upk_index_scanning(svc->index, NULL, NULL))
      scan_batch(out, svc);
    break;
  case ITEM_CATCH_UP:
    catch_up(out, svc);
    break;
  case ITEM_REFRESH:
    refresh(out, svc, it->u.scan.paths);
    break;
  case ITEM_OPEN: /* opening is all (service_work) */
  case ITEM_WORK:
  case ITEM_TIDY:
  case ITEM_WATCH_LIST:
    break;
  }
  out->scanning = upk_index_scanning(svc->index, &out->done_n, &out->total);
  out->indexed = svc->index ? upk_index_count(svc->index) : 0;
  /* a refresh during the first scan leaves the batches to the scan's own items */
  out->scan_more = out->scanning && it->kind != ITEM_REFRESH;
  /* Listing the watch set reads every skill directory back (190 ms at 60,000 skills): in an
   * item of its own, so that lookups queued meanwhile answer first. */
  if (out->watch == WATCH_KEEP && !out->scanning)
    out->watch = WATCH_LIST;
}

/* The listing's stamp as this item leaves the index (upk_skills_listing_lane): a read of a
 * counter and of PRAGMA data_version, a few microseconds. */
static void read_stamp(item *it, upk_skills_svc *svc) {
  it->steady = it->listing && svc->index && !upk_index_scanning(svc->index, NULL, NULL) &&
               upk_index_stamp(svc->index, &it->stamp) == 0;
  it->count = it->steady ? upk_index_count(svc->index) : 0;
}

/* A merge step while the merge has work, then the posting store's fill steps: each a few
 * milliseconds, so a lookup queued behind one waits little. */
static void tidy_step(item *it, upk_skills_svc *svc) {
  bool more = false;
  if (svc->index && it->u.tidy.merge)
    more = upk_index_tidy(svc->index, svc->tidy_pages) == 1;
  it->u.tidy.merged = it->u.tidy.merge && !more;
  if (svc->index && !more && upk_index_fill_pending(svc->index)) {
    int rc = upk_index_fill(svc->index);
    size_t lists, rows, bytes;
    upk_index_fill_size(svc->index, &lists, &rows, &bytes);
    more = rc == 1;
    if (rc < 0) /* lookups walk FTS5 instead, as before the store */
      upk_warn("skills: posting store: %s", upk_index_errmsg(svc->index));
    else if (!more)
      upk_info("skills: posting store filled: %zu word lists, %zu rows, %.1f MiB", lists, rows,
               (double)bytes / (1 << 20));
  }
  it->u.tidy.more = more;
  if (svc->index && !more) /* merged and filled: idle until the next change or request */
    upk_index_release_memory(svc->index, upk_index_cache_small(svc->index));
}

static void service_work(void *arg) {
  item *it = arg;
  upk_skills_svc *svc = it->svc;
  if (!svc->index && !svc->open_error[0])
    open_and_begin(svc);
  switch (it->kind) {
  case ITEM_WORK:
    it->u.work.work(svc->index, it->u.work.arg);
    break;
  case ITEM_TIDY:
    tidy_step(it, svc);
    break;
  case ITEM_WATCH_LIST:
    list_watch_set(it, svc);
    break;
  case ITEM_OPEN:
  case ITEM_SCAN_STEP:
  case ITEM_CATCH_UP:
  case ITEM_REFRESH:
    scan_work(it, svc);
    break;
  }
  read_stamp(it, svc);
}

/* ---- on the loop ---- */

static void svc_maybe_free(upk_skills_svc *svc);

void upk__skills_on_closed(uv_handle_t *h) {
  upk_skills_svc *svc = h->data;
  if (h->type == UV_FS_EVENT) {
    watch *w = (watch *)h;
    free(w->dir);
    free(w);
  }
  svc->open_handles--;
  svc_maybe_free(svc);
}

static void item_free(item *it) {
  switch (it->kind) {
  case ITEM_WATCH_LIST:
    upk__watch_set_free(it->u.list.set);
    break;
  case ITEM_OPEN:
  case ITEM_SCAN_STEP:
  case ITEM_CATCH_UP:
  case ITEM_REFRESH:
    json_decref(it->u.scan.paths);
    upk__watch_set_free(it->u.scan.out.add);
    json_decref(it->u.scan.out.truncated);
    break;
  case ITEM_WORK:
  case ITEM_TIDY:
    break;
  }
  free(it);
}

static int submit(upk_skills_svc *svc, item *it);

/* A new item of `kind` with an empty payload. */
static item *item_new(item_kind kind) {
  item *it = upk_xcalloc(1, sizeof *it);
  it->kind = kind;
  if (kind == ITEM_WATCH_LIST)
    it->u.list.set = upk__watch_set_new(false);
  return it;
}

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

static bool held(const upk_skills_svc *svc);
static void hold_start(upk_skills_svc *svc);

/* Queue the next merge step while there is work and nobody is closing; say when a merge ends. */
static void queue_tidy(upk_skills_svc *svc, bool more) {
  if (more && !svc->closing && held(svc)) { /* the next step once the hold ends */
    svc->held_tidy = true;
    return;
  }
  if (!svc->tidying) {
    svc->tidy_steps = 0;
    svc->tidy_t0 = uv_hrtime();
  }
  item *next = more && !svc->closing ? item_new(ITEM_TIDY) : NULL;
  if (next)
    next->u.tidy.merge = svc->tidy_merge;
  svc->tidying = next && submit(svc, next) == 0; /* submit frees it on failure */
  svc->tidy_steps += svc->tidying;
}

/* Loop side of a scan kind: merge what it wrote, copy its state, queue the first scan's next
 * batch, then the watch set's next step. */
static void scan_done(upk_skills_svc *svc, item *it) {
  scan_result *out = &it->u.scan.out;
  svc->first_done |= !out->scanning;
  if (!out->scanning && svc->walk_waiting) { /* a walk's first page runs next: hold for it */
    svc->walk_waiting = false;
    hold_start(svc);
  }
  svc->tidy_merge |= out->merge;
  if ((out->merge || out->fill) && !svc->tidying)
    queue_tidy(svc, true);
  svc->scanning = out->scanning;
  svc->scan_done = out->done_n;
  svc->scan_total = out->total;
  svc->indexed = out->indexed;
  svc->refreshes += it->kind == ITEM_REFRESH;
  svc->rescans += out->rescanned;
  if (out->truncated)
    note_truncated(svc, out->truncated);
  if (out->scan_more)
    submit(svc, item_new(ITEM_SCAN_STEP));
  switch (out->watch) {
  case WATCH_ADD: /* a catch-up's is empty: it still ends a set being applied at once */
    upk__watch_apply(svc, out->add ? out->add : upk__watch_set_new(true));
    out->add = NULL;
    break;
  case WATCH_LIST:
    if (held(svc) && !svc->held_list)
      svc->held_list = item_new(ITEM_WATCH_LIST);
    else
      submit(svc, item_new(ITEM_WATCH_LIST));
    break;
  case WATCH_KEEP:
    break;
  }
}

/* Loop side of a watch set's page: the next page, after what was queued meanwhile, or the
 * whole set applied. Takes the item. */
static void list_done(upk_skills_svc *svc, item *it) {
  if (it->u.list.more && held(svc) && !svc->held_list) {
    svc->held_list = it;
    return;
  }
  if (it->u.list.more) {
    submit(svc, it);
    return;
  }
  upk__watch_apply(svc, it->u.list.set);
  it->u.list.set = NULL;
  item_free(it);
}

/* SQLite's page cache holds the pages lookups read (32 MiB at most). Handed back at once after a
 * first index, the lookups that followed read them all again (10,000 skills: p50 0.79 -> 0.90
 * ms, 29 page faults each). So a large one is kept until no skills work came for
 * UPSKILLD_IDLE_RELEASE_MS (30 s), then handed back; a small one at once (tidy_step). */
static void release_work(upk_index *ix, void *arg) {
  if (ix)
    upk_index_release_memory(ix, true);
}

static void release_due(uv_timer_t *t) {
  upk_skills_svc *svc = t->data;
  item *it = item_new(ITEM_WORK);
  it->u.work.work = release_work;
  submit(svc, it);
}

static void service_done(void *arg, int status) {
  item *it = arg;
  upk_skills_svc *svc = it->svc;
  if (status == 0 && !svc->closing && (it->kind != ITEM_WORK || it->u.work.work != release_work))
    uv_timer_start(&svc->release_timer, release_due, (uint64_t)upk_env_opts()->idle_release_ms, 0);
  bool live = status == 0 && !svc->closing;
  svc->lane_steady = status == 0 && it->steady;
  svc->lane_stamp = it->stamp;
  svc->lane_count = it->count;
  switch (it->kind) {
  case ITEM_WORK:
    if (it->u.work.done)
      it->u.work.done(it->u.work.arg, status);
    break;
  case ITEM_TIDY:
    if (it->u.tidy.merged && svc->tidy_merge) /* the posting store's fill steps follow */
      upk_info("skills: index merged in %u step(s) of %d pages, %.1f ms", svc->tidy_steps,
               svc->tidy_pages, (double)(uv_hrtime() - svc->tidy_t0) / 1e6);
    if (it->u.tidy.merged)
      svc->tidy_merge = false;
    queue_tidy(svc, status == 0 && it->u.tidy.more);
    break;
  case ITEM_WATCH_LIST:
    if (live) {
      list_done(svc, it);
      it = NULL;
    }
    break;
  case ITEM_OPEN:
  case ITEM_SCAN_STEP:
  case ITEM_CATCH_UP:
  case ITEM_REFRESH:
    if (live)
      scan_done(svc, it);
    break;
  }
  if (it)
    item_free(it);
  svc_maybe_free(svc);
}

static int submit(upk_skills_svc *svc, item *it) {
  it->svc = svc;
  it->listing = svc->listing;
  int rc = upk_serial_submit(&svc->queue, service_work, service_done, it);
  if (rc)
    item_free(it);
  return rc;
}

void upk__skills_catch_up(upk_skills_svc *svc) {
  if (held(svc))
    svc->held_catch_up = true;
  else if (!svc->closing)
    submit(svc, item_new(ITEM_CATCH_UP));
}

/* ---- a walk of the MCP Skills listing holds the settling work back ---- */

/* Once the first index is written, the watch set's listing, the catch-up scan and the merge
 * steps hold the queue 15 ms to 0.7 s each at 40,000 skills, and a listing page queued behind
 * one waited as long. While a host walks the listing they wait: until HOLD_MS after its last
 * page arrived, never longer than HOLD_MAX_MS in a row (a host walking without end delays
 * them, never stops them). Lookups are not held back: they are rarer than a walk's pages. */
#define HOLD_MS 1000
#define HOLD_MAX_MS 30000

static bool held(const upk_skills_svc *svc) {
  return svc->hold_until && uv_hrtime() < svc->hold_until;
}

static void hold_over(uv_timer_t *t) {
  upk_skills_svc *svc = t->data;
  uint64_t now = uv_hrtime();
  if (svc->hold_until > now) { /* extended since the timer was set */
    uv_timer_start(t, hold_over, (svc->hold_until - now) / 1000000u + 1, 0);
    return;
  }
  svc->hold_until = 0;
  if (svc->closing)
    return;
  item *list = svc->held_list;
  svc->held_list = NULL;
  if (list)
    submit(svc, list);
  if (svc->held_catch_up) {
    svc->held_catch_up = false;
    upk__skills_catch_up(svc);
  }
  if (svc->held_tidy) {
    svc->held_tidy = false;
    queue_tidy(svc, true);
  }
}

void upk_skills_hold(upk_server *s) {
  upk_skills_svc *svc = upk_session_services(s)->skills;
  if (!svc || svc->closing)
    return;
  svc->walk_waiting |= !svc->first_done; /* the page waits for the first index */
  svc->listing = true;
  hold_start(svc);
}

/* Why the loop may answer a kept page itself: the queue's items run one at a time, and the
 * state the last one left is the state the one running now began with. A page answered from
 * it is the page as if it had been asked just before that item: the item's own effects are
 * not reported to anyone before its `done` (on this loop, which then updates the copy). When
 * the queue is idle the page goes there as before: what another process committed to the index
 * file meanwhile (PRAGMA data_version) is seen then. */
bool upk_skills_listing_lane(upk_server *s, uint64_t *stamp, long *count) {
  upk_skills_svc *svc = upk_session_services(s)->skills;
  if (!svc || svc->closing || !svc->lane_steady || !upk_serial_busy(&svc->queue))
    return false;
  *stamp = svc->lane_stamp;
  *count = svc->lane_count;
  return true;
}

static void hold_start(upk_skills_svc *svc) {
  uint64_t now = uv_hrtime(), ms = 1000000u;
  if (!held(svc))
    svc->hold_t0 = now;
  uint64_t until = now + HOLD_MS * ms, cap = svc->hold_t0 + HOLD_MAX_MS * ms;
  svc->hold_until = until < cap ? until : cap;
  if (svc->hold_until > now)
    uv_timer_start(&svc->hold_timer, hold_over, (svc->hold_until - now) / ms + 1, 0);
}

void upk__skills_schedule_refresh(upk_skills_svc *svc) {
  item *it = item_new(ITEM_REFRESH);
  it->u.scan.paths = svc->pending;
  svc->pending = json_object();
  submit(svc, it);
}

/* ---- lifecycle ---- */

int upk_skills_start(upk_server *s) {
  upk_skills_svc *svc = upk_xcalloc(1, sizeof *svc);
  svc->server = s;
  svc->pending = json_object();
  upk_serial_init(&svc->queue, upk_session_loop(s), upk_session_defer(s));
  uv_timer_init(upk_session_loop(s), &svc->debounce);
  svc->debounce.data = svc;
  uv_idle_init(upk_session_loop(s), &svc->apply_idle);
  svc->apply_idle.data = svc;
  uv_timer_init(upk_session_loop(s), &svc->hold_timer);
  svc->hold_timer.data = svc;
  uv_timer_init(upk_session_loop(s), &svc->release_timer);
  uv_unref((uv_handle_t *)&svc->release_timer); /* keeps no loop running on its own */
  svc->release_timer.data = svc;
  svc->open_handles = 5; /* and the queue's */
  json_t *opts = json_object_get(upk_session_init_options(s), "skills");
  /* skills.extraDirs: the user's config.yaml's, then initializationOptions' (upskillctl
   * --extra-dir) */
  json_t *extra = upk_config_user_list(upk_session_init_options(s), "skills", "extraDirs");
  upk__skills_build_roots(svc, upk_session_workspace(s), extra);
  json_decref(extra);
  svc->max_dirs = json_is_integer(json_object_get(opts, "maxDirs"))
                      ? (int)json_integer_value(json_object_get(opts, "maxDirs"))
                      : upk_env_opts()->max_dirs;
  svc->scan_batch = (size_t)upk_env_opts()->scan_batch;
  svc->watch_page = (size_t)upk_env_opts()->watch_page;
  svc->tidy_pages = upk_env_opts()->tidy_pages;
  upk_session_services(s)->skills = svc;
  return submit(svc, item_new(ITEM_OPEN)); /* open, scan, then start watching */
}

int upk_skills_submit(upk_server *s, upk_skills_work work, upk_serial_done done, void *arg) {
  if (!upk_session_services(s)->skills)
    return UV_ECANCELED;
  item *it = item_new(ITEM_WORK);
  it->u.work.work = work;
  it->u.work.done = done;
  it->u.work.arg = arg;
  return submit(upk_session_services(s)->skills, it);
}

const char *upk_skills_open_error(upk_server *s) {
  return upk_session_services(s)->skills ? upk_session_services(s)->skills->open_error
                                         : "skills are not started";
}

void upk_skills_touch(upk_server *s, upk_index *ix, const char *path) {
  if (ix && upk_index_refresh(ix, path, NULL) <= 0 && !upk_index_scanning(ix, NULL, NULL))
    upk_index_scan(ix, NULL, NULL);
}

json_t *upk_skills_status(upk_server *s) {
  upk_skills_svc *svc = upk_session_services(s)->skills;
  if (!svc)
    return json_null();
  json_t *j =
      json_pack("{s:I,s:b,s:b,s:b,s:I,s:o,s:I,s:I}", "indexed", (json_int_t)svc->indexed,
                "scanning", svc->scanning, "merging", svc->tidying && svc->tidy_merge, "filling",
                svc->tidying && !svc->tidy_merge, "maxDirs",
                (json_int_t)(svc->max_dirs > 0 ? svc->max_dirs : UPK_INDEX_MAX_DIRS),
                "truncatedRoots", svc->truncated ? json_incref(svc->truncated) : json_array(),
                "refreshes", (json_int_t)svc->refreshes, "rescans", (json_int_t)svc->rescans);
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
  upk_map_clear(&svc->by_dir);
  json_decref(svc->truncated);
  free(svc->index_db);
  upk_session_services(svc->server)->skills = NULL;
  free(svc);
}

void upk_skills_stop(upk_server *s) {
  upk_skills_svc *svc = upk_session_services(s)->skills;
  if (!svc || svc->closing)
    return;
  svc->closing = true;
  upk_serial_close(&svc->queue, upk__skills_on_closed, svc);
  uv_close((uv_handle_t *)&svc->debounce, upk__skills_on_closed);
  uv_close((uv_handle_t *)&svc->apply_idle, upk__skills_on_closed);
  uv_close((uv_handle_t *)&svc->hold_timer, upk__skills_on_closed);
  uv_close((uv_handle_t *)&svc->release_timer, upk__skills_on_closed);
  if (svc->held_list) {
    item_free(svc->held_list);
    svc->held_list = NULL;
  }
  if (svc->applying) {
    upk__watch_set_free(svc->applying);
    svc->applying = NULL;
  }
  while (svc->watches) {
    watch *w = svc->watches;
    svc->watches = w->next;
    uv_close((uv_handle_t *)&w->h, upk__skills_on_closed);
  }
}

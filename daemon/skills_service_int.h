/* The skill service's insides, shared by skills_service.c (index queue, scans, lifecycle) and
 * skills_watch.c (the watch set and change events). */
#ifndef UPK_SKILLS_SERVICE_INT_H
#define UPK_SKILLS_SERVICE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/skills_service.h"

#define DEBOUNCE_MS 40 /* a burst of changes is refreshed at once after this quiet time */
/* Skills indexed per queue item of the first scan: requests queued meanwhile
 * wait at most one batch (~0.1-0.3 s) and are answered with the progress.
 * UPSKILLD_SCAN_BATCH sets another (tests: several batches from a small tree). */
#define SCAN_BATCH 4000
/* Watches started per loop turn: each is an inotify_add_watch (~8 us on our machines), and a
 * lookup answered meanwhile waits for the turn's slice (2,000 a turn: 17 ms each, for the 30
 * turns that 60,000 skill directories take). */
#define WATCH_SLICE 256
/* Placements read per queue item while the watch set is listed: the whole set, 240,000
 * placements at 60,000 skills, took ~150 ms in one item, and a lookup queued behind it waited
 * for all of it; a page is ~10 ms. UPSKILLD_WATCH_PAGE sets another (tests: many pages). */
#define WATCH_LIST_PAGE 4096
/* Pages per table merged per queue item once a scan is done (upk_index_tidy):
 * ~10-30 ms each, so lookups queued meanwhile wait little. */
#define TIDY_PAGES 200 /* UPSKILLD_TIDY_PAGES sets another (tests: a merge of many steps) */

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
  int open_handles;  /* handles not yet closed; freed at 0 with nothing queued */
  int max_dirs;      /* 0: the library's default */
  size_t scan_batch; /* skill directories per batch of the first scan */
  size_t watch_page; /* placements per item while the watch set is listed */
  int tidy_pages;    /* pages per table per merge step */
  /* Loop-side copies of the scan's state, for upskilld/status. */
  bool scanning;
  size_t scan_done, scan_total;
  long indexed;
  long refreshes, rescans; /* watch-driven work since start, for upskilld/status */
  bool tidying;            /* merge steps queued (upk_index_tidy) */
  unsigned tidy_steps;     /* of the merge under way, and when it began (uv_hrtime) */
  uint64_t tidy_t0;
  json_t *truncated; /* roots cut at the directory limit (array of strings) */
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
  json_t *seen;    /* watch_dirs as a set, while it is computed */
  bool step;       /* a batch of the first scan */
  bool rescanned;  /* a refresh that had to rescan every root */
  bool tidy;       /* one merge step of the full-text index */
  bool tidy_next;  /* a scan was completed: merge what it wrote, step by step */
  bool more;       /* the merge step, or the watch set's listing, left work to do */
  bool additive;   /* watch_dirs are to add to the set, not the whole set */
  bool watch_next; /* a scan ended: the whole watch set is to be listed, in an item of its own */
  bool watch_only; /* that item: list the watch set, nothing else, a page per turn */
  bool catch_up;   /* a full scan once the first watch set is in place (upk__skills_catch_up) */
  int64_t watch_cursor; /* the last placement listed (upk_index_each_dir) */
  uint64_t watch_ns;    /* time spent listing it so far */
  bool scanning;        /* after this item: the first scan is still under way */
  size_t done_n, total;
  long indexed;
  json_t *truncated; /* set when a scan completed */
} item;

/* skills_service.c */
/** Close callback of every handle the service owns; frees a watch, and the service at the last. */
void upk__skills_on_closed(uv_handle_t *h);
/** Queue a refresh of the changed paths noted so far. */
void upk__skills_schedule_refresh(upk_skills_svc *svc);
/** Queue one full scan, once the first watch set is in place: what changed between the first
 * scan's walk and the watch on its directory was seen by nothing (an edit in the seconds a
 * session starts, or during a first index of minutes). On an unchanged tree it is the walk
 * alone (the stored digest). */
void upk__skills_catch_up(upk_skills_svc *svc);
void upk__skills_item_free(item *it);

/* skills_watch.c */
/** On the queue: the next page of the whole watch set (roots and their missing roots'
 * ancestors first, then skill directories). Returns whether more remain (it->watch_cursor). */
bool upk__watch_compute(item *it, upk_index *ix);
/** On the queue, after a refresh that rescanned nothing: only the refreshed paths' directories
 * (it->additive). */
void upk__watch_add_refreshed(item *it, const char *const *paths, size_t n);
/** On the loop: apply the item's set (taking the item), WATCH_SLICE directories per turn. */
void upk__watch_apply(upk_skills_svc *svc, item *it);

#endif

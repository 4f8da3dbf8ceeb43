/* The skill service's insides, shared by skills_service.c (index queue, scans, lifecycle) and
 * skills_watch.c (the watch set and change events). */
#ifndef UPK_SKILLS_SERVICE_INT_H
#define UPK_SKILLS_SERVICE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "common/map.h"
#include "daemon/skills/skills_service.h"

#define DEBOUNCE_MS 40 /* a burst of changes is refreshed at once after this quiet time */
/* The scan batch, the watch-set page and the merge step's pages are tuned by UPSKILLD_SCAN_BATCH,
 * UPSKILLD_WATCH_PAGE and UPSKILLD_TIDY_PAGES; their defaults and the reasons for them are in
 * common/env_options.c's table. */
/* Watches started per loop turn: each is an inotify_add_watch (~8 us on our machines), and a
 * lookup answered meanwhile waits for the turn's slice (2,000 a turn: 17 ms each, for the 30
 * turns that 60,000 skill directories take). */
#define WATCH_SLICE 256
/* ... and at most this long a turn: on a loaded machine a slice of 256 took 14-38 ms, and
 * each page of a listing walk begun meanwhile waited for a slice or two (issue 47). */
#define WATCH_SLICE_NS 2000000u

typedef struct watch {
  uv_fs_event_t h;
  upk_skills_svc *svc;
  char *dir;
  struct watch *next;
  bool keep; /* mark for the resync sweep */
} watch;

/** Directories to watch, computed on the queue and applied on the loop: the whole set (watches
 * not in it are closed), or directories to add to the watches (`additive`). */
typedef struct watch_set {
  char **dirs;
  size_t n, cap;
  upk_map seen; /* dirs as a set (each value is its string in dirs), while it is computed */
  bool additive;
} watch_set;

struct upk_skills_svc {
  upk_server *server;
  upk_serial queue;
  upk_index *index;
  char open_error[512];
  char *index_db; /* the index file in use; NULL: in memory */
  upk_index_root *roots;
  size_t n_roots, cap_roots;
  char **strings; /* owned strings the roots point at */
  size_t n_strings, cap_strings;
  watch *watches;
  upk_map by_dir; /* watches by directory (a set kept with the list: no rebuild per refresh) */
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
  bool tidying;            /* merge steps queued (upk_index_tidy), then fill steps */
  bool tidy_merge;         /* the steps queued merge first (a scan wrote much) */
  unsigned tidy_steps;     /* of the merge under way, and when it began (uv_hrtime) */
  uint64_t tidy_t0;
  json_t *truncated; /* roots cut at the directory limit (array of strings) */
  /* A host walking the MCP Skills listing holds the settling work back (upk_skills_hold). */
  uv_timer_t hold_timer;
  uv_timer_t release_timer;     /* restarted by each item: the page cache goes when it fires */
  uint64_t hold_until, hold_t0; /* uv_hrtime; 0: no hold */
  bool held_catch_up, held_tidy;
  bool walk_waiting;      /* a walk's first page waits for the first index: hold when it ends */
  bool first_done;        /* the first scan has ended (loop side) */
  struct item *held_list; /* the watch set's next page, queued once the hold ends */
  /* The listing's state as the last item left it, for the pages the loop answers itself while
   * the queue is busy (upk_skills_listing_lane): copied on the loop from each item's end. */
  bool listing;     /* a host asked for the listing: items read the stamp when they end */
  bool lane_steady; /* the last item ended with the first index over and the stamp read */
  uint64_t lane_stamp;
  long lane_count;
  /* A watch set being applied a slice per loop turn (upk__watch_apply). */
  watch_set *applying;
  size_t apply_next;
  bool apply_recheck;
  uv_idle_t apply_idle;
};

/** What a queue item is; each kind has its payload in `item` (the union member of its name). */
typedef enum item_kind {
  ITEM_WORK,       /* a caller's work on the index (upk_skills_submit) */
  ITEM_OPEN,       /* the session's first item: open the index, begin the first scan */
  ITEM_SCAN_STEP,  /* a batch of the first scan */
  ITEM_CATCH_UP,   /* one full scan once the first watch set is in place */
  ITEM_REFRESH,    /* refresh the paths changed since the last refresh */
  ITEM_TIDY,       /* one merge step of the full-text index (upk_index_tidy) */
  ITEM_WATCH_LIST, /* a page of the whole watch set, listed from the index */
} item_kind;

/** What comes after a scan's watch set (the scan kinds: open, scan step, catch-up, refresh). */
typedef enum watch_next {
  WATCH_KEEP, /* the first scan is under way: its end lists the set */
  WATCH_ADD,  /* add the item's directories to the watches (a refresh that rescanned nothing, or a
               * catch-up that found the tree as indexed: then none) */
  WATCH_LIST, /* list the whole set again, in an item of its own */
} watch_next;

/** The scan kinds' outcome, computed on the queue and acted on by the loop. */
typedef struct scan_result {
  bool scanning;        /* the first scan is still under way... */
  size_t done_n, total; /* ...this far */
  long indexed;
  bool rescanned;    /* a refresh that had to rescan every root */
  bool merge;        /* what was written is worth merging: queue merge steps */
  bool fill;         /* the posting store is to be copied again (upk_index_fill) */
  bool scan_more;    /* queue the first scan's next batch */
  watch_next watch;  /* and then the watch set */
  watch_set *add;    /* WATCH_ADD: the directories (NULL: none) */
  json_t *truncated; /* a scan completed: roots cut at the directory limit */
} scan_result;

/** One queue item: a caller's work, or the service's own scan, refresh, merge or listing. */
typedef struct item {
  upk_skills_svc *svc;
  item_kind kind;
  bool listing;   /* read the listing's stamp when the work ends (svc->listing, at submit) */
  bool steady;    /* out: it was read, the first index over */
  uint64_t stamp; /* out: upk_index_stamp */
  long count;     /* out: upk_index_count */
  union {
    struct { /* ITEM_WORK */
      upk_skills_work work;
      upk_serial_done done;
      void *arg;
    } work;
    struct {         /* ITEM_OPEN, ITEM_SCAN_STEP, ITEM_CATCH_UP, ITEM_REFRESH */
      json_t *paths; /* ITEM_REFRESH: the changed paths (object used as a set) */
      scan_result out;
    } scan;
    struct {       /* ITEM_TIDY */
      bool merge;  /* a merge step first (else the posting store's fill alone) */
      bool merged; /* out: the merge has ended */
      bool more;   /* out: the merge or the fill has steps left */
    } tidy;
    struct {          /* ITEM_WATCH_LIST: one item, submitted again for each page */
      watch_set *set; /* the whole set, so far */
      int64_t cursor; /* the last placement listed (upk_index_each_dir) */
      uint64_t ns;    /* time spent listing so far */
      bool more;      /* out: pages remain */
    } list;
  } u;
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

/* skills_watch.c */
/** An empty set: the whole set, or (`additive`) directories to add. */
watch_set *upk__watch_set_new(bool additive);
/** Frees a set and its directories. NULL is fine. */
void upk__watch_set_free(watch_set *set);
/** On the queue: the next page of the whole watch set into `set` (roots and their missing roots'
 * ancestors first, then skill directories). Returns whether more remain (`*cursor`). */
bool upk__watch_compute(upk_skills_svc *svc, watch_set *set, int64_t *cursor, upk_index *ix);
/** On the queue, after a refresh that rescanned nothing: only the refreshed paths' directories,
 * into an additive set. */
void upk__watch_add_refreshed(watch_set *set, const char *const *paths, size_t n);
/** On the loop: apply `set` (taken), WATCH_SLICE directories per turn. */
void upk__watch_apply(upk_skills_svc *svc, watch_set *set);

/* skills_roots.c */
/** Every directory any agent reads, each tagged with that agent, then `extra` (a JSON array of
 * directories, "~/" for home) and the built-in library, into svc->roots. */
void upk__skills_build_roots(upk_skills_svc *svc, const char *workspace, json_t *extra);
/** Finish or undo what a killed install or remove left in the agents' directories (logged). */
void upk__skills_repair_roots(upk_skills_svc *svc);

#endif

/* Private to the scan: what the walk (walk.c), the stepped full scan
 * (scan.c) and one-path refreshes (refresh.c) share. */
#ifndef UPK_SKILLS_INDEX_SCAN_INT_H
#define UPK_SKILLS_INDEX_SCAN_INT_H

#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#include "skills/index/db_int.h"
#include "skills/index/parse_int.h"
#include "skills/index/places_int.h"

/* A stepped full scan: the skill directories found by the walk, indexed a
 * batch at a time. */
/* What the walk learned of a skill file, so the probe need not ask the kernel again: a
 * restart of 60,000 skills made four stat calls per skill, the biggest share of its time. */
typedef struct found_file {
  int64_t mtime_ns, size, ino;
  bool known;    /* the fields above are set */
  bool real_dir; /* readdir said the skill's directory is no symbolic link */
} found_file;

typedef struct job_item {
  int64_t root;
  const char *dir; /* in the job's string pool */
  const char *md;  /* "SKILL.md" or "skill.md" (static) */
  size_t same;     /* 1 + the item found at the same place through an earlier root; 0: none */
  int64_t doc;     /* once indexed: its document and name, for the items that are `same` */
  char *name;
  found_file f; /* the walk's look at the skill file, reused by the probe */
} job_item;

/* A root walked in this scan: several agents read the same directory (every
 * agent that reads .claude/skills), and it is walked once. */
typedef struct job_root {
  char *real;
  int max_depth;
  char *dir; /* as the items' paths begin */
  size_t first, count;
  bool limit_hit;
  bool within; /* walked as a project root: links out of the workspace left out */
} job_root;

struct upk__ix_job {
  job_item *items;
  size_t n, cap, next;
  upk_strpool strings; /* the items' dir */
  job_root *roots;
  size_t n_roots;
  int64_t gen;          /* stamp of the placements this scan writes */
  upk__ix_places known; /* the stored placements: found again, or swept when done */
  upk__ix_docs docs;    /* the stored documents, for the probes (dropped if another pass writes) */
  bool placed;          /* a placement was written */
  /* Another pass wrote between this scan's steps (and emptied the names and documents it
   * noted): the end redoes every name's shadowing and looks at every document. */
  bool wide;
  bool bulk; /* the first index of an empty one: FTS5 merges once, afterwards */
  /* What the walk found, hashed (upk__ix_digest): each root's id, paths and limits, each
   * folder's resolved path, each skill's path and its file's name, mtime, size and inode
   * (what the probe compares), and the resolved path of a skill directory that is a link.
   * Equal to the stored digest of the last complete full scan, nothing can have changed:
   * the scan writes nothing, and the stored placements are not even read (a restart of
   * 60,000 skills: 0.33 -> 0.2 s). */
  uint64_t digest;
  bool unchanged; /* the digest is the stored one */
  /* Store no digest at the end: a skill could not be read (each scan retries it), or another
   * pass wrote between this scan's steps, after its walk. */
  bool no_digest;
  upk_index_stats st;
  struct timespec t0;
};

typedef struct scan {
  upk_index *ix;
  upk_diags *diags;
  upk_index_stats *st;
  struct upk__ix_job *collect; /* walking for a stepped scan: note skills, do not index */
  int64_t gen;                 /* stamp of the placements this pass finds */
  int64_t root;
  int max_depth;
  const char *within; /* a project root's: the workspace, made real; links out of it are skipped */
  size_t dirs;
  bool limit_hit;
  bool full;          /* a first index: shadowing is done for every name at the end */
  upk__ix_docs *docs; /* the stored documents, read ahead by a full scan; NULL: ask the index */
  int depth;          /* directories on the stack below, for loop detection */
  dev_t dev[UPK_INDEX_MAX_DEPTH + 2];
  ino_t ino[UPK_INDEX_MAX_DEPTH + 2];
} scan;

/* What load_doc learns before parsing: where the document is, and whether
 * the stored one is still current. */
typedef struct probe {
  char loc[PATH_MAX + 16]; /* to-prompt's <location>: resolved directory + file name */
  char mdpath[PATH_MAX];
  struct stat sb;
  int64_t id; /* the stored document (0: none) */
} probe;

/** The statement listing the index's roots, in order: id, dir, real, max_depth, scope. */
extern const char upk__ix_roots_sql[];

/** A pass over one root (roots: a row of upk__ix_roots_sql). */
void upk__ix_init_scan(scan *sc, upk_index *ix, sqlite3_stmt *roots, upk_diags *diags,
                       upk_index_stats *st);
/** Opens a partial pass's write transaction and a new placement stamp; the full scan's
 * digest is dropped, as this pass writes. */
int upk__ix_begin(upk_index *ix);
/** Store gen as the generation placements are written with (table scan_gen), inside the
 * transaction that writes them: the next open reads it instead of max(gen) over them all. */
int upk__ix_note_gen(upk_index *ix, int64_t gen);
/** Ends a pass begun by upk__ix_begin(): commits when rc is 0, else rolls back. */
int upk__ix_finish(upk_index *ix, int rc, bool all);

/** Forgets the resolved parent directory: a tree may change between passes. */
void upk__ix_forget_parent(upk_index *ix);
/** Hidden entries and node_modules are never walked into. */
bool upk__ix_skipped_name(const char *n);
/** Whether the document at dir/md is stored and current: 1 (*name set), 0 (parse it),
 * -1 (unreadable, reported) or a negative errno. f: the walk's stat, or NULL. */
int upk__ix_probe_doc(scan *sc, const char *dir, const char *md, const found_file *f, probe *pr,
                      char **name);
/** Stores a parsed skill as document pr->id (0: new): its id, 0 when it could not be loaded
 * (reported), or a negative errno. Takes p->name into *name_out. */
int64_t upk__ix_store_doc(scan *sc, const probe *pr, upk__ix_parsed *p, char **name_out);
/** Places document id, named name, at dir under the pass's root. */
int upk__ix_place_doc(scan *sc, const char *dir, int64_t id, const char *name);
/** Notes a skill directory for a stepped scan (sc->collect) without indexing it. pooled: dir
 * is already in the scan's string pool (an earlier item's), and is shared, not copied. */
int upk__ix_note_skill(scan *sc, const char *dir, const char *md, const found_file *f, bool pooled);
/** Adds n bytes at p to the digest *h (64-bit FNV-1a: it tells trees apart, nothing more). */
void upk__ix_digest(uint64_t *h, const void *p, size_t n);
/** Adds a string, with its terminating NUL as the separator. */
void upk__ix_digest_str(uint64_t *h, const char *s);
/** Walks dir, whose children sit at depth + 1: skills noted or indexed, folders descended. */
int upk__ix_walk(scan *sc, const char *dir, int depth);
/** Rescans a root, or only sub (a top-level entry of it), then sweeps what was covered but
 * not found. */
int upk__ix_scan_root(scan *sc, const char *root_dir, const char *sub);

#endif

/** The skill index: every skill the configured roots hold, searchable by task.
 *
 * Storage is SQLite with two FTS5 tables (porter + unicode61 tokenizer): the
 * head (name, description, headings) and the body's prose. A lookup asks each
 * for its best rows, within a budget of matched rows, and orders them by the
 * head's bm25 (per-column weights) plus a weighted body bm25. Skills are found in roots: a
 * directory, the agent that reads it, its scope and a priority. Each root's `<name>/SKILL.md`
 * children are skills (recursion up to 6 levels for roots that ask for it).
 * The same SKILL.md seen through several roots (a symlinked copy, a directory
 * several agents read) is indexed once and placed in each root.
 *
 * Shadowing: among the skills one agent sees, a name is won by the highest
 * priority, then by scope (project > user > extra > builtin), then by root
 * order. Losers stay listed (shadowed = true) but are not returned by lookup;
 * upk_index_shadows() says which path shadows which. Roots without an agent
 * (builtin, extra) form one group of their own.
 *
 * Storage choice: the database is a file (a cache, see
 * upk_index_default_path) or ":memory:". A file keeps RSS flat however large
 * the skill bodies are (only SQLite's page cache is resident) and lets a
 * restart skip re-parsing unchanged skills (mtime/size/inode recorded per
 * SKILL.md). The schema is versioned with PRAGMA user_version: a file of
 * another version, or one SQLite cannot read, is deleted and rebuilt. The
 * file is only a cache: deleting it at any time is safe.
 *
 * Threads: an upk_index is not thread-safe. Any one index must be used by one
 * thread at a time (calls from different threads are fine when serialized,
 * e.g. jobs queued one after another on a worker). Nothing here touches libuv
 * or JSON: the daemon watches directories and calls upk_index_refresh().
 *
 * Errors: functions return 0 (or a count) or a negative errno;
 * upk_index_errmsg() then describes the last failure in one sentence.
 */
#ifndef UPK_INDEX_H
#define UPK_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"

/* Numbered like agents.h's upk_scope for the two scopes they share. */
typedef enum upk_index_scope {
  UPK_INDEX_PROJECT = 0,
  UPK_INDEX_USER = 1,
  UPK_INDEX_BUILTIN = 2, /* skills shipped with upskilld */
  UPK_INDEX_EXTRA = 3,   /* extra directories from the configuration */
} upk_index_scope;

/** "project", "user", "builtin", "extra". */
const char *upk_index_scope_name(upk_index_scope s);
/** Parse a scope name; returns 0 or -EINVAL. */
int upk_index_scope_parse(const char *s, upk_index_scope *out);

/** Recursion depth from the client implementation guide. The directory
 * limit is not the guide's 2,000: real collections hold tens of thousands of
 * skills in one root, and a limit that low hid most of them. It only stops a
 * runaway root (a home directory configured by mistake); a root that reaches
 * it is marked truncated (upk_index_truncated) and reported. */
#define UPK_INDEX_MAX_DEPTH 6
#define UPK_INDEX_MAX_DIRS 200000

typedef struct upk_index_root {
  const char *dir;   /* absolute, or relative to the working directory */
  const char *agent; /* agent id, e.g. "claude"; NULL for builtin/extra roots */
  upk_index_scope scope;
  int priority;  /* higher wins when two skills an agent sees share a name */
  int max_depth; /* 0 or 1: immediate children only; up to 6: recurse */
} upk_index_root;

/** Column weights for the head table's bm25() (name, description, headings),
 * the body table's score's weight against the head's (body), and that of
 * one bm25 over head and body as one text (joint). */
typedef struct upk_index_weights {
  double name, description, headings, body, joint;
} upk_index_weights;

typedef struct upk_index_options {
  const char *db_path;       /* NULL or ":memory:": in memory; else a cache file */
  int max_dirs;              /* directories visited per root; <= 0: UPK_INDEX_MAX_DIRS */
  upk_index_weights weights; /* all 0: the tuned defaults */
  /* Lookup returns each of several skills of the same text (description, size, body) under
   * different names; false: the best ranked one stands for them (registries copy skills). */
  bool keep_twins;
  /* The workspace: a project root's skill directory (or the root itself) that is a link
   * leading out of it is not indexed (index/link-outside), as a cloned project may plant one
   * at the user's files. NULL: not checked (no project roots). */
  const char *project_dir;
} upk_index_options;

typedef struct upk_index upk_index;

/** The default cache file for a workspace (NULL: no workspace):
 * $XDG_CACHE_HOME/upskilld/index-v<schema>-<hash of workspace>.sqlite, or
 * under ~/.cache. Daemons on the same workspace share one file (SQLite locks
 * it); different workspaces never fight over their root sets. Malloc'd. */
char *upk_index_default_path(const char *workspace);

/** Open (creating or rebuilding) an index. opt may be NULL. */
int upk_index_open(upk_index **out, const upk_index_options *opt);
void upk_index_close(upk_index *ix);
/** The last error's message ("" when none). Valid until the next call. */
const char *upk_index_errmsg(const upk_index *ix);

/** Replace the set of roots. Skills of roots no longer present are dropped;
 * the new roots are not scanned until upk_index_scan(). Two roots with the
 * same directory and agent are one root (the later entry wins). */
int upk_index_set_roots(upk_index *ix, const upk_index_root *roots, size_t n);

typedef struct upk_index_stats {
  size_t skills;    /* skill placements found */
  size_t parsed;    /* SKILL.md files (re)parsed because new or changed */
  size_t unchanged; /* skipped: same mtime, size and inode as indexed */
  size_t removed;   /* placements that disappeared */
  size_t dirs;      /* directories visited */
  bool same_tree;   /* the walk found what the last complete full scan did: no skill was
                     * looked up or placed, nothing written */
  double ms;
} upk_index_stats;

/** Scan every root (one transaction) and bring the index up to date. Scan
 * problems (unreadable directory, symlink loop, a root over the directory
 * limit, a SKILL.md that cannot be read) and shadowing go to diags with
 * `file` set; per-skill parse diagnostics are stored with the skill. stats
 * and diags may be NULL. */
int upk_index_scan(upk_index *ix, upk_index_stats *stats, upk_diags *diags);

/** The same full scan in steps, so that a caller can answer (and say how far
 * the scan got) between them. begin walks every root and notes the skill
 * directories without parsing any (fast: a readdir and a stat or two per
 * directory); *total is how many were found. Each step indexes up to `max`
 * of them in its own transaction and returns 1 while some remain, 0 when the
 * scan is complete (removed skills swept, shadowing and statistics updated,
 * stats cumulative), or a negative errno. Lookups between steps see the
 * skills indexed so far plus what the cache held before. A refresh between
 * steps is allowed. upk_index_scan() is begin plus steps until done. */
int upk_index_scan_begin(upk_index *ix, size_t *total, upk_diags *diags);
int upk_index_scan_step(upk_index *ix, size_t max, upk_index_stats *stats, upk_diags *diags);
/** Whether a stepped scan is under way, and how far it got. */
bool upk_index_scanning(const upk_index *ix, size_t *done, size_t *total);

/** One step of merging the full-text index toward one segment per table,
 * writing at most about `pages` pages per table. A full scan leaves 6-7
 * segments, and a lookup seeks every word in every segment: merged, the
 * per-hit queries of a lookup take half the time. Meant for idle moments
 * after a scan: returns 1 while there is more to merge, 0 when done, or a
 * negative errno. */
int upk_index_tidy(upk_index *ix, int pages);

/** One step (a few milliseconds) of copying the words' row lists from the full-text index
 * into the posting store a lookup reads instead of FTS5 (bench/skills/results/ranking.md,
 * "The posting store"): after a merge, and after any change, which empties the store. Returns 1
 * while more is to copy, 0 when the store is complete, or a negative errno. */
int upk_index_fill(upk_index *ix);
/** Whether upk_index_fill() has work. */
bool upk_index_fill_pending(const upk_index *ix);
/** Hand the malloc arenas' free memory back to the system and, with `cache`, SQLite's page cache
 * first (the pages a scan, a merge or a fill read or wrote): for the moment the index goes idle
 * after them. A lookup reads its pages again as it needs them. */
void upk_index_release_memory(upk_index *ix, bool cache);
/** Whether SQLite's page cache holds under 1 MiB (an empty or small project's): handed back,
 * it costs the next lookups next to nothing to read again. */
bool upk_index_cache_small(upk_index *ix);
/** What the posting store holds: word lists, their rows, and its bytes. */
void upk_index_fill_size(const upk_index *ix, size_t *lists, size_t *rows, size_t *bytes);

/** Whether the first index's merge (upk_index_tidy() until 0) has not ended yet, in this
 * process or in one before it that stopped first: until it ends, every lookup seeks each
 * word in each of the first index's segments, and the word statistics are not taken. */
bool upk_index_merge_pending(const upk_index *ix);

/** Roots whose last scan stopped at the directory limit (malloc'd array of
 * malloc'd absolute paths; *n may be 0). Free with upk_index_strings_free. */
int upk_index_truncated(upk_index *ix, char ***dirs, size_t *n);
void upk_index_strings_free(char **v, size_t n);

/** Something changed at `path`: a root, a skill directory, a SKILL.md or any
 * file below a skill. Re-indexes (or removes) just the affected skill(s);
 * a root itself is rescanned (unchanged skills are skipped by mtime). Returns
 * the number of roots the path belongs to (0: none, nothing done) or a
 * negative errno. */
int upk_index_refresh(upk_index *ix, const char *path, upk_diags *diags);
/** Refresh several paths in one transaction, each affected skill once (a
 * burst of events for one skill is one rescan). Returns how many paths
 * belong to no root (the caller may rescan), or a negative errno. */
int upk_index_refresh_many(upk_index *ix, const char *const *paths, size_t n, upk_diags *diags);

/** Fields, as bits in upk_index_match.fields. */
enum {
  UPK_FIELD_NAME = 1,
  UPK_FIELD_DESCRIPTION = 2,
  UPK_FIELD_HEADINGS = 4,
  UPK_FIELD_BODY = 8,
};

/** One placement of a skill (list, get) or one skill found (lookup). */
typedef struct upk_index_entry {
  char *name;        /* frontmatter name, else the directory name */
  char *description; /* "" when missing */
  char *path;        /* SKILL.md: resolved directory + file name (as to-prompt) */
  char *dir;         /* the skill directory as found under its root */
  char *root;        /* the root directory */
  char *agent;       /* NULL for roots without an agent */
  upk_index_scope scope;
  int priority;
  bool shadowed;   /* hidden by a same-named skill of higher precedence */
  bool usable;     /* agents load it: frontmatter parsed and a description */
  size_t tokens;   /* size estimate of SKILL.md */
  upk_diags diags; /* stored parse/validation diagnostics (lenient load) */
  /* upk_index_skills_page only: the skill's MCP Skills listing record (skills/catalog.h), or
   * NULL (none stored: build it, upk_index_catalog_keep); catalog_ours: built by this open of
   * the index, and dropped by its refreshes when stale (else another process's: check it
   * against the disk first);
   * catalog_doc: the document's id, which keys the entries kept in memory */
  char *catalog;
  bool catalog_ours;
  int64_t catalog_doc;
} upk_index_entry;

typedef struct upk_index_match {
  char *term;      /* the task's word as written (lowercased) */
  unsigned fields; /* UPK_FIELD_* where it (or its stem) occurred */
} upk_index_match;

typedef struct upk_index_hit {
  upk_index_entry e;
  double score; /* -bm25: higher is better */
  char *why;    /* e.g. "pdf (name, description); merge (body)" */
  upk_index_match *matches;
  size_t n_matches;
} upk_index_hit;

typedef struct upk_index_hits {
  upk_index_hit *items;
  size_t len;
} upk_index_hits;

typedef struct upk_index_entries {
  upk_index_entry *items;
  size_t len;
} upk_index_entries;

/** Rank skills for a task written in plain words. limit 0 means 10. agents
 * (n_agents > 0) keeps skills seen by one of those agents; skills of roots
 * without an agent (builtin, extra) are always candidates, since they can be
 * installed for any agent. Only usable, non-shadowed skills are returned, one
 * hit per name: a name found in several places (installed and built in, or
 * several agents' copies) is one hit, with the score and `why` of its best
 * ranked copy; a built-in hit is reported at the installed copy of its name
 * that the agents asked about read first, if any. Any text is accepted (FTS5 syntax in it is never
 * interpreted); an empty or blank task is -EINVAL. Stopwords, one-character
 * words ("a", "5") and, in large indexes, the task's most common words (low
 * idf, many rows to rank) are left out of the query; numbers of two digits or
 * more are kept (versions, identifiers: "CUDA 12", "sm_90", "issue 042");
 * camelCase words also match as separate
 * words, unknown words as prefixes, common abbreviations (k8s, pr, db) as
 * their full forms. */
int upk_index_lookup(upk_index *ix, const char *task, size_t limit, const char *const *agents,
                     size_t n_agents, upk_index_hits *out);
void upk_index_hits_free(upk_index_hits *h);

/** Every placement, shadowed ones included, filtered by agent (NULL: any;
 * "" selects roots without an agent) and scope (NULL: any), ordered by name. */
int upk_index_list(upk_index *ix, const char *agent, const upk_index_scope *scope,
                   upk_index_entries *out);
/** Call each(dir, arg) for up to `max` placements' directories after the
 * one *cursor names (0: from the first), cheaply: no entry is built. A
 * directory that several agents read through the same root comes once; one
 * seen through roots of different paths comes once per root. *cursor is
 * advanced; pass it back for the next page. Returns 1 when placements remain,
 * 0 at the end, or a negative errno. */
int upk_index_each_dir(upk_index *ix, int64_t *cursor, size_t max,
                       void (*each)(const char *dir, void *arg), void *arg);
/** One page of the same list: entries offset..offset+limit-1 (limit 0: all
 * the rest); *total (may be NULL) is the whole list's length. */
int upk_index_list_page(upk_index *ix, const char *agent, const upk_index_scope *scope,
                        size_t offset, size_t limit, upk_index_entries *out, size_t *total);
void upk_index_entries_free(upk_index_entries *e);
void upk_index_entry_free(upk_index_entry *e);

/** One page of distinct skills, for the MCP Skills extension: one entry per SKILL.md (a
 * directory that several roots or agents read comes once, at its first placement: project
 * before user before built-in, then root order), in a stable order after *cursor (0: from
 * the first; advanced past the page). Returns 1 when the page is full (more may remain), 0 at
 * the end, or a negative errno. */
int upk_index_skills_page(upk_index *ix, int64_t *cursor, size_t max, upk_index_entries *out);

/** Store the listing records (skills/catalog.h) of n entries of upk_index_skills_page (each
 * entry's `catalog`, of its `catalog_doc`), stamped as this open's, in one transaction: what a
 * listing page built for skills without a record, or another process's that it checked
 * against the disk. Indexing stores none (hashing every file of every skill was a third of its
 * time, for a listing few sessions ask for). Entries without a record are skipped. 0, or a
 * negative errno (another daemon held the index past the busy timeout: the page still serves
 * what it built, and the next one builds it again). */
int upk_index_catalog_keep(upk_index *ix, upk_index_entry *const *entries, size_t n);
/** A stamp of the index's content: equal stamps, nothing was written in between, by this
 * connection or another (what a page listed then it lists now). 0, or a negative errno. */
int upk_index_stamp(upk_index *ix, uint64_t *stamp);
/** The placement whose directory is `dir` (absolute, as placed), first by scope and root
 * order. -ENOENT when no skill is placed there. */
int upk_index_place_at(upk_index *ix, const char *dir, upk_index_entry *out);

typedef struct upk_index_skill {
  upk_index_entry e;
  char *text; /* SKILL.md as on disk now */
  size_t text_len;
  char **files; /* files of the skill directory, relative, sorted */
  size_t n_files;
  char *meta_text; /* skill_meta.json when present, else NULL */
} upk_index_skill;

/** The skill called `name` that wins for `agent` (NULL: any agent, best
 * precedence first). -ENOENT when no such skill is indexed. */
int upk_index_get(upk_index *ix, const char *name, const char *agent, upk_index_skill *out);
void upk_index_skill_free(upk_index_skill *s);

typedef struct upk_index_shadow {
  char *name, *agent; /* agent NULL: roots without an agent */
  char *winner;       /* skill directory that wins */
  char *shadowed;     /* skill directory hidden by it */
  upk_index_scope winner_scope, shadowed_scope;
} upk_index_shadow;

/** Every shadowed placement and what shadows it. */
int upk_index_shadows(upk_index *ix, upk_index_shadow **out, size_t *n);
/** The same for the names from `first` to `last` (inclusive, byte order):
 * one page of a list, without computing a registry's every shadow. */
int upk_index_shadows_between(upk_index *ix, const char *first, const char *last,
                              upk_index_shadow **out, size_t *n);
void upk_index_shadows_free(upk_index_shadow *s, size_t n);

/** Number of distinct SKILL.md files indexed, as counted after the last change (no query:
 * the daemon asks after every queue item). */
long upk_index_count(upk_index *ix);

#endif

/** Skills as the MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) serves
 * them: one entry per skill directory, `{uri, frontmatter, resources}`, where `uri` names the
 * skill's SKILL.md, `frontmatter` is its YAML as JSON (YAML 1.2 core-schema typing, which a
 * host re-parses from the file and compares field by field) and `resources` lists every file
 * with its size and `sha256:` digest, so a host can verify each byte it loads.
 *
 * URIs are derived from where a skill lives, so they are stable across restarts and unique
 * across copies of one name: `skill://<base>/<path>/<name>/SKILL.md`, where <base> is
 * `project` (below the workspace), `user` (below $HOME), `builtin` (below the built-in
 * library) or `path` (an absolute path, for directories elsewhere). The last segment is the
 * skill's name, as the extension requires. Path segments are percent-encoded (RFC 3986).
 *
 * upk_catalog_entry builds an entry from disk (skills/get: a skill changed on disk has its new
 * digests at once); the listing's pages read records the index stores (upk_catalog_record,
 * upk_catalog_entry_from_record): the first page that lists a skill builds its record and
 * stores it, the index's refreshes drop a record whose skill changed.
 * Nothing here knows JSON-RPC or libuv; the daemon pages through the index and calls these per
 * skill.
 */
#ifndef UPK_CATALOG_H
#define UPK_CATALOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/json_text.h"
#include "skills/index.h"

/** Per-skill publication limits of the extension: hosts must accept skills up to these. */
#define UPK_CATALOG_MAX_FILES 512
#define UPK_CATALOG_MAX_BYTES (16u << 20)

/** Where the URI bases point. Any may be NULL (that base is then not used). */
typedef struct upk_catalog_bases {
  const char *workspace; /* project */
  const char *home;      /* user */
  const char *builtin;   /* the built-in library */
} upk_catalog_bases;

/** The skill root URI (no trailing slash) for the skill directory `dir` (absolute) of
 * `scope`; malloc'd, NULL when out of memory. Its SKILL.md is root + "/SKILL.md". */
char *upk_catalog_root_uri(const upk_catalog_bases *b, upk_index_scope scope, const char *dir);

/** The URI of file `rel` (relative, '/'-separated) of the skill at `root_uri`; malloc'd. */
char *upk_catalog_file_uri(const char *root_uri, const char *rel);

/** The absolute path a skill:// URI names (a skill directory, or a file or directory below
 * one), percent-decoded; malloc'd. -EINVAL for a URI of another shape, a segment that is
 * empty, "." or "..", or one that decodes to '/' or NUL. The caller must still check that the
 * path is inside an indexed skill. */
int upk_catalog_uri_path(const upk_catalog_bases *b, const char *uri, char **path);

/** Digests and frontmatters of the files seen before, keyed by inode and checked against
 * size, mtime and ctime at each use, so that a changed file is read again at once. Bounded
 * (about 100 bytes a file, `max_files` of them); not thread-safe: one thread uses it. */
typedef struct upk_catalog_cache upk_catalog_cache;
upk_catalog_cache *upk_catalog_cache_new(size_t max_files);
void upk_catalog_cache_free(upk_catalog_cache *c);

/** Build the entry for the skill at `dir` (its SKILL.md file name `skill_file`, usually
 * "SKILL.md") under root URI `root_uri`. Returns 0 with *out, or a negative errno with a
 * sentence in `why`: -EINVAL when the skill breaks a rule the extension checks (name,
 * description, frontmatter a host cannot read back the same), -EFBIG over the limits, or the
 * error reading it. */
int upk_catalog_entry(upk_catalog_cache *cache, const char *dir, const char *skill_file,
                      const char *root_uri, json_t **out, char *why, size_t whylen);

/** A skill's entry as the index stores it, built once so that a later page of the listing is
 * a read of stored rows, not a walk, a stat per file and a hash: the files' paths, sizes and
 * digests and SKILL.md's frontmatter as JSON, or why the skill cannot be served, plus a
 * signature of what stat says of every file (upk_catalog_record_current). Returns 0 with a
 * malloc'd JSON text in *out, or -ENOMEM; a skill that cannot be read or served still gets a
 * record (saying why). Thread-safe: no cache. */
int upk_catalog_record(const char *dir, const char *skill_file, char **out);

/** upk_catalog_record of n skills (dirs[i], skill_files[i]) into out[i] (NULL: out of memory)
 * on up to `threads` threads (0: one a core; common/fanout.h), the caller's among them: a
 * listing page's missing records. */
void upk_catalog_records(const char *const *dirs, const char *const *skill_files, char **out,
                         size_t n, unsigned threads);
/** Give every entry of a listing page (upk_index_skills_page) a record this open of the index
 * vouches for: none stored (indexing stores none), or another process's that stat finds
 * stale, is built (upk_catalog_records, a thread per core) and stored
 * (upk_index_catalog_keep); another's that stat finds current is stamped as this open's.
 * Returns the records built from disk; *whole: every entry now has a record this open
 * stored, so that the page may be kept whole. */
size_t upk_catalog_own_records(upk_index *ix, upk_index_entries *page, bool *whole);

/** Whether `record` still describes the files below `dir`, as stat sees them (a walk and a
 * stat per file; nothing read): true, or false when it must be built again. */
bool upk_catalog_record_current(const char *record, const char *dir);

/** The entry of the skill at `dir` (its placement: the name must match it) under `root_uri`,
 * from its stored record: upk_catalog_entry's answer without touching the disk. */
int upk_catalog_entry_from_record(const char *record, const char *dir, const char *root_uri,
                                  json_t **out, char *why, size_t whylen);

/** The listing's entries kept in memory, by document, so that a page of a walk builds none
 * the walk before built from the same record (skills/catalog_memo.c). Bounded by `max_entries`
 * documents and `max_bytes` of record text behind them (emptied past either); one thread uses
 * it, but for upk_catalog_memo_ready. The entries it hands out are shared: never change one. */
typedef struct upk_catalog_memo upk_catalog_memo;
upk_catalog_memo *upk_catalog_memo_new(size_t max_entries, size_t max_bytes);
void upk_catalog_memo_free(upk_catalog_memo *m);
/** Documents it holds an entry (or a refusal) for. */
size_t upk_catalog_memo_size(const upk_catalog_memo *m);
/** upk_catalog_entry_from_record's answer for document `doc`'s stored `record`: the entry
 * built before when the record, `dir` and `root_uri` are the ones it was built from (a
 * reference to share, read-only), else built now and kept. */
int upk_catalog_listed(upk_catalog_memo *m, int64_t doc, const char *record, const char *dir,
                       const char *root_uri, json_t **out, char *why, size_t whylen);
/** Whole pages of a walk (the `skills` arrays, shared: never change one) kept for the next
 * walk over an unchanged index: the page after document `at` of `per` rows, built when the
 * index had `stamp` (upk_index_stamp) and the URI bases hashed to `roots`; NULL when not kept
 * (a different stamp or bases drops every kept page), else a new reference, with the cursor
 * after it and whether more follow. */
json_t *upk_catalog_memo_page(upk_catalog_memo *m, uint64_t stamp, uint64_t roots, int64_t at,
                              size_t per, int64_t *next, int *more);
void upk_catalog_memo_keep_page(upk_catalog_memo *m, uint64_t stamp, uint64_t roots, int64_t at,
                                size_t per, json_t *skills, int64_t next, int more);
/** A kept page as another thread may hand it out: new references to its `skills` and their
 * text, the cursor after it and whether more follow (upk_catalog_memo_ready). */
typedef struct upk_catalog_ready {
  json_t *skills;
  upk_json_text *text;
  int64_t next;
  int more;
} upk_catalog_ready;
/** The page after `at` of `per`, kept with its text when the index had `stamp` under the bases
 * `roots`: true with *out (the caller drops its references), or false. Unlike every other
 * function here it may be called from any thread while the memo's own thread works (a lock
 * guards the pages): the daemon answers a page from its loop while the skills queue is busy.
 * It changes nothing: a stamp other than the memo's does not drop the kept pages. */
bool upk_catalog_memo_ready(upk_catalog_memo *m, uint64_t stamp, uint64_t roots, int64_t at,
                            size_t per, upk_catalog_ready *out);
/** The text of a kept page's `skills` (its dump), kept beside it (upk_catalog_memo_keep_text),
 * so that the next walk dumps nothing: a new reference, or NULL when the page (after `at`, of
 * `per`) is not kept or has no text yet. Asked right after upk_catalog_memo_page found it. */
upk_json_text *upk_catalog_memo_page_text(upk_catalog_memo *m, int64_t at, size_t per);
/** Keep `text` (a reference is taken) beside the kept page after `at` of `per`; nothing when
 * that page is not kept. */
void upk_catalog_memo_keep_text(upk_catalog_memo *m, int64_t at, size_t per, upk_json_text *text);
/** Hash a string (NULL as "") into h: for the bases a page's URIs were built under. */
uint64_t upk_catalog_memo_hash(uint64_t h, const char *s);
/** SKILL.md's frontmatter as JSON with YAML 1.2 core-schema typing. Returns 0 with *out, or
 * -EINVAL with `why` when there is none, it is not a mapping, or it uses YAML a host's
 * reader refuses (anchors, aliases, tags, duplicate or non-string keys, values that
 * needed the lenient retry). */
int upk_catalog_frontmatter(const char *text, size_t len, json_t **out, char *why, size_t whylen);

/** Read one file of a skill (`rel`, relative to the skill directory `dir`; "SKILL.md" means
 * `skill_file`) without following symlinks, whole up to `max` bytes. Returns 0 with a
 * malloc'd, NUL-terminated buffer, -EFBIG when larger, -ENOENT, -EISDIR, -ELOOP, ... */
int upk_catalog_read(const char *dir, const char *skill_file, const char *rel, size_t max,
                     char **data, size_t *len);

#endif

/** The YAML side of SKILL.md: a small tree built from libyaml events, with the
 * marks (zero-based line and code point column) of every node, the YAML
 * features skills-ref's strictyaml refuses, and the lenient retry for the
 * `key: text: more` mistake. Internal to skills/.
 */
#ifndef UPK_FRONTMATTER_H
#define UPK_FRONTMATTER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { FM_SCALAR, FM_MAP, FM_SEQ } fm_kind;

typedef struct fm_pos {
  int line, col; /* zero-based; col counts code points, as libyaml's marks */
} fm_pos;

typedef struct fm_node {
  fm_kind kind;
  char *text; /* scalars: the value (never NULL) */
  bool plain; /* a plain (unquoted, non-block) scalar */
  bool flow;  /* a flow mapping or sequence: [a, b] or {a: b} */
  fm_pos start, end;
  struct fm_node **kids; /* maps: key, value, key, value, ... */
  size_t n, cap;
} fm_node;

/** The most keys one mapping may hold, and nodes one document: the Agent Skills frontmatter
 * has a handful of fields; more is refused with a clear problem, never parsed for minutes. */
#define FM_MAX_KEYS 1000
#define FM_MAX_NODES 20000

/** What strictyaml (skills-ref) rejects but other YAML loaders accept. */
typedef enum { FM_ISSUE_FLOW, FM_ISSUE_TAG, FM_ISSUE_ANCHOR, FM_ISSUE_ALIAS } fm_issue_kind;

typedef struct fm_issue {
  fm_issue_kind kind;
  fm_pos pos;
} fm_issue;

/** One value quoted by the lenient retry: lines [line, last_line], the value
 * starting at col on `line` and ending at end_col on `last_line` (before the
 * repair, code points). */
typedef struct fm_repair {
  int line, col, last_line, end_col;
  fm_pos error; /* where libyaml reported "mapping values are not allowed" */
} fm_repair;

typedef struct fm_doc {
  fm_node *root; /* NULL for an empty document */
  bool failed;   /* invalid YAML even after the retries */
  char problem[256];
  fm_pos problem_pos;
  fm_issue *issues;
  size_t n_issues;
  fm_repair *repairs;
  size_t n_repairs;
} fm_doc;

/** Parse YAML text (valid UTF-8). Returns 0, or -ENOMEM. Syntax errors set doc->failed, and
 * so do a NUL byte or a scalar that decodes to one (YAML's "\0"), more than FM_MAX_KEYS keys in
 * a mapping and more than FM_MAX_NODES nodes; `mapping values are not allowed` errors on a
 * `key: value` line are retried with the value single-quoted (recorded in repairs). */
int fm_parse(const char *yaml, size_t len, fm_doc *doc);
void fm_doc_free(fm_doc *doc);
/** The value for `key` in a mapping (the last one when duplicated), or NULL. */
const fm_node *fm_map_get(const fm_node *map, const char *key);

#endif

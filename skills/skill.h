/** Parsing one agent skill: SKILL.md (YAML frontmatter + Markdown body) and
 * its optional skill_meta.json.
 *
 * Frontmatter is read with libyaml, the body with cmark. Parsing is lenient:
 * it extracts whatever can be extracted and records problems as diagnostics
 * (see validate.h for the rules); it fails only when there is nothing to
 * work with (unreadable file). Positions are zero-based lines and columns
 * within SKILL.md; columns count UTF-16 code units (LSP's default encoding).
 *
 * Two kinds of problems are told apart:
 *  - what stops parsing (no frontmatter, invalid YAML, not a mapping, an
 *    unreadable or oversized file) goes straight to the caller's `diags` as an
 *    error, and has_frontmatter stays false;
 *  - what parsing got around (a BOM, bytes that are not UTF-8, a value
 *    `description: Use when: x` retried as quoted, YAML that strictyaml refuses,
 *    an invalid skill_meta.json) is kept in `issues`, with the severity of
 *    STRICT mode; upk_skill_validate reports it, graded by its mode.
 */
#ifndef UPK_SKILL_H
#define UPK_SKILL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

/** One top-level frontmatter key with where it and its value sit. */
typedef struct upk_skill_field {
  char *key;
  char *value; /* scalar text; NULL for maps and sequences */
  bool is_scalar;
  upk_range key_range, value_range;
} upk_skill_field;

typedef struct upk_skill_heading {
  int level, line;
  char *text;
} upk_skill_heading;

typedef struct upk_skill_code {
  int line;
  char *lang;  /* info string's first word; "" when none */
  bool fenced; /* ``` or ~~~ (false: an indented block) */
  size_t start,
      end; /* bytes of `body` the block spans, fences included (end: past its last line) */
} upk_skill_code;

/** A relative file the body links to or names (`references/x.md`, `scripts/a.py`). */
typedef struct upk_skill_ref {
  char *target;
  upk_range range;
} upk_skill_ref;

typedef struct upk_skill {
  char *path;           /* SKILL.md path as given (NULL when parsed from text) */
  char *dir;            /* the skill directory (NULL when parsed from text) */
  char *dir_name;       /* its last component */
  bool has_frontmatter; /* a mapping was parsed (possibly after lenient repair) */
  char *name, *description, *license, *compatibility, *allowed_tools; /* NULL when absent */
  upk_skill_field *fields;
  size_t n_fields;
  char **meta_keys, **meta_values; /* the `metadata` map, values as strings */
  size_t n_meta;
  char *body;    /* Markdown after the closing --- as written (skills-ref strips it); the
                   whole file when the frontmatter is missing or unclosed */
  int body_line; /* line of SKILL.md where the body starts */
  size_t body_lines;
  upk_skill_heading *headings;
  size_t n_headings;
  upk_skill_code *code;
  size_t n_code;
  upk_skill_ref *refs;
  size_t n_refs;
  size_t tokens; /* estimate for the whole SKILL.md (upskill's words x 1.3) */
  /* Additions: */
  char *skill_file;            /* the file name used: "SKILL.md" or "skill.md" (NULL from text) */
  int fm_end_line;             /* line of the closing ---; -1 when there is none */
  upk_diags issues;            /* what parsing got around, STRICT severities (see above) */
  struct upk_skill_meta *meta; /* skill_meta.json when the directory has one, else NULL */
} upk_skill;

/** Parse SKILL.md text. `path` (may be NULL) names the file for the directory
 * checks. Problems go to `diags`. Returns 0, or a negative errno when the
 * text could not be processed at all. */
int upk_skill_parse(const char *text, size_t len, const char *path, upk_skill *out,
                    upk_diags *diags);
/** Read and parse a skill from its directory or its SKILL.md path (SKILL.md
 * preferred, skill.md accepted). Files over 10 MB are refused with a
 * diagnostic. Returns 0 or a negative errno (-ENOENT: no SKILL.md or no such
 * path, -ENOTDIR: a file other than SKILL.md, -ELOOP, -EACCES, -EFBIG, ...);
 * every failure also adds a diagnostic (the skills-ref messages `Path does not
 * exist: P`, `Not a directory: P`, `Missing required file: SKILL.md`). A
 * skill_meta.json beside it is read into `meta`; its problems join `issues`. */
int upk_skill_load(const char *path, upk_skill *out, upk_diags *diags);
void upk_skill_free(upk_skill *s);

/** Largest SKILL.md accepted (10 MB). */
#define UPK_SKILL_MAX_BYTES (10u * 1024 * 1024)
/** Source string of every diagnostic from the skills code. */
#define UPK_SKILL_SOURCE "upskilld-skill"
/** The whole-file range (no position applies). */
upk_range upk_skill_whole_file(void);

#endif

/** skill_meta.json, in upskill's schema (huggingface/upskill, models.py):
 *
 *   {"metadata": {"version": "1.0", "generated_by": str|null, "generated_at": iso8601|null,
 *                 "source_task": str|null, "test_pass_rate": float|null,
 *                 "license": str|null, "compatibility": str|null},
 *    "tests": [{"input": str, "context"?: {"files": {name: content}},
 *               "expected": {"contains": str | [str]},
 *               "output_file"?: str, "validator"?: str, "validator_config"?: {...}}]}
 *
 * Read and written as plain C structs (jansson stays inside meta.c). Every
 * optional member remembers whether it was absent, null or set, so a file
 * read and written back keeps its nulls and omissions. Unknown keys in a test
 * case are refused like upskill's `extra="forbid"`; unknown metadata keys are
 * kept verbatim.
 */
#ifndef UPK_META_H
#define UPK_META_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

typedef enum { UPK_JSON_ABSENT = 0, UPK_JSON_NULL, UPK_JSON_SET } upk_json_state;

/** An optional string: value is non-NULL exactly when state is SET. */
typedef struct upk_opt_str {
  upk_json_state state;
  char *value;
} upk_opt_str;

typedef struct upk_meta_file {
  char *name, *content;
} upk_meta_file;

typedef struct upk_meta_test {
  char *input;
  upk_json_state context;       /* the "context" object */
  upk_json_state context_files; /* its "files" member */
  upk_meta_file *files;
  size_t n_files;
  char **contains; /* expected.contains */
  size_t n_contains;
  bool contains_list; /* written as a list (else as one string; needs n_contains == 1) */
  upk_opt_str output_file, validator;
  upk_json_state validator_config_state;
  char *validator_config; /* compact JSON text of the object when SET */
} upk_meta_test;

typedef struct upk_skill_meta {
  upk_opt_str version, generated_by, generated_at, source_task, license, compatibility;
  upk_json_state test_pass_rate_state;
  double test_pass_rate;
  char **extra_keys, **extra_json; /* unknown metadata members, JSON text, in order */
  size_t n_extra;
  upk_meta_test *tests;
  size_t n_tests;
} upk_skill_meta;

/** upskill's defaults for a new skill: version "1.0", the other metadata null, no tests. */
int upk_meta_init(upk_skill_meta *m);
/** Parse skill_meta.json text. Returns 0, -EINVAL when it does not follow the
 * schema (diagnostics say why; what could be read is kept), or -ENOMEM. */
int upk_meta_parse(const char *text, size_t len, upk_skill_meta *out, upk_diags *diags);
/** Read a skill_meta.json file (same returns, plus -errno for I/O). */
int upk_meta_read(const char *path, upk_skill_meta *out, upk_diags *diags);
/** Parse an upskill tests file: a bare list of test cases or {"cases": [...]}
 * (only `tests` of `out` is filled). */
int upk_meta_parse_tests(const char *text, size_t len, upk_skill_meta *out, upk_diags *diags);
/** The JSON text (indent 2, keys in upskill's order, non-ASCII escaped like
 * Python's json.dumps, final newline); malloc'd, NULL on failure. */
char *upk_meta_dump(const upk_skill_meta *m);
/** Write atomically (temporary file in the same directory, fsync, rename). */
int upk_meta_write(const char *path, const upk_skill_meta *m);
/** Append a test case taking a copy of the strings (contains: n strings). */
int upk_meta_add_test(upk_skill_meta *m, const char *input, const char *const *contains, size_t n);
void upk_meta_free(upk_skill_meta *m);

/** Set an optional string to a copy of v (NULL: JSON null). Returns 0 or -ENOMEM. */
int upk_opt_str_set(upk_opt_str *o, const char *v);

#endif

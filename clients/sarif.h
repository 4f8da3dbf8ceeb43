/** SARIF 2.1.0 logs (OASIS; what GitHub code scanning and SARIF viewers read) for
 * `upskillctl audit` and `check-kernel --sarif FILE`. The commands fill plain structs; this
 * module builds the log with jansson (so text from anywhere, a skill's line or a compiler's
 * message, is escaped as JSON and invalid UTF-8 becomes '?') and puts the file in place
 * atomically. One log holds one run: the tool (upskilld, its version, the rules the results
 * name), the results, and where their relative URIs are based (originalUriBaseIds). */
#ifndef UPK_CTL_SARIF_H
#define UPK_CTL_SARIF_H

#include <jansson.h>
#include <stddef.h>

typedef enum upk_sarif_level {
  UPK_SARIF_NONE,
  UPK_SARIF_NOTE,
  UPK_SARIF_WARNING,
  UPK_SARIF_ERROR,
} upk_sarif_level;

typedef struct upk_sarif_rule {
  const char *id;          /* a diagnostic code: "audit/pipe-to-shell", "h100/spill" */
  const char *description; /* shortDescription.text */
  const char *help_uri;    /* where the code is documented (NULL: none) */
  upk_sarif_level level;   /* defaultConfiguration.level */
  json_t *properties;      /* borrowed; NULL: none (e.g. GitHub's tags, security-severity) */
  const char
      *component; /* the tool component that defines it: NULL for upskilld's own
                   * (tool.driver), else the name of a tool.extensions entry (the audit's
                   * judge: "upskilld-judge"); its results reference it (rule.toolComponent) */
} upk_sarif_rule;

typedef struct upk_sarif_result {
  size_t rule; /* index into the run's rules */
  upk_sarif_level level;
  const char *message;
  const char *uri; /* relative to the run's base, or an absolute file: URI for a file outside
                    * it (NULL: the result has no location) */
  int unbased;     /* a relative URI whose base is not a local directory (a git source's
                    * repository): no uriBaseId */
  /* 1-based; 0: not known (no region without start_line; columns only with start_column) */
  long start_line, start_column, end_line, end_column;
  const char *snippet;     /* the text at the region (NULL: none) */
  const char *fingerprint; /* what identifies the result across runs besides rule and uri:
                            * the evidence, not the line number (NULL: the message) */
  json_t *properties;      /* borrowed; NULL: none */
} upk_sarif_result;

typedef struct upk_sarif_run {
  const upk_sarif_rule *rules;
  size_t n_rules;
  const upk_sarif_result *results;
  size_t n_results;
  const char *base_id;  /* the uriBaseId results are relative to, e.g. "%SRCROOT%" */
  const char *base_uri; /* its absolute file:// URI, ending in '/' (NULL: left to the viewer) */
  json_t *properties;   /* the run's; borrowed, NULL: none */
} upk_sarif_run;

/** Refuse a --sarif FILE before any work: a directory (-EISDIR), a file in a directory that
 * does not exist (-ENOENT) or one that cannot be written (-EACCES). 0 or -errno. */
int upk_sarif_check_path(const char *file);

/** The log as a JSON object (the caller owns it). */
json_t *upk_sarif_log(const upk_sarif_run *run);

/** Write the log into `file` atomically. 0 or -errno. */
int upk_sarif_write(const char *file, const upk_sarif_run *run);

/** A file:// URI for absolute directory `dir`, ending in '/', with what a URI may not hold
 * percent-encoded (the caller frees). */
char *upk_sarif_dir_uri(const char *dir);

/** A relative path as a URI reference: each byte outside RFC 3986's unreserved and '/' is
 * percent-encoded (the caller frees). */
char *upk_sarif_rel_uri(const char *path);

#endif

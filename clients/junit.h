/** JUnit XML reports (the Jenkins/Ant schema family: testsuites > testsuite > testcase with
 * failure, error or skipped) for `upskillctl eval`, `check-kernel` and `audit --junit FILE`.
 * The commands fill plain structs; this module writes them with libxml2's xmlTextWriter and
 * puts the file in place atomically. Text from anywhere (a case file, an agent's output, a
 * skill's lines) is made valid XML 1.0 here: invalid UTF-8 and control characters become
 * U+FFFD. */
#ifndef UPK_CTL_JUNIT_H
#define UPK_CTL_JUNIT_H

#include <stddef.h>

typedef enum upk_junit_outcome {
  UPK_JUNIT_PASS,
  UPK_JUNIT_FAILURE, /* <failure>: the check ran and said no */
  UPK_JUNIT_ERROR,   /* <error>: the check could not run */
  UPK_JUNIT_SKIPPED, /* <skipped> */
} upk_junit_outcome;

typedef struct upk_junit_case {
  const char *classname; /* what groups the cases: eval "model.condition", a file, a skill */
  const char *name;
  double time_s; /* < 0: not known, written as 0 */
  upk_junit_outcome outcome;
  const char *message; /* the failure's, error's or skip's one-line reason (NULL: none) */
  const char *type;    /* the failure's or error's kind: a rule id, "assertion" (NULL: none) */
  const char *detail;  /* the element's text: every reason, one a line (NULL: none) */
  const char *out;     /* <system-out> (NULL: none) */
} upk_junit_case;

typedef struct upk_junit_suite {
  const char *name;
  const upk_junit_case *cases;
  size_t n_cases;
  double time_s;    /* < 0: the sum of the cases' times */
  double timestamp; /* when it started, seconds since the epoch */
} upk_junit_suite;

/** Refuse a --junit FILE before any work: a directory (-EISDIR), a file in a directory that
 * does not exist (-ENOENT) or one that cannot be written (-EACCES). 0 or -errno. */
int upk_junit_check_path(const char *file);

/** Write `<testsuites name=...>` with the suites into `file` atomically. The totals (tests,
 * failures, errors, skipped, time) are counted here from the cases. 0 or -errno. */
int upk_junit_write(const char *file, const char *name, const upk_junit_suite *suites,
                    size_t n_suites);

/** The document as a string instead (caller frees), or NULL when out of memory. */
char *upk_junit_string(const char *name, const upk_junit_suite *suites, size_t n_suites,
                       size_t *len);

#endif

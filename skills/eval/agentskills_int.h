/* Shared by agentskills_write.c and agentskills_bench.c; not a public header. */
#ifndef UPK_AGENTSKILLS_INT_H
#define UPK_AGENTSKILLS_INT_H

#include <jansson.h>

#include "skills/eval/agentskills.h"

/* One run as the Python readers will see it, for benchmark.json. */
typedef struct upk__as_row {
  const upk_as_run *run;
  char eval_dir[96]; /* "eval-3-name" */
  char run_dir[24];  /* "run-2" */
  long passed, failed, total;
  double pass_rate;    /* as written in grading.json */
  double time_seconds; /* timing.json's total_duration_seconds; 0 when unknown */
  long long tokens;    /* timing.json's total_tokens, else metrics' output_chars */
  long long tool_calls;
  int errors;
} upk__as_row;

/* A JSON string of s (NULL: null); text that is not UTF-8 has its bad bytes
 * replaced by '?'. NULL on ENOMEM. */
json_t *upk__as_str(const char *s);
/* Python's round(x, places). */
double upk__as_round(double x, int places);
/* Write root (stolen) to dfd/name as indented JSON with a final newline,
 * reals printed so that they read back as the same doubles. */
int upk__as_dump_at(int dfd, const char *name, json_t *root);
/* The expectations of a run as [{text, passed, evidence}]; NULL on ENOMEM. */
json_t *upk__as_expectations(const upk_as_run *r);
/* Write benchmark.json and benchmark.md into dfd. */
int upk__as_benchmark(int dfd, const char *skill_name, const char *skill_path, upk__as_row *rows,
                      size_t n, char *err, size_t errlen);

#endif

/* Shared by the run report's files (run_*.c). Not a public API. Shared names: upk__rr_. */
#ifndef UPK_REPORT_INT_H
#define UPK_REPORT_INT_H

#include <jansson.h>

#include "report/chart.h"
#include "report/html.h"

/* A stored run as runs/show gives it: {id, run, summary, transcripts}. */
typedef struct upk__rr_run {
  json_t *root;
  const char *id;
  json_t *meta, *summary, *transcripts;
} upk__rr_run;

const char *upk__rr_str(json_t *o, const char *key);
double upk__rr_num(json_t *o, const char *key);
/* A rate and its interval from a condition's summary ({passRate, passRateCi, passed, n}). */
upk_bar upk__rr_rate_bar(json_t *cond, char *note, size_t note_len);
/* The run's models, in run.json's order, else the summary's. */
json_t *upk__rr_models(const upk__rr_run *r);
/* <dl class="meta"> of the run's settings and ids. */
void upk__rr_settings(upk_html *h, const upk__rr_run *r);

/* Bar groups with room for a note per bar (n groups and a zeroed one after them). */
typedef struct upk__rr_groups {
  upk_bar_group *g;
  char (*note)[UPK_CHART_SERIES_MAX][64];
} upk__rr_groups;
upk__rr_groups upk__rr_groups_new(size_t n);
void upk__rr_groups_free(upk__rr_groups *x);

/* run_grid.c: the case x model grid; runs[1] may be NULL. */
void upk__rr_grid(upk_html *h, const upk__rr_run *a, const upk__rr_run *b);
/* run_agents.c: the agent runs' figures (nothing for a run with none), and one trial's agent
 * record (tools, files, whether it loaded the skill) under its transcript. */
void upk__rr_agents(upk_html *h, const upk__rr_run *r);
void upk__rr_agent_line(upk_html *h, json_t *t);
/* run_passk.c: the pass@k / pass^k table (nothing for one run per case). */
void upk__rr_pass_k(upk_html *h, const upk__rr_run *r, bool baseline);
/* run_compare.c */
void upk__rr_compare(upk_html *h, const upk__rr_run *a, const upk__rr_run *b);
void upk__rr_generation(upk_html *h, const upk__rr_run *r);

#endif

/* Shared by the run report's files. Not a public API. */
#ifndef UPK_REPORT_INT_H
#define UPK_REPORT_INT_H

#include <jansson.h>

#include "report/chart.h"
#include "report/html.h"

/* A stored run as runs/show gives it: {id, run, summary, transcripts}. */
typedef struct rr_run {
  json_t *root;
  const char *id;
  json_t *meta, *summary, *transcripts;
} rr_run;

const char *rr_str(json_t *o, const char *key);
double rr_num(json_t *o, const char *key);
/* A rate and its interval from a condition's summary ({passRate, passRateCi, passed, n}). */
upk_bar rr_rate_bar(json_t *cond, char *note, size_t note_len);
/* The run's models, in run.json's order, else the summary's. */
json_t *rr_models(const rr_run *r);
/* <dl class="meta"> of the run's settings and ids. */
void rr_settings(upk_html *h, const rr_run *r);

/* Bar groups with room for a note per bar (n groups and a zeroed one after them). */
typedef struct rr_groups {
  upk_bar_group *g;
  char (*note)[UPK_CHART_SERIES_MAX][64];
} rr_groups;
rr_groups rr_groups_new(size_t n);
void rr_groups_free(rr_groups *x);

/* run_grid.c: the case x model grid; runs[1] may be NULL. */
void rr_grid(upk_html *h, const rr_run *a, const rr_run *b);
/* run_agents.c: the agent runs' figures (nothing for a run with none), and one trial's agent
 * record (tools, files, whether it loaded the skill) under its transcript. */
void rr_agents(upk_html *h, const rr_run *r);
void rr_agent_line(upk_html *h, json_t *t);
/* run_passk.c: the pass@k / pass^k table (nothing for one run per case). */
void rr_pass_k(upk_html *h, const rr_run *r, bool baseline);
/* run_compare.c */
void rr_compare(upk_html *h, const rr_run *a, const rr_run *b);
void rr_generation(upk_html *h, const rr_run *r);

#endif

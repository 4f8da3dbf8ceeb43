/* The learned order of a lookup's best candidates: a linear score over what
 * the lookup knows of each (learning to rank).
 *
 * Why: the tables' bm25 sum (head + body + 10 x joint) ties a bare FTS5
 * baseline; whether the task's words are in the name, the description or
 * only the body, and whether two of them stand side by side there, tell a
 * skill about the task from one that mentions it. The weights are fitted on
 * the development half of bench/skills/dev_tasks.tsv only (never the test
 * half) by coordinate ascent on MRR over the UPK_LTR_POOL best candidates of
 * each task, at 40,000 registry skills. To refit:
 *
 *   bench/skills/rank_bench.py build/daemon/upskilld --corpus REG --split dev \
 *       --dump /tmp/ltr.tsv
 *   python3 bench/skills/ltr_fit.py /tmp/ltr.tsv   # prints the table below
 *
 * The dump is written by a daemon whose environment names a file in
 * UPSKILLD_RANK_DUMP (query.c). */
#include "skills/index/ltr_int.h"

const char *const upk__ix_ltr_names[UPK_LTR_N] = {
    "head",       "body",  "joint",      "name",      "desc",     "headings",
    "in_body",    "any",   "name_cover", "pairs",     "body_len", "desc_len",
    "desc_dense", "cover", "head_only",  "body_only", "rarest",
};

/* ltr_fit.py's output. */
static const double weights[UPK_LTR_N] = {
    [UPK_LTR_HEAD] = 1.0,
    [UPK_LTR_BODY] = 1.0,
    [UPK_LTR_JOINT] = 10.0,
};

bool upk__ix_ltr_plain(void) {
  for (int i = 0; i < UPK_LTR_N; i++)
    if (weights[i] != (i == UPK_LTR_HEAD || i == UPK_LTR_BODY ? 1.0
                       : i == UPK_LTR_JOINT                   ? 10.0
                                                              : 0))
      return false;
  return true;
}

double upk__ix_ltr_score(const double f[UPK_LTR_N]) {
  double s = 0;
  for (int i = 0; i < UPK_LTR_N; i++)
    s += weights[i] * f[i];
  return s;
}

/* upskillctl eval: pass@k and pass^k per model and condition, k = 1 .. runs, as the summary's
 * conditions carry them (skills/eval/evalstats.h): pass@k, the chance that at least one of k
 * trials passes; pass^k, that all k do. */
#include <math.h>
#include <stdio.h>

#include "clients/ctl.h"

enum { MAX_SHOWN = 10 }; /* columns; --json has every k */

static void row(const char *model, const char *cond, const char *what, json_t *ks) {
  size_t n = json_array_size(ks);
  printf("%-28.28s %-11s %-7s", model, cond, what);
  for (size_t k = 0; k < n && k < MAX_SHOWN; k++) {
    json_t *v = json_array_get(ks, k);
    if (json_is_number(v))
      printf(" %5.0f%%", 100 * json_number_value(v));
    else
      printf(" %6s", "-");
  }
  putchar('\n');
}

static void cond_rows(const char *model, const char *cond, json_t *c) {
  if (!json_is_object(c))
    return;
  row(model, cond, "pass@k", json_object_get(c, "passAtK"));
  row("", "", "pass^k", json_object_get(c, "passHatK"));
}

void ctl_print_pass_k(json_t *models, int old_skill) {
  json_t *m;
  size_t i, most = 0;
  json_array_foreach(models, i, m) {
    size_t n = json_array_size(json_object_get(json_object_get(m, "skill"), "passAtK"));
    most = n > most ? n : most;
  }
  if (most < 2)
    return; /* one run: pass@1 = pass^1 = the pass rate above */
  printf("\npass@k: one of k trials of a case passes; pass^k: all k do (mean over cases)\n");
  printf("%-28s %-11s %-7s", "model", "condition", "");
  for (size_t k = 1; k <= most && k <= MAX_SHOWN; k++) {
    char head[16];
    snprintf(head, sizeof head, "k=%zu", k);
    printf(" %6s", head);
  }
  putchar('\n');
  json_array_foreach(models, i, m) {
    const char *name = json_string_value(json_object_get(m, "model"));
    cond_rows(name ? name : "?", "with skill", json_object_get(m, "skill"));
    cond_rows("", old_skill ? "old skill" : "baseline", json_object_get(m, "baseline"));
  }
  if (most > MAX_SHOWN)
    printf("(k > %d: --json)\n", MAX_SHOWN);
}

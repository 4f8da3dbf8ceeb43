/* The trace bench: for every trace of the set (bench/traces/gen_traces.py) and every budget,
 * the key-fact recall of the condensed trace, its size and the time condensing took (median
 * of REPS runs); beside it, upskill's method on the same trace (JSON re-indented by 2, then
 * the first 4,000 characters). Then recall over the set per budget, and the time for the
 * largest trace per MB, against the targets (>= 95 % recall at 4k tokens; <= 100 ms for 1 MB,
 * judged on the median CPU time of the condensing thread, since the wall time printed beside it
 * also counts waiting for a core on a shared machine). A fact is recalled when its exact text is
 * in the condensed trace.
 *
 *   trace_bench DIR [REPS]     (DIR holds the traces and facts.json)
 * Exit status 0 when both targets are met. Not a test. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skills/eval/condense.h"

static const size_t BUDGETS[] = {2000, 4000, 8000};
enum { N_BUDGETS = 3, UPSKILL_CHARS = 4000 };

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b)
    b[n] = '\0';
  *len = (size_t)n;
  return b;
}

static size_t found(const char *text, json_t *facts) {
  size_t k = 0, i;
  json_t *f;
  json_array_foreach(facts, i, f) k += strstr(text, json_string_value(f)) != NULL;
  return k;
}

static double now_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* upskill: JSON input re-serialised with an indent of 2, then the first 4,000 characters. */
static char *upskill_view(const char *trace, size_t len) {
  json_t *j = json_loadb(trace, len, 0, NULL);
  char *s = j ? json_dumps(j, JSON_INDENT(2)) : strdup(trace);
  json_decref(j);
  if (s && strlen(s) > UPSKILL_CHARS)
    s[UPSKILL_CHARS] = '\0';
  return s;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: trace_bench DIR [REPS]\n");
    return 2;
  }
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  char path[4096];
  snprintf(path, sizeof path, "%s/facts.json", argv[1]);
  json_error_t err;
  json_t *all = json_load_file(path, 0, &err);
  if (!all) {
    fprintf(stderr, "trace_bench: %s: %s\n", path, err.text);
    return 2;
  }
  size_t total = 0, hit[N_BUDGETS] = {0}, hit_upskill = 0;
  double big_ms = 0, big_cpu = 0, big_mb = 0;
  const char *key;
  json_t *facts;
  printf("%-28s %-13s %8s %6s %7s %7s %8s %8s  %s\n", "trace", "format", "KB", "budget", "tokens",
         "recall", "ms", "cpu ms", "upskill (first 4,000 chars)");
  json_object_foreach(all, key, facts) {
    size_t len = 0, nf = json_array_size(facts);
    snprintf(path, sizeof path, "%s/%s", argv[1], key);
    char *trace = slurp(path, &len), *up = trace ? upskill_view(trace, len) : NULL;
    if (!up) {
      fprintf(stderr, "trace_bench: cannot read %s\n", path);
      return 2;
    }
    size_t up_found = found(up, facts);
    total += nf;
    hit_upskill += up_found;
    for (int b = 0; b < N_BUDGETS; b++) {
      double ms[64], cpu[64];
      upk_condensed c = {0};
      int n = reps < 64 ? reps : 64;
      for (int r = 0; r < n; r++) {
        if (r)
          upk_condensed_free(&c);
        double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_THREAD_CPUTIME_ID);
        int rc = upk_condense(trace, len, UPK_TRACE_AUTO, BUDGETS[b], &c);
        ms[r] = now_ms(CLOCK_MONOTONIC) - t0;
        cpu[r] = now_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
        if (rc) {
          fprintf(stderr, "trace_bench: %s: %s\n", key, c.error);
          return 1;
        }
      }
      qsort(ms, (size_t)n, sizeof *ms, cmp_double);
      qsort(cpu, (size_t)n, sizeof *cpu, cmp_double);
      size_t k = found(c.text, facts);
      hit[b] += k;
      if (b == 1 && len / 1e6 > big_mb) {
        big_mb = len / 1e6;
        big_ms = ms[n / 2];
        big_cpu = cpu[n / 2];
      }
      printf("%-28.28s %-13s %8.1f %6zu %7zu %4zu/%-2zu %8.2f %8.2f  %zu/%zu (%zu chars)\n", key,
             upk_trace_format_name(c.format), len / 1024.0, BUDGETS[b], c.tokens, k, nf, ms[n / 2],
             cpu[n / 2], up_found, nf, strlen(up));
      upk_condensed_free(&c);
    }
    free(trace);
    free(up);
  }
  printf("\n%-34s %10s %10s %10s %14s\n", "key-fact recall over the set", "2k", "4k", "8k",
         "upskill 4,000c");
  printf("%-34s %9.1f%% %9.1f%% %9.1f%% %13.1f%%\n", "", 100.0 * hit[0] / total,
         100.0 * hit[1] / total, 100.0 * hit[2] / total, 100.0 * hit_upskill / total);
  double recall4k = (double)hit[1] / total, mb = big_mb > 0 ? big_mb : 1;
  bool ok_recall = recall4k >= 0.95, ok_speed = big_cpu / mb <= 100;
  printf("\ntarget: recall at 4k >= 95%%: %.1f%% (upskill's method %.1f%%)  %s\n", 100 * recall4k,
         100.0 * hit_upskill / total, ok_recall ? "PASS" : "FAIL");
  printf("target: a 1 MB trace in <= 100 ms: the largest (%.2f MB) in %.2f ms of CPU = %.2f ms/MB "
         "%s\n        (wall %.2f ms = %.2f ms/MB, which also counts waiting for a core on a busy "
         "machine)\n",
         big_mb, big_cpu, big_cpu / mb, ok_speed ? "PASS" : "FAIL", big_ms, big_ms / mb);
  json_decref(all);
  return ok_recall && ok_speed ? 0 : 1;
}

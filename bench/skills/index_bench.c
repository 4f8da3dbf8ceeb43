/* Driver for the skill index benchmarks (bench/skills/eval.sh, bench.sh).
 *
 *   index_bench eval  CORPUS PAIRS [--weights N,D,H,B] [--verbose]
 *   index_bench speed CORPUS PAIRS [--db PATH] [--grep N]
 *
 * CORPUS is gen_skills.py's output: root-NN/<skill>/SKILL.md plus groups.tsv.
 * PAIRS is eval_pairs.tsv: task<TAB>acceptable groups.
 *
 * eval ranks every task with upk_index_lookup and with the baseline (one FTS5
 * column holding the whole SKILL.md, default bm25, the same tokenizer, every
 * word of the task OR-ed) and prints recall@1, recall@5 and MRR side by side.
 * speed prints full index time, lookup p50/p99, one-skill reindex time, RSS,
 * and `grep -ril` over the same tree per query as a ratio.
 * INDEX_BENCH_SLOW=1 also prints each task's lookup time. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "skills/index.h"

typedef struct pair {
  char *task, *groups;
} pair;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void die(const char *what) {
  fprintf(stderr, "index_bench: %s\n", what);
  exit(1);
}

static size_t read_pairs(const char *path, pair **out) {
  FILE *f = fopen(path, "r");
  if (!f)
    die("cannot read the pairs file");
  char line[4096];
  size_t n = 0, cap = 0;
  *out = NULL;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *tab = strchr(line, '\t');
    if (line[0] == '#' || !tab)
      continue;
    *tab = 0;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      *out = realloc(*out, cap * sizeof **out);
    }
    (*out)[n++] = (pair){strdup(line), strdup(tab + 1)};
  }
  fclose(f);
  return n;
}

/* name -> group, from groups.tsv (linear search is fine for a few thousand). */
typedef struct group_map {
  char **name, **group;
  size_t n;
} group_map;

static void read_groups(const char *corpus, group_map *g) {
  char path[PATH_MAX], line[1024];
  snprintf(path, sizeof path, "%s/groups.tsv", corpus);
  FILE *f = fopen(path, "r");
  if (!f)
    die("no groups.tsv in the corpus");
  size_t cap = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *tab = strchr(line, '\t');
    if (!tab)
      continue;
    *tab = 0;
    if (g->n == cap) {
      cap = cap ? cap * 2 : 1024;
      g->name = realloc(g->name, cap * sizeof *g->name);
      g->group = realloc(g->group, cap * sizeof *g->group);
    }
    g->name[g->n] = strdup(line);
    g->group[g->n++] = strdup(tab + 1);
  }
  fclose(f);
}

static const char *group_of(const group_map *g, const char *name) {
  for (size_t i = 0; i < g->n; i++)
    if (!strcmp(g->name[i], name))
      return g->group[i];
  return name;
}

static bool acceptable(const char *groups, const char *group) {
  size_t n = strlen(group);
  for (const char *p = groups; (p = strstr(p, group)); p += n)
    if ((p == groups || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
      return true;
  return false;
}

/* Every root-NN directory of the corpus is one root, as agent directories are. */
static size_t corpus_roots(const char *corpus, upk_index_root *roots, char dirs[][PATH_MAX],
                           size_t max) {
  DIR *d = opendir(corpus);
  if (!d)
    die("cannot open the corpus");
  struct dirent *de;
  size_t n = 0;
  while ((de = readdir(d)) && n < max)
    if (!strncmp(de->d_name, "root-", 5)) {
      snprintf(dirs[n], PATH_MAX, "%s/%s", corpus, de->d_name);
      roots[n] = (upk_index_root){dirs[n], "bench", UPK_INDEX_EXTRA, 0, 1};
      n++;
    }
  closedir(d);
  return n;
}

static upk_index *build(const char *corpus, const upk_index_options *o, upk_index_stats *st) {
  static upk_index_root roots[64];
  static char dirs[64][PATH_MAX];
  size_t n = corpus_roots(corpus, roots, dirs, 64);
  upk_index *ix;
  if (upk_index_open(&ix, o) || upk_index_set_roots(ix, roots, n) || upk_index_scan(ix, st, NULL))
    die("indexing failed");
  return ix;
}

/* ---- baseline: plain bm25 over the whole SKILL.md ---- */

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return strdup("");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *b = malloc((size_t)n + 1);
  b[fread(b, 1, (size_t)n, f)] = 0;
  fclose(f);
  return b;
}

static sqlite3 *baseline_build(upk_index *ix, char ***names) {
  sqlite3 *db;
  sqlite3_open(":memory:", &db);
  sqlite3_exec(db,
               "CREATE VIRTUAL TABLE base USING fts5(text,"
               " tokenize='porter unicode61 remove_diacritics 2'); BEGIN",
               NULL, NULL, NULL);
  upk_index_entries e;
  if (upk_index_list(ix, NULL, NULL, &e))
    die("list failed");
  sqlite3_stmt *st;
  sqlite3_prepare_v2(db, "INSERT INTO base(rowid, text) VALUES(?1, ?2)", -1, &st, NULL);
  *names = calloc(e.len + 1, sizeof **names);
  for (size_t i = 0; i < e.len; i++) {
    char *text = slurp(e.items[i].path);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)i + 1);
    sqlite3_bind_text(st, 2, text, -1, free);
    sqlite3_step(st);
    sqlite3_reset(st);
    (*names)[i] = strdup(e.items[i].name);
  }
  sqlite3_finalize(st);
  sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  upk_index_entries_free(&e);
  return db;
}

/* Every word of the task, quoted and OR-ed: what a plain FTS5 search does. */
static void baseline_query(const char *task, char *q, size_t cap) {
  size_t n = 0;
  q[0] = 0;
  for (const unsigned char *p = (const unsigned char *)task; *p;) {
    while (*p && !(isalnum(*p) || *p >= 0x80))
      p++;
    const unsigned char *s = p;
    while (*p && (isalnum(*p) || *p >= 0x80))
      p++;
    if (p > s && n + (size_t)(p - s) + 8 < cap)
      n += (size_t)snprintf(q + n, cap - n, "%s\"%.*s\"", n ? " OR " : "", (int)(p - s), s);
  }
}

static int baseline_rank(sqlite3 *db, char **names, const group_map *g, const pair *p) {
  char q[4096];
  baseline_query(p->task, q, sizeof q);
  sqlite3_stmt *st;
  sqlite3_prepare_v2(db, "SELECT rowid FROM base WHERE base MATCH ?1 ORDER BY rank LIMIT 5", -1,
                     &st, NULL);
  sqlite3_bind_text(st, 1, q, -1, SQLITE_STATIC);
  int rank = 0, k = 0;
  while (!rank && sqlite3_step(st) == SQLITE_ROW) {
    k++;
    if (acceptable(p->groups, group_of(g, names[sqlite3_column_int64(st, 0) - 1])))
      rank = k;
  }
  sqlite3_finalize(st);
  return rank;
}

static int ours_rank(upk_index *ix, const group_map *g, const pair *p, bool verbose) {
  upk_index_hits h;
  if (upk_index_lookup(ix, p->task, 5, NULL, 0, &h))
    die(upk_index_errmsg(ix));
  int rank = 0;
  for (size_t i = 0; !rank && i < h.len; i++)
    if (acceptable(p->groups, group_of(g, h.items[i].e.name)))
      rank = (int)i + 1;
  if (verbose && rank != 1)
    printf("  miss@1 [%s] want %s, got %s (%s)\n", p->task, p->groups,
           h.len ? h.items[0].e.name : "-", h.len ? h.items[0].why : "");
  upk_index_hits_free(&h);
  return rank;
}

typedef struct score {
  int at1, at5;
  double mrr;
} score;

static void tally(score *s, int rank) {
  s->at1 += rank == 1;
  s->at5 += rank >= 1 && rank <= 5;
  s->mrr += rank ? 1.0 / rank : 0;
}

static int cmd_eval(const char *corpus, const char *pairs_path, int argc, char **argv) {
  upk_index_options o = {0};
  bool verbose = false;
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--verbose"))
      verbose = true;
    else if (!strcmp(argv[i], "--weights") && i + 1 < argc)
      sscanf(argv[++i], "%lf,%lf,%lf,%lf", &o.weights.name, &o.weights.description,
             &o.weights.headings, &o.weights.body);
  pair *pairs;
  size_t np = read_pairs(pairs_path, &pairs);
  group_map g = {0};
  read_groups(corpus, &g);
  upk_index_stats st;
  upk_index *ix = build(corpus, &o, &st);
  char **names;
  sqlite3 *base = baseline_build(ix, &names);
  score ours = {0}, plain = {0};
  for (size_t i = 0; i < np; i++) {
    int a = ours_rank(ix, &g, &pairs[i], verbose), b = baseline_rank(base, names, &g, &pairs[i]);
    if (verbose && (a != 1 || b != 1))
      printf("  rank ours %d, baseline %d: %s\n", a, b, pairs[i].task);
    tally(&ours, a);
    tally(&plain, b);
  }
  printf("corpus: %zu skills, %zu tasks\n\n", st.skills, np);
  printf("| lookup                                     | recall@1 | recall@5 | MRR@5 |\n");
  printf("|--------------------------------------------|----------|----------|-------|\n");
  printf("| upskilld (4 columns, weighted bm25)        | %5.1f %%  | %5.1f %%  | %.3f |\n",
         100.0 * ours.at1 / np, 100.0 * ours.at5 / np, ours.mrr / np);
  printf("| baseline (1 column, plain bm25, all words) | %5.1f %%  | %5.1f %%  | %.3f |\n",
         100.0 * plain.at1 / np, 100.0 * plain.at5 / np, plain.mrr / np);
  sqlite3_close(base);
  upk_index_close(ix);
  return 0;
}

/* ---- speed ---- */

static long rss_kib(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, field, strlen(field)))
      v = atol(line + strlen(field) + 1);
  if (f)
    fclose(f);
  return v;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double grep_ms(const char *corpus, const char *task) {
  char cmd[8192];
  size_t n = (size_t)snprintf(cmd, sizeof cmd, "grep -ril");
  /* each word of 4+ letters as one -e pattern: the plain scan a person would run */
  for (const char *p = task; *p;) {
    while (*p && !isalnum((unsigned char)*p))
      p++;
    const char *s = p;
    while (isalnum((unsigned char)*p))
      p++;
    if (p - s >= 4 && n + 64 < sizeof cmd)
      n += (size_t)snprintf(cmd + n, sizeof cmd - n, " -e '%.*s'", (int)(p - s), s);
  }
  snprintf(cmd + n, sizeof cmd - n, " '%s' >/dev/null", corpus);
  double t0 = now_ms();
  if (system(cmd) < 0)
    return 0;
  return now_ms() - t0;
}

static void append_line(const char *path, const char *text) {
  FILE *f = fopen(path, "a");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static double pct(const double *v, size_t n, double p) {
  size_t i = (size_t)(p * (double)n);
  return v[i < n ? i : n - 1];
}

static int cmd_speed(const char *corpus, const char *pairs_path, int argc, char **argv) {
  upk_index_options o = {0};
  int n_grep = 10;
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--db") && i + 1 < argc)
      o.db_path = argv[++i];
    else if (!strcmp(argv[i], "--grep") && i + 1 < argc)
      n_grep = atoi(argv[++i]);
  if (o.db_path)
    unlink(o.db_path);
  pair *pairs;
  size_t np = read_pairs(pairs_path, &pairs);
  upk_index_stats st;
  double t0 = now_ms();
  upk_index *ix = build(corpus, &o, &st);
  double t_index = now_ms() - t0;
  long rss_indexed = rss_kib("VmRSS:");
  t0 = now_ms();
  upk_index_stats st2;
  upk_index_scan(ix, &st2, NULL);
  double t_rescan = now_ms() - t0;

  size_t rounds = (3000 + np - 1) / np, nl = rounds * np, k = 0;
  double *lat = malloc(nl * sizeof *lat), sum = 0;
  for (size_t r = 0; r < rounds; r++)
    for (size_t i = 0; i < np; i++) {
      upk_index_hits h;
      double a = now_ms();
      if (upk_index_lookup(ix, pairs[i].task, 5, NULL, 0, &h))
        die(upk_index_errmsg(ix));
      lat[k++] = now_ms() - a;
      sum += lat[k - 1];
      upk_index_hits_free(&h);
    }
  if (getenv("INDEX_BENCH_SLOW")) /* per-task latency of the last round */
    for (size_t i = 0; i < np; i++)
      fprintf(stderr, "%8.3f ms  %s\n", lat[nl - np + i], pairs[i].task);
  qsort(lat, nl, sizeof *lat, cmp_double);

  /* one changed skill: append a line to a SKILL.md, refresh that path */
  upk_index_entries e;
  upk_index_list(ix, NULL, NULL, &e);
  double re[50];
  int nre = 0;
  for (size_t i = 0; i < e.len && nre < 50; i += e.len / 50 + 1) {
    char md[PATH_MAX];
    snprintf(md, sizeof md, "%s/SKILL.md", e.items[i].dir);
    append_line(md, "\nEdited by the benchmark: zanzibar quokka.\n");
    double a = now_ms();
    if (upk_index_refresh(ix, md, NULL) != 1)
      die("refresh did not find the skill");
    re[nre++] = now_ms() - a;
  }
  qsort(re, (size_t)nre, sizeof *re, cmp_double);
  upk_index_entries_free(&e);
  long rss_after = rss_kib("VmRSS:"), hwm = rss_kib("VmHWM:");

  double g_sum = 0, l_sum = 0;
  int ng = 0;
  for (size_t i = 0; i < np && ng < n_grep; i++, ng++) {
    upk_index_hits h;
    double a = now_ms();
    upk_index_lookup(ix, pairs[i].task, 5, NULL, 0, &h);
    l_sum += now_ms() - a;
    upk_index_hits_free(&h);
    g_sum += grep_ms(corpus, pairs[i].task);
  }

  printf("corpus: %zu skills (%zu parsed), %s database\n\n", st.skills, st.parsed,
         o.db_path ? "file" : "in-memory");
  printf("| measure                                  | result          | target     |\n");
  printf("|------------------------------------------|-----------------|------------|\n");
  printf("| full index (open + scan + parse)         | %10.0f ms   | <= 3000 ms |\n", t_index);
  printf("| rescan, nothing changed                  | %10.1f ms   |            |\n", t_rescan);
  printf("| lookup p50 (%5zu lookups)                | %10.3f ms   | <= 1 ms    |\n", nl,
         pct(lat, nl, 0.50));
  printf("| lookup p99                               | %10.3f ms   | <= 5 ms    |\n",
         pct(lat, nl, 0.99));
  printf("| lookup max                               | %10.3f ms   |            |\n", lat[nl - 1]);
  printf("| reindex one changed skill, p50 (%2d)      | %10.3f ms   | <= 10 ms   |\n", nre,
         pct(re, (size_t)nre, 0.5));
  printf("| reindex one changed skill, max           | %10.3f ms   |            |\n", re[nre - 1]);
  printf("| RSS after full index                     | %10.1f MiB  | <= 64 MiB  |\n",
         rss_indexed / 1024.0);
  printf("| RSS at the end (peak)                    | %5.1f (%5.1f) MiB |          |\n",
         rss_after / 1024.0, hwm / 1024.0);
  if (ng)
    printf("| grep -ril vs lookup, mean of %2d tasks    | %.1f ms vs %.3f ms = %.0fx |  |\n", ng,
           g_sum / ng, l_sum / ng, (g_sum / ng) / (l_sum / ng));
  free(lat);
  upk_index_close(ix);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4)
    die("usage: index_bench eval|speed CORPUS PAIRS [options]");
  if (!strcmp(argv[1], "eval"))
    return cmd_eval(argv[2], argv[3], argc - 4, argv + 4);
  if (!strcmp(argv[1], "speed"))
    return cmd_speed(argv[2], argv[3], argc - 4, argv + 4);
  die("unknown command");
}

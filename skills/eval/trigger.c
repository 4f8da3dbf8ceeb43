/* Description-trigger evaluation: the eval set, the split, the scores and the best choice
 * (trigger.h). Prompts, the reply parser and JSON out are in trigger_io.c. */
#include "skills/eval/trigger.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/fnv1a.h"
#include "skills/skill.h"
#include "skills/unicode.h"
#include "common/xalloc.h"

#define SOURCE "upskilld-eval"
#define FILE_MAX (16u * 1024 * 1024)

/* ---- the set ------------------------------------------------------------- */

void upk_trigger_set_free(upk_trigger_set *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->items[i].query);
  free(s->items);
  memset(s, 0, sizeof *s);
}

static bool utf8(const char *q) {
  for (size_t n = strlen(q), k; n; q += k, n -= k) {
    uint32_t cp;
    if (!(k = upk_u8_decode(q, n, &cp)))
      return false;
  }
  return true;
}

static bool blank(const char *q) {
  return q[strspn(q, " \t\r\n\f\v")] == '\0';
}

/* The index of `query` in s, or -1. */
static long find(const upk_trigger_set *s, const char *query) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->items[i].query, query) == 0)
      return (long)i;
  return -1;
}

static int push(upk_trigger_set *s, const char *query, bool should_trigger) {
  upk_trigger_query *p = upk_xrealloc(s->items, (s->n + 1) * sizeof *p);
  s->items = p;
  char *q = upk_xstrdup(query);
  p[s->n++] = (upk_trigger_query){q, should_trigger};
  return 0;
}

int upk_trigger_set_add(upk_trigger_set *s, const char *query, bool should_trigger) {
  if (!query || blank(query) || strlen(query) > UPK_TRIGGER_MAX_QUERY_BYTES || !utf8(query) ||
      s->n >= UPK_TRIGGER_MAX_QUERIES)
    return -EINVAL;
  if (find(s, query) >= 0)
    return -EEXIST;
  return push(s, query, should_trigger);
}

/* ---- parsing ------------------------------------------------------------- */

typedef struct {
  upk_diags *diags;
  bool bad; /* an error was reported */
} reader;

static void report(reader *r, upk_severity sev, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report(reader *r, upk_severity sev, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vadd(r->diags, sev, code, SOURCE, upk_skill_whole_file(), fmt, ap);
  va_end(ap);
  if (sev == UPK_SEV_ERROR)
    r->bad = true;
}

/* Check one item; on success *query and *should are set (query borrowed from item). */
static bool check_item(reader *r, json_t *item, size_t i, const char **query, bool *should) {
  if (!json_is_object(item)) {
    report(r, UPK_SEV_ERROR, "eval/wrong-type",
           "queries[%zu]: expected an object {\"query\": ..., \"should_trigger\": ...}", i);
    return false;
  }
  bool ok = true;
  json_t *q = json_object_get(item, "query");
  json_t *st = json_object_get(item, "should_trigger");
  if (!q || json_is_null(q)) {
    report(r, UPK_SEV_ERROR, "eval/missing-field", "queries[%zu]: no \"query\"", i);
    ok = false;
  } else if (!json_is_string(q)) {
    report(r, UPK_SEV_ERROR, "eval/wrong-type", "queries[%zu]: \"query\" must be a string", i);
    ok = false;
  } else if (blank(json_string_value(q))) {
    report(r, UPK_SEV_ERROR, "eval/empty", "queries[%zu]: \"query\" is empty", i);
    ok = false;
  } else if (json_string_length(q) > UPK_TRIGGER_MAX_QUERY_BYTES) {
    report(r, UPK_SEV_ERROR, "eval/too-large",
           "queries[%zu]: the query is %zu bytes; at most %d are allowed", i, json_string_length(q),
           UPK_TRIGGER_MAX_QUERY_BYTES);
    ok = false;
  }
  if (!st || json_is_null(st)) {
    report(r, UPK_SEV_ERROR, "eval/missing-field", "queries[%zu]: no \"should_trigger\"", i);
    ok = false;
  } else if (!json_is_boolean(st)) {
    report(r, UPK_SEV_ERROR, "eval/wrong-type",
           "queries[%zu]: \"should_trigger\" must be true or false", i);
    ok = false;
  }
  if (ok) {
    *query = json_string_value(q);
    *should = json_is_true(st);
  }
  return ok;
}

/* Read the items of `list` into out; where[k] is the list index of out->items[k]. */
static int read_items(reader *r, json_t *list, upk_trigger_set *out) {
  size_t n = json_array_size(list);
  if (n == 0)
    report(r, UPK_SEV_ERROR, "eval/empty", "queries: the eval set has no queries");
  if (n > UPK_TRIGGER_MAX_QUERIES) {
    report(r, UPK_SEV_ERROR, "eval/too-large",
           "queries: %zu queries; the first %d are read and the rest left out", n,
           UPK_TRIGGER_MAX_QUERIES);
    n = UPK_TRIGGER_MAX_QUERIES;
  }
  size_t *where = upk_xcalloc(n + 1, sizeof *where);
  uint64_t *hash = upk_xcalloc(n + 1, sizeof *hash);
  int rc = where && hash ? 0 : -ENOMEM;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    const char *q;
    bool should;
    if (!check_item(r, json_array_get(list, i), i, &q, &should))
      continue;
    uint64_t h = upk_fnv1a(UPK_FNV1A_INIT, q, strlen(q));
    size_t k = 0;
    while (k < out->n && (hash[k] != h || strcmp(out->items[k].query, q) != 0))
      k++;
    if (k < out->n && out->items[k].should_trigger == should) {
      report(r, UPK_SEV_WARNING, "eval/duplicate",
             "queries[%zu]: the same query as queries[%zu]; left out", i, where[k]);
    } else if (k < out->n) {
      report(r, UPK_SEV_ERROR, "eval/duplicate",
             "queries[%zu]: the same query as queries[%zu] with the other should_trigger; "
             "left out",
             i, where[k]);
    } else {
      where[out->n] = i;
      hash[out->n] = h;
      rc = push(out, q, should);
    }
  }
  free(where);
  free(hash);
  return rc;
}

int upk_trigger_queries_parse(const char *text, size_t len, upk_trigger_set *out,
                              upk_diags *diags) {
  memset(out, 0, sizeof *out);
  reader r = {.diags = diags};
  json_error_t err;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  if (!root) {
    report(&r, UPK_SEV_ERROR, "eval/invalid-json",
           "queries: not valid JSON: %s (line %d, column %d)", err.text, err.line, err.column);
    return -EINVAL;
  }
  json_t *list = json_is_object(root) ? json_object_get(root, "queries") : root;
  int rc = 0;
  if (!json_is_array(list))
    report(&r, UPK_SEV_ERROR, "eval/wrong-type",
           "queries: expected a list of {\"query\", \"should_trigger\"} or {\"queries\": [...]}");
  else
    rc = read_items(&r, list, out);
  json_decref(root);
  if (rc) {
    upk_trigger_set_free(out);
    return rc;
  }
  return r.bad ? -EINVAL : 0;
}

int upk_trigger_queries_read(const char *path, upk_trigger_set *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  size_t len;
  char *text = NULL;
  int e = upk_read_in_dir(path, FILE_MAX, &text, &len); /* no link, no FIFO, capped */
  if (e) {
    if (e == -ENOMEM)
      return -ENOMEM;
    upk_diags_add(diags, UPK_SEV_ERROR, "eval/unreadable", SOURCE, upk_skill_whole_file(),
                  "Cannot read %s: %s", path, upk_read_error(e));
    return e;
  }
  int rc = upk_trigger_queries_parse(text, len, out, diags);
  free(text);
  return rc;
}

/* ---- split --------------------------------------------------------------- */

/* splitmix64's finaliser, as evalcase_io.c ranks cases. */
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* FNV-1a over the query, keyed by the seed, then mixed. */
static uint64_t query_key(uint64_t seed, const char *s) {
  uint64_t h = upk_fnv1a(UPK_FNV1A_INIT ^ mix64(seed + 0x9e3779b97f4a7c15ULL), s, strlen(s));
  return mix64(h);
}

typedef struct {
  uint64_t key;
  const char *query;
  size_t idx;
  bool should;
} ranked;

/* Positives first, then by key; the query and index only break hash ties. */
static int by_class_key(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->should != y->should)
    return x->should ? -1 : 1;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  int c = strcmp(x->query, y->query);
  return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int by_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* run_loop.py: max(1, int(len(group) * holdout)), for a non-empty group. */
static size_t held_out(size_t n, double holdout) {
  if (n == 0 || holdout <= 0)
    return 0;
  size_t k = (size_t)floor((double)n * holdout);
  return k < 1 ? 1 : k;
}

int upk_trigger_split(const upk_trigger_set *s, uint64_t seed, double holdout, size_t **train,
                      size_t *n_train, size_t **test, size_t *n_test) {
  *train = *test = NULL;
  *n_train = *n_test = 0;
  if (!(holdout >= 0 && holdout < 1))
    return -EINVAL;
  size_t pos = 0;
  for (size_t i = 0; i < s->n; i++)
    pos += s->items[i].should_trigger;
  size_t k_pos = held_out(pos, holdout), k_neg = held_out(s->n - pos, holdout);
  ranked *r = upk_xcalloc(s->n + 1, sizeof *r);
  *train = upk_xcalloc(s->n - k_pos - k_neg + 1, sizeof **train);
  *test = upk_xcalloc(k_pos + k_neg + 1, sizeof **test);
  if (!r || !*train || !*test) {
    free(r);
    free(*train);
    free(*test);
    *train = *test = NULL;
    return -ENOMEM;
  }
  for (size_t i = 0; i < s->n; i++) {
    const upk_trigger_query *q = &s->items[i];
    r[i] = (ranked){query_key(seed, q->query), q->query, i, q->should_trigger};
  }
  qsort(r, s->n, sizeof *r, by_class_key);
  for (size_t i = 0; i < s->n; i++) {
    bool held = i < pos ? i < k_pos : i - pos < k_neg;
    if (held)
      (*test)[(*n_test)++] = r[i].idx;
    else
      (*train)[(*n_train)++] = r[i].idx;
  }
  free(r);
  qsort(*train, *n_train, sizeof **train, by_size);
  qsort(*test, *n_test, sizeof **test, by_size);
  return 0;
}

/* ---- scores -------------------------------------------------------------- */

double upk_trigger_rate(upk_trigger_outcome o) {
  return o.runs ? (double)o.triggers / (double)o.runs : NAN;
}

bool upk_trigger_pass(bool should_trigger, upk_trigger_outcome o, double threshold) {
  if (o.runs == 0 || o.triggers > o.runs)
    return false;
  double rate = upk_trigger_rate(o);
  return should_trigger ? rate >= threshold : rate < threshold;
}

static void ratios(upk_trigger_counts *c) {
  size_t all = c->tp + c->fp + c->fn + c->tn;
  c->precision = c->tp + c->fp ? (double)c->tp / (double)(c->tp + c->fp) : 1.0;
  c->recall = c->tp + c->fn ? (double)c->tp / (double)(c->tp + c->fn) : 1.0;
  c->accuracy = all ? (double)(c->tp + c->tn) / (double)all : 0.0;
}

int upk_trigger_tally(const upk_trigger_set *s, const upk_trigger_outcome *outcomes,
                      const size_t *idx, size_t n, double threshold, upk_trigger_score *out) {
  memset(out, 0, sizeof *out);
  if (!idx)
    n = s->n;
  if (isnan(threshold) || (n && !outcomes))
    return -EINVAL;
  bool *seen = upk_xcalloc(s->n + 1, sizeof *seen);
  int rc = 0;
  for (size_t j = 0; j < n && rc == 0; j++) {
    size_t i = idx ? idx[j] : j;
    if (i >= s->n || seen[i] || outcomes[i].triggers > outcomes[i].runs) {
      rc = -EINVAL;
      break;
    }
    seen[i] = true;
    upk_trigger_outcome o = outcomes[i];
    if (o.runs == 0) {
      out->not_run++;
      continue;
    }
    bool should = s->items[i].should_trigger, pass = upk_trigger_pass(should, o, threshold);
    out->total++;
    if (should) {
      *(pass ? &out->queries.tp : &out->queries.fn) += 1;
      out->runs.tp += o.triggers;
      out->runs.fn += o.runs - o.triggers;
    } else {
      *(pass ? &out->queries.tn : &out->queries.fp) += 1;
      out->runs.fp += o.triggers;
      out->runs.tn += o.runs - o.triggers;
    }
  }
  free(seen);
  if (rc) {
    memset(out, 0, sizeof *out);
    return rc;
  }
  out->passed = out->queries.tp + out->queries.tn;
  out->failed = out->total - out->passed;
  ratios(&out->queries);
  ratios(&out->runs);
  return 0;
}

int upk_trigger_best(const upk_trigger_score *train, const upk_trigger_score *test, size_t k,
                     size_t *best) {
  if (k == 0 || !train)
    return -EINVAL;
  const upk_trigger_score *by = test ? test : train;
  size_t b = 0;
  for (size_t i = 1; i < k; i++)
    if (by[i].passed > by[b].passed) /* strictly more: the earlier keeps a tie */
      b = i;
  *best = b;
  return 0;
}

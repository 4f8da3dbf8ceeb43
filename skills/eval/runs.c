/* Evaluation runs: creating a run, writing transcripts and the summary
 * (see runs.h). Listing, showing and CSV are in runs_read.c. */
#include "skills/eval/runs.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "skills/fsutil.h"
#include "common/xalloc.h"

/* Write a JSON value (stolen) atomically, indent 2, final newline. */
/* Runs are the user's own, like the trust store: prompts, answers, transcripts and what the
 * agents did, readable by no one else (0700 directories, 0600 files). */
#define RUN_DIR_MODE 0700
#define RUN_FILE_MODE 0600

static int write_json(const char *path, json_t *v) {
  char *text = v ? json_dumps(v, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
  json_decref(v);
  if (!text)
    return -ENOMEM;
  size_t n = strlen(text);
  char *out = upk_xrealloc(text, n + 2);
  memcpy(out + n, "\n", 2);
  int rc = upk_write_file_atomic(path, out, n + 1);
  free(out); /* private, as its directory is: a transcript holds prompts and answers */
  return rc ? rc : chmod(path, RUN_FILE_MODE) ? -errno : 0;
}

/* ---- ids ----------------------------------------------------------------- */

bool upk_run_id_ok(const char *id) {
  size_t n = strlen(id);
  if (n < 18 || n >= UPK_RUN_ID_MAX || id[8] != 'T' || id[15] != 'Z' || id[16] != '-')
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = id[i];
    bool digit = c >= '0' && c <= '9', hex = digit || (c >= 'a' && c <= 'f');
    if ((i < 8 || (i > 8 && i < 15)) ? !digit : i > 16 ? !hex : false)
      return false;
  }
  return true;
}

static int random_suffix(char out[9]) {
  uint32_t r;
  ssize_t got = getrandom(&r, sizeof r, 0);
  if (got != (ssize_t)sizeof r)
    return got < 0 ? -errno : -EIO;
  snprintf(out, 9, "%08x", r);
  return 0;
}

/* mkdir fails with EEXIST when another run took the name: draw again. */
static int make_run_dir(const char *runs_dir, upk_run *out) {
  time_t now = time(NULL);
  struct tm tm;
  char stamp[20];
  if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm))
    return -EINVAL;
  for (int attempt = 0; attempt < 64; attempt++) {
    char suffix[9];
    int rc = random_suffix(suffix);
    if (rc)
      return rc;
    snprintf(out->id, sizeof out->id, "%s-%s", stamp, suffix);
    free(out->dir);
    out->dir = upk_xasprintf("%s/%s", runs_dir, out->id);
    if (mkdir(out->dir, RUN_DIR_MODE) == 0)
      return 0;
    if (errno != EEXIST)
      return -errno;
  }
  return -EEXIST;
}

static json_t *str_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *meta_json(const upk_run *run, const upk_run_meta *m) {
  char created[32];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
  json_t *models = json_array();
  for (size_t i = 0; models && i < m->n_models; i++)
    if (json_array_append_new(models, json_string(m->models[i]))) {
      json_decref(models);
      return NULL;
    }
  return json_pack("{s:s, s:s, s:o, s:o, s:o, s:I, s:b, s:I, s:s}", "id", run->id, "createdAt",
                   created, "kind", str_or_null(m->kind), "skill", str_or_null(m->skill), "models",
                   models, "runs", (json_int_t)m->runs, "baseline", m->baseline, "cases",
                   (json_int_t)m->n_cases, "format", "upskilld-run/1");
}

int upk_run_create(const char *runs_dir, const upk_run_meta *meta, upk_run *out) {
  memset(out, 0, sizeof *out);
  int rc = upk_mkdir_p(runs_dir, RUN_DIR_MODE);
  rc = rc ? rc : make_run_dir(runs_dir, out);
  bool made = rc == 0; /* ours to delete again if the rest fails */
  char *path = NULL, *tdir = NULL;
  if (rc == 0) {
    path = upk_xasprintf("%s/run.json", out->dir);
    tdir = upk_xasprintf("%s/transcripts", out->dir);
  }
  if (rc == 0 && mkdir(tdir, RUN_DIR_MODE) != 0)
    rc = -errno;
  rc = rc ? rc : write_json(path, meta_json(out, meta));
  free(path);
  free(tdir);
  if (rc && made)
    upk_rmtree_at(AT_FDCWD, out->dir); /* a full or read-only disk leaves no half run */
  if (rc)
    upk_run_free(out);
  return rc;
}

void upk_run_free(upk_run *run) {
  free(run->dir);
  memset(run, 0, sizeof *run);
}

/* ---- transcripts --------------------------------------------------------- */

/* A model name as one path component: [A-Za-z0-9._-] kept, the rest '_'; if
 * anything changed, a hash of the real name keeps "a/b" and "a_b" apart. */
void upk_run_model_component(const char *model, char *out, size_t cap) {
  size_t n = 0;
  bool changed = !*model || model[0] == '.';
  uint32_t h = 2166136261u;
  for (const char *p = model; *p && n + 10 < cap; p++) {
    char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    changed |= !ok;
    out[n++] = ok ? c : '_';
    h = (h ^ (unsigned char)c) * 16777619u;
  }
  out[n] = '\0';
  if (changed)
    snprintf(out + n, cap - n, "-%08x", h);
}

static json_t *kernels_json(const upk_kcheck_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < r->n_kernels; i++) {
    const upk_kcheck_kernel *k = &r->kernels[i];
    if (json_array_append_new(a, json_pack("{s:o, s:i, s:I, s:I}", "name", str_or_null(k->name),
                                           "registers", k->registers, "spillStores",
                                           (json_int_t)k->spill_stores, "spillLoads",
                                           (json_int_t)k->spill_loads))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

static json_t *report_json(const upk_assert_report *r, json_t **checks) {
  json_t *list = json_array();
  *checks = json_array();
  int rc = !list || !*checks;
  for (size_t i = 0; !rc && i < r->n; i++) {
    const upk_assert_result *a = &r->results[i];
    rc = json_array_append_new(
        list, json_pack("{s:s, s:o, s:s, s:o}", "type", upk_assert_kind_name(a->kind), "label",
                        str_or_null(a->label), "status", upk_assert_status_name(a->status),
                        "reason", str_or_null(a->reason)));
  }
  for (size_t i = 0; !rc && i < r->n_requests; i++) {
    const upk_kcheck_req *q = &r->requests[i];
    upk_assert_status st = q->done ? q->result.status : UPK_ASSERT_PENDING;
    rc = json_array_append_new(
        *checks, json_pack("{s:I, s:s, s:s, s:o, s:o}", "block", (json_int_t)q->block + 1, "arch",
                           q->arch, "status", upk_assert_status_name(st), "reason",
                           str_or_null(q->result.reason), "kernels", kernels_json(&q->result)));
  }
  if (rc) {
    json_decref(list);
    json_decref(*checks);
    *checks = NULL;
    return NULL;
  }
  return list;
}

static json_t *transcript_json(const upk_run *run, const upk_transcript *t) {
  json_t *asserts = json_array(), *checks = json_array();
  upk_assert_status verdict = UPK_ASSERT_ERROR;
  size_t passed = 0, total = 0;
  if (t->report) {
    json_decref(asserts);
    json_decref(checks);
    asserts = report_json(t->report, &checks);
    verdict = upk_assert_report_verdict(t->report);
    passed = t->report->passed;
    total = t->report->n;
  }
  if (t->error || !t->answer)
    verdict = UPK_ASSERT_ERROR; /* no answer: never a pass */
  if (!asserts || !checks) {
    json_decref(asserts);
    json_decref(checks);
    return NULL;
  }
  return json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:{s:I, s:I}, s:f, s:s, "
                   "s:I, s:I, s:o, s:o}",
                   "runId", run->id, "model", t->model, "condition",
                   t->with_skill ? "with_skill" : "baseline", "run", (json_int_t)t->run, "case",
                   (json_int_t)t->case_idx, "systemPrompt", str_or_null(t->system_prompt), "prompt",
                   str_or_null(t->prompt), "answer", str_or_null(t->answer), "error",
                   str_or_null(t->error), "tokens", "input", (json_int_t)t->input_tokens, "output",
                   (json_int_t)t->output_tokens, "durationMs", t->duration_ms, "verdict",
                   upk_assert_status_name(verdict), "assertionsPassed", (json_int_t)passed,
                   "assertionsTotal", (json_int_t)total, "assertions", asserts, "kernelChecks",
                   checks);
}

int upk_run_write_transcript(const upk_run *run, const upk_transcript *t) {
  if (!run->dir || !t->model)
    return -EINVAL;
  char comp[160], *path = NULL;
  upk_run_model_component(t->model, comp, sizeof comp);
  char *dir = upk_xasprintf("%s/transcripts/%s", run->dir, comp);
  int rc = mkdir(dir, RUN_DIR_MODE) == 0 || errno == EEXIST ? 0 : -errno;
  if (rc == 0)
    path = upk_xasprintf("%s/%s-r%u-c%zu.json", dir, t->with_skill ? "with_skill" : "baseline",
                         t->run, t->case_idx);
  json_t *o = rc ? NULL : transcript_json(run, t);
  if (o && t->agent)
    json_object_set(o, "agent", (json_t *)t->agent);
  rc = rc ? rc : write_json(path, o);
  free(dir);
  free(path);
  return rc;
}

int upk_run_write_summary(const upk_run *run, const char *summary_json) {
  json_t *v = json_loads(summary_json, 0, NULL);
  if (!v)
    return -EINVAL;
  char *path = upk_xasprintf("%s/summary.json", run->dir);
  int rc = write_json(path, v);
  free(path);
  return rc;
}

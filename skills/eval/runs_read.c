/* Evaluation runs: listing, showing and CSV export (see runs.h). */
#include "skills/eval/runs.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xalloc.h"

static json_t *load(const char *dir, const char *name) {
  char *path = upk_xasprintf("%s/%s", dir, name);
  json_t *v = json_load_file(path, 0, NULL);
  free(path);
  return v;
}

static char *dup_str(json_t *obj, const char *key) {
  const char *s = json_string_value(json_object_get(obj, key));
  return s ? upk_xstrdup(s) : NULL;
}

/* Call fn for each transcript file of a run, in name order per model. */
typedef int (*transcript_fn)(void *ctx, json_t *t);

static int scan_names(const char *dir, struct dirent ***names) {
  int n = scandir(dir, names, NULL, alphasort);
  return n < 0 ? (errno == ENOENT ? 0 : -errno) : n;
}

static void free_names(struct dirent **names, int n) {
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

static int each_transcript_in(const char *mdir, transcript_fn fn, void *ctx) {
  struct dirent **names = NULL;
  int n = scan_names(mdir, &names), rc = n < 0 ? n : 0;
  for (int i = 0; rc == 0 && i < n; i++) {
    size_t len = strlen(names[i]->d_name);
    if (len < 6 || strcmp(names[i]->d_name + len - 5, ".json") != 0)
      continue; /* ".", "..", temporary files */
    json_t *t = load(mdir, names[i]->d_name);
    if (t)
      rc = fn(ctx, t);
    json_decref(t);
  }
  free_names(names, n > 0 ? n : 0);
  return rc;
}

static int each_transcript(const char *run_dir, transcript_fn fn, void *ctx) {
  char *tdir = upk_xasprintf("%s/transcripts", run_dir);
  struct dirent **names = NULL;
  int n = scan_names(tdir, &names), rc = n < 0 ? n : 0;
  for (int i = 0; rc == 0 && i < n; i++) {
    char *mdir = NULL;
    if (names[i]->d_name[0] == '.')
      continue;
    mdir = upk_xasprintf("%s/%s", tdir, names[i]->d_name);
    rc = each_transcript_in(mdir, fn, ctx);
    free(mdir);
  }
  free_names(names, n > 0 ? n : 0);
  free(tdir);
  return rc;
}

/* ---- list ---------------------------------------------------------------- */

static int count_one(void *ctx, json_t *t) {
  (void)t;
  (*(size_t *)ctx)++;
  return 0;
}

static int info_of(const char *runs_dir, const char *id, upk_run_info *info) {
  memset(info, 0, sizeof *info);
  snprintf(info->id, sizeof info->id, "%s", id);
  char *dir = upk_xasprintf("%s/%s", runs_dir, id);
  json_t *meta = load(dir, "run.json"), *summary = load(dir, "summary.json");
  info->has_summary = summary != NULL;
  info->failed = !strcmp(json_string_value(json_object_get(summary, "status")) ?: "", "failed");
  info->kind = dup_str(meta, "kind");
  info->skill = dup_str(meta, "skill");
  info->created_at = dup_str(meta, "createdAt");
  json_t *models = json_object_get(meta, "models");
  info->models = upk_xcalloc(json_array_size(models) + 1, sizeof *info->models);
  int rc = info->models ? 0 : -ENOMEM;
  for (size_t i = 0; rc == 0 && i < json_array_size(models); i++) {
    const char *m = json_string_value(json_array_get(models, i));
    if (m && !(info->models[info->n_models++] = upk_xstrdup(m)))
      rc = -ENOMEM;
  }
  rc = rc ? rc : each_transcript(dir, count_one, &info->n_transcripts);
  json_decref(meta);
  json_decref(summary);
  free(dir);
  return rc;
}

void upk_run_infos_free(upk_run_info *v, size_t n) {
  for (size_t i = 0; v && i < n; i++) {
    free(v[i].kind);
    free(v[i].skill);
    free(v[i].created_at);
    for (size_t j = 0; j < v[i].n_models; j++)
      free(v[i].models[j]);
    free(v[i].models);
  }
  free(v);
}

int upk_runs_list(const char *runs_dir, upk_run_info **out, size_t *n) {
  *out = NULL;
  *n = 0;
  struct dirent **names = NULL;
  int count = scan_names(runs_dir, &names), rc = count < 0 ? count : 0;
  if (rc == 0 && !(*out = upk_xcalloc((size_t)count + 1, sizeof **out)))
    rc = -ENOMEM;
  /* alphasort is ascending and ids sort by time: walk backwards, newest first. */
  for (int i = count - 1; rc == 0 && i >= 0; i--) {
    if (!upk_run_id_ok(names[i]->d_name))
      continue;
    rc = info_of(runs_dir, names[i]->d_name, &(*out)[*n]);
    (*n)++;
  }
  free_names(names, count > 0 ? count : 0);
  if (rc) {
    upk_run_infos_free(*out, *n);
    *out = NULL;
    *n = 0;
  }
  return rc;
}

/* ---- show ---------------------------------------------------------------- */

static int collect(void *ctx, json_t *t) {
  return json_array_append(ctx, t) ? -ENOMEM : 0;
}

int upk_runs_show(const char *runs_dir, const char *id, bool transcripts, char **json_out) {
  *json_out = NULL;
  if (!upk_run_id_ok(id))
    return -EINVAL;
  char *dir = upk_xasprintf("%s/%s", runs_dir, id);
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    free(dir);
    return -ENOENT;
  }
  json_t *meta = load(dir, "run.json"), *summary = load(dir, "summary.json");
  json_t *list = transcripts ? json_array() : NULL;
  int rc = transcripts && !list ? -ENOMEM : 0;
  rc = rc || !list ? rc : each_transcript(dir, collect, list);
  json_t *root =
      rc ? NULL
         : json_pack("{s:s, s:o, s:o, s:o}", "id", id, "run", meta ? meta : json_null(), "summary",
                     summary ? summary : json_null(), "transcripts", list ? list : json_null());
  if (rc) {
    json_decref(meta);
    json_decref(summary);
    json_decref(list);
  }
  if (root && !(*json_out = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10))))
    rc = -ENOMEM;
  if (!rc && !root)
    rc = -ENOMEM;
  json_decref(root);
  free(dir);
  return rc;
}

/* ---- CSV ----------------------------------------------------------------- */

int upk_csv_cell(FILE *out, const char *text) {
  if (!text)
    return 0;
  if (!strpbrk(text, ",\"\r\n"))
    return fputs(text, out) < 0 ? -EIO : 0;
  if (fputc('"', out) == EOF)
    return -EIO;
  for (const char *p = text; *p; p++)
    if ((*p == '"' && fputc('"', out) == EOF) || fputc(*p, out) == EOF)
      return -EIO;
  return fputc('"', out) == EOF ? -EIO : 0;
}

/* A text cell a spreadsheet must not run as a formula (OWASP's CSV injection). */
static int text_cell(FILE *out, const char *text) {
  if (text && *text && strchr("=+-@\t\r", *text)) {
    char *guarded = upk_xasprintf("'%s", text);
    int rc = upk_csv_cell(out, guarded);
    free(guarded);
    return rc;
  }
  return upk_csv_cell(out, text);
}

typedef struct {
  FILE *out;
  const char *id;
  json_t *meta;
} csv_ctx;

static int csv_row(void *vctx, json_t *t) {
  csv_ctx *c = vctx;
  json_t *tok = json_object_get(t, "tokens");
  const char *texts[] = {
      c->id,
      json_string_value(json_object_get(c->meta, "createdAt")),
      json_string_value(json_object_get(c->meta, "kind")),
      json_string_value(json_object_get(c->meta, "skill")),
      json_string_value(json_object_get(t, "model")),
      json_string_value(json_object_get(t, "condition")),
  };
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < 6; i++)
    rc = text_cell(c->out, texts[i]) || fputc(',', c->out) == EOF ? -EIO : 0;
  if (rc == 0 && fprintf(c->out, "%lld,%lld,%s,%lld,%lld,%lld,%lld,%.3f,",
                         json_integer_value(json_object_get(t, "run")),
                         json_integer_value(json_object_get(t, "case")),
                         json_string_value(json_object_get(t, "verdict"))
                             ? json_string_value(json_object_get(t, "verdict"))
                             : "",
                         json_integer_value(json_object_get(t, "assertionsPassed")),
                         json_integer_value(json_object_get(t, "assertionsTotal")),
                         json_integer_value(json_object_get(tok, "input")),
                         json_integer_value(json_object_get(tok, "output")),
                         json_number_value(json_object_get(t, "durationMs"))) < 0)
    rc = -EIO;
  rc = rc ? rc : text_cell(c->out, json_string_value(json_object_get(t, "error")));
  rc = rc || fputc(',', c->out) == EOF ? (rc ? rc : -EIO) : 0;
  rc = rc ? rc : text_cell(c->out, json_string_value(json_object_get(t, "prompt")));
  /* RFC 4180 ends records with CRLF. */
  return rc || fputs("\r\n", c->out) < 0 ? (rc ? rc : -EIO) : 0;
}

static int csv_run(const char *runs_dir, const char *id, FILE *out) {
  if (!upk_run_id_ok(id))
    return -EINVAL;
  char *dir = upk_xasprintf("%s/%s", runs_dir, id);
  csv_ctx c = {out, id, load(dir, "run.json")};
  int rc = c.meta ? each_transcript(dir, csv_row, &c) : -ENOENT;
  json_decref(c.meta);
  free(dir);
  return rc;
}

int upk_runs_export_csv(const char *runs_dir, const char *const *ids, size_t n_ids, FILE *out) {
  if (fputs("run_id,created_at,kind,skill,model,condition,run,case,verdict,assertions_passed,"
            "assertions_total,input_tokens,output_tokens,duration_ms,error,prompt\r\n",
            out) < 0)
    return -EIO;
  if (ids) {
    for (size_t i = 0; i < n_ids; i++) {
      int rc = csv_run(runs_dir, ids[i], out);
      if (rc)
        return rc;
    }
    return 0;
  }
  upk_run_info *runs;
  size_t n;
  int rc = upk_runs_list(runs_dir, &runs, &n);
  for (size_t i = n; rc == 0 && i > 0; i--) /* oldest first, as the runs happened */
    rc = csv_run(runs_dir, runs[i - 1].id, out);
  upk_run_infos_free(runs, n);
  return rc;
}

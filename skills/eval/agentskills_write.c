/* Agent Skills' eval layout written (agentskills.h): eval directories with
 * eval_metadata.json, and per run outputs/ (answer, transcript, workspace
 * files, metrics.json), grading.json and timing.json, all in a temporary
 * sibling renamed into place at the end. benchmark.* and the JSON helpers are
 * agentskills_bench.c. */
#include "skills/eval/agentskills_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/fsutil.h"
#include "common/xalloc.h"

static const char *const CONFIGS[] = {"with_skill", "without_skill", "old_skill"};
/* What outputs/ holds of ours; a workspace file of the same name is left out. */
static const char *const RESERVED[] = {"answer.md", "metrics.json", "transcript.jsonl"};

typedef struct writer {
  char *err;
  size_t errlen;
  const char *staging; /* the temporary directory being filled */
} writer;

static int fail(writer *w, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(writer *w, int rc, const char *fmt, ...) {
  if (w->err && w->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, w->errlen, fmt, ap);
    va_end(ap);
  }
  return rc;
}

int upk_agentskills_eval_dir(int eval_id, const char *eval_name, char *buf, size_t len) {
  char slug[65], plain[32];
  size_t n = 0;
  snprintf(plain, sizeof plain, "eval-%d", eval_id);
  for (const char *p = eval_name ? eval_name : ""; *p && n < sizeof slug - 1; p++) {
    char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (ok || (n && slug[n - 1] != '-'))
      slug[n++] = ok ? c : '-';
  }
  while (n && (slug[n - 1] == '-' || slug[n - 1] == '.'))
    n--;
  slug[n] = 0;
  if (!n || strcmp(slug, plain) == 0 || slug[0] == '.')
    return snprintf(buf, len, "%s", plain);
  return snprintf(buf, len, "%s-%s", plain, slug);
}

/* ---- checks -------------------------------------------------------------- */

static bool known_config(const char *c) {
  for (size_t i = 0; c && i < sizeof CONFIGS / sizeof *CONFIGS; i++)
    if (strcmp(c, CONFIGS[i]) == 0)
      return true;
  return false;
}

static bool same(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static int check_run(writer *w, const upk_as_run *r, size_t i) {
  if (!known_config(r->configuration))
    return fail(w, -EINVAL,
                "runs[%zu]: configuration '%s' is not with_skill, without_skill "
                "or old_skill",
                i, r->configuration ? r->configuration : "(null)");
  if (r->run_number < 1 || !r->prompt)
    return fail(w, -EINVAL, "runs[%zu]: %s", i, r->prompt ? "run_number starts at 1" : "no prompt");
  if ((r->n_expectations && !r->expectations) ||
      (r->n_tools && (!r->tool_names || !r->tool_counts)) ||
      (r->n_files_created && !r->files_created))
    return fail(w, -EINVAL, "runs[%zu]: a count without its array", i);
  for (size_t j = 0; j < r->n_expectations; j++)
    if (!r->expectations[j].text)
      return fail(w, -EINVAL, "runs[%zu]: expectations[%zu] has no text", i, j);
  for (size_t j = 0; j < r->n_tools; j++)
    if (!r->tool_names[j])
      return fail(w, -EINVAL, "runs[%zu]: tool_names[%zu] is NULL", i, j);
  for (size_t j = 0; j < r->n_files_created; j++)
    if (!upk_rel_path_ok(r->files_created[j]))
      return fail(w, -EINVAL, "runs[%zu]: files_created '%s' is not a relative path", i,
                  r->files_created[j] ? r->files_created[j] : "(null)");
  return 0;
}

static int check_runs(writer *w, const upk_as_run *runs, size_t n) {
  if (!runs || !n)
    return fail(w, -EINVAL, "no runs to write");
  for (size_t i = 0; i < n; i++) {
    const upk_as_run *r = &runs[i];
    int rc = check_run(w, r, i);
    if (rc)
      return rc;
    for (size_t j = 0; j < i; j++) {
      const upk_as_run *o = &runs[j];
      if (o->eval_id != r->eval_id)
        continue;
      if (!same(o->eval_name, r->eval_name) || strcmp(o->prompt, r->prompt) != 0)
        return fail(w, -EINVAL, "runs[%zu] and runs[%zu]: eval %d has two %s", j, i, r->eval_id,
                    same(o->eval_name, r->eval_name) ? "prompts" : "names");
      if (o->run_number == r->run_number && strcmp(o->configuration, r->configuration) == 0)
        return fail(w, -EINVAL, "runs[%zu] and runs[%zu]: eval %d, %s, run %u twice", j, i,
                    r->eval_id, r->configuration, r->run_number);
    }
  }
  return 0;
}

/* ---- eval_metadata.json -------------------------------------------------- */

static json_t *eval_metadata(const upk_as_run *runs, size_t n, size_t first) {
  const upk_as_run *r = &runs[first];
  char name[32];
  snprintf(name, sizeof name, "eval-%d", r->eval_id);
  json_t *asserts = json_array();
  for (size_t i = first; asserts && i < n; i++) {
    for (size_t j = 0; runs[i].eval_id == r->eval_id && j < runs[i].n_expectations; j++) {
      const char *t = runs[i].expectations[j].text;
      bool dup = false;
      for (size_t k = 0; k < json_array_size(asserts) && !dup; k++)
        dup = same(json_string_value(json_array_get(asserts, k)), t);
      if (!dup && json_array_append_new(asserts, upk__as_str(t))) {
        json_decref(asserts);
        return NULL;
      }
    }
  }
  return asserts ? json_pack("{s:i, s:o, s:o, s:o}", "eval_id", r->eval_id, "eval_name",
                             upk__as_str(r->eval_name ? r->eval_name : name), "prompt",
                             upk__as_str(r->prompt), "assertions", asserts)
                 : NULL;
}

/* The same file in the eval's directory (aggregate_benchmark.py reads it
 * there) and in each configuration's (generate_review.py looks there). */
static int write_evals(writer *w, const upk_as_run *runs, size_t n, const upk__as_row *rows) {
  for (size_t i = 0; i < n; i++) {
    bool first = true, first_cfg = true;
    for (size_t j = 0; j < i; j++) {
      first &= runs[j].eval_id != runs[i].eval_id;
      first_cfg &= !(runs[j].eval_id == runs[i].eval_id &&
                     strcmp(runs[j].configuration, runs[i].configuration) == 0);
    }
    char rel[160];
    for (int level = 0; level < 2; level++) {
      if (level == 0 ? !first : !first_cfg)
        continue;
      snprintf(rel, sizeof rel, "%s%s%s", rows[i].eval_dir, level ? "/" : "",
               level ? runs[i].configuration : "");
      int fd = upk_open_beneath(w->staging, rel, true);
      int rc = fd < 0 ? fd : upk__as_dump_at(fd, "eval_metadata.json", eval_metadata(runs, n, i));
      if (fd >= 0)
        close(fd);
      if (rc)
        return fail(w, rc, "cannot write %s/eval_metadata.json: %s", rel, strerror(-rc));
    }
  }
  return 0;
}

/* ---- one run ------------------------------------------------------------- */

/* Characters of text (UTF-8 code points; each stray byte counts one). */
static long long chars(const char *s, size_t len) {
  long long n = 0;
  for (size_t i = 0; i < len; i++)
    n += ((unsigned char)s[i] & 0xC0) != 0x80;
  return n;
}

/* Read the listed files of the workspace into t. */
static int load_listed(writer *w, const upk_as_run *r, upk_tree *t) {
  for (size_t i = 0; i < r->n_files_created; i++) {
    const char *f = r->files_created[i], *slash = strrchr(f, '/');
    bool dup = false;
    for (size_t j = 0; j < t->n && !dup; j++)
      dup = strcmp(t->files[j].rel, f) == 0;
    if (dup)
      continue;
    char *dir = slash ? upk_xstrndup(f, (size_t)(slash - f)) : NULL, *data = NULL;
    if (slash && !dir)
      return -ENOMEM;
    int fd = upk_open_beneath(r->workspace, dir, false), rc = fd < 0 ? fd : 0;
    free(dir);
    size_t len = 0;
    if (fd >= 0) {
      rc = upk_read_file_at(fd, slash ? slash + 1 : f, UPK_TREE_MAX_BYTES - t->bytes, &data, &len);
      close(fd);
    }
    rc = rc ? rc : upk_tree_add(t, f, data, len, false);
    free(data);
    if (rc)
      return fail(w, rc, "cannot copy '%s' of workspace %s: %s", f, r->workspace,
                  rc == -EFBIG ? "the files are over 64 MiB" : strerror(-rc));
  }
  return 0;
}

static int load_all(writer *w, const upk_as_run *r, upk_tree *t) {
  upk_diags d = {0};
  int fd = open(r->workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int rc = fd < 0 ? -errno : upk_tree_load(fd, t, &d);
  if (fd >= 0)
    close(fd);
  if (rc) {
    const char *why = strerror(-rc);
    for (size_t i = 0; i < d.len; i++)
      if (d.items[i].severity == UPK_SEV_ERROR) {
        why = d.items[i].message;
        break;
      }
    fail(w, rc, "cannot copy workspace %s: %s", r->workspace, why);
  }
  upk_diags_free(&d);
  return rc;
}

/* Copy the run's workspace files into outputs/ (fd out). */
static int copy_workspace(writer *w, const upk_as_run *r, int out, long long *out_chars,
                          json_t *created, json_t *skipped) {
  upk_tree t = {0};
  int rc = !r->workspace ? 0 : r->n_files_created ? load_listed(w, r, &t) : load_all(w, r, &t);
  size_t kept = 0;
  for (size_t i = 0; i < t.n; i++) { /* every entry is kept or freed, even after an error */
    upk_tree_file *f = &t.files[i];
    bool reserved = false;
    for (size_t k = 0; k < sizeof RESERVED / sizeof *RESERVED; k++)
      reserved |= strcmp(f->rel, RESERVED[k]) == 0;
    if (!reserved) {
      t.files[kept++] = *f;
      continue;
    }
    if (!rc && json_array_append_new(skipped, upk__as_str(f->rel)))
      rc = -ENOMEM;
    free(f->rel);
    free(f->data);
  }
  t.n = kept;
  const char *bad = NULL;
  rc = rc ? rc : upk_tree_check(&t, &bad); /* sorts too */
  if (rc && bad)
    fail(w, rc, "workspace %s: '%s' is both a file and a directory", r->workspace, bad);
  for (size_t i = 0; !rc && i < t.n; i++) {
    *out_chars += chars(t.files[i].data, t.files[i].len);
    if (json_array_append_new(created, upk__as_str(t.files[i].rel)))
      rc = -ENOMEM;
  }
  rc = rc ? rc : upk_tree_write(out, &t);
  if (rc && w->err && !*w->err)
    fail(w, rc, "cannot copy workspace %s: %s", r->workspace, strerror(-rc));
  upk_tree_free(&t);
  if (!rc && r->n_files_created && json_array_clear(created)) /* the agent's own list wins */
    rc = -ENOMEM;
  for (size_t i = 0; !rc && i < r->n_files_created; i++)
    if (json_array_append_new(created, upk__as_str(r->files_created[i])))
      rc = -ENOMEM;
  return rc;
}

static int copy_transcript(writer *w, const upk_as_run *r, int out, long long *n) {
  char *data = NULL;
  size_t len = 0;
  int rc = upk_read_file_at(AT_FDCWD, r->transcript_path, UPK_TREE_MAX_BYTES, &data, &len);
  rc = rc ? rc : upk_write_file_at(out, "transcript.jsonl", data, len, 0644);
  *n = rc ? 0 : chars(data, len);
  free(data);
  return rc ? fail(w, rc, "cannot copy transcript %s: %s", r->transcript_path,
                   rc == -EFBIG ? "it is over 64 MiB" : strerror(-rc))
            : 0;
}

static json_t *metrics(const upk_as_run *r, json_t *created, long long out_chars,
                       long long transcript_chars, long long *total) {
  json_t *tools = json_object(), *m = NULL;
  *total = 0;
  for (size_t i = 0; tools && i < r->n_tools; i++) {
    json_t *key = upk__as_str(r->tool_names[i]);
    const char *k = key ? json_string_value(key) : NULL;
    json_t *had = k ? json_object_get(tools, k) : NULL;
    long long c = (long long)r->tool_counts[i] + (had ? json_integer_value(had) : 0);
    *total += r->tool_counts[i];
    if (!k || json_object_set_new(tools, k, json_integer(c))) {
      json_decref(key);
      json_decref(tools);
      return NULL;
    }
    json_decref(key);
  }
  m = tools ? json_pack("{s:o, s:I}", "tool_calls", tools, "total_tool_calls", *total) : NULL;
  if (m && r->turns >= 0 && json_object_set_new(m, "total_steps", json_integer(r->turns)))
    goto fail;
  if (m && json_object_set(m, "files_created", created))
    goto fail;
  if (m && (json_object_set_new(m, "errors_encountered", json_integer(r->error ? 1 : 0)) ||
            json_object_set_new(m, "output_chars", json_integer(out_chars)) ||
            json_object_set_new(m, "transcript_chars", json_integer(transcript_chars))))
    goto fail;
  return m;
fail:
  json_decref(m);
  return NULL;
}

static long long total_tokens(const upk_as_run *r) {
  if (r->input_tokens < 0 && r->output_tokens < 0)
    return -1;
  return (r->input_tokens > 0 ? r->input_tokens : 0) +
         (r->output_tokens > 0 ? r->output_tokens : 0);
}

/* timing.json, or grading.json's timing (without total_duration_seconds:
 * see the header comment) when `grading`. */
static json_t *timing(const upk_as_run *r, bool grading) {
  json_t *t = json_object();
  int rc = !t;
  double secs = r->duration_ms >= 0 ? upk__as_round(r->duration_ms / 1000.0, 3) : -1;
  if (!grading && total_tokens(r) >= 0)
    rc |= json_object_set_new(t, "total_tokens", json_integer(total_tokens(r)));
  if (!grading && secs >= 0)
    rc |= json_object_set_new(t, "duration_ms", json_integer(llround(r->duration_ms))) ||
          json_object_set_new(t, "total_duration_seconds", json_real(secs));
  if (r->started_at)
    rc |= json_object_set_new(t, "executor_start", upk__as_str(r->started_at));
  if (r->ended_at)
    rc |= json_object_set_new(t, "executor_end", upk__as_str(r->ended_at));
  if (secs >= 0)
    rc |= json_object_set_new(t, "executor_duration_seconds", json_real(secs));
  if (rc) {
    json_decref(t);
    return NULL;
  }
  return t;
}

static json_t *opt_int(long long v) {
  return v >= 0 ? json_integer(v) : json_null();
}

static json_t *ours(const upk_as_run *r, json_t *skipped) {
  json_t *o =
      json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "model", upk__as_str(r->model),
                "skill_loaded", r->skill_loaded < 0 ? json_null() : json_boolean(r->skill_loaded),
                "error", upk__as_str(r->error), "input_tokens", opt_int(r->input_tokens),
                "output_tokens", opt_int(r->output_tokens), "turns", opt_int(r->turns), "cost_usd",
                r->cost_usd >= 0 ? json_real(r->cost_usd) : json_null());
  if (o && json_array_size(skipped) && json_object_set(o, "outputs_skipped", skipped)) {
    json_decref(o);
    return NULL;
  }
  return o;
}

static json_t *grading(const upk_as_run *r, json_t *metrics_json, json_t *skipped,
                       upk__as_row *row) {
  row->total = (long)r->n_expectations;
  row->passed = 0;
  for (size_t i = 0; i < r->n_expectations; i++)
    row->passed += r->expectations[i].passed;
  row->failed = row->total - row->passed;
  row->pass_rate = row->total ? upk__as_round((double)row->passed / (double)row->total, 4) : 0.0;
  json_t *exec = json_deep_copy(metrics_json);
  if (exec)
    json_object_del(exec, "files_created"); /* not in grading's execution_metrics */
  json_t *g = json_pack("{s:o, s:{s:i, s:i, s:i, s:f}, s:o, s:o}", "expectations",
                        upk__as_expectations(r), "summary", "passed", (int)row->passed, "failed",
                        (int)row->failed, "total", (int)row->total, "pass_rate", row->pass_rate,
                        "execution_metrics", exec, "timing", timing(r, true));
  /* A failed run is something to look at: the script copies these into the notes. */
  if (g && r->error &&
      json_object_set_new(g, "user_notes_summary",
                          json_pack("{s:[], s:[o], s:[]}", "uncertainties", "needs_review",
                                    upk__as_str(r->error), "workarounds"))) {
    json_decref(g);
    return NULL;
  }
  if (g && json_object_set_new(g, "upskilld", ours(r, skipped))) {
    json_decref(g);
    return NULL;
  }
  return g;
}

static int write_run(writer *w, const upk_as_run *r, upk__as_row *row) {
  char rel[200], outs[220];
  snprintf(rel, sizeof rel, "%s/%s/%s", row->eval_dir, r->configuration, row->run_dir);
  snprintf(outs, sizeof outs, "%s/outputs", rel);
  int dir = upk_open_beneath(w->staging, rel, true);
  int out = dir < 0 ? dir : upk_open_beneath(w->staging, outs, true);
  json_t *created = json_array(), *skipped = json_array(), *m = NULL;
  long long out_chars = 0, transcript_chars = 0;
  int rc = out < 0                ? fail(w, out, "cannot create %s: %s", outs, strerror(-out))
           : !created || !skipped ? -ENOMEM
                                  : copy_workspace(w, r, out, &out_chars, created, skipped);
  if (!rc && r->answer) {
    rc = upk_write_file_at(out, "answer.md", r->answer, strlen(r->answer), 0644);
    out_chars += chars(r->answer, strlen(r->answer));
  }
  if (!rc && r->transcript_path)
    rc = copy_transcript(w, r, out, &transcript_chars);
  if (!rc && !(m = metrics(r, created, out_chars, transcript_chars, &row->tool_calls)))
    rc = -ENOMEM;
  rc = rc ? rc : upk__as_dump_at(out, "metrics.json", json_incref(m));
  rc = rc ? rc : upk__as_dump_at(dir, "grading.json", grading(r, m, skipped, row));
  rc = rc ? rc : upk__as_dump_at(dir, "timing.json", timing(r, false));
  if (rc && w->err && !*w->err)
    fail(w, rc, "cannot write %s: %s", rel, strerror(-rc));
  long long tokens = total_tokens(r);
  row->time_seconds = r->duration_ms >= 0 ? upk__as_round(r->duration_ms / 1000.0, 3) : 0.0;
  row->tokens = tokens > 0 ? tokens : out_chars; /* the script's fallback */
  row->errors = r->error ? 1 : 0;
  json_decref(m);
  json_decref(created);
  json_decref(skipped);
  if (out >= 0)
    close(out);
  if (dir >= 0)
    close(dir);
  return rc;
}

/* ---- the whole layout ---------------------------------------------------- */

/* dir must be absent or an empty directory. */
static int check_target(writer *w, const char *dir) {
  struct stat st;
  if (stat(dir, &st) < 0)
    return errno == ENOENT ? 0 : fail(w, -errno, "%s: %s", dir, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return fail(w, -ENOTDIR, "%s exists and is not a directory", dir);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd < 0 ? NULL : fdopendir(fd);
  if (!d) {
    int rc = -errno;
    if (fd >= 0)
      close(fd);
    return fail(w, rc, "%s: %s", dir, strerror(-rc));
  }
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      rc = fail(w, -EEXIST, "%s is not empty: the layout is written into a new directory", dir);
  closedir(d);
  return rc;
}

static int write_all(writer *w, const char *skill_name, const char *skill_path,
                     const upk_as_run *runs, size_t n, upk__as_row *rows) {
  for (size_t i = 0; i < n; i++) {
    rows[i].run = &runs[i];
    upk_agentskills_eval_dir(runs[i].eval_id, runs[i].eval_name, rows[i].eval_dir,
                             sizeof rows[i].eval_dir);
    snprintf(rows[i].run_dir, sizeof rows[i].run_dir, "run-%u", runs[i].run_number);
  }
  int rc = write_evals(w, runs, n, rows);
  for (size_t i = 0; !rc && i < n; i++)
    rc = write_run(w, &runs[i], &rows[i]);
  int fd = rc ? -1 : open(w->staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (!rc && fd < 0)
    rc = fail(w, -errno, "%s: %s", w->staging, strerror(errno));
  rc = rc ? rc : upk__as_benchmark(fd, skill_name, skill_path, rows, n, w->err, w->errlen);
  rc = rc ? rc : upk_fsync_dir(fd);
  if (fd >= 0)
    close(fd);
  return rc;
}

int upk_agentskills_write(const char *dir, const char *skill_name, const char *skill_path,
                          const upk_as_run *runs, size_t n, char *err, size_t errlen) {
  writer w = {.err = err, .errlen = errlen};
  if (err && errlen)
    err[0] = 0;
  if (!dir || !*dir || !skill_name)
    return fail(&w, -EINVAL, "no directory or no skill name");
  char *target = upk_xstrdup(dir), *parent = NULL, *staging = NULL;
  const char *pdir = NULL; /* target's parent directory */
  size_t len = target ? strlen(target) : 0;
  while (len > 1 && target[len - 1] == '/')
    target[--len] = 0;
  upk__as_row *rows = upk_xcalloc(n + 1, sizeof *rows);
  int rc = !target ? -ENOMEM : check_runs(&w, runs, n);
  rc = rc ? rc : check_target(&w, target);
  if (!rc) {
    parent = upk_xstrdup(target);
    staging = upk_xasprintf("%s.tmp-XXXXXX", target);
  }
  if (!rc && (rc = upk_mkdir_p(pdir = dirname(parent), 0755)))
    fail(&w, rc, "cannot create %s: %s", pdir, strerror(-rc));
  if (!rc && !mkdtemp(staging)) {
    rc = fail(&w, -errno, "cannot create %s: %s", staging, strerror(errno));
    free(staging);
    staging = NULL;
  }
  if (!rc && chmod(staging, 0755) < 0) /* mkdtemp's 0700 would stay on the result */
    rc = fail(&w, -errno, "cannot chmod %s: %s", staging, strerror(errno));
  w.staging = staging;
  rc = rc ? rc : write_all(&w, skill_name, skill_path, runs, n, rows);
  if (!rc && rename(staging, target) < 0) /* replaces an empty directory, never a full one */
    rc = fail(&w, errno == ENOTEMPTY ? -EEXIST : -errno, "cannot rename %s to %s: %s", staging,
              target, strerror(errno));
  int pfd = pdir ? open(pdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  if (!rc && pfd >= 0)
    upk_fsync_dir(pfd);
  const char *base = staging && strrchr(staging, '/') ? strrchr(staging, '/') + 1 : staging;
  if (rc && staging) /* leave nothing behind */
    upk_rmtree_at(pfd >= 0 ? pfd : AT_FDCWD, pfd >= 0 ? base : staging);
  if (pfd >= 0)
    close(pfd);
  if (rc == -ENOMEM && err && errlen && !*err)
    fail(&w, rc, "out of memory");
  free(rows);
  free(staging);
  free(parent);
  free(target);
  return rc;
}

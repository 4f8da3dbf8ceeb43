/* Runs on disk: unique ids when many processes start runs at the same time,
 * transcripts with assertion verdicts, the summary, list / show, CSV with
 * RFC 4180 quoting read back by a strict parser, and no temporary files
 * left behind. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "skills/eval/runs.h"

static char root[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p);
}

static void setup(void) {
  strcpy(root, "/tmp/upk-runs-XXXXXX");
  cr_assert_not_null(mkdtemp(root));
}

static void teardown(void) {
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(runs, .init = setup, .fini = teardown);

static const char *MODELS[] = {"sonnet", "generic.qwen3:4b"};
static const upk_run_meta META = {.kind = "eval",
                                  .skill = "cuda-kernel-builder",
                                  .models = MODELS,
                                  .n_models = 2,
                                  .runs = 3,
                                  .baseline = true,
                                  .n_cases = 4};

static const char *runs_dir(void) {
  static char p[128];
  snprintf(p, sizeof p, "%s/state/runs", root);
  return p;
}

Test(runs, create_names_and_describes_the_run) {
  upk_run r;
  cr_assert_eq(upk_run_create(runs_dir(), &META, &r), 0);
  cr_assert(upk_run_id_ok(r.id), "%s", r.id);
  cr_assert_eq(strlen(r.id), 25, "YYYYMMDDTHHMMSSZ-xxxxxxxx: %s", r.id);
  char path[256];
  snprintf(path, sizeof path, "%s/run.json", r.dir);
  json_t *j = json_load_file(path, 0, NULL);
  cr_assert_not_null(j);
  cr_assert_str_eq(json_string_value(json_object_get(j, "id")), r.id);
  cr_assert_str_eq(json_string_value(json_object_get(j, "skill")), "cuda-kernel-builder");
  cr_assert_eq(json_array_size(json_object_get(j, "models")), 2);
  cr_assert(json_is_true(json_object_get(j, "baseline")));
  json_decref(j);
  /* private to the user, like the trust store: prompts, answers and transcripts live here */
  const char *const dirs[] = {runs_dir(), r.dir, "transcripts"};
  for (size_t i = 0; i < 3; i++) {
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", r.dir, dirs[i]);
    cr_assert_eq(stat(i < 2 ? dirs[i] : path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700, "%s: %o", dirs[i], st.st_mode & 0777);
  }
  struct stat st;
  snprintf(path, sizeof path, "%s/run.json", r.dir);
  cr_assert_eq(stat(path, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0600, "run.json: %o", st.st_mode & 0777);
  upk_run_free(&r);
  const char *bad[] = {
      "..", "../x", "20260101T000000Z-zz", "20260101T000000Z", "a/b", "20260101X000000Z-00000000"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_assert_not(upk_run_id_ok(bad[i]), "%s", bad[i]);
}

/* 8 processes released together, 25 runs each, all within a second or two. */
Test(runs, ids_are_unique_across_concurrent_processes) {
  enum { PROCS = 8, EACH = 25 };
  int go[2], ids[2];
  cr_assert_eq(pipe(go), 0);
  cr_assert_eq(pipe(ids), 0);
  for (int p = 0; p < PROCS; p++) {
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
      char c;
      close(go[1]);
      if (read(go[0], &c, 1) != 0) /* EOF: everyone starts at once */
        _exit(2);
      for (int i = 0; i < EACH; i++) {
        upk_run r;
        if (upk_run_create(runs_dir(), &META, &r) != 0)
          _exit(1);
        char line[UPK_RUN_ID_MAX + 1];
        int n = snprintf(line, sizeof line, "%s\n", r.id);
        if (write(ids[1], line, (size_t)n) != n) /* < PIPE_BUF: atomic */
          _exit(1);
        upk_run_free(&r);
      }
      _exit(0);
    }
  }
  close(go[0]);
  close(go[1]);
  close(ids[1]);
  for (int p = 0; p < PROCS; p++) {
    int st;
    cr_assert_gt(wait(&st), 0);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a child failed to create a run");
  }
  static char buf[PROCS * EACH * (UPK_RUN_ID_MAX + 1)];
  size_t len = 0;
  ssize_t n;
  while ((n = read(ids[0], buf + len, sizeof buf - 1 - len)) > 0)
    len += (size_t)n;
  close(ids[0]);
  char *seen[PROCS * EACH];
  size_t k = 0;
  for (char *tok = strtok(buf, "\n"); tok; tok = strtok(NULL, "\n"))
    seen[k++] = tok;
  cr_assert_eq(k, PROCS * EACH);
  for (size_t i = 0; i < k; i++)
    for (size_t j = i + 1; j < k; j++)
      cr_assert_str_neq(seen[i], seen[j], "duplicate id");
  upk_run_info *list;
  size_t nl;
  cr_assert_eq(upk_runs_list(runs_dir(), &list, &nl), 0);
  cr_assert_eq(nl, PROCS * EACH, "one directory per run");
  for (size_t i = 1; i < nl; i++)
    cr_assert_geq(strcmp(list[i - 1].id, list[i].id), 0, "newest first");
  upk_run_infos_free(list, nl);
}

static void write_trials(upk_run *r) {
  upk_assert_result res[] = {
      {.kind = UPK_ASSERT_CONTAINS, .status = UPK_ASSERT_PASS, .label = "contains [\"a\"]"},
      {.kind = UPK_ASSERT_REGEX,
       .status = UPK_ASSERT_FAIL,
       .label = "regex [\"b\"]",
       .reason = "the answer does not match /b/"}};
  upk_assert_report rep = {.results = res, .n = 2, .passed = 1, .failed = 1};
  upk_transcript t = {.model = "generic.qwen3:4b",
                      .with_skill = true,
                      .run = 1,
                      .case_idx = 0,
                      .prompt = "Write \"saxpy\", then explain,\nbriefly",
                      .answer = "a",
                      .input_tokens = 120,
                      .output_tokens = 30,
                      .duration_ms = 12.5,
                      .report = &rep};
  cr_assert_eq(upk_run_write_transcript(r, &t), 0);
  upk_transcript b = {.model = "a/b",
                      .run = 0,
                      .case_idx = 2,
                      .prompt = "=HYPERLINK(\"x\")",
                      .error = "HTTP 429: rate limited"};
  cr_assert_eq(upk_run_write_transcript(r, &b), 0);
  upk_transcript c = {.model = "a_b", .run = 0, .case_idx = 2, .prompt = "p", .answer = "x"};
  cr_assert_eq(upk_run_write_transcript(r, &c), 0);
}

static size_t count_tmp(const char *dir) {
  size_t n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += strstr(e->d_name, ".tmp.") != NULL;
  if (d)
    closedir(d);
  return n;
}

Test(runs, transcripts_summary_and_show) {
  upk_run r;
  cr_assert_eq(upk_run_create(runs_dir(), &META, &r), 0);
  write_trials(&r);
  cr_assert_eq(upk_run_write_summary(&r, "{\"models\": []}"), 0);
  cr_assert_eq(upk_run_write_summary(&r, "{not json"), -EINVAL);
  cr_assert_eq(count_tmp(r.dir), 0);
  char sp[300];
  struct stat st;
  snprintf(sp, sizeof sp, "%s/transcripts/a_b", r.dir);
  cr_assert_eq(stat(sp, &st), 0, "%s", sp);
  cr_assert_eq(st.st_mode & 0777, 0700, "%s: %o", sp, st.st_mode & 0777);
  snprintf(sp, sizeof sp, "%s/summary.json", r.dir);
  cr_assert_eq(stat(sp, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0600, "summary.json: %o", st.st_mode & 0777);
  char *text;
  cr_assert_eq(upk_runs_show(runs_dir(), r.id, true, &text), 0);
  json_t *j = json_loads(text, 0, NULL);
  cr_assert_not_null(j, "%s", text);
  json_t *ts = json_object_get(j, "transcripts");
  cr_assert_eq(json_array_size(ts), 3, "a/b and a_b do not overwrite each other");
  cr_assert(json_is_object(json_object_get(j, "summary")));
  bool found = false;
  for (size_t i = 0; i < json_array_size(ts); i++) {
    json_t *t = json_array_get(ts, i);
    const char *model = json_string_value(json_object_get(t, "model"));
    if (strcmp(model, "generic.qwen3:4b") == 0) {
      found = true;
      cr_assert_str_eq(json_string_value(json_object_get(t, "verdict")), "fail");
      cr_assert_eq(json_integer_value(json_object_get(t, "assertionsPassed")), 1);
      json_t *a1 = json_array_get(json_object_get(t, "assertions"), 1);
      cr_assert_str_eq(json_string_value(json_object_get(a1, "reason")),
                       "the answer does not match /b/");
    }
    if (strcmp(model, "a/b") == 0)
      cr_assert_str_eq(json_string_value(json_object_get(t, "verdict")), "error",
                       "a failed call is an error, never a pass");
  }
  cr_assert(found);
  json_decref(j);
  free(text);
  cr_assert_eq(upk_runs_show(runs_dir(), "../../etc", true, &text), -EINVAL);
  cr_assert_eq(upk_runs_show(runs_dir(), "20200101T000000Z-00000000", true, &text), -ENOENT);
  upk_run_info *list;
  size_t n;
  cr_assert_eq(upk_runs_list(runs_dir(), &list, &n), 0);
  cr_assert_eq(n, 1);
  cr_assert_eq(list[0].n_transcripts, 3);
  cr_assert(list[0].has_summary);
  cr_assert_str_eq(list[0].models[1], "generic.qwen3:4b");
  upk_run_infos_free(list, n);
  upk_run_free(&r);
}

/* A strict RFC 4180 reader: fields of one record, or NULL at the end. */
static char **csv_record(const char **p, size_t *nf) {
  static char *fields[32];
  static char store[8192];
  size_t k = 0, s = 0;
  *nf = 0;
  if (!**p)
    return NULL;
  for (;;) {
    fields[k] = store + s;
    if (**p == '"') {
      (*p)++;
      for (;;) {
        cr_assert(**p, "unterminated quoted field");
        if (**p == '"' && (*p)[1] == '"')
          store[s++] = '"', *p += 2;
        else if (**p == '"') {
          (*p)++;
          break;
        } else
          store[s++] = *(*p)++;
      }
    } else {
      while (**p && **p != ',' && **p != '\r') {
        cr_assert_neq(**p, '"', "a bare quote in an unquoted field");
        cr_assert_neq(**p, '\n', "a bare LF in an unquoted field");
        store[s++] = *(*p)++;
      }
    }
    store[s++] = '\0';
    k++;
    if (**p == ',') {
      (*p)++;
      continue;
    }
    cr_assert(**p == '\r' && (*p)[1] == '\n', "records end with CRLF");
    *p += 2;
    *nf = k;
    return fields;
  }
}

Test(runs, csv_quotes_and_guards) {
  upk_run r;
  cr_assert_eq(upk_run_create(runs_dir(), &META, &r), 0);
  write_trials(&r);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(upk_runs_export_csv(runs_dir(), NULL, 0, f), 0);
  fclose(f);
  const char *p = buf;
  size_t nf;
  char **h = csv_record(&p, &nf);
  cr_assert_eq(nf, 16);
  cr_assert_str_eq(h[0], "run_id");
  cr_assert_str_eq(h[15], "prompt");
  size_t rows = 0;
  bool saw_quoted = false, saw_guard = false;
  char **rec;
  while ((rec = csv_record(&p, &nf))) {
    rows++;
    cr_assert_eq(nf, 16);
    cr_assert_str_eq(rec[0], r.id);
    if (strcmp(rec[4], "generic.qwen3:4b") == 0) {
      saw_quoted = strcmp(rec[15], "Write \"saxpy\", then explain,\nbriefly") == 0;
      cr_assert_str_eq(rec[8], "fail");
      cr_assert_str_eq(rec[11], "120");
    }
    if (strcmp(rec[4], "a/b") == 0) {
      saw_guard = strcmp(rec[15], "'=HYPERLINK(\"x\")") == 0;
      cr_assert_str_eq(rec[14], "HTTP 429: rate limited");
    }
  }
  cr_assert_eq(rows, 3);
  cr_assert(saw_quoted, "comma, quotes and newline survive quoting");
  cr_assert(saw_guard, "a formula is not left live");
  free(buf);
  const char *ids[] = {"nope"};
  f = open_memstream(&buf, &len);
  cr_assert_eq(upk_runs_export_csv(runs_dir(), ids, 1, f), -EINVAL);
  fclose(f);
  free(buf);
  upk_run_free(&r);
}

Test(runs, csv_cell) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  upk_csv_cell(f, "plain");
  fputc('|', f);
  upk_csv_cell(f, "a,b");
  fputc('|', f);
  upk_csv_cell(f, "say \"hi\"");
  fputc('|', f);
  upk_csv_cell(f, "line\r\nbreak");
  fclose(f);
  cr_assert_str_eq(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"line\r\nbreak\"");
  free(buf);
}

Test(runs, missing_runs_dir_is_empty) {
  upk_run_info *list;
  size_t n = 7;
  cr_assert_eq(upk_runs_list("/nonexistent/upk/runs", &list, &n), 0);
  cr_assert_eq(n, 0);
  upk_run_infos_free(list, n);
}

/* ---- full, read-only disks: the error comes back and no half run is left ---- */

static size_t entries(const char *dir) {
  DIR *d = opendir(dir);
  size_t n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  if (d)
    closedir(d);
  return n;
}

/* UPSKILLD_FAULT is read at the first fault point of the process (each test is one). */
static void create_fails(const char *fault, int err) {
  setenv("UPSKILLD_FAULT", fault, 1);
  upk_run r;
  cr_assert_eq(upk_run_create(runs_dir(), &META, &r), -err, "%s", fault);
  cr_assert_null(r.dir);
  cr_assert_eq(entries(runs_dir()), 0, "%s: a half run is left in %s", fault, runs_dir());
}

Test(runs, full_disk_in_run_json_leaves_no_half_run) {
  create_fails("fs.write:1:ENOSPC", ENOSPC);
}

Test(runs, refused_rename_leaves_no_half_run) {
  create_fails("fs.rename:1:EROFS", EROFS);
}

Test(runs, read_only_runs_dir) {
  if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 ||
      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
    cr_skip_test("a read-only mount needs root and a private mount namespace");
  char dir[160];
  snprintf(dir, sizeof dir, "%s/state", root);
  cr_assert_eq(mkdir(dir, 0755), 0);
  cr_assert_eq(mkdir(runs_dir(), 0755), 0);
  cr_assert_eq(mount(dir, dir, NULL, MS_BIND, NULL), 0, "%s", strerror(errno));
  cr_assert_eq(mount(NULL, dir, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL), 0, "%s",
               strerror(errno));
  upk_run r;
  cr_assert_eq(upk_run_create(runs_dir(), &META, &r), -EROFS);
  cr_assert_eq(entries(runs_dir()), 0);
  umount2(dir, MNT_DETACH);
}

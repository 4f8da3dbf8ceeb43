/* The three answers upskillctl can report as JUnit, mapped to clients/junit.h's structs
 * (docs/eval.md "JUnit"), and eval's --fail-under. The strings a case points to live in a
 * pool freed after the write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "clients/junit.h"
#include "clients/junit_ctl.h"
#include "common/xalloc.h"

typedef struct pool {
  char **s;
  size_t n, cap;
} pool;

static const char *keep(pool *p, char *s) {
  UPK_GROW(p->s, p->cap, p->n + 1);
  p->s[p->n++] = s;
  return s;
}

static void pool_free(pool *p) {
  for (size_t i = 0; i < p->n; i++)
    free(p->s[i]);
  free(p->s);
}

static const char *sv(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

static long long iv(json_t *o, const char *k) {
  return (long long)json_integer_value(json_object_get(o, k));
}

double ctl_now(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

int ctl_junit_check(const char *verb, const char *file) {
  int rc = upk_junit_check_path(file);
  if (!rc)
    return 0;
  fprintf(stderr, "upskillctl %s: --junit %s: %s\n", verb, file,
          rc == -EISDIR ? "is a directory (give a file name)" : strerror(-rc));
  return 2;
}

static int finish(const char *verb, const char *file, const char *name, upk_junit_suite *suites,
                  size_t n, pool *p) {
  int rc = upk_junit_write(file, name, suites, n);
  if (rc)
    fprintf(stderr, "upskillctl %s: cannot write --junit %s: %s\n", verb, file, strerror(-rc));
  for (size_t i = 0; i < n; i++)
    free((void *)suites[i].cases);
  free(suites);
  pool_free(p);
  return rc ? 1 : 0;
}

/* ---- eval: a suite per model, a case per trial ---- */

/* The unpassed assertions of one status ("fail", "skipped", "error") as "label: reason" lines
 * (*detail) and "reason; reason" (*message). */
static void reasons(json_t *trial, const char *status, pool *p, const char **message,
                    const char **detail) {
  char *msg = NULL, *lines = NULL;
  json_t *u;
  size_t i;
  json_array_foreach(json_object_get(trial, "unpassed"), i, u) {
    if (strcmp(sv(u, "status"), status))
      continue;
    const char *why = *sv(u, "reason") ? sv(u, "reason") : status;
    char *m = upk_xasprintf("%s%s%s", msg ? msg : "", msg ? "; " : "", why);
    char *l = upk_xasprintf("%s%s: %s\n", lines ? lines : "", sv(u, "assertion"), why);
    free(msg), free(lines);
    msg = m, lines = l;
  }
  *message = msg ? keep(p, msg) : NULL;
  *detail = lines ? keep(p, lines) : NULL;
}

static void trial_case(json_t *t, upk_junit_case *c, pool *p) {
  const char *verdict = sv(t, "verdict");
  json_t *ms = json_object_get(t, "durationMs");
  c->classname = keep(p, upk_xasprintf("%s.%s", sv(t, "model"), sv(t, "condition")));
  c->name = keep(p, upk_xasprintf("case %lld run %lld", iv(t, "case") + 1, iv(t, "run") + 1));
  c->time_s = json_is_number(ms) ? json_number_value(ms) / 1000 : -1;
  if (!strcmp(verdict, "pass"))
    return;
  if (!strcmp(verdict, "fail")) {
    c->outcome = UPK_JUNIT_FAILURE;
    c->type = "assertion";
    reasons(t, "fail", p, &c->message, &c->detail);
  } else if (!strcmp(verdict, "skipped")) {
    c->outcome = UPK_JUNIT_SKIPPED;
    reasons(t, "skipped", p, &c->message, &c->detail);
  } else if (!strcmp(verdict, "not-run")) { /* a cost limit stopped the eval before it */
    c->outcome = UPK_JUNIT_SKIPPED;
    c->message = c->detail = "not run: the evaluation stopped at its cost limit";
  } else { /* error, or a verdict this client does not know */
    c->outcome = UPK_JUNIT_ERROR;
    c->type = json_is_string(json_object_get(t, "error")) ? "trial" : "assertion";
    reasons(t, "error", p, &c->message, &c->detail);
    if (json_is_string(json_object_get(t, "error")))
      c->message = c->detail = sv(t, "error");
  }
}

int ctl_junit_eval(json_t *r, const char *file, double started) {
  json_t *models = json_object_get(r, "models"), *results = json_object_get(r, "results"), *m, *t;
  size_t n = json_array_size(models), i, k;
  upk_junit_suite *suites = upk_xcalloc(n ? n : 1, sizeof *suites);
  pool p = {0};
  json_array_foreach(models, i, m) {
    upk_junit_case *cases = upk_xcalloc(json_array_size(results) + 1, sizeof *cases);
    size_t nc = 0;
    json_array_foreach(results, k, t) {
      if (!strcmp(sv(t, "model"), sv(m, "model")))
        trial_case(t, &cases[nc++], &p);
    }
    suites[i] = (upk_junit_suite){keep(&p, upk_xasprintf("%s: %s", sv(r, "skill"), sv(m, "model"))),
                                  cases, nc, -1, started};
  }
  json_t *refused = json_object_get(r, "refusedCases");
  if (json_array_size(refused)) { /* one suite more: the cases that never ran, as errors */
    upk_junit_case *cases = upk_xcalloc(json_array_size(refused), sizeof *cases);
    json_array_foreach(refused, k, t) {
      cases[k] = (upk_junit_case){.classname = "refused",
                                  .name = keep(&p, upk_xasprintf("case %lld", iv(t, "case") + 1)),
                                  .time_s = -1,
                                  .outcome = UPK_JUNIT_ERROR,
                                  .type = "refused",
                                  .message = sv(t, "reason"),
                                  .detail = sv(t, "reason")};
    }
    suites = upk_xrealloc(suites, (n + 1) * sizeof *suites);
    suites[n++] = (upk_junit_suite){keep(&p, upk_xasprintf("%s: refused cases", sv(r, "skill"))),
                                    cases, json_array_size(refused), -1, started};
  }
  char *name = upk_xasprintf("upskillctl eval %s", sv(r, "skill"));
  keep(&p, name);
  return finish("eval", file, name, suites, n, &p);
}

/* ---- check-kernel: a case per file (its error diagnostics) and per kernel ---- */

/* Error diagnostics (severity 1) as "file:line:col: message [code]" lines; their count. */
static size_t error_lines(const char *file, json_t *diags, pool *p, const char **first,
                          const char **all) {
  char *lines = NULL;
  json_t *d;
  size_t i, n = 0;
  *first = NULL;
  json_array_foreach(diags, i, d) {
    if (iv(d, "severity") != 1)
      continue;
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    const char *where = json_is_string(json_object_get(d, "file")) ? sv(d, "file") : file;
    char *one = upk_xasprintf("%s:%lld:%lld: error: %s%s%s%s", where, iv(start, "line") + 1,
                              iv(start, "character") + 1, sv(d, "message"),
                              json_is_string(json_object_get(d, "code")) ? " [" : "", sv(d, "code"),
                              json_is_string(json_object_get(d, "code")) ? "]" : "");
    char *l = upk_xasprintf("%s%s\n", lines ? lines : "", one);
    if (!*first)
      *first = keep(p, one);
    else
      free(one);
    free(lines);
    lines = l;
    n++;
  }
  *all = lines ? keep(p, lines) : NULL;
  return n;
}

static void file_case(upk_junit_case *c, const char *file, const char *label, json_t *diags,
                      double ms, pool *p) {
  const char *first, *all;
  c->classname = file;
  c->name = label;
  c->time_s = ms / 1000;
  if (error_lines(file, diags, p, &first, &all)) {
    c->outcome = UPK_JUNIT_FAILURE;
    c->type = "error";
    c->message = first;
    c->detail = all;
  }
}

/* One checked path: a kernel-builder project (rows) or a file (kernels). */
static size_t kernel_cases(json_t *check, upk_junit_case *cases, pool *p) {
  const char *file = sv(check, "file");
  json_t *r = json_object_get(check, "result"), *x;
  size_t n = 0, i;
  if (json_is_array(json_object_get(r, "rows"))) {
    file_case(&cases[n++], file, "build.toml", json_object_get(r, "diagnostics"), 0, p);
    json_array_foreach(json_object_get(r, "rows"), i, x) {
      const char *label =
          keep(p, upk_xasprintf("%s %s %s", sv(x, "kernel"), sv(x, "capability"), sv(x, "file")));
      file_case(&cases[n++], file, label, json_object_get(x, "diagnostics"),
                json_number_value(json_object_get(x, "compileMs")), p);
    }
    return n;
  }
  file_case(&cases[n++], file, "compile", json_object_get(r, "diagnostics"),
            json_number_value(json_object_get(r, "compileMs")), p);
  json_t *run = json_object_get(r, "run");
  if (json_is_object(run) && json_is_false(json_object_get(run, "ok")) &&
      cases[0].outcome == UPK_JUNIT_PASS) {
    cases[0].outcome = UPK_JUNIT_FAILURE;
    cases[0].type = "run";
    cases[0].message = "the kernel's run did not match its reference";
  }
  json_array_foreach(json_object_get(r, "kernels"), i, x) {
    cases[n] = (upk_junit_case){.classname = file, .name = sv(x, "name"), .time_s = -1};
    cases[n++].out = keep(p, upk_xasprintf("registers %lld, spill stores %lld, spill loads %lld, "
                                           "shared %lld bytes",
                                           iv(x, "registers"), iv(x, "spillStores"),
                                           iv(x, "spillLoads"), iv(x, "sharedStatic")));
  }
  return n;
}

int ctl_junit_kernel(json_t *checks, const char *file, double started) {
  json_t *ch, *r;
  size_t i, n = 1;
  pool p = {0};
  json_array_foreach(checks, i, ch) {
    r = json_object_get(ch, "result");
    n += 1 + json_array_size(json_object_get(r, "rows")) +
         json_array_size(json_object_get(r, "kernels"));
  }
  upk_junit_case *cases = upk_xcalloc(n, sizeof *cases);
  size_t nc = 0;
  json_array_foreach(checks, i, ch) nc += kernel_cases(ch, cases + nc, &p);
  upk_junit_suite *suite = upk_xcalloc(1, sizeof *suite);
  *suite = (upk_junit_suite){"check-kernel", cases, nc, -1, started};
  return finish("check-kernel", file, "upskillctl check-kernel", suite, 1, &p);
}

/* ---- audit: a suite per skill, a failing case per finding ---- */

static const char *const severity[] = {"", "high", "medium", "low", "low"};

static void finding_case(const char *skill, json_t *f, upk_junit_case *c, pool *p) {
  json_int_t s = json_integer_value(json_object_get(f, "severity"));
  json_t *start = json_object_get(json_object_get(f, "range"), "start");
  const char *sev = severity[s >= 1 && s <= 4 ? s : 0];
  c->classname = skill;
  c->name =
      keep(p, upk_xasprintf("%s %s:%lld", sv(f, "code"), sv(f, "file"), iv(start, "line") + 1));
  c->outcome = UPK_JUNIT_FAILURE;
  c->type = sv(f, "code");
  c->message = keep(p, upk_xasprintf("%s: %s", sev, sv(f, "message")));
  c->detail =
      keep(p, upk_xasprintf("%s:%lld:%lld: %s: %s [%s]\n", sv(f, "file"), iv(start, "line") + 1,
                            iv(start, "character") + 1, sev, sv(f, "message"), sv(f, "code")));
}

int ctl_junit_audit(json_t *r, const char *file, double started) {
  json_t *skills = json_object_get(r, "skills"), *sk, *f;
  size_t n = json_array_size(skills), i, k;
  upk_junit_suite *suites = upk_xcalloc(n ? n : 1, sizeof *suites);
  pool p = {0};
  json_array_foreach(skills, i, sk) {
    json_t *findings = json_object_get(sk, "findings");
    upk_junit_case *cases = upk_xcalloc(json_array_size(findings) + 1, sizeof *cases);
    size_t nc = 0;
    json_array_foreach(findings, k, f) finding_case(sv(sk, "name"), f, &cases[nc++], &p);
    if (!nc) /* a clean skill is one passing case, so a CI shows that it was audited */
      cases[nc++] = (upk_junit_case){.classname = sv(sk, "name"), .name = "audit", .time_s = -1};
    suites[i] = (upk_junit_suite){sv(sk, "name"), cases, nc, -1, started};
  }
  return finish("audit", file, "upskillctl audit", suites, n, &p);
}

/* ---- eval --fail-under ---- */

int ctl_fail_under_parse(const char *arg, double *rate) {
  char *end;
  double v = strtod(arg, &end);
  if (end == arg || *end || !(v >= 0 && v <= 1)) {
    fprintf(stderr, "upskillctl eval: --fail-under takes a pass rate from 0 to 1, not '%s'\n", arg);
    return -1;
  }
  *rate = v;
  return 0;
}

int ctl_fail_under(json_t *r, double rate) {
  json_t *m;
  size_t i;
  int below = 0;
  if (rate < 0)
    return 0;
  json_array_foreach(json_object_get(r, "models"), i, m) {
    json_t *pr = json_object_get(json_object_get(m, "skill"), "passRate");
    if (json_is_number(pr) && json_number_value(pr) >= rate)
      continue;
    below = 1;
    if (json_is_number(pr))
      fprintf(stderr, "upskillctl eval: %s: with-skill pass rate %.1f%% is below --fail-under %g\n",
              sv(m, "model"), 100 * json_number_value(pr), rate);
    else /* every trial skipped or errored: nothing shows the skill works */
      fprintf(stderr,
              "upskillctl eval: %s: no with-skill pass rate (no trial was judged), below "
              "--fail-under %g\n",
              sv(m, "model"), rate);
  }
  return below ? CTL_EXIT_FAIL_UNDER : 0;
}

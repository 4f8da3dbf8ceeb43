/* upskillctl's evaluation verbs:
 *   generate "TASK" [--from PATH] [-m MODEL] [--eval-model M]... [--install claude,agents]
 *   eval SKILL -m M [-m M] [--runs N] [--no-baseline] [--tests FILE] [--concurrency N]
 *   runs [--csv FILE]
 *   condense TRACE [--budget N] [--format F]
 * Progress shows live on a TTY (the shared $/progress bar); at the end, upskill-style bars
 * (baseline vs with skill) per model and a per-model table; --json prints the raw result. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients/args.h"
#include "clients/commands.h"
#include "clients/ctl.h"
#include "clients/junit_ctl.h"
#include "common/xalloc.h"

static double num(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *sv(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "-";
}

/* A 30-cell bar for a rate in [0, 1]. */
static void bar(const char *label, json_t *cond) {
  double r = num(cond, "passRate");
  int cells = isfinite(r) ? (int)(r * 30 + 0.5) : 0;
  printf("  %-11s ", label);
  for (int i = 0; i < 30; i++)
    fputs(i < cells ? "\u2588" : "\u2591", stdout);
  json_t *ci = json_object_get(cond, "passRateCi");
  if (isfinite(r))
    printf(" %4.0f%%  [%3.0f-%3.0f%%]  %zu/%zu", 100 * r,
           100 * json_number_value(json_array_get(ci, 0)),
           100 * json_number_value(json_array_get(ci, 1)),
           (size_t)json_integer_value(json_object_get(cond, "passed")),
           (size_t)json_integer_value(json_object_get(cond, "n")));
  else
    printf("    -");
  long skipped = (long)json_integer_value(json_object_get(cond, "skipped"));
  if (skipped)
    printf("  (%ld skipped)", skipped);
  long errored = (long)json_integer_value(json_object_get(cond, "callFailures"));
  if (errored)
    printf("  (%ld errored, not counted)", errored);
  putchar('\n');
}

/* Trials whose call failed: how many and the main reasons, beside the bars. */
static void print_errored(json_t *r) {
  json_t *e = json_object_get(r, "errored"), *why;
  size_t i;
  if (json_integer_value(json_object_get(e, "trials")) <= 0)
    return;
  printf("\n%lld of %lld trials errored (left out of the rates); main reasons:\n",
         (long long)json_integer_value(json_object_get(e, "trials")),
         (long long)json_integer_value(json_object_get(r, "trials")));
  json_array_foreach(json_object_get(e, "reasons"), i, why)
      printf("  %4lldx %s\n", (long long)json_integer_value(json_object_get(why, "count")),
             sv(why, "reason"));
}

/* Cases of the tests file refused before they ran, by their numbers there (the others keep
 * theirs): an error row each, with why. */
static void print_refused_cases(json_t *r) {
  json_t *x, *a = json_object_get(r, "refusedCases");
  size_t i;
  if (!json_array_size(a))
    return;
  printf("\n%zu case%s of the tests file refused (not run; fix %s and run eval again):\n",
         json_array_size(a), json_array_size(a) == 1 ? "" : "s",
         json_array_size(a) == 1 ? "it" : "them");
  json_array_foreach(a, i, x)
      printf("  case %lld  error  %s\n",
             (long long)json_integer_value(json_object_get(x, "case")) + 1, sv(x, "reason"));
}

static void fmt_pct(char *buf, size_t len, double v, bool sign) {
  if (isfinite(v))
    snprintf(buf, len, sign ? "%+.0f%%" : "%.0f%%", 100 * v);
  else
    snprintf(buf, len, "-");
}

static void print_models(json_t *models, bool old_skill) {
  json_t *m;
  size_t i;
  json_array_foreach(models, i, m) {
    printf("\n%s\n", sv(m, "model"));
    json_t *base = json_object_get(m, "baseline");
    if (json_is_object(base))
      bar(old_skill ? "old skill" : "baseline", base);
    bar("with skill", json_object_get(m, "skill"));
  }
  printf("\n%-28s %9s %10s %7s %15s %8s %16s\n", "model", "baseline", "with skill", "lift",
         "lift 95% CI", "tokens", "avg in/out");
  json_array_foreach(models, i, m) {
    json_t *s = json_object_get(m, "skill"), *b = json_object_get(m, "baseline");
    json_t *ci = json_object_get(m, "liftCi");
    char pb[16], ps[16], pl[16], lo[16], hi[16], ts[16], ci_text[40], io[40];
    fmt_pct(pb, sizeof pb, num(b, "passRate"), false);
    fmt_pct(ps, sizeof ps, num(s, "passRate"), false);
    fmt_pct(pl, sizeof pl, num(m, "lift"), true);
    fmt_pct(lo, sizeof lo, json_number_value(json_array_get(ci, 0)), true);
    fmt_pct(hi, sizeof hi, json_number_value(json_array_get(ci, 1)), true);
    fmt_pct(ts, sizeof ts, num(m, "tokenSavings"), true);
    snprintf(ci_text, sizeof ci_text, "%s..%s", lo, hi);
    if (num(s, "avgInputTokens") >= 0)
      snprintf(io, sizeof io, "%.0f/%.0f", num(s, "avgInputTokens"), num(s, "avgOutputTokens"));
    else
      snprintf(io, sizeof io, "-");
    printf("%-28.28s %9s %10s %7s %15s %8s %16s\n", sv(m, "model"), pb, ps, pl,
           json_array_size(ci) ? ci_text : "-", ts, io);
  }
}

/* A mean that may be null: "-" then. */
static void fmt_num(char *buf, size_t len, const json_t *o, const char *key, const char *fmt,
                    double scale) {
  const json_t *v = json_object_get(o, key);
  if (json_is_number(v))
    snprintf(buf, len, fmt, json_number_value(v) * scale);
  else
    snprintf(buf, len, "-");
}

static void agent_row(const char *model, const char *cond, const json_t *t) {
  char pass[16], loaded[16], turns[16], in[16], out[16], cost[16], secs[16];
  if (!json_is_object(t))
    return;
  fmt_num(pass, sizeof pass, t, "passRate", "%.0f%%", 100);
  fmt_num(loaded, sizeof loaded, t, "skillLoadedRate", "%.0f%%", 100);
  fmt_num(turns, sizeof turns, t, "meanTurns", "%.1f", 1);
  fmt_num(in, sizeof in, t, "meanInputTokens", "%.0f", 1);
  fmt_num(out, sizeof out, t, "meanOutputTokens", "%.0f", 1);
  fmt_num(cost, sizeof cost, t, "meanCostUsd", "$%.4f", 1);
  fmt_num(secs, sizeof secs, t, "meanMs", "%.1f s", 0.001);
  printf("%-24.24s %-13s %5s %8s %6s %8s/%-7s %9s %8s", model, cond, pass, loaded, turns, in, out,
         cost, secs);
  long errors = (long)json_integer_value(json_object_get(t, "errors"));
  if (errors)
    printf("  (%ld failed to run)", errors);
  putchar('\n');
}

/* Agent runs: outcome, skill loaded, turns, tokens, cost and time, with and without the skill. */
static void print_agents(json_t *agents) {
  json_t *row;
  size_t i;
  if (!agents)
    return;
  printf("\n%-24s %-13s %5s %8s %6s %16s %9s %8s\n", "agent", "condition", "pass", "loaded",
         "turns", "tokens in/out", "cost", "time");
  json_array_foreach(json_object_get(agents, "byModel"), i, row) {
    agent_row(sv(row, "model"), "with skill", json_object_get(row, "with_skill"));
    agent_row("", "without skill", json_object_get(row, "without_skill"));
  }
  printf("\nper case:\n");
  json_array_foreach(json_object_get(agents, "byCase"), i, row) {
    char label[64];
    snprintf(label, sizeof label, "case %lld %s",
             (long long)json_integer_value(json_object_get(row, "case")) + 1, sv(row, "model"));
    agent_row(label, "with skill", json_object_get(row, "with_skill"));
    agent_row("", "without skill", json_object_get(row, "without_skill"));
  }
}

static void print_split(const char *name, json_t *sc) {
  if (!json_is_object(sc))
    return;
  printf("  %-5s %lld/%lld queries pass   precision %.0f%%  recall %.0f%%  accuracy %.0f%%\n", name,
         (long long)json_integer_value(json_object_get(sc, "passed")),
         (long long)json_integer_value(json_object_get(sc, "total")), 100 * num(sc, "precision"),
         100 * num(sc, "recall"), 100 * num(sc, "accuracy"));
}

/* Trigger mode: per agent, each query's trigger rate, then the scores; the best description. */
static void print_trigger(json_t *r) {
  json_t *it, *m, *q;
  size_t i, k, j;
  json_array_foreach(json_object_get(r, "iterations"), i, it) {
    printf("%sdescription %zu: %s\n", i ? "\n" : "", i, sv(it, "description"));
    json_array_foreach(json_object_get(it, "models"), k, m) {
      printf("\n%s\n", sv(m, "model"));
      json_array_foreach(json_object_get(m, "results"), j, q) {
        bool should = json_is_true(json_object_get(q, "should_trigger"));
        printf("  %s %-6s %lld/%lld  %-14s %.60s\n",
               json_is_true(json_object_get(q, "pass")) ? "ok  " : "FAIL", sv(q, "split"),
               (long long)json_integer_value(json_object_get(q, "triggers")),
               (long long)json_integer_value(json_object_get(q, "runs")),
               should ? "should load" : "should not", sv(q, "query"));
      }
      print_split("train", json_object_get(m, "train"));
      print_split("test", json_object_get(m, "test"));
    }
  }
  json_t *best = json_object_get(r, "best");
  if (json_array_size(json_object_get(r, "iterations")) > 1)
    printf("\nbest: description %lld: %s\n",
           (long long)json_integer_value(json_object_get(best, "iteration")),
           sv(best, "description"));
  if (json_object_get(r, "optimizeStopped"))
    printf("\noptimizing stopped: %s\n", sv(r, "optimizeStopped"));
  if (json_is_string(json_object_get(r, "applied")))
    printf("written to %s\n", sv(r, "applied"));
}

static void print_eval(json_t *r) {
  if (!strcmp(sv(r, "mode"), "trigger")) {
    print_trigger(r);
    return;
  }
  printf("%s: %lld trials (%lld cases x %lld runs%s) in %.1f s\n", sv(r, "skill"),
         (long long)json_integer_value(json_object_get(r, "trials")),
         (long long)json_integer_value(json_object_get(r, "cases")),
         (long long)json_integer_value(json_object_get(r, "runs")),
         json_is_true(json_object_get(r, "baseline")) ? ", with and without the skill" : "",
         num(r, "elapsedMs") / 1000);
  if (json_object_get(r, "notRun"))
    printf("%lld trials not run (a cost limit was reached)\n",
           (long long)json_integer_value(json_object_get(r, "notRun")));
  print_models(json_object_get(r, "models"), json_is_true(json_object_get(r, "baselineSkill")));
  print_errored(r);
  print_refused_cases(r);
  ctl_print_pass_k(json_object_get(r, "models"), json_is_true(json_object_get(r, "baselineSkill")));
  print_agents(json_object_get(r, "agents"));
  const char *id = sv(r, "runId");
  if (*id && strcmp(id, "-"))
    printf("\nrun %s (%s)\n", id, sv(r, "runDir"));
  if (json_object_get(r, "storeError"))
    printf("warning: %s\n", sv(r, "storeError"));
  ctl_print_refused(r);
}

static void print_generate(json_t *r) {
  json_t *a;
  size_t i;
  ctl_print_refused(r);
  printf("%s -> %s%s\n", sv(r, "name"), sv(r, "path"),
         json_is_true(json_object_get(r, "replaced")) ? " (replaced)" : "");
  json_array_foreach(json_object_get(r, "attempts"), i, a) {
    char p[16];
    fmt_pct(p, sizeof p, num(a, "passRate"), false);
    printf("  attempt %lld: %s with the skill on %lld trials%s\n",
           (long long)json_integer_value(json_object_get(a, "attempt")), p,
           (long long)json_integer_value(json_object_get(a, "trials")),
           json_is_true(json_object_get(a, "best")) ? "  <- kept (best)" : "");
  }
  json_t *held = json_object_get(r, "heldOut");
  if (json_is_object(held)) {
    printf("\nheld-out cases (%lld):",
           (long long)json_integer_value(json_object_get(held, "cases")));
    print_models(json_object_get(held, "models"), false);
  } else if (json_object_get(r, "stopped")) {
    printf("\nnot scored on held-out cases: a cost limit was reached\n");
  } else {
    printf("\nno held-out cases: the score is the refinement set's\n");
  }
  json_t *tok = json_object_get(r, "teacherTokens");
  printf("teacher %s: %lld input, %lld output tokens", sv(r, "teacher"),
         (long long)json_integer_value(json_object_get(tok, "input")),
         (long long)json_integer_value(json_object_get(tok, "output")));
  if (json_is_number(json_object_get(tok, "costUsd"))) /* an agent teacher's own figure */
    printf(", $%.4f", json_number_value(json_object_get(tok, "costUsd")));
  putchar('\n');
  json_t *inst = json_object_get(r, "install"), *t;
  json_array_foreach(json_object_get(inst, "targets"), i, t)
      printf("installed: %s%s%s\n", sv(t, "path"), json_object_get(t, "error") ? " — " : "",
             json_object_get(t, "error") ? sv(t, "error") : "");
  if (json_is_false(json_object_get(inst, "ok"))) {
    printf("not installed: %s\n", sv(inst, "error"));
    json_array_foreach(json_object_get(inst, "diagnostics"), i, t) {
      if (json_integer_value(json_object_get(t, "severity")) == 1 &&
          strcmp(sv(t, "code"), "install/audit")) /* that one is the line above */
        printf("  %s: %s\n", sv(t, "code"), sv(t, "message"));
    }
    printf("read %s, then `upskillctl install %s --allow-risky` installs it anyway\n",
           sv(r, "path"), sv(r, "path"));
  }
  json_t *trig = json_object_get(r, "trigger");
  if (json_is_object(trig)) {
    printf("\ntrigger eval of the description:\n");
    if (json_object_get(trig, "error"))
      printf("  %s\n", sv(trig, "error"));
    else
      print_trigger(trig);
  }
}

/* A dry run's plan: what would run, per model, and what it would cost. */
static void print_plan(json_t *answer) {
  json_t *m, *r = json_object_get(answer, "plan");
  size_t i;
  const char *mode = sv(r, "mode");
  printf("dry run (%s%s%s): nothing was called\n", mode,
         json_is_string(json_object_get(r, "skill")) ? " of " : "",
         json_is_string(json_object_get(r, "skill")) ? sv(r, "skill") : "");
  if (!strcmp(mode, "generate"))
    printf("at most %lld attempts, %lld tests (%lld held out), %lld runs\n",
           (long long)json_integer_value(json_object_get(r, "attempts")),
           (long long)json_integer_value(json_object_get(r, "tests")),
           (long long)json_integer_value(json_object_get(r, "heldOutCases")),
           (long long)json_integer_value(json_object_get(r, "runs")));
  else
    printf("%lld trials = models x %lld runs x %lld cases x %lld conditions%s\n",
           (long long)json_integer_value(json_object_get(r, "trials")),
           (long long)json_integer_value(json_object_get(r, "runs")),
           (long long)json_integer_value(json_object_get(r, "cases")),
           (long long)json_integer_value(json_object_get(r, "conditions")),
           json_object_get(r, "iterations") ? " per description tried" : "");
  printf("\n%-36s %7s %7s %12s %12s %10s\n", "model", "trials", "calls", "tokens in", "tokens out",
         "cost");
  json_array_foreach(json_object_get(r, "models"), i, m) {
    json_t *t = json_object_get(m, "estimatedTokens");
    char cost[32];
    fmt_num(cost, sizeof cost, m, "estimatedCostUsd", "$%.4f", 1);
    printf("%-36.36s %7lld %7lld %12lld %12lld %10s\n", sv(m, "model"),
           (long long)json_integer_value(json_object_get(m, "trials")),
           (long long)json_integer_value(json_object_get(m, "calls")),
           (long long)json_integer_value(json_object_get(t, "input")),
           (long long)json_integer_value(json_object_get(t, "output")), cost);
  }
  char cost[32];
  fmt_num(cost, sizeof cost, r, "estimatedCostUsd", "$%.4f", 1);
  json_t *t = json_object_get(r, "estimatedTokens");
  printf("%-36s %7lld %7lld %12lld %12lld %10s\n", "total",
         (long long)json_integer_value(json_object_get(r, "trials")),
         (long long)json_integer_value(json_object_get(r, "calls")),
         (long long)json_integer_value(json_object_get(t, "input")),
         (long long)json_integer_value(json_object_get(t, "output")), cost);
  printf("\n(tokens: prompts as bytes/4, answers as %lld each; cost - where a model has no "
         "price)\n",
         (long long)json_integer_value(json_object_get(r, "outputTokensPerCall")));
  print_refused_cases(answer);
  ctl_print_refused(answer);
}

/* Why a run stopped early, on stderr: the result above is partial. */
static void print_stopped(json_t *st) {
  bool cost = !strcmp(sv(st, "reason"), "max-cost-usd");
  fprintf(stderr,
          "stopped: %s reached (limit %s%g, spent $%.4f in %lld calls): the trials not run are "
          "left out, the result is partial\n",
          cost ? "--max-cost-usd" : "--max-calls", cost ? "$" : "", num(st, "limit"),
          num(st, "spent"), (long long)json_integer_value(json_object_get(st, "calls")));
}

static int finish(ctl *c, json_t *r, void (*print)(json_t *)) {
  if (!r)
    return 1;
  print = json_is_true(json_object_get(r, "dryRun")) ? print_plan : print;
  c->json ? ctl_print_json(r) : print(r);
  json_t *st = json_object_get(r, "stopped");
  if (!json_is_object(st)) /* after generate: the trigger eval may have stopped */
    st = json_object_get(json_object_get(r, "trigger"), "stopped");
  int rc = json_is_object(st) ? 3 : 0;
  if (rc)
    print_stopped(st);
  else if (json_array_size(json_object_get(r, "refusedCases")) ||
           json_is_false(json_object_get(json_object_get(r, "install"), "ok")))
    rc = 1; /* a case the user wrote did not run; generate's install was refused */
  json_decref(r);
  return rc;
}

/* Comma-separated values into a JSON array of strings. */
static void split_into(json_t *arr, const char *list) {
  char *copy = upk_xstrdup(list), *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
    if (*t)
      json_array_append_new(arr, json_string(t));
  free(copy);
}

static int positive(const char *verb, const char *opt, const char *arg, json_t *p,
                    const char *key) {
  double v;
  if (ctl_arg_number(verb, opt, arg, true, 1e15, &v))
    return -1;
  json_object_set_new(p, key, json_integer((json_int_t)v));
  return 0;
}

/* --max-calls N, --max-cost-usd X, --dry-run; 1 when `ch` is none of them, -1 refused. */
static int limit_opt(const char *verb, int ch, const char *arg, json_t *p) {
  double x;
  if (ch == 'D') {
    json_object_set_new(p, "dryRun", json_true());
    return 0;
  }
  if (ch == 'L')
    return positive(verb, "--max-calls", arg, p, "maxCalls");
  if (ch != '$') /* --max-cost-usd: long only */
    return 1;
  if (ctl_arg_number(verb, "--max-cost-usd", arg, false, 1e18, &x))
    return -1;
  json_object_set_new(p, "maxCostUsd", json_real(x));
  return 0;
}

static char *absolute(const char *path) {
  char buf[PATH_MAX];
  return upk_xstrdup(realpath(path, buf) ? buf : path);
}

/* The next option of the verb argv[0] (getopt_long over its own options). */
static int next_opt(int argc, char **argv) {
  return getopt_long(argc, argv, ctl_shortopts(argv[0]), ctl_longopts(argv[0]), NULL);
}

/* The verb's request: p (stolen) sent as method and its answer printed; p NULL (its
 * arguments were refused, the reason already printed): the usage hint and 2. */
static int send_request(ctl *c, char **argv, const char *method, json_t *p,
                        void (*print)(json_t *)) {
  int err = 0;
  if (!p) {
    ctl_usage_hint(argv[0]);
    return 2;
  }
  return finish(c, ctl_call(c, method, p, &err), print);
}

/* What eval does with the answer in this process: --junit FILE, --fail-under RATE (< 0: off). */
typedef struct eval_ci {
  const char *junit;
  double fail_under;
} eval_ci;

/* One option of eval into its params (or `ci`): 0, or -1 with why printed. */
static int eval_opt(int ch, json_t *p, eval_ci *ci) {
  char *abs = NULL;
  int rc = 0;
  if (ch == 'm')
    json_array_append_new(json_object_get(p, "models"), json_string(optarg));
  else if (ch == 'B')
    json_object_set_new(p, "baseline", json_false());
  else if (ch == 'X')
    json_object_set_new(p, "allowScripts", json_true());
  else if (ch == 't')
    json_object_set_new(p, "tests", json_string(abs = absolute(optarg)));
  else if (ch == 'G')
    json_object_set_new(p, "grader", json_string(optarg));
  else if (ch == 'K')
    json_object_set_new(p, "baselineSkill", json_string(abs = absolute(optarg)));
  else if (ch == 'T')
    json_object_set_new(p, "trigger", json_string(abs = absolute(optarg)));
  else if (ch == 'O') {
    if (positive("eval", "--optimize", optarg, p, "optimize"))
      rc = -1;
  } else if (ch == 'A') {
    json_object_set_new(p, "apply", json_true());
  } else if (ch == 'H') {
    char *end;
    double h = strtod(optarg, &end);
    if (end == optarg || *end || !(h >= 0 && h <= 0.95)) {
      fprintf(stderr, "upskillctl eval: --holdout takes a number from 0 to 0.95, not '%s'\n",
              optarg);
      return -1;
    }
    json_object_set_new(p, "holdout", json_real(h));
  } else if (ch == 'P') {
    if (positive("eval", "--max-parallel", optarg, p, "maxParallel"))
      rc = -1;
  } else if (ch == 'J') {
    if (ctl_junit_check("eval", optarg))
      return -1;
    ci->junit = optarg;
  } else if (ch == 'U') {
    if (ctl_fail_under_parse(optarg, &ci->fail_under))
      rc = -1;
  } else if ((ch != 'r' && ch != 'c') || positive("eval", ch == 'r' ? "--runs" : "--concurrency",
                                                  optarg, p, ch == 'r' ? "runs" : "concurrency"))
    rc = -1;
  free(abs);
  return rc;
}

/* The eval request's params from argv, or NULL (why printed). */
static json_t *eval_params(int argc, char **argv, eval_ci *ci) {
  json_t *p = json_pack("{s:[]}", "models");
  int ch;
  optind = 0;
  while ((ch = next_opt(argc, argv)) != -1) {
    int lim = limit_opt("eval", ch, optarg, p);
    if (lim < 0)
      goto refused;
    if (!lim)
      continue;
    if (eval_opt(ch, p, ci))
      goto refused;
  }
  if (argc - optind != 1) {
    fprintf(stderr, "upskillctl eval: expected one SKILL (a directory or a name)\n");
    goto refused;
  }
  if ((ci->junit || ci->fail_under >= 0) && json_object_get(p, "trigger")) {
    fprintf(stderr, "upskillctl eval: --junit and --fail-under report test cases, not --trigger\n");
    goto refused;
  }
  if (!json_array_size(json_object_get(p, "models")))
    json_object_del(p, "models");
  char *skill = strchr(argv[optind], '/') || !strcmp(argv[optind], ".") ? absolute(argv[optind])
                                                                        : upk_xstrdup(argv[optind]);
  json_object_set_new(p, "skill", json_string(skill));
  free(skill);
  return p;
refused:
  json_decref(p);
  return NULL;
}

static int cmd_eval(ctl *c, int argc, char **argv) {
  eval_ci ci = {NULL, -1};
  double started = ctl_now();
  json_t *p = eval_params(argc, argv, &ci);
  if (!p || (!ci.junit && ci.fail_under < 0))
    return send_request(c, argv, "skills/eval", p, print_eval);
  json_t *resp = ctl_request(c, "skills/eval", p), *err = json_object_get(resp, "error");
  json_t *r = json_incref(json_object_get(resp, "result"));
  /* A run in which every trial of a model errored fails, its results in the error's data:
   * the JUnit file still holds them (as errors), and the exit status is 1. */
  json_t *failed = json_object_get(json_object_get(err, "data"), "results")
                       ? json_object_get(err, "data")
                       : NULL;
  if (err)
    ctl_print_error(c, err);
  /* The results first, then what they mean: 1 no answer, 3 a cost limit stopped the run. */
  int rc = r ? finish(c, json_incref(r), print_eval) : 1;
  if ((r || failed) && ci.junit && ctl_junit_eval(r ? r : failed, ci.junit, started))
    rc = 1;
  json_decref(resp);
  if (!rc && r)
    rc = ctl_fail_under(r, ci.fail_under);
  json_decref(r);
  return rc;
}

/* The generate request's params from argv, or NULL (why printed). */
static json_t *generate_params(int argc, char **argv) {
  json_t *p = json_object();
  int ch;
  optind = 0;
  while ((ch = next_opt(argc, argv)) != -1) {
    char *abs = NULL;
    int lim = limit_opt("generate", ch, optarg, p);
    if (lim < 0)
      goto refused;
    if (!lim)
      continue;
    if (ch == 'f' || ch == 'o')
      json_object_set_new(p, ch == 'f' ? "from" : "output", json_string(abs = absolute(optarg)));
    else if (ch == 'm' || ch == 'T')
      json_object_set_new(p, ch == 'm' ? "model" : "testGenModel", json_string(optarg));
    else if (ch == 'e' || ch == 'x') {
      const char *key = ch == 'e' ? "evalModels" : "examples";
      if (!json_object_get(p, key))
        json_object_set_new(p, key, json_array());
      json_array_append_new(json_object_get(p, key), json_string(optarg));
    } else if (ch == 'i') {
      json_t *agents = json_array();
      split_into(agents, optarg);
      json_object_set_new(p, "install", json_pack("{s:o}", "agents", agents));
    } else if (ch == 'R') {
      json_object_set_new(p, "trigger", json_string(abs = absolute(optarg)));
    } else if (ch == 'O') {
      if (positive("generate", "--optimize", optarg, p, "optimize"))
        goto refused;
    } else if (ch != 'a' || positive("generate", "--attempts", optarg, p, "attempts"))
      goto refused;
    free(abs);
  }
  if (argc - optind != 1) {
    fprintf(stderr, "upskillctl generate: expected one TASK (quote it)\n");
    goto refused;
  }
  json_object_set_new(p, "task", json_string(argv[optind]));
  return p;
refused:
  json_decref(p);
  return NULL;
}

static int cmd_generate(ctl *c, int argc, char **argv) {
  return send_request(c, argv, "skills/generate", generate_params(argc, argv), print_generate);
}

static void print_runs(json_t *r) {
  json_t *x;
  size_t i;
  printf("%-26s %-9s %-24s %6s %-6s  %s\n", "id", "kind", "skill", "trials", "status", "models");
  json_array_foreach(json_object_get(r, "runs"), i, x) {
    printf("%-26s %-9s %-24.24s %6lld %-6s  ", sv(x, "id"), sv(x, "kind"), sv(x, "skill"),
           (long long)json_integer_value(json_object_get(x, "transcripts")), sv(x, "status"));
    json_t *m;
    size_t k;
    json_array_foreach(json_object_get(x, "models"), k, m)
        printf("%s%s", k ? ", " : "", json_string_value(m));
    putchar('\n');
  }
  if (!json_array_size(json_object_get(r, "runs")))
    printf("no runs in %s\n", sv(r, "runsDir"));
}

static int cmd_runs(ctl *c, int argc, char **argv) {
  const char *csv = NULL;
  int ch, err = 0;
  optind = 0;
  while ((ch = next_opt(argc, argv)) != -1) {
    if (ch == 'c')
      csv = optarg;
    else
      return ctl_usage_hint(argv[0]), 2;
  }
  if (optind != argc) {
    fprintf(stderr, "upskillctl runs: no arguments besides --csv FILE\n");
    return ctl_usage_hint(argv[0]), 2;
  }
  json_t *r = ctl_call(c, "runs/list", json_pack("{s:b}", "csv", csv != NULL), &err);
  if (r && csv) {
    FILE *f = fopen(csv, "w");
    const char *text = json_string_value(json_object_get(r, "csv"));
    if (!f || fputs(text ? text : "", f) < 0 || fclose(f)) {
      fprintf(stderr, "upskillctl runs: cannot write %s\n", csv);
      json_decref(r);
      return 1;
    }
    json_object_del(r, "csv");
    if (!c->json)
      printf("wrote %s\n", csv);
  }
  return finish(c, r, print_runs);
}

/* The text exactly as the teacher sees it on stdout; what was left out on
 * stderr, so the two can be told apart. */
static void print_condensed(json_t *r) {
  json_t *it;
  size_t i, n = json_array_size(json_object_get(r, "leftOut"));
  fputs(sv(r, "text"), stdout);
  fprintf(stderr,
          "\n%s trace: ~%lld tokens condensed to %lld (budget %lld); %zu left out or "
          "shortened%s\n",
          sv(r, "format"), (long long)json_integer_value(json_object_get(r, "sourceTokens")),
          (long long)json_integer_value(json_object_get(r, "tokens")),
          (long long)json_integer_value(json_object_get(r, "budget")), n, n ? ":" : "");
  json_array_foreach(json_object_get(r, "leftOut"), i, it) {
    if (i == 40) {
      fprintf(stderr, "  ... and %zu more (--json lists them all)\n", n - i);
      break;
    }
    fprintf(stderr, "  %s %-7s %s (~%lld tokens)\n",
            json_is_true(json_object_get(it, "shortened")) ? "shortened" : "left out",
            sv(it, "kind"), sv(it, "what"),
            (long long)json_integer_value(json_object_get(it, "tokens")));
  }
}

/* The condense request's params from argv, or NULL (why printed). */
static json_t *condense_params(int argc, char **argv) {
  json_t *p = json_object();
  int ch;
  optind = 0;
  while ((ch = next_opt(argc, argv)) != -1) {
    if (ch == 'f')
      json_object_set_new(p, "format", json_string(optarg));
    else if (ch != 'b' || positive("condense", "--budget", optarg, p, "budget"))
      goto refused;
  }
  if (argc - optind != 1) {
    fprintf(stderr, "upskillctl condense: expected one TRACE file\n");
    goto refused;
  }
  char *abs = absolute(argv[optind]);
  json_object_set_new(p, "trace", json_string(abs));
  free(abs);
  return p;
refused:
  json_decref(p);
  return NULL;
}

static int cmd_condense(ctl *c, int argc, char **argv) {
  return send_request(c, argv, "skills/condense", condense_params(argc, argv), print_condensed);
}

int ctl_eval_command(ctl *c, int argc, char **argv) {
  if (!strcmp(argv[0], "condense"))
    return cmd_condense(c, argc, argv);
  if (!strcmp(argv[0], "eval"))
    return cmd_eval(c, argc, argv);
  if (!strcmp(argv[0], "generate"))
    return cmd_generate(c, argc, argv);
  if (!strcmp(argv[0], "runs"))
    return cmd_runs(c, argc, argv);
  return CTL_UNKNOWN;
}

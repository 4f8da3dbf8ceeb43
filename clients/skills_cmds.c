/* upskillctl's skills verbs: human tables by default, --json for scripts. */
#include <getopt.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clients/commands.h"
#include "clients/args.h"
#include "clients/audit_print.h"
#include "clients/ctl.h"
#include "clients/voice.h"
#include "clients/junit_ctl.h"
#include "clients/lock_cmds.h"
#include "clients/skills_cmds.h"
#include "clients/sarif_ctl.h"
#include "common/xalloc.h"

typedef struct opts {
  json_t *agents; /* --agent, repeatable */
  json_t *skills; /* install --skill, repeatable */
  const char *scope;
  int limit, force, lenient, all, list, allow_risky;
  const char *junit; /* audit --junit FILE */
  const char *sarif; /* audit --sarif FILE */
  int fail_on;       /* audit --fail-on: 1 high, 2 medium, 3 low; 0: off */
  const char *judge, *judge_failure, *judge_timeout; /* audit --judge and its settings */
  const char *max_cost;                              /* audit --max-cost-usd */
  int dry_run;
} opts;

/* --limit N: 1 to 100. */
static int limit_value(const char *verb, const char *arg, int *limit) {
  double v;
  if (ctl_arg_number(verb, "--limit", arg, true, 100, &v))
    return -1;
  *limit = (int)v;
  return 0;
}

/* audit's --judge flags: 0, or -1 for a bad value or a flag not known here (each said). */
static int judge_opt(const char *verb, int ch, opts *o) {
  switch (ch) {
  case 'j':
    o->judge = optarg;
    return 0;
  case 'W':
    o->judge_failure = optarg;
    return 0;
  case 'D':
    o->dry_run = 1;
    return 0;
  case 'T':
    o->judge_timeout = optarg;
    return ctl_arg_number(verb, "--judge-timeout-ms", optarg, true, 600000, &(double){0});
  case '$':
    o->max_cost = optarg;
    return ctl_arg_number(verb, "--max-cost-usd", optarg, false, 1e18, &(double){0});
  default:
    ctl_usage_hint(verb);
    return -1;
  }
}

/* Parse the verb's own flags; positional arguments are left in argv[optind..]. */
static int parse_opts(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->agents = json_array();
  o->skills = json_array();
  optind = 0; /* GNU: full re-initialisation for a second getopt pass */
  int ch;
  while ((ch = getopt_long(argc, argv, ctl_shortopts(argv[0]), ctl_longopts(argv[0]), NULL)) !=
         -1) {
    switch (ch) {
    case 'a':
      json_array_append_new(o->agents, json_string(optarg));
      break;
    case 's':
      o->scope = optarg;
      break;
    case 'n':
      if (limit_value(argv[0], optarg, &o->limit))
        return -1;
      break;
    case 'A':
      o->all = 1;
      break;
    case 'f':
      o->force = 1;
      break;
    case 'l':
      o->lenient = 1;
      break;
    case 'k':
      json_array_append_new(o->skills, json_string(optarg));
      break;
    case 'L':
      o->list = 1;
      break;
    case 'J':
      if (ctl_junit_check(argv[0], optarg))
        return -1;
      o->junit = optarg;
      break;
    case 'R':
      o->allow_risky = 1;
      break;
    case 'S':
      if (ctl_sarif_check(argv[0], optarg))
        return -1;
      o->sarif = optarg;
      break;
    case 'O':
      if (ctl_fail_on_parse(optarg, &o->fail_on))
        return -1;
      break;
    default:
      if (judge_opt(argv[0], ch, o))
        return -1;
    }
  }
  return 0;
}

static const char *s_(json_t *o, const char *k) {
  const char *v = json_string_value(json_object_get(o, k));
  return v ? v : "-";
}

static char *absolute(const char *p) {
  char buf[PATH_MAX];
  return realpath(p, buf) ? upk_xstrdup(buf) : upk_xstrdup(p);
}

/* The daemon answers while its first scan runs, saying how far it got
 * (`indexing`). Requests pass waitMs: the daemon holds the answer until the
 * scan is done, reporting $/progress (the progress line on a terminal), and
 * answers partially only past it. After ROUNDS such waits the partial answer
 * is printed, with a warning. */
enum { ROUNDS = 5 };

static int wait_refused(json_t *r) {
  const char *m = json_string_value(json_object_get(json_object_get(r, "error"), "message"));
  return m && strstr(m, "waitMs") && strstr(m, "unknown parameter");
}

/* Takes its reference to params, as ctl_call does. Sends waitMs where the
 * method takes it; skills/list on a daemon without waitMs waits through a
 * skills/lookup that does. */
static json_t *call_indexed(ctl *c, const char *method, json_t *params) {
  static int list_takes_wait = 1;
  int err = 0;
  for (int round = 0;; round++) {
    int waits = !strcmp(method, "skills/lookup") || list_takes_wait;
    json_t *p = json_deep_copy(params);
    if (waits)
      json_object_set_new(p, "waitMs", json_integer(ctl_wait_ms(c)));
    json_t *resp = ctl_request(c, method, p), *r = NULL;
    if (resp && waits && wait_refused(resp)) {
      list_takes_wait = 0;
      json_decref(resp);
      resp = ctl_request(c, method, json_incref(params));
    }
    if (resp && json_object_get(resp, "error"))
      ctl_print_error(c, json_object_get(resp, "error"));
    else if (resp)
      r = json_incref(json_object_get(resp, "result"));
    json_decref(resp);
    (void)err;
    json_t *ix = r ? json_object_get(r, "indexing") : NULL;
    if (!ix || round + 1 >= ROUNDS) {
      json_decref(params);
      if (ix)
        fprintf(stderr,
                "upskillctl: the skill index is still being built; this answer is partial\n");
      return r;
    }
    json_decref(r);
    if (!waits) { /* wait for the scan where the daemon can, then ask again */
      json_t *w = json_pack("{s:s,s:i,s:I}", "task", "skills", "limit", 1, "waitMs",
                            (json_int_t)ctl_wait_ms(c));
      json_decref(ctl_request(c, "skills/lookup", w));
    }
  }
}

static void warn_truncated(json_t *r) {
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(r, "truncatedRoots"), i, v)
      fprintf(stderr,
              "upskillctl: warning: %s was cut at the directory limit; not every skill "
              "in it is indexed\n",
              json_string_value(v));
}

static void print_row(const char *name, json_t *e, const char *note) {
  printf("%-32s %-8s %-10s %7lld  %s%s\n", name, s_(e, "scope"), s_(e, "agent"),
         (long long)json_integer_value(json_object_get(e, "tokens")), s_(e, "path"), note);
}

static void print_entry(json_t *e) {
  const char *note = json_is_true(json_object_get(e, "shadowed"))  ? " (shadowed)"
                     : !json_is_true(json_object_get(e, "usable")) ? " (not loadable)"
                                                                   : "";
  print_row(s_(e, "name"), e, note);
}

static int scope_rank(json_t *e) {
  static const char *order[] = {"project", "user", "extra", "builtin"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(s_(e, "scope"), order[i]))
      return i;
  return 4;
}

/* The copy an agent reads: loadable, not shadowed, nearest scope first. */
static size_t winner_of(json_t *copies) {
  size_t i, best = 0;
  int best_rank = 1 << 30;
  json_t *e;
  json_array_foreach(copies, i, e) {
    int rank = scope_rank(e) + (json_is_true(json_object_get(e, "shadowed")) ? 100 : 0) +
               (json_is_true(json_object_get(e, "usable")) ? 0 : 10);
    if (rank < best_rank)
      best_rank = rank, best = i;
  }
  return best;
}

/* `agents` (a JSON array of strings) joined by ", " into buf. */
static void join(json_t *agents, char *buf, size_t len) {
  size_t i, at = 0;
  json_t *a;
  buf[0] = '\0';
  json_array_foreach(agents, i, a) {
    int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", json_string_value(a));
    if (n < 0 || (size_t)n >= len - at)
      break;
    at += (size_t)n;
  }
}

/* One file of a name: which agents read it and which see it shadowed. */
static void print_copy(const char *label, json_t *copy) {
  json_t *e = json_object_get(copy, "entry");
  json_t *readers = json_object_get(copy, "readers"), *shadowed = json_object_get(copy, "shadowed");
  char r[256], sh[256], note[600];
  join(readers, r, sizeof r);
  join(shadowed, sh, sizeof sh);
  snprintf(note, sizeof note, "%s%s%s%s%s%s",
           json_is_true(json_object_get(e, "usable")) ? "" : "not loadable; ", *r ? "for " : "", r,
           *r && *sh ? "; " : "", *sh ? "shadowed for " : "", sh);
  printf("%-32s %-8s %7lld  %s (%s)\n", label, s_(e, "scope"),
         (long long)json_integer_value(json_object_get(e, "tokens")), s_(e, "path"), note);
}

/* One row per name: the file the agents read (the winning copy), then its other files indented
 * under it, each with the agents that read it or see it shadowed. */
static size_t print_grouped(json_t *skills) {
  json_t *groups = json_object(), *order = json_array(), *e, *name;
  size_t i, count = 0;
  json_array_foreach(skills, i, e) {
    const char *n = s_(e, "name");
    json_t *g = json_object_get(groups, n);
    if (!g) {
      g = json_array();
      json_object_set_new(groups, n, g);
      json_array_append_new(order, json_string(n));
    }
    json_array_append(g, e);
  }
  printf("%-32s %-8s %7s  %s\n", "NAME", "SCOPE", "TOKENS", "PATH (AGENTS)");
  json_array_foreach(order, i, name) {
    json_t *entries = json_object_get(groups, json_string_value(name));
    json_t *win = json_array_get(entries, winner_of(entries));
    json_t *files = json_object(), *paths = json_array(), *path;
    size_t k;
    json_array_foreach(entries, k, e) {
      json_t *copy = json_object_get(files, s_(e, "path"));
      if (!copy) {
        copy = json_pack("{s:O,s:[],s:[]}", "entry", e, "readers", "shadowed");
        json_object_set_new(files, s_(e, "path"), copy);
        if (!strcmp(s_(e, "path"), s_(win, "path")))
          json_array_insert_new(paths, 0, json_string(s_(e, "path")));
        else
          json_array_append_new(paths, json_string(s_(e, "path")));
      }
      bool sh = json_is_true(json_object_get(e, "shadowed"));
      json_array_append_new(json_object_get(copy, sh ? "shadowed" : "readers"),
                            json_string(json_is_string(json_object_get(e, "agent"))
                                            ? s_(e, "agent")
                                            : "every agent"));
    }
    json_array_foreach(paths, k, path) {
      json_t *copy = json_object_get(files, json_string_value(path));
      bool read = json_array_size(json_object_get(copy, "readers")) > 0;
      print_copy(k == 0 ? json_string_value(name) : read ? "  also" : "  shadowed", copy);
    }
    json_decref(paths);
    json_decref(files);
    count++;
  }
  json_decref(order);
  json_decref(groups);
  return count;
}

/* Every page of skills/list; --json prints them as one answer. */
static int cmd_list(ctl *c, json_t *params, int all_rows) {
  enum { PAGE = 5000 };
  json_t *all = NULL;
  json_object_set_new(params, "limit", json_integer(PAGE));
  for (json_int_t off = 0;;) {
    json_object_set_new(params, "offset", json_integer(off));
    json_t *r = call_indexed(c, "skills/list", json_incref(params));
    if (!r) {
      json_decref(params);
      json_decref(all);
      return 1;
    }
    if (off == 0)
      warn_truncated(r);
    json_t *next = json_object_get(r, "nextOffset");
    if (!all) {
      all = json_incref(r);
    } else {
      json_array_extend(json_object_get(all, "skills"), json_object_get(r, "skills"));
      json_array_extend(json_object_get(all, "shadows"), json_object_get(r, "shadows"));
    }
    off = json_is_integer(next) ? json_integer_value(next) : -1;
    json_decref(r);
    if (off < 0)
      break;
  }
  json_decref(params);
  json_object_del(all, "offset");
  json_object_set_new(all, "nextOffset", json_null());
  json_t *skills = json_object_get(all, "skills");
  if (c->json) {
    ctl_print_json(all);
  } else {
    if (all_rows) {
      printf("%-32s %-8s %-10s %7s  %s\n", "NAME", "SCOPE", "AGENT", "TOKENS", "PATH");
      size_t i;
      json_t *e;
      json_array_foreach(skills, i, e) print_entry(e);
      printf("%zu skill placement(s)\n", json_array_size(skills));
    } else {
      size_t names = print_grouped(skills);
      printf("%zu skill(s) in %zu placement(s) (--all: one row per placement)\n", names,
             json_array_size(skills));
    }
  }
  json_decref(all);
  return 0;
}

static int cmd_lookup(ctl *c, json_t *params) {
  json_t *r = call_indexed(c, "skills/lookup", params);
  if (!r)
    return 1;
  warn_truncated(r);
  json_t *res = json_object_get(r, "results");
  bool none = json_is_true(json_object_get(r, "noMatch"));
  if (c->json) {
    ctl_print_json(r);
  } else if (json_array_size(res) == 0) {
    printf("no skill fits this task: no skill shares a word with it\n");
  } else {
    if (none)
      printf("no skill fits this task (none reaches relevance %.2f); the nearest:\n",
             json_number_value(json_object_get(r, "relevanceCut")));
    size_t i;
    json_t *e;
    json_array_foreach(res, i, e) {
      printf("%zu. %-32s relevance %.2f %s (%s)\n   why: %s\n   %s\n", i + 1, s_(e, "name"),
             json_number_value(json_object_get(e, "relevance")), s_(e, "scope"), s_(e, "agent"),
             s_(e, "why"), s_(e, "path"));
    }
  }
  int rc = none || json_array_size(res) == 0;
  json_decref(r);
  return rc;
}

static int cmd_validate(ctl *c, const char *path, json_t *params) {
  int err = 0;
  char *abs = absolute(path);
  json_object_set_new(params, "path", json_string(abs));
  json_t *r = ctl_call(c, "skills/validate", params, &err);
  if (!r) {
    free(abs);
    return 1;
  }
  int ok = json_is_true(json_object_get(r, "ok"));
  if (c->json) {
    ctl_print_json(r);
  } else {
    char shown[PATH_MAX + 16];
    struct stat st;
    bool dir = stat(abs, &st) == 0 && S_ISDIR(st.st_mode);
    snprintf(shown, sizeof shown, "%s%s", abs, dir ? "/SKILL.md" : "");
    ctl_print_diags(stdout, shown, json_object_get(r, "diagnostics"), NULL, NULL);
    printf("%s: %s (%lld error(s), %lld warning(s), %s mode)\n", path, ok ? "valid" : "invalid",
           (long long)json_integer_value(json_object_get(r, "errors")),
           (long long)json_integer_value(json_object_get(r, "warnings")), s_(r, "mode"));
  }
  free(abs);
  json_decref(r);
  return ok ? 0 : 1;
}

/* "installed NAME -> PATH" for each directory an install or remove touched. */
void ctl_print_targets(const char *verb, json_t *r) {
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(r, "targets"), i, t) {
    const char *what = !strcmp(verb, "remove")                         ? "removed"
                       : json_is_true(json_object_get(t, "unchanged")) ? "unchanged"
                       : json_is_true(json_object_get(t, "replaced"))  ? "replaced"
                                                                       : "installed";
    printf("%s %s -> %s\n", what, s_(r, "name"), s_(t, "path"));
  }
}

/* install --list: the skills a source holds. */
static void print_found(json_t *r) {
  json_t *src = json_object_get(r, "source"), *f;
  size_t i;
  printf("%s at %s: %zu skill(s)\n", s_(src, "lock"), s_(src, "commit"),
         json_array_size(json_object_get(r, "found")));
  json_array_foreach(json_object_get(r, "found"), i, f) {
    printf("  %-32s %s\n      %s\n", s_(f, "name"), s_(f, "path"), s_(f, "description"));
  }
}

static int cmd_install(ctl *c, const char *verb, json_t *params, const char *dir) {
  int err = 0;
  json_t *r =
      ctl_call(c, !strcmp(verb, "install") ? "skills/install" : "skills/remove", params, &err);
  if (!r)
    return 1;
  if (c->json) {
    ctl_print_json(r);
  } else {
    const char *name = json_string_value(json_object_get(r, "name"));
    if (dir || name)
      ctl_diags_under(json_object_get(r, "diagnostics"), dir ? dir : name);
    ctl_print_diags(stdout, "SKILL.md", json_object_get(r, "diagnostics"), NULL, NULL);
    json_t *skills = json_object_get(r, "skills"), *sk;
    size_t i;
    if (json_object_get(r, "found"))
      print_found(r);
    else if (skills)
      json_array_foreach(skills, i, sk) ctl_print_targets(verb, sk);
    else
      ctl_print_targets(verb, r);
  }
  json_decref(r);
  return 0;
}

/* audit --judge MODEL [--judge-failure warn|fail] [--judge-timeout-ms MS] [--dry-run]
 * [--max-cost-usd X]. */
static void judge_params(json_t *p, const opts *o) {
  if (o->judge)
    json_object_set_new(p, "judge", json_string(o->judge));
  if (o->judge_failure)
    json_object_set_new(p, "judgeFailure", json_string(o->judge_failure));
  if (o->judge_timeout)
    json_object_set_new(p, "judgeTimeoutMs", json_integer(strtol(o->judge_timeout, NULL, 10)));
  if (o->dry_run)
    json_object_set_new(p, "dryRun", json_true());
  if (o->max_cost)
    json_object_set_new(p, "maxCostUsd", json_real(strtod(o->max_cost, NULL)));
}

/* audit PATH|SOURCE [--skill NAME]: findings per skill, worst first within each. */
static int audit_command(ctl *c, int argc, char **argv) {
  opts o;
  if (parse_opts(argc, argv, &o) || argc - optind != 1) {
    if (argc - optind != 1)
      fprintf(stderr, "upskillctl audit: expected one PATH or SOURCE\n");
    json_decref(o.agents);
    json_decref(o.skills);
    return 2;
  }
  struct stat st;
  const char *arg = argv[optind];
  char *from = stat(arg, &st) == 0 ? absolute(arg) : upk_xstrdup(arg);
  json_t *p = json_pack("{s:s}", "from", from), *sk;
  if (json_array_size(o.skills))
    json_object_set(p, "skills", o.skills);
  judge_params(p, &o);
  int err = 0, high = 0;
  double started = ctl_now();
  json_t *r = ctl_call(c, "skills/audit", p, &err);
  size_t i;
  if (r && c->json)
    ctl_print_json(r);
  json_array_foreach(json_object_get(r, "skills"), i, sk) {
    high += (int)json_integer_value(json_object_get(sk, "high"));
    if (c->json)
      continue;
    printf("%s (%s): %lld high, %lld medium, %lld low\n", s_(sk, "name"), s_(sk, "path"),
           (long long)json_integer_value(json_object_get(sk, "high")),
           (long long)json_integer_value(json_object_get(sk, "medium")),
           (long long)json_integer_value(json_object_get(sk, "low")));
    ctl_print_audit_findings(json_object_get(sk, "findings"));
    ctl_print_judge(json_object_get(sk, "judge"));
  }
  int wrote = r && o.junit ? ctl_junit_audit(r, o.junit, started) : 0;
  wrote |= r && o.sarif ? ctl_sarif_audit(r, o.sarif) : 0;
  int gate = r && o.fail_on ? ctl_fail_on(r, o.fail_on) : 0;
  free(from);
  json_decref(r);
  json_decref(o.agents);
  json_decref(o.skills);
  /* --fail-on replaces the default (high: 1) with the CI gate's own status. */
  return !r || wrote ? 1 : o.fail_on ? gate : high > 0;
}

/* skills/prompt: the <available_skills> block. */
static int cmd_prompt(ctl *c, json_t *p) {
  json_object_del(p, "scope");
  int err = 0;
  json_t *r = ctl_call(c, "skills/prompt", p, &err);
  if (r)
    c->json ? ctl_print_json(r) : (void)printf("%s\n", s_(r, "xml"));
  int rc = r ? 0 : 1;
  json_decref(r);
  return rc;
}

/* install (k 3, `arg` a path or a git source) or remove (k 4, `arg` a name). */
static int install_verb(ctl *c, size_t k, const char *verb, const char *arg, const opts *o,
                        json_t *p) {
  if (json_array_size(o->agents))
    json_object_set(p, "agents", o->agents);
  char *abs = NULL, shown[PATH_MAX + 16];
  bool dir = false; /* a local skill directory: its diagnostics shown under the path typed */
  if (k == 3) {
    struct stat st0;
    abs = stat(arg, &st0) == 0 ? absolute(arg) : upk_xstrdup(arg); /* else a git source */
    json_object_set_new(p, "from", json_string(abs));
    if (o->force)
      json_object_set_new(p, "force", json_true());
    if (json_array_size(o->skills))
      json_object_set(p, "skills", o->skills);
    if (o->all)
      json_object_set_new(p, "all", json_true());
    if (o->list)
      json_object_set_new(p, "list", json_true());
    if (o->allow_risky)
      json_object_set_new(p, "allowRisky", json_true());
    struct stat st;
    dir = stat(abs, &st) == 0 && S_ISDIR(st.st_mode);
    snprintf(shown, sizeof shown, "%s%s", abs, dir ? "/SKILL.md" : "");
    c->diag_file = shown, c->diag_dir = dir ? arg : NULL; /* a refusal's findings: under it */
  } else {
    json_object_set_new(p, "name", json_string(arg));
  }
  int rc = cmd_install(c, verb, p, dir ? arg : NULL);
  if (rc && k == 4 && !c->json)
    ctl_suggest_skill(c, arg);
  c->diag_file = c->diag_dir = NULL;
  free(abs);
  return rc;
}

/* Verb k of ctl_skills_command's table with its options and its one argument (or NULL). */
static int skills_verb(ctl *c, size_t k, const char *verb, const char *arg, const opts *o) {
  json_t *p = json_object();
  if (o->scope)
    json_object_set_new(p, "scope", json_string(o->scope));
  if (k == 0 || k == 5) { /* list, prompt: one agent filter */
    if (json_array_size(o->agents))
      json_object_set(p, "agent", json_array_get(o->agents, 0));
    return k == 0 ? cmd_list(c, p, o->all) : cmd_prompt(c, p);
  }
  if (k == 1) {
    json_object_set_new(p, "task", json_string(arg));
    if (o->limit)
      json_object_set_new(p, "limit", json_integer(o->limit));
    if (json_array_size(o->agents))
      json_object_set(p, "agents", o->agents);
    return cmd_lookup(c, p);
  }
  if (k == 2) {
    if (o->lenient)
      json_object_set_new(p, "mode", json_string("lenient"));
    json_object_del(p, "scope");
    return cmd_validate(c, arg, p);
  }
  return install_verb(c, k, verb, arg, o, p);
}

int ctl_skills_command(ctl *c, int argc, char **argv) {
  if (!strcmp(argv[0], "audit"))
    return audit_command(c, argc, argv);
  if (!strcmp(argv[0], "restore") || !strcmp(argv[0], "check") || !strcmp(argv[0], "update"))
    return ctl_lock_command(c, argc, argv);
  static const char *verbs[] = {"list", "lookup", "validate", "install", "remove", "prompt"};
  const char *verb = argv[0];
  size_t k = 0;
  while (k < 6 && strcmp(verb, verbs[k]))
    k++;
  if (k == 6)
    return CTL_UNKNOWN;
  opts o;
  int rc = 2, needs = (k >= 1 && k <= 4) ? 1 : 0;
  if (parse_opts(argc, argv, &o))
    goto done;
  if (argc - optind != needs) {
    static const char *what[] = {"", "one TASK (quote it)", "one PATH", "one PATH or SOURCE",
                                 "one NAME"};
    fprintf(stderr, "upskillctl %s: expected %s\n", verb, needs ? what[k] : "no arguments");
    ctl_usage_hint(verb);
    goto done;
  }
  rc = skills_verb(c, k, verb, needs ? argv[optind] : NULL, &o);
done:
  json_decref(o.agents);
  json_decref(o.skills);
  return rc;
}

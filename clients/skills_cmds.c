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

#include "ctl.h"

typedef struct opts {
  json_t *agents; /* --agent, repeatable */
  const char *scope;
  int limit, force, lenient;
} opts;

/* Parse the verb's own flags; positional arguments are left in argv[optind..]. */
static int parse_opts(int argc, char **argv, opts *o) {
  static const struct option longs[] = {
      {"agent", required_argument, 0, 'a'}, {"scope", required_argument, 0, 's'},
      {"limit", required_argument, 0, 'n'}, {"force", no_argument, 0, 'f'},
      {"lenient", no_argument, 0, 'l'},     {0, 0, 0, 0},
  };
  memset(o, 0, sizeof *o);
  o->agents = json_array();
  optind = 0; /* GNU: full re-initialisation for a second getopt pass */
  int ch;
  while ((ch = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (ch) {
    case 'a':
      json_array_append_new(o->agents, json_string(optarg));
      break;
    case 's':
      o->scope = optarg;
      break;
    case 'n':
      o->limit = atoi(optarg);
      break;
    case 'f':
      o->force = 1;
      break;
    case 'l':
      o->lenient = 1;
      break;
    default:
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
  return realpath(p, buf) ? strdup(buf) : strdup(p);
}

static void print_diags(const char *file, json_t *diags) {
  size_t i;
  json_t *d;
  static const char *sev[] = {"", "error", "warning", "info", "hint"};
  json_array_foreach(diags, i, d) {
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    int severity = (int)json_integer_value(json_object_get(d, "severity"));
    const char *f = json_string_value(json_object_get(d, "file"));
    printf("%s:%lld:%lld: %s: %s [%s]\n", f ? f : file,
           (long long)json_integer_value(json_object_get(start, "line")) + 1,
           (long long)json_integer_value(json_object_get(start, "character")) + 1,
           severity >= 1 && severity <= 4 ? sev[severity] : "note", s_(d, "message"),
           s_(d, "code"));
  }
}

/* The daemon answers while its first scan runs, saying how far it got
 * (`indexing`): show a progress bar and ask again rather than print an answer
 * from a partial index. Gives up waiting after WAIT_S (then the partial
 * answer is printed, with a warning). */
#define WAIT_S 600

static void progress_bar(json_t *ix) {
  long long done = json_integer_value(json_object_get(ix, "done"));
  long long total = json_integer_value(json_object_get(ix, "total"));
  int w = 30, k = total > 0 ? (int)(done * w / total) : 0;
  fprintf(stderr, "\rindexing skills [%.*s%*s] %lld/%lld", k, "##############################",
          w - k, "", done, total);
  fflush(stderr);
}

/* Takes its reference to params, as ctl_call does. */
static json_t *call_indexed(ctl *c, const char *method, json_t *params) {
  int err = 0;
  bool shown = false;
  struct timespec pause = {0, 200 * 1000 * 1000};
  for (int tries = 0;; tries++) {
    json_t *r = ctl_call(c, method, json_incref(params), &err);
    json_t *ix = r ? json_object_get(r, "indexing") : NULL;
    if (!ix || tries >= WAIT_S * 5) {
      json_decref(params);
      if (shown)
        fprintf(stderr, "\r%*s\r", 60, "");
      if (ix)
        fprintf(stderr,
                "upskillctl: the skill index is still being built; this answer is partial\n");
      return r;
    }
    progress_bar(ix);
    shown = true;
    json_decref(r);
    nanosleep(&pause, NULL);
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

static void print_entry(json_t *e) {
  const char *note = json_is_true(json_object_get(e, "shadowed"))  ? " (shadowed)"
                     : !json_is_true(json_object_get(e, "usable")) ? " (not loadable)"
                                                                   : "";
  printf("%-32s %-8s %-10s %7lld  %s%s\n", s_(e, "name"), s_(e, "scope"), s_(e, "agent"),
         (long long)json_integer_value(json_object_get(e, "tokens")), s_(e, "path"), note);
}

/* Every page of skills/list; --json prints them as one answer. */
static int cmd_list(ctl *c, json_t *params) {
  enum { PAGE = 5000 };
  json_t *all = NULL;
  size_t count = 0;
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
    if (!c->json && off == 0)
      printf("%-32s %-8s %-10s %7s  %s\n", "NAME", "SCOPE", "AGENT", "TOKENS", "PATH");
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r, "skills"), i, e) {
      if (!c->json)
        print_entry(e);
      count++;
    }
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
  if (c->json)
    ctl_print_json(all);
  else
    printf("%zu skill placement(s)\n", count);
  json_decref(all);
  return 0;
}

static int cmd_lookup(ctl *c, json_t *params) {
  json_t *r = call_indexed(c, "skills/lookup", params);
  if (!r)
    return 1;
  warn_truncated(r);
  json_t *res = json_object_get(r, "results");
  if (c->json) {
    ctl_print_json(r);
  } else if (json_array_size(res) == 0) {
    printf("no skill matches\n");
  } else {
    size_t i;
    json_t *e;
    json_array_foreach(res, i, e) {
      printf("%zu. %-32s score %-8.3g %s (%s)\n   why: %s\n   %s\n", i + 1, s_(e, "name"),
             json_number_value(json_object_get(e, "score")), s_(e, "scope"), s_(e, "agent"),
             s_(e, "why"), s_(e, "path"));
    }
  }
  json_decref(r);
  return 0;
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
    print_diags(shown, json_object_get(r, "diagnostics"));
    printf("%s: %s (%lld error(s), %lld warning(s), %s mode)\n", path, ok ? "valid" : "invalid",
           (long long)json_integer_value(json_object_get(r, "errors")),
           (long long)json_integer_value(json_object_get(r, "warnings")), s_(r, "mode"));
  }
  free(abs);
  json_decref(r);
  return ok ? 0 : 1;
}

static int cmd_install(ctl *c, const char *verb, json_t *params) {
  int err = 0;
  json_t *r =
      ctl_call(c, !strcmp(verb, "install") ? "skills/install" : "skills/remove", params, &err);
  if (!r)
    return 1;
  if (c->json) {
    ctl_print_json(r);
  } else {
    print_diags("SKILL.md", json_object_get(r, "diagnostics"));
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
  json_decref(r);
  return 0;
}

int ctl_skills_command(ctl *c, int argc, char **argv) {
  static const char *verbs[] = {"list", "lookup", "validate", "install", "remove", "prompt"};
  const char *verb = argv[0];
  size_t k = 0;
  while (k < 6 && strcmp(verb, verbs[k]))
    k++;
  if (k == 6)
    return CTL_UNKNOWN;
  opts o;
  if (parse_opts(argc, argv, &o)) {
    json_decref(o.agents);
    return 2;
  }
  int npos = argc - optind, needs = (k >= 1 && k <= 4) ? 1 : 0;
  if (npos != needs) {
    fprintf(stderr, "upskillctl %s: expected %s\n", verb, needs ? "one argument" : "no argument");
    json_decref(o.agents);
    return 2;
  }
  const char *arg = needs ? argv[optind] : NULL;
  json_t *p = json_object();
  if (o.scope)
    json_object_set_new(p, "scope", json_string(o.scope));
  int rc;
  if (k == 0 || k == 5) { /* list, prompt: one agent filter */
    if (json_array_size(o.agents))
      json_object_set(p, "agent", json_array_get(o.agents, 0));
    if (k == 0) {
      rc = cmd_list(c, p);
    } else {
      json_object_del(p, "scope");
      int err = 0;
      json_t *r = ctl_call(c, "skills/prompt", p, &err);
      if (r)
        c->json ? ctl_print_json(r) : (void)printf("%s\n", s_(r, "xml"));
      rc = r ? 0 : 1;
      json_decref(r);
    }
  } else if (k == 1) {
    json_object_set_new(p, "task", json_string(arg));
    if (o.limit)
      json_object_set_new(p, "limit", json_integer(o.limit));
    if (json_array_size(o.agents))
      json_object_set(p, "agents", o.agents);
    rc = cmd_lookup(c, p);
  } else if (k == 2) {
    if (o.lenient)
      json_object_set_new(p, "mode", json_string("lenient"));
    json_object_del(p, "scope");
    rc = cmd_validate(c, arg, p);
  } else {
    if (json_array_size(o.agents))
      json_object_set(p, "agents", o.agents);
    if (k == 3) {
      char *abs = absolute(arg);
      json_object_set_new(p, "from", json_string(abs));
      free(abs);
      if (o.force)
        json_object_set_new(p, "force", json_true());
    } else {
      json_object_set_new(p, "name", json_string(arg));
    }
    rc = cmd_install(c, verb, p);
  }
  json_decref(o.agents);
  return rc;
}

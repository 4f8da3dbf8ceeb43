/* Fault injection; see fault.h. */
#include "common/fault.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/env_options.h"
#include "common/xalloc.h"

#define MAX_RULES 8

typedef struct rule {
  char point[64];
  bool prefix;       /* POINT ended with '*' */
  unsigned long n;   /* the hit that fires */
  int action;        /* 0: kill, -1: abort, -3: sleep, > 0: an errno */
  unsigned sleep_ms; /* -3: how long the hit stalls its thread */
  atomic_ulong hits;
} rule;

static rule rules[MAX_RULES];
static int n_rules;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const struct {
  const char *name;
  int err;
} errnos[] = {{"ENOSPC", ENOSPC}, {"EROFS", EROFS},   {"EACCES", EACCES}, {"EPERM", EPERM},
              {"EIO", EIO},       {"EDQUOT", EDQUOT}, {"ENOMEM", ENOMEM}, {"EINVAL", EINVAL}};

static int parse_action(const char *s, unsigned *sleep_ms) {
  if (!*s || !strcmp(s, "kill"))
    return 0;
  if (!strcmp(s, "abort"))
    return -1;
  char *end;
  unsigned long ms = strncmp(s, "sleep", 5) ? 0 : strtoul(s + 5, &end, 10);
  if (ms && !*end && ms <= 60000) { /* sleepMS: a stall (a slow disk, a long scan) */
    *sleep_ms = (unsigned)ms;
    return -3;
  }
  for (size_t i = 0; i < sizeof errnos / sizeof *errnos; i++)
    if (!strcmp(s, errnos[i].name))
      return errnos[i].err;
  return -2;
}

/* One rule, "POINT[:N[:ACTION]]"; a bad one is reported and ignored. */
static void parse_rule(char *text) {
  char *n = strchr(text, ':'), *act = NULL;
  if (n) {
    *n++ = 0;
    if ((act = strchr(n, ':')))
      *act++ = 0;
  }
  rule *r = &rules[n_rules];
  size_t len = strlen(text);
  char *end = NULL;
  r->n = n && *n ? strtoul(n, &end, 10) : 1;
  r->action = parse_action(act ? act : "", &r->sleep_ms);
  if (!len || len >= sizeof r->point || r->n == 0 || (end && *end) || r->action == -2) {
    fprintf(stderr, "upskilld: UPSKILLD_FAULT: ignoring the bad rule '%s'\n", text);
    return;
  }
  r->prefix = text[len - 1] == '*';
  memcpy(r->point, text, len - r->prefix);
  n_rules++;
}

static void load(void) {
  const char *env = upk_env_opts()->fault;
  char *copy = env ? upk_xstrdup(env) : NULL, *save = NULL;
  for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && n_rules < MAX_RULES;
       t = strtok_r(NULL, ",", &save))
    parse_rule(t);
  free(copy);
}

static bool matches(const rule *r, const char *point) {
  return r->prefix ? !strncmp(point, r->point, strlen(r->point)) : !strcmp(point, r->point);
}

int upk_fault(const char *point) {
  pthread_once(&once, load);
  for (int i = 0; i < n_rules; i++) {
    rule *r = &rules[i];
    if (!matches(r, point))
      continue;
    unsigned long hit = atomic_fetch_add(&r->hits, 1) + 1;
    if (hit < r->n)
      continue;
    if (r->action > 0)
      return -r->action;
    if (hit > r->n)
      continue;
    if (r->action == -3) {
      fprintf(stderr, "upskilld: UPSKILLD_FAULT: sleep %u ms at %s (hit %lu)\n", r->sleep_ms, point,
              hit);
      usleep(r->sleep_ms * 1000u);
      continue;
    }
    fprintf(stderr, "upskilld: UPSKILLD_FAULT: %s at %s (hit %lu)\n",
            r->action ? "abort" : "SIGKILL", point, hit);
    if (r->action)
      abort();
    kill(getpid(), SIGKILL);
    pause();
  }
  return 0;
}

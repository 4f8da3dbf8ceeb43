/* What a person types to upskillctl is the user's own authority (docs/security.md, "The
 * user's command line"): it reaches the daemon as the spawned upskilld's own arguments, which no
 * JSON-RPC message can set. */
#include "clients/grant.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* `dir` as an fnmatch pattern that matches only itself: *, ?, [ and \ escaped. */
static char *glob_literal(const char *prefix, const char *dir) {
  size_t n = strlen(prefix), len = strlen(dir);
  char *out = upk_xmalloc(n + 2 * len + 1), *p = out + n;
  memcpy(out, prefix, n);
  for (const char *s = dir; *s; s++) {
    if (strchr("*?[\\", *s))
      *p++ = '\\';
    *p++ = *s;
  }
  *p = '\0';
  return out;
}

static void add(json_t *out, char *arg) {
  json_array_append_new(out, json_string(arg));
  free(arg);
}

/* One of check-kernel's options, as a daemon argument (or nothing). */
static void grant_one(int ch, const char *arg, json_t *out) {
  char real[PATH_MAX];
  switch (ch) {
  case 'I': /* an include directory: the request's `includes` holds it made real */
    if (realpath(arg, real))
      add(out, glob_literal("--allow-kernel-option=-I", real));
    break;
  case CTL_OPT_PYTHON:
    add(out, upk_xasprintf("--python=%s", arg));
    break;
  case CTL_OPT_ALLOW_OPTION:
    add(out, upk_xasprintf("--allow-kernel-option=%s", arg));
    break;
  default:
    break;
  }
}

json_t *ctl_grants(const ctl_cmd *cmd, int argc, char **argv) {
  json_t *out = json_array();
  if (!cmd || strcmp(cmd->name, "check-kernel"))
    return out;
  /* getopt permutes what it reads: a copy, so the command's own parse sees the words as typed */
  char **copy = upk_xcalloc((size_t)argc + 1, sizeof *copy);
  memcpy(copy, argv, (size_t)argc * sizeof *copy);
  int saved = opterr, ch;
  opterr = 0; /* the command's own parse reports a bad option */
  optind = 0;
  while ((ch = getopt_long(argc, copy, ctl_shortopts(cmd->name), ctl_longopts(cmd->name), NULL)) !=
         -1)
    grant_one(ch, optarg, out);
  opterr = saved;
  optind = 0;
  free(copy);
  return out;
}

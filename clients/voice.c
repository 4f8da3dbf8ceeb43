/* upskillctl speaking to a person (voice.h): "did you mean" for what was typed wrong, and the
 * daemon's hints put in the words a person can type to upskillctl. */
#include "clients/voice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "common/xalloc.h"

void ctl_suggest_command(const char *word) {
  const char *names[64];
  size_t n = 0;
  for (const ctl_cmd *c = ctl_commands; c->name && n < 64; c++)
    names[n++] = c->name;
  const char *s = upk_suggest(word, names, n);
  if (s)
    fprintf(stderr, "did you mean 'upskillctl %s'?\n", s);
}

/* The option `--name` (n bytes) of `opts`: exactly, else as getopt_long takes a prefix of one. */
static const ctl_opt *long_of(const ctl_opt *opts, const char *name, size_t n, int *count) {
  const ctl_opt *hit = NULL;
  for (const ctl_opt *o = opts; o && o->lng; o++) {
    if (strncmp(o->lng, name, n))
      continue;
    if (!o->lng[n]) {
      *count = 1;
      return o;
    }
    hit = o, (*count)++;
  }
  return hit;
}

static const ctl_opt *short_of(const ctl_opt *opts, char ch) {
  for (const ctl_opt *o = opts; o && o->lng; o++)
    if (o->shrt == ch)
      return o;
  return NULL;
}

/* The command's and the global options' long names, for a suggestion. */
static const char *nearest_long(const ctl_cmd *cmd, const char *name) {
  const char *names[2 * CTL_MAX_OPTS];
  size_t n = 0;
  for (const ctl_opt *o = cmd->opts; o->lng && n < CTL_MAX_OPTS; o++)
    names[n++] = o->lng;
  for (const ctl_opt *o = ctl_globals; o->lng && n < 2 * CTL_MAX_OPTS; o++)
    names[n++] = o->lng;
  return upk_suggest(name, names, n);
}

static int unknown_long(const ctl_cmd *cmd, const char *word) {
  size_t n = strcspn(word + 2, "=");
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)n, word + 2);
  fprintf(stderr, "upskillctl %s: unknown option '--%s'", cmd->name, name);
  const char *s = nearest_long(cmd, name);
  if (s)
    fprintf(stderr, "; did you mean '--%s'?", s);
  fprintf(stderr, "\nsee 'upskillctl %s --help'\n", cmd->name);
  return 2;
}

/* One word that starts with '-': 0, 1 when the next word is its value, or 2 (told why). */
static int check_word(const ctl_cmd *cmd, const char *w) {
  if (w[1] == '-') {
    size_t n = strcspn(w + 2, "=");
    int cmd_hits = 0, glob_hits = 0;
    const ctl_opt *o = long_of(cmd->opts, w + 2, n, &cmd_hits);
    const ctl_opt *g = long_of(ctl_globals, w + 2, n, &glob_hits);
    if (cmd_hits + glob_hits == 0 || !n)
      return unknown_long(cmd, w);
    o = o ? o : g;
    return o->arg && !w[2 + n] && cmd_hits + glob_hits == 1;
  }
  for (const char *p = w + 1; *p; p++) {
    const ctl_opt *o = short_of(cmd->opts, *p);
    o = o ? o : short_of(ctl_globals, *p);
    if (!o) {
      fprintf(stderr, "upskillctl %s: unknown option '-%c'\nsee 'upskillctl %s --help'\n",
              cmd->name, *p, cmd->name);
      return 2;
    }
    if (o->arg) /* the rest of the word, else the next one, is its value */
      return !p[1];
  }
  return 0;
}

int ctl_check_options(const ctl_cmd *cmd, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *w = argv[i];
    if (!strcmp(w, "--"))
      return 0;
    if (w[0] != '-' || !w[1])
      continue;
    int rc = check_word(cmd, w);
    if (rc == 2)
      return 2;
    i += rc;
  }
  return 0;
}

void ctl_suggest_skill(ctl *c, const char *name) {
  int err = 0;
  int json = c->json;
  c->json = 0;
  json_t *r = ctl_call(c, "skills/list", NULL, &err);
  c->json = json;
  json_t *skills = json_object_get(r, "skills"), *s;
  size_t n = json_array_size(skills), i;
  const char **names = upk_xcalloc(n + 1, sizeof *names);
  json_array_foreach(skills, i, s) {
    const char *scope = json_string_value(json_object_get(s, "scope"));
    if (!scope || strcmp(scope, "builtin")) /* the built-in library is not removed */
      names[i] = json_string_value(json_object_get(s, "name"));
  }
  const char *hit = upk_suggest(name, names, n);
  if (hit)
    fprintf(stderr, "did you mean '%s'? (upskillctl list shows the installed skills)\n", hit);
  free(names);
  json_decref(r);
}

/* The daemon's words for a hint (a request's parameter, its own flag) and a person's on the
 * command line. Only whole phrases the daemon writes are replaced. */
static const struct {
  const char *daemon, *cli;
} WORDS[] = {
    {"upskilld --allow-kernel-option=", "upskillctl check-kernel --allow-kernel-option="},
    {"add the directory that holds it to includes", "add the directory that holds it with -I DIR"},
    {"allowRisky (--allow-risky) installs", "--allow-risky installs"},
    {"install with force to replace it", "install with --force to replace it"},
    {"allow them with allowScripts (upskillctl eval --allow-scripts)",
     "allow them with upskillctl eval --allow-scripts"},
};

char *ctl_cli_text(const char *msg) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&out, &len);
  for (const char *p = msg ? msg : ""; *p;) {
    size_t k = 0, n = sizeof WORDS / sizeof *WORDS;
    while (k < n && strncmp(p, WORDS[k].daemon, strlen(WORDS[k].daemon)))
      k++;
    if (k < n) {
      fputs(WORDS[k].cli, f);
      p += strlen(WORDS[k].daemon);
    } else {
      fputc(*p++, f);
    }
  }
  fclose(f);
  return out;
}

const char *ctl_cli_more(const char *code, const char *msg) {
  if (code && msg && !strcmp(code, "nvrtc/error") && !strncmp(msg, "cannot open source file", 23))
    return " (add the directory that holds it with -I DIR)";
  return "";
}

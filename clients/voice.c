/* upskillctl speaking to a person (voice.h): "did you mean" for what was typed wrong, and the
 * daemon's hints put in the words a person can type to upskillctl. */
#include "clients/voice.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
  if (hit && strcasecmp(hit, name)) /* the name is there: it failed for another reason */
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
    {"or upskilld --worker-command=\"srun --gres=gpu:1\" for an editor's or agent's daemon",
     "or --worker-command=\"srun --gres=gpu:1\" where an editor or agent starts its daemon"},
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

/* ---- status: what is there, and how to configure what is not ---- */

static void row(const char *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row(const char *k, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("  %-20s ", k);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
}

static const char *str(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "-";
}

/* What a person sets so that a provider is configured. */
static const char *provider_hint(const char *name) {
  if (!strcmp(name, "anthropic"))
    return "set ANTHROPIC_API_KEY";
  if (!strcmp(name, "openai"))
    return "set OPENAI_API_KEY";
  if (!strcmp(name, "generic"))
    return "set GENERIC_BASE_URL to a local OpenAI-compatible server (e.g. "
           "http://localhost:11434/v1)";
  return "set its key in the environment";
}

#define NO_MODEL_HINT                                                                              \
  "none: set ANTHROPIC_API_KEY or OPENAI_API_KEY, GENERIC_BASE_URL for a local "                   \
  "OpenAI-compatible server, or use an agent CLI you are logged in to (eval --model "              \
  "agent:claude-code, generate --teacher agent:codex)"

void ctl_print_status(json_t *r) {
  printf("%s %s (pid %lld, up %.1f ms, %s)\n", str(r, "name"), str(r, "version"),
         (long long)json_integer_value(json_object_get(r, "pid")),
         json_number_value(json_object_get(r, "uptimeMs")), str(r, "protocol"));
  row("requests in flight", "%lld", (long long)json_integer_value(json_object_get(r, "inFlight")));
  row("workspace", "%s", str(r, "workspace"));
  row("memory", "%lld KiB resident", (long long)json_integer_value(json_object_get(r, "rssKiB")));
  json_t *cuda = json_object_get(r, "cuda");
  json_t *tk = json_object_get(cuda, "toolkit"), *drv = json_object_get(cuda, "driver");
  if (json_is_true(json_object_get(tk, "available")))
    row("CUDA toolkit", "%s at %s (NVRTC%s)", str(tk, "version"), str(tk, "path"),
        json_is_true(json_object_get(tk, "nvJitLink")) ? ", nvJitLink" : "");
  else
    row("CUDA toolkit", "not available: %s (set CUDA_PATH to the toolkit's directory)",
        str(tk, "reason"));
  if (json_is_true(json_object_get(drv, "available")))
    row("GPU driver", "CUDA %s", str(drv, "cudaVersion"));
  else
    row("GPU driver", "not available: %s", str(drv, "reason"));
  json_t *box = json_object_get(r, "sandbox");
  row("sandbox", "%s", str(box, "what"));
  if (box && !json_is_true(json_object_get(box, "available")))
    row("", "%s", str(box, "without"));
  const char *name;
  json_t *p;
  int any = 0;
  json_object_foreach(json_object_get(r, "providers"), name, p) {
    char label[64];
    snprintf(label, sizeof label, "provider %s", name);
    if (json_is_true(json_object_get(p, "configured")))
      row(label, "configured (%s)", str(p, "baseUrl"));
    else
      row(label, "not configured: %s", provider_hint(name));
    any += json_is_true(json_object_get(p, "configured"));
  }
  if (!any)
    row("models", "%s", NO_MODEL_HINT);
  json_t *wt = json_object_get(r, "workspaceTrust"), *k;
  size_t i;
  if (!wt)
    return;
  row("workspace trust", "%s", str(wt, "state"));
  json_array_foreach(json_object_get(wt, "refused"), i, k) {
    if (!strncmp(str(k, "rule"), "config/", 7)) /* a config file's unknown key or bad value */
      row(i ? "" : "config", "%s", str(k, "message"));
    else
      row(i ? "" : "refused keys", "%s (%s)", str(k, "key"), str(k, "rule"));
  }
  if (json_object_get(wt, "hint"))
    row("", "%s", str(wt, "hint"));
}

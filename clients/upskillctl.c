/* upskillctl: the command-line client for people. It spawns upskilld (or the --server command),
 * speaks LSP-framed JSON-RPC to it, and prints tables (a progress line on a TTY) or --json. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/env_options.h"
#include "common/fileio.h"
#include "protocol/jsonrpc.h"
#include "clients/commands.h"
#include "clients/audit_print.h"
#include "clients/ctl.h"
#include "clients/grant.h"
#include "clients/voice.h"
#include "clients/rpc_client.h"
#include "clients/term.h"
#include "upk_config.h"
#include "common/xalloc.h"

/* The daemon next to this binary (installed), in the build tree, or on PATH. */
static char *default_server(void) {
  if (upk_env_opts()->daemon)
    return upk_xstrdup(upk_env_opts()->daemon);
  char self[PATH_MAX], cand[PATH_MAX + 32];
  if (upk_exe_dir(self, sizeof self)) {
    const char *rel[] = {"/upskilld", "/../daemon/upskilld"};
    for (int i = 0; i < 2; i++) {
      snprintf(cand, sizeof cand, "%s%s", self, rel[i]);
      if (access(cand, X_OK) == 0)
        return upk_xstrdup(cand);
    }
  }
  return upk_xstrdup("upskilld");
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int bar_fraction; /* the line on stderr shows a fraction, not just time so far */

void ctl_progress_done(ctl *c) {
  if (c->bar_shown) {
    ctl_term_raw(stderr, "\r\033[K");
  }
  c->bar_shown = bar_fraction = 0;
}

void ctl_progress(ctl *c, const char *title, double fraction, const char *detail) {
  if (!c->tty)
    return;
  char line[512], bar[31];
  int n;
  if (fraction >= 0) {
    int pct = fraction > 1 ? 100 : (int)(fraction * 100 + 0.5);
    for (int i = 0; i < 30; i++)
      bar[i] = i < pct * 30 / 100 ? '#' : '.';
    bar[30] = '\0';
    n = snprintf(line, sizeof line, "%s%s[%s] %3d%% %s", title ? title : "", title ? " " : "", bar,
                 pct, detail ? detail : "");
  } else {
    n = snprintf(line, sizeof line, "%s... %.0f s%s%s", title ? title : "waiting",
                 (now_ms() - c->call_start) / 1000, detail ? " " : "", detail ? detail : "");
  }
  struct winsize ws;
  int cols = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 ? ws.ws_col : 80;
  if (n >= cols) /* one line: a wrapped one would not be erased by \r */
    line[cols - 1] = '\0';
  ctl_term_raw(stderr, "\r\033[K");
  fputs(line, stderr); /* the daemon's words: escaped on the way (term.h) */
  fflush(stderr);
  c->bar_shown = 1;
  bar_fraction = fraction >= 0;
}

long ctl_wait_ms(const ctl *c) {
  long ms = (long)c->client.timeout_ms - 2000;
  return ms < 1000 ? 1000 : ms > 120000 ? 120000 : ms;
}

/* $/progress from the daemon feeds the progress line. */
static void on_notify(void *ud, const char *method, json_t *params) {
  ctl *c = ud;
  if (strcmp(method, "$/progress"))
    return;
  json_t *v = json_object_get(params, "value");
  const char *kind = json_string_value(json_object_get(v, "kind"));
  const char *msg = json_string_value(json_object_get(v, "message"));
  const char *title = json_string_value(json_object_get(v, "title"));
  if (kind && !strcmp(kind, "end")) {
    ctl_progress_done(c);
    return;
  }
  if (title)
    snprintf(c->title, sizeof c->title, "%s", title);
  json_t *pct = json_object_get(v, "percentage");
  ctl_progress(c, c->title[0] ? c->title : NULL,
               json_is_number(pct) ? json_number_value(pct) / 100 : -1, msg);
}

/* A wait with no progress from the daemon shows the time so far after a second. */
static void on_tick(void *ud) {
  ctl *c = ud;
  if (c->tty && !bar_fraction && now_ms() - c->call_start > 1000)
    ctl_progress(c, c->title[0] ? c->title : NULL, -1, NULL);
}

/* `cmd` and then each of `grants` as a word of the shell (single-quoted). */
static char *shell_line(const char *cmd, json_t *grants) {
  char *line = NULL;
  size_t len = 0, i;
  json_t *g;
  FILE *f = upk_xmemstream(&line, &len);
  fputs(cmd, f);
  json_array_foreach(grants, i, g) {
    fputs(" '", f);
    for (const char *s = json_string_value(g); *s; s++)
      *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
    fputc('\'', f);
  }
  fclose(f);
  return line;
}

/* The daemon, spawned with the user's grants as its own arguments (clients/grant.h). */
static int spawn(ctl *c, const char *server_cmd, int timeout_ms, json_t *grants) {
  size_t n = json_array_size(grants), k = 0;
  char **argv = upk_xcalloc(n + 8, sizeof *argv);
  char *def = NULL, *line = NULL;
  if (server_cmd) {
    line = shell_line(server_cmd, grants);
    argv[k++] = "/bin/sh", argv[k++] = "-c", argv[k++] = line;
  } else {
    argv[k++] = def = default_server();
    argv[k++] = "--lsp";
    argv[k++] = "--config-problems=answers"; /* printed from the answers: once, not twice */
    if (c->verbose)
      argv[k++] = "-vv";
    for (size_t i = 0; i < n; i++)
      argv[k++] = (char *)json_string_value(json_array_get(grants, i));
  }
  int rc = upk_client_spawn(&c->client, argv, timeout_ms);
  free(def);
  free(line);
  free(argv);
  return rc;
}

static int start(ctl *c, const char *server_cmd, int timeout_ms, int warm_kernels, json_t *grants) {
  int rc = spawn(c, server_cmd, timeout_ms, grants);
  if (rc)
    return rc;
  c->client.on_notify = on_notify;
  c->client.on_tick = on_tick;
  c->client.ud = c;
  char cwd[PATH_MAX];
  json_t *params = json_pack("{s:i,s:n,s:{s:{s:b}},s:{s:s,s:s}}", "processId", (int)getpid(),
                             "rootUri", "capabilities", "window", "workDoneProgress", 1,
                             "clientInfo", "name", "upskillctl", "version", UPK_VERSION);
  /* A command that compiles nothing has no use for the daemon's kernel workers. */
  json_t *init = json_object();
  if (!warm_kernels)
    json_object_set_new(init, "warmKernels", json_false());
  if (c->extra_dirs)
    json_object_set_new(init, "skills", json_pack("{s:O}", "extraDirs", c->extra_dirs));
  json_object_size(init) ? json_object_set_new(params, "initializationOptions", init)
                         : json_decref(init);
  if (getcwd(cwd, sizeof cwd)) {
    char uri[PATH_MAX + 8];
    snprintf(uri, sizeof uri, "file://%s", cwd);
    json_object_set_new(params, "rootUri", json_string(uri));
  }
  json_t *r = upk_client_call(&c->client, "initialize", params);
  if (!r || !json_object_get(r, "result")) {
    json_decref(r);
    return -1;
  }
  json_decref(r);
  return upk_client_notify(&c->client, "initialized", json_object());
}

json_t *ctl_request(ctl *c, const char *method, json_t *params) {
  if (!params)
    params = json_object();
  if (json_is_object(params) && !json_object_get(params, "workDoneToken"))
    json_object_set_new(params, "workDoneToken", json_string("upskillctl"));
  int own_title = !c->title[0];
  if (own_title)
    snprintf(c->title, sizeof c->title, "%s", method);
  c->call_start = now_ms();
  json_t *r = upk_client_call(&c->client, method, params);
  ctl_progress_done(c);
  if (own_title)
    c->title[0] = '\0';
  if (!r)
    fprintf(stderr, "upskillctl: %s\n", c->client.error);
  return r;
}

void ctl_print_diags(FILE *f, const char *file, json_t *diags, int *errors, int *warnings) {
  static const char *sev[] = {"note", "error", "warning", "info", "hint"}; /* LSP's severities */
  size_t i;
  json_t *d;
  json_array_foreach(diags, i, d) {
    json_t *start = json_object_get(json_object_get(d, "range"), "start");
    int s = (int)json_integer_value(json_object_get(d, "severity"));
    const char *df = json_string_value(json_object_get(d, "file"));
    const char *msg = json_string_value(json_object_get(d, "message"));
    json_t *code = json_object_get(d, "code");
    char codebuf[96] = "";
    if (json_is_string(code))
      snprintf(codebuf, sizeof codebuf, " [%s]", json_string_value(code));
    else if (json_is_integer(code))
      snprintf(codebuf, sizeof codebuf, " [%lld]", (long long)json_integer_value(code));
    long long line = json_integer_value(json_object_get(start, "line"));
    long long col = json_integer_value(json_object_get(start, "character"));
    char *text = ctl_cli_text(msg);
    if (df || file) /* else about no file: no made-up "-:1:1:" */
      fprintf(f, "%s:%lld:%lld: ", df ? df : file, line >= 0 ? line + 1 : 0,
              col >= 0 ? col + 1 : 0);
    fprintf(f, "%s: %s%s%s\n", s >= 1 && s <= 4 ? sev[s] : "note", text,
            ctl_cli_more(json_string_value(code), msg), codebuf);
    free(text);
    if (errors)
      *errors += s == 1;
    if (warnings)
      *warnings += s == 2;
  }
}

/* The diagnostics of `err` that say more than its reason (caller decrefs); the codes of those
 * that only repeat it, " [code]" each, into `codes`. */
static json_t *beyond_reason(json_t *err, char *codes, size_t len) {
  const char *reason = json_string_value(json_object_get(err, "message"));
  json_t *diags = json_array(), *d;
  size_t i, used = 0;
  codes[0] = '\0';
  json_array_foreach(json_object_get(json_object_get(err, "data"), "diagnostics"), i, d) {
    const char *m = json_string_value(json_object_get(d, "message"));
    const char *code = json_string_value(json_object_get(d, "code"));
    if (!m || !reason || strlen(m) < 16 || !strstr(reason, m))
      json_array_append(diags, d);
    else if (code && used < len)
      used += (size_t)snprintf(codes + used, len - used, " [%s]", code);
  }
  return diags;
}

void ctl_print_error(ctl *c, json_t *err) {
  if (c->json) {
    ctl_print_json(err);
    return;
  }
  /* The reason, in the command line's words (the JSON-RPC code only for -v), then what the
   * diagnostics add, each once: one that repeats the reason gives it only its code. */
  char codes[256];
  json_t *diags = beyond_reason(err, codes, sizeof codes);
  char *text = ctl_cli_text(json_string_value(json_object_get(err, "message")));
  if (c->verbose)
    fprintf(stderr, "upskillctl: error %lld: %s%s\n",
            (long long)json_integer_value(json_object_get(err, "code")), text, codes);
  else
    fprintf(stderr, "upskillctl: %s%s\n", text, codes);
  free(text);
  ctl_diags_under(diags, c->diag_dir); /* NULL: left as they are */
  ctl_print_diags(stderr, c->diag_file, diags, NULL, NULL);
  json_decref(diags);
  ctl_print_refused(json_object_get(err, "data"));
}

void ctl_print_refused(json_t *r) {
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(r, "configRefused"), i, x) {
    fprintf(stderr, "warning: %s\n", json_string_value(json_object_get(x, "message")));
  }
}

/* Send a request with a progress token; returns the result (caller decrefs) or NULL. */
json_t *ctl_call(ctl *c, const char *method, json_t *params, int *rpc_error) {
  json_t *r = ctl_request(c, method, params);
  if (!r)
    return NULL;
  json_t *err = json_object_get(r, "error");
  if (err) {
    *rpc_error = 1;
    ctl_print_error(c, err);
    json_decref(r);
    return NULL;
  }
  json_t *result = json_incref(json_object_get(r, "result"));
  json_decref(r);
  return result;
}

void ctl_print_json(json_t *v) {
  char *s = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY);
  printf("%s\n", s);
  free(s);
}

static int run_command(ctl *c, int argc, char **argv) {
  const char *cmd = argv[0];
  int rpc_error = 0;
  json_t *r = NULL;
  if (!strcmp(cmd, "ping") || !strcmp(cmd, "status")) {
    if (argc != 1) {
      fprintf(stderr, "upskillctl %s: takes no arguments\n", cmd);
      ctl_usage_hint(cmd);
      return 2;
    }
    double t0 = now_ms();
    r = ctl_call(c, cmd[0] == 'p' ? "ping" : "upskilld/status", NULL, &rpc_error);
    double ms = now_ms() - t0;
    if (r && cmd[0] == 's')
      c->json ? ctl_print_json(r) : ctl_print_status(r);
    else if (r && c->json)
      printf("{\"ok\": true, \"ms\": %.3f}\n", ms);
    else if (r)
      printf("pong in %.3f ms\n", ms);
  } else if (!strcmp(cmd, "raw")) {
    if (argc != 2 && argc != 3) {
      fprintf(stderr, "upskillctl raw: expected METHOD [JSON]\n");
      ctl_usage_hint(cmd);
      return 2;
    }
    json_t *params = NULL;
    if (argc == 3) {
      json_error_t e;
      params = json_loads(argv[2], JSON_DECODE_ANY, &e);
      if (!params || (!json_is_object(params) && !json_is_array(params))) {
        fprintf(stderr, "upskillctl: params must be a JSON object or array: %s\n",
                params ? "got a scalar" : e.text);
        json_decref(params);
        return 2;
      }
    }
    r = ctl_call(c, argv[1], params, &rpc_error);
    if (r)
      ctl_print_json(r);
  } else {
    int rc = ctl_kernel_command(c, argc, argv);
    if (rc == CTL_UNKNOWN)
      rc = ctl_eval_command(c, argc, argv);
    if (rc == CTL_UNKNOWN)
      rc = ctl_report_command(c, argc, argv);
    if (rc == CTL_UNKNOWN)
      rc = ctl_skills_command(c, argc, argv);
    if (rc == CTL_UNKNOWN)
      fprintf(stderr, "upskillctl: unknown command '%s'; see upskillctl --help\n", cmd);
    return rc == CTL_UNKNOWN ? 2 : rc;
  }
  int ok = r != NULL;
  json_decref(r);
  return ok ? 0 : 1;
}

/* completion, man, help: answered from the command table, without the daemon. */
static int local_command(int argc, char **argv) {
  const char *cmd = argv[0];
  if (!strcmp(cmd, "completion")) {
    if (argc != 2 || ctl_completion(argv[1], stdout)) {
      fprintf(stderr, "upskillctl completion: expected bash, zsh or fish\n");
      ctl_usage_hint(cmd);
      return 2;
    }
    return 0;
  }
  if (!strcmp(cmd, "help")) {
    const ctl_cmd *c = argc == 2 ? ctl_find_command(argv[1]) : NULL;
    if (argc > 2 || (argc == 2 && !c)) {
      fprintf(stderr, "upskillctl help: unknown command '%s'; see upskillctl --help\n",
              argc == 2 ? argv[1] : argv[2]);
      if (argc == 2)
        ctl_suggest_command(argv[1]);
      return 2;
    }
    c ? ctl_command_help(c, stdout) : ctl_usage(stdout);
    return 0;
  }
  /* man [--markdown] */
  int markdown = 0, ch;
  optind = 0;
  while ((ch = getopt_long(argc, argv, ctl_shortopts(cmd), ctl_longopts(cmd), NULL)) != -1) {
    if (ch != 'M') {
      ctl_usage_hint(cmd);
      return 2;
    }
    markdown = 1;
  }
  if (optind != argc) {
    fprintf(stderr, "upskillctl man: takes no arguments\n");
    return 2;
  }
  markdown ? ctl_markdown(stdout) : ctl_man(stdout);
  return 0;
}

static const ctl_opt *find_global(const char *arg, const char **value) {
  *value = NULL;
  for (const ctl_opt *o = ctl_globals; o->lng; o++) {
    if (o->shrt && arg[0] == '-' && arg[1] == o->shrt && !arg[2])
      return o;
    size_t n = strlen(o->lng);
    if (arg[0] == '-' && arg[1] == '-' && !strncmp(arg + 2, o->lng, n)) {
      if (!arg[2 + n])
        return o;
      if (arg[2 + n] == '=' && o->arg) {
        *value = arg + 3 + n;
        return o;
      }
    }
  }
  return NULL;
}

/* The command's own option `arg` takes its value from the next word. */
static int takes_next(const ctl_cmd *cmd, const char *arg) {
  for (const ctl_opt *o = cmd ? cmd->opts : NULL; o && o->lng; o++) {
    if (!o->arg)
      continue;
    if (o->shrt && arg[0] == '-' && arg[1] == o->shrt && !arg[2])
      return 1;
    if (arg[0] == '-' && arg[1] == '-' && !strcmp(arg + 2, o->lng))
      return 1;
  }
  return 0;
}

/* `args` (argc + 1 slots) receives the command's words; main owns and frees it, so that every
 * early return here leaks nothing (the man page is built by running this under ASan). */
enum { AGENT_TIMEOUT_S = 3600 };

/* What the command line says beside the command's own words. */
typedef struct cmdline {
  const char *server;
  double timeout_s;
  int help, timeout_given, n;
  const ctl_cmd *cmd;
  const char *cmd_name;
} cmdline;

/* One global option with its value: -1 to go on, or the exit status (--version). */
static int global_opt(const ctl_opt *g, const char *value, ctl *c, cmdline *l) {
  switch (g->val) {
  case 's':
    l->server = value;
    break;
  case 'j':
    c->json = 1;
    break;
  case 't': {
    char *end;
    l->timeout_s = strtod(value, &end);
    l->timeout_given = 1;
    if (end == value || *end || !isfinite(l->timeout_s) || l->timeout_s <= 0 ||
        l->timeout_s > 1e6) {
      fprintf(stderr, "upskillctl: --timeout takes a positive number of seconds, not '%s'\n",
              value);
      return 2;
    }
    break;
  }
  case 'v':
    c->verbose = 1;
    break;
  case 'X': {
    char real[PATH_MAX];
    if (!realpath(value, real)) {
      fprintf(stderr, "upskillctl: --extra-dir %s: %s\n", value, strerror(errno));
      return 2;
    }
    if (!c->extra_dirs)
      c->extra_dirs = json_array();
    json_array_append_new(c->extra_dirs, json_string(real));
    break;
  }
  case 'V':
    printf("upskillctl %s\n", UPK_VERSION);
    return 0;
  case 'h':
    l->help = 1;
    break;
  }
  return -1;
}

/* Global options anywhere (before `--`); the rest is the command's, in order, into `args`.
 * -1 to go on, or the exit status. */
static int split_args(int argc, char **argv, char **args, ctl *c, cmdline *l) {
  int dashdash = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *value;
    const ctl_opt *g = dashdash || a[0] != '-' ? NULL : find_global(a, &value);
    if (!g) {
      if (!l->cmd_name && a[0] == '-' && a[1] && !dashdash) {
        fprintf(stderr, "upskillctl: unknown option '%s'; see upskillctl --help\n", a);
        return 2;
      }
      if (!strcmp(a, "--") && !dashdash) {
        dashdash = 1;
        if (!l->cmd_name)
          continue;
      }
      if (!l->cmd_name) {
        l->cmd_name = a;
        l->cmd = ctl_find_command(a);
      } else if (!dashdash && takes_next(l->cmd, a) && i + 1 < argc) {
        args[l->n++] = argv[i++];
      }
      args[l->n++] = argv[i];
      continue;
    }
    if (g->arg && !value) {
      if (i + 1 >= argc) {
        fprintf(stderr, "upskillctl: --%s needs %s\n", g->lng, g->arg);
        return 2;
      }
      value = argv[++i];
    }
    int rc = global_opt(g, value, c, l);
    if (rc >= 0)
      return rc;
  }
  return -1;
}

/* A command the daemon answers: start it, run the command, shut it down. */
static int daemon_command(ctl *c, cmdline *l, char **args) {
  const ctl_cmd *cmd = l->cmd;
  int n = l->n;
  c->tty = isatty(2);
  for (int i = 0; i < n && !l->timeout_given; i++)
    if (strstr(args[i], "agent:"))
      l->timeout_s = AGENT_TIMEOUT_S; /* agent runs take minutes each, not seconds */
  int warm =
      cmd->kernels || (!strcmp(cmd->name, "raw") && n >= 2 && !strncmp(args[1], "kernel/", 7));
  json_t *grants = ctl_grants(cmd, n, args);
  int failed = start(c, l->server, (int)(l->timeout_s * 1000), warm, grants);
  json_decref(grants);
  if (failed) {
    fprintf(stderr, "upskillctl: cannot start the server: %s\n",
            c->client.error[0] ? c->client.error : "initialize failed");
    if (c->client.pid > 0)
      upk_client_close(&c->client);
    return 1;
  }
  int rc = run_command(c, n, args);
  json_decref(upk_client_call(&c->client, "shutdown", NULL));
  upk_client_notify(&c->client, "exit", NULL);
  int code = upk_client_close(&c->client);
  if (code != 0 && rc == 0) {
    fprintf(stderr, "upskillctl: the server exited with status %d\n", code);
    rc = 1;
  }
  return rc;
}

static int ctl_dispatch(ctl *c, int argc, char **argv, char **args) {
  cmdline l = {.timeout_s = 120};
  int rc = split_args(argc, argv, args, c, &l);
  if (rc >= 0)
    return rc;
  const ctl_cmd *cmd = l.cmd;
  if (l.cmd_name && !cmd) {
    fprintf(stderr, "upskillctl: unknown command '%s'; see upskillctl --help\n", l.cmd_name);
    ctl_suggest_command(l.cmd_name);
    return 2;
  }
  if (l.help) {
    cmd ? ctl_command_help(cmd, stdout) : ctl_usage(stdout);
    return 0;
  }
  if (!cmd) {
    ctl_usage(stderr);
    return 2;
  }
  if (ctl_check_options(cmd, l.n, args))
    return 2;
  if (!strcmp(cmd->name, "trust") || !strcmp(cmd->name, "untrust"))
    return ctl_trust_command(l.n, args, c->json); /* the user's own process; never the daemon */
  if (cmd->local)
    return local_command(l.n, args);
  return daemon_command(c, &l, args);
}

static int ctl_main(int argc, char **argv, char **args) {
  ctl c = {0};
  int rc = ctl_dispatch(&c, argc, argv, args);
  json_decref(c.extra_dirs);
  return rc;
}

int main(int argc, char **argv) {
  upk_xalloc_install(); /* jansson aborts on exhaustion as the rest does (common/xalloc.h) */
  ctl_term_guard();     /* no control character of a stranger's text reaches the terminal */
  char **args = upk_xcalloc((size_t)argc + 1, sizeof *args);
  int rc = ctl_main(argc, argv, args);
  free(args);
  return rc;
}

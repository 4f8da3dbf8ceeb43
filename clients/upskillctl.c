/* upskillctl: the command-line client for people. It spawns upskilld (or the
 * --server command), speaks LSP-framed JSON-RPC to it, and prints human
 * output (tables, a progress bar on a TTY) or --json. */
#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jsonrpc.h"
#include "ctl.h"
#include "rpc_client.h"
#include "upk_config.h"

static void usage(FILE *f) {
  fputs("usage: upskillctl [options] COMMAND [ARGS]\n\n"
        "commands:\n"
        "  ping                  check the daemon answers, and how fast\n"
        "  status                version, uptime, work in flight, CUDA and providers\n"
        "  raw METHOD [JSON]     send any request (params as a JSON object) and print the result\n"
        "  list [--agent A] [--scope S]            skills the agents see\n"
        "  lookup TASK [--limit N] [--agent A]     the skills that fit a task, best first\n"
        "  validate PATH [--lenient]               check a skill (file:line:col: diagnostics)\n"
        "  install PATH [--agent A]... [--scope project|user] [--force]\n"
        "  remove NAME [--agent A]... [--scope project|user]\n"
        "  prompt [--agent A]                      the <available_skills> block\n"
        "  generate TASK [--from PATH] [-m MODEL] [--eval-model M]... [--install claude,agents]\n"
        "               [--attempts N] [-o DIR]    write, test, refine and save a skill\n"
        "  eval SKILL [-m M]... [--runs N] [--no-baseline] [--tests FILE] [--concurrency N]\n"
        "                                          pass rates with and without the skill\n"
        "  runs [--csv FILE]                       stored evaluation runs (trials as CSV)\n"
        "  condense TRACE [--budget N] [--format F]  the trace as the teacher sees it (stdout)\n"
        "                                          and what was left out (stderr)\n"
        "  report RUN_ID [B] [-o FILE]             a run (or A beside B) as one HTML file\n"
        "  check-kernel FILE.cu|PROJECT [--arch A] [--backend auto|nvrtc|nvcc] [--block N]\n"
        "               [--name K]... [--no-cache] [--run SPEC.json] [--against PROBLEM.py]\n"
        "               [--html FILE]\n"
        "                        compile a CUDA file (or a kernel-builder project, build.toml)\n"
        "                        for H100: diagnostics, resources; --run also runs it on the\n"
        "                        GPU: correctness against a reference and timing (docs/gpu.md);\n"
        "                        --against: the reference is a PyTorch (KernelBench) problem\n"
        "  check-kernel --against DIR [KERNEL_DIR] [--run SPEC.json]\n"
        "                        each DIR/P.py with KERNEL_DIR/P.cu and P.json: a row each,\n"
        "                        then fast_0, fast_1, fast_2 (correct and over p x eager)\n\n"
        "options:\n"
        "  --server CMD          run this command as the server (default: upskilld --lsp)\n"
        "  --json                print JSON instead of tables\n"
        "  --timeout SEC         give up after SEC seconds (default 120)\n"
        "  -v, --verbose         the server logs in detail on stderr\n"
        "  --version, -h/--help\n",
        f);
}

/* The daemon next to this binary (installed), in the build tree, or on PATH. */
static char *default_server(void) {
  const char *env = getenv("UPSKILLD");
  if (env && *env)
    return strdup(env);
  char self[PATH_MAX], cand[PATH_MAX + 32];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    *slash = '\0';
    const char *rel[] = {"/upskilld", "/../daemon/upskilld"};
    for (int i = 0; i < 2; i++) {
      snprintf(cand, sizeof cand, "%s%s", self, rel[i]);
      if (access(cand, X_OK) == 0)
        return strdup(cand);
    }
  }
  return strdup("upskilld");
}

static void clear_bar(ctl *c) {
  if (c->bar_shown)
    fputs("\r\033[K", stderr);
  c->bar_shown = 0;
}

static void on_notify(void *ud, const char *method, json_t *params) {
  ctl *c = ud;
  if (!strcmp(method, "$/progress") && isatty(2) && !c->json) {
    json_t *v = json_object_get(params, "value");
    const char *kind = json_string_value(json_object_get(v, "kind"));
    if (kind && !strcmp(kind, "end")) {
      clear_bar(c);
      return;
    }
    int pct = (int)json_integer_value(json_object_get(v, "percentage"));
    const char *msg = json_string_value(json_object_get(v, "message"));
    const char *title = json_string_value(json_object_get(v, "title"));
    char bar[31];
    for (int i = 0; i < 30; i++)
      bar[i] = i < pct * 30 / 100 ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r\033[K[%s] %3d%% %s", bar, pct, msg ? msg : title ? title : "");
    c->bar_shown = 1;
  }
}

static int start(ctl *c, const char *server_cmd, int timeout_s) {
  char *def = server_cmd ? NULL : default_server();
  char *argv_default[] = {def, "--lsp", c->verbose ? "-vv" : NULL, NULL};
  char *argv_shell[] = {"/bin/sh", "-c", (char *)server_cmd, NULL};
  int rc = upk_client_spawn(&c->client, server_cmd ? argv_shell : argv_default, timeout_s * 1000);
  free(def);
  if (rc)
    return rc;
  c->client.on_notify = on_notify;
  c->client.ud = c;
  char cwd[PATH_MAX];
  json_t *params = json_pack("{s:i,s:n,s:{s:{s:b}},s:{s:s,s:s}}", "processId", (int)getpid(),
                             "rootUri", "capabilities", "window", "workDoneProgress", 1,
                             "clientInfo", "name", "upskillctl", "version", UPK_VERSION);
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

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Send a request with a progress token; returns the result (caller decrefs) or NULL. */
json_t *ctl_call(ctl *c, const char *method, json_t *params, int *rpc_error) {
  if (!params)
    params = json_object();
  if (json_is_object(params) && !json_object_get(params, "workDoneToken"))
    json_object_set_new(params, "workDoneToken", json_string("upskillctl"));
  json_t *r = upk_client_call(&c->client, method, params);
  clear_bar(c);
  if (!r) {
    fprintf(stderr, "upskillctl: %s\n", c->client.error);
    return NULL;
  }
  json_t *err = json_object_get(r, "error");
  if (err) {
    *rpc_error = 1;
    if (c->json) {
      char *s = json_dumps(err, JSON_INDENT(2));
      printf("%s\n", s);
      free(s);
    } else {
      fprintf(stderr, "upskillctl: error %lld: %s\n",
              (long long)json_integer_value(json_object_get(err, "code")),
              json_string_value(json_object_get(err, "message")));
    }
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

static void print_status(json_t *r) {
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
    row("CUDA toolkit", "not available: %s", str(tk, "reason"));
  if (json_is_true(json_object_get(drv, "available")))
    row("GPU driver", "CUDA %s", str(drv, "cudaVersion"));
  else
    row("GPU driver", "not available: %s", str(drv, "reason"));
  const char *name;
  json_t *p;
  json_object_foreach(json_object_get(r, "providers"), name, p) {
    char label[64];
    snprintf(label, sizeof label, "provider %s", name);
    row(label, "%s (%s)",
        json_is_true(json_object_get(p, "configured")) ? "configured" : "not configured",
        str(p, "baseUrl"));
  }
}

static int run_command(ctl *c, int argc, char **argv) {
  const char *cmd = argv[0];
  int rpc_error = 0;
  json_t *r = NULL;
  if (!strcmp(cmd, "ping") && argc == 1) {
    double t0 = now_ms();
    r = ctl_call(c, "ping", NULL, &rpc_error);
    double ms = now_ms() - t0;
    if (r && c->json)
      printf("{\"ok\": true, \"ms\": %.3f}\n", ms);
    else if (r)
      printf("pong in %.3f ms\n", ms);
  } else if (!strcmp(cmd, "status") && argc == 1) {
    r = ctl_call(c, "upskilld/status", NULL, &rpc_error);
    if (r)
      c->json ? ctl_print_json(r) : print_status(r);
  } else if (!strcmp(cmd, "raw") && (argc == 2 || argc == 3)) {
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
      usage(stderr);
    return rc == CTL_UNKNOWN ? 2 : rc;
  }
  int ok = r != NULL;
  json_decref(r);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  static const struct option longs[] = {
      {"server", required_argument, 0, 's'},
      {"json", no_argument, 0, 'j'},
      {"timeout", required_argument, 0, 't'},
      {"verbose", no_argument, 0, 'v'},
      {"version", no_argument, 0, 'V'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0},
  };
  ctl c = {0};
  const char *server = NULL;
  int timeout = 120, opt;
  while ((opt = getopt_long(argc, argv, "+vh", longs, NULL)) != -1) {
    switch (opt) {
    case 's':
      server = optarg;
      break;
    case 'j':
      c.json = 1;
      break;
    case 't':
      timeout = atoi(optarg) > 0 ? atoi(optarg) : 120;
      break;
    case 'v':
      c.verbose = 1;
      break;
    case 'V':
      printf("upskillctl %s\n", UPK_VERSION);
      return 0;
    case 'h':
      usage(stdout);
      return 0;
    default:
      usage(stderr);
      return 2;
    }
  }
  if (optind >= argc) {
    usage(stderr);
    return 2;
  }
  if (start(&c, server, timeout)) {
    fprintf(stderr, "upskillctl: cannot start the server: %s\n",
            c.client.error[0] ? c.client.error : "initialize failed");
    if (c.client.pid > 0)
      upk_client_close(&c.client);
    return 1;
  }
  int rc = run_command(&c, argc - optind, argv + optind);
  json_decref(upk_client_call(&c.client, "shutdown", NULL));
  upk_client_notify(&c.client, "exit", NULL);
  int code = upk_client_close(&c.client);
  if (code != 0 && rc == 0) {
    fprintf(stderr, "upskillctl: the server exited with status %d\n", code);
    rc = 1;
  }
  return rc;
}

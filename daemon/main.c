/* upskilld: the daemon's entry point. Parses flags, opens stdio the safe way,
 * and runs the libuv loop until input ends or the client says exit. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "daemon/core/guard.h"
#include "daemon/server.h"
#include "models/config.h"
#include "upk_config.h"

#define DEFAULT_MAX_MESSAGE (64u << 20)
#define DEFAULT_SHUTDOWN_GRACE_MS 30000u

static void usage(FILE *f) {
  fputs("usage: upskilld [options]\n"
        "JSON-RPC 2.0 over stdio for editors (LSP framing) and coding agents (MCP stdio).\n\n"
        "  --lsp                   force LSP framing (Content-Length headers)\n"
        "  --mcp                   force MCP framing (one JSON message per line)\n"
        "                          (default: decided by the first byte of input)\n"
        "  --stdio                 accepted for LSP clients; stdio is the only transport\n"
        "  --clientProcessId=PID   accepted for LSP clients\n"
        "  --max-message-size=N    largest message body, bytes; K, M, G suffixes (default 64M)\n"
        "  --cuda-path=DIR         CUDA toolkit root (default $CUDA_PATH or " UPK_CUDA_PATH ")\n"
        "  --worker-command=CMD    run kernel workers through CMD, e.g. \"srun --gres=gpu:1\"\n"
        "                          (default $UPSKILLD_WORKER_COMMAND; none: run them here)\n"
        "  --worker-server-idle=S  keep warm kernel workers in a server that outlives the daemon\n"
        "                          and exits after S idle seconds; 0: no server\n"
        "                          (default $UPSKILLD_WORKER_SERVER_IDLE, else 600)\n"
        "  --python=PATH           python3 with torch for PyTorch references of kernel runs\n"
        "                          (default $UPSKILLD_PYTHON, else python3 from PATH)\n"
        "  --allow-kernel-option=GLOB\n"
        "                          allow compiler options matching GLOB (NAME=VALUE, e.g.\n"
        "                          '-ccbin=/usr/bin/g++-13') from projects and agents, which are\n"
        "                          otherwise held to an allowlist (repeatable; docs/security.md)\n"
        "  --agent-allow=LIST      powers agents (MCP sessions) get beyond reading and writing\n"
        "                          in the workspace: python (run a kernel's PyTorch reference),\n"
        "                          user-skills (install into your own skill directories),\n"
        "                          scripts (run the `script` assertions of its eval cases),\n"
        "                          judge (send skills to the audit's judge, a model you pay)\n"
        "  --agent-path=DIR        a directory agents may also read and write (repeatable)\n"
        "  --workspace=DIR         the project of an MCP session (default: the working directory,\n"
        "                          but never your home directory or /)\n"
        "  --shutdown-grace=S      how long shutdown, EOF and SIGTERM wait for requests in flight\n"
        "                          before cancelling them with an error (default 30; 0: at once)\n"
        "  --log-file=PATH         also append logs to PATH\n"
        "  --config-problems=WHERE log (default: a warning in the log) or answers (at info: the\n"
        "                          client prints them from its answers; upskillctl passes this)\n"
        "  -v, --verbose           more logging on stderr (repeat for debug)\n"
        "  -q, --quiet             errors only\n"
        "  --test-methods          expose test aids such as upskilld/sleep\n"
        "  --version               print the version and exit\n"
        "  -h, --help              this text\n",
        f);
}

static int parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *s == '-')
    return -1;
  unsigned long long mult = 1;
  switch (*end) {
  case 'k':
  case 'K':
    mult = 1ull << 10;
    end++;
    break;
  case 'm':
  case 'M':
    mult = 1ull << 20;
    end++;
    break;
  case 'g':
  case 'G':
    mult = 1ull << 30;
    end++;
    break;
  }
  if (*end || v == 0 || v > (SIZE_MAX / 2) / mult)
    return -1;
  *out = (size_t)(v * mult);
  return 0;
}

/* Seconds, fractions allowed, 0 to an hour, into milliseconds. */
static int parse_seconds(const char *s, unsigned *ms) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0 && v <= 3600))
    return -1;
  *ms = (unsigned)(v * 1000.0 + 0.5);
  return 0;
}

/* What parsing gathers: the options, the log file and the log level. */
typedef struct {
  upk_options *o;
  const char **log_file;
  int level;
} args_state;

/* Each flag's action returns -1 to go on, else the exit status: 0 after --version or --help,
 * 2 once it has said why a value is refused. */
static int set_lsp(args_state *a, const char *arg) {
  a->o->framing = UPK_FRAMING_LSP;
  return -1;
}
static int set_mcp(args_state *a, const char *arg) {
  a->o->framing = UPK_FRAMING_MCP;
  return -1;
}
static int ignored(args_state *a, const char *arg) {
  return -1; /* --stdio, --clientProcessId: accepted for LSP clients */
}
static int set_cuda_path(args_state *a, const char *arg) {
  a->o->cuda_path = arg;
  return -1;
}
static int set_worker_command(args_state *a, const char *arg) {
  a->o->worker_command = arg;
  return -1;
}
static int set_python(args_state *a, const char *arg) {
  a->o->python = arg;
  return -1;
}
static int set_log_file(args_state *a, const char *arg) {
  *a->log_file = arg;
  return -1;
}
static int set_test_methods(args_state *a, const char *arg) {
  a->o->test_methods = true;
  return -1;
}
static int more_verbose(args_state *a, const char *arg) {
  a->level = a->level < UPK_LOG_DEBUG ? a->level + 1 : a->level;
  return -1;
}
static int set_config_problems(args_state *a, const char *arg) {
  if (strcmp(arg, "log") && strcmp(arg, "answers")) {
    fprintf(stderr, "upskilld: --config-problems: '%s' is not log or answers\n", arg);
    return 2;
  }
  upk_config_problems_in_answers(!strcmp(arg, "answers"));
  return -1;
}
static int set_quiet(args_state *a, const char *arg) {
  a->level = UPK_LOG_ERROR;
  return -1;
}
static int print_version(args_state *a, const char *arg) {
  printf("upskilld %s\n", UPK_VERSION);
  return 0;
}
static int print_help(args_state *a, const char *arg) {
  usage(stdout);
  return 0;
}

static int set_max_message(args_state *a, const char *arg) {
  if (!parse_size(arg, &a->o->max_message))
    return -1;
  fprintf(stderr, "upskilld: --max-message-size: '%s' is not a positive size\n", arg);
  return 2;
}

static int set_worker_idle(args_state *a, const char *arg) {
  if (!*arg || arg[strspn(arg, "0123456789")]) {
    fprintf(stderr, "upskilld: --worker-server-idle: '%s' is not a number of seconds\n", arg);
    return 2;
  }
  a->o->worker_server_idle = arg;
  return -1;
}

static int set_agent_allow(args_state *a, const char *arg) {
  char bad[64];
  if (!upk_guard_parse_allow(arg, &a->o->agent_allow, bad, sizeof bad))
    return -1;
  fprintf(stderr,
          "upskilld: --agent-allow: unknown power '%s' (python, user-skills, scripts, judge)\n",
          bad);
  return 2;
}

static int add_agent_path(args_state *a, const char *arg) {
  upk_options *o = a->o;
  if (arg[0] != '/') {
    fprintf(stderr, "upskilld: --agent-path: '%s' is not an absolute path\n", arg);
    return 2;
  }
  o->agent_paths = upk_xreallocarray(o->agent_paths, o->n_agent_paths + 1, sizeof *o->agent_paths);
  o->agent_paths[o->n_agent_paths++] = arg;
  return -1;
}

static int set_workspace(args_state *a, const char *arg) {
  struct stat st;
  if (arg[0] == '/' && stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
    a->o->workspace = arg;
    return -1;
  }
  fprintf(stderr, "upskilld: --workspace: '%s' is not an absolute path to a directory\n", arg);
  return 2;
}

static int set_grace(args_state *a, const char *arg) {
  if (!parse_seconds(arg, &a->o->shutdown_grace_ms))
    return -1;
  fprintf(stderr, "upskilld: --shutdown-grace: '%s' is not 0 to 3600 seconds\n", arg);
  return 2;
}

static int add_kernel_option(args_state *a, const char *arg) {
  static const char *globs[64]; /* argv lives as long as the process */
  upk_options *o = a->o;
  if (o->n_allow_kernel_options == sizeof globs / sizeof *globs || !*arg) {
    fprintf(stderr, "upskilld: --allow-kernel-option: '%s' is empty or one too many (64)\n", arg);
    return 2;
  }
  globs[o->n_allow_kernel_options++] = arg;
  o->allow_kernel_options = globs;
  return -1;
}

/* The flags, in usage()'s order: long name, whether it takes a value, its short letter (0:
 * none) and its action. */
static const struct {
  const char *name;
  int has_arg;
  int letter;
  int (*apply)(args_state *a, const char *arg);
} flags[] = {
    {"lsp", no_argument, 0, set_lsp},
    {"mcp", no_argument, 0, set_mcp},
    {"stdio", no_argument, 0, ignored},
    {"clientProcessId", required_argument, 0, ignored},
    {"max-message-size", required_argument, 0, set_max_message},
    {"cuda-path", required_argument, 0, set_cuda_path},
    {"worker-command", required_argument, 0, set_worker_command},
    {"worker-server-idle", required_argument, 0, set_worker_idle},
    {"python", required_argument, 0, set_python},
    {"agent-allow", required_argument, 0, set_agent_allow},
    {"agent-path", required_argument, 0, add_agent_path},
    {"workspace", required_argument, 0, set_workspace},
    {"shutdown-grace", required_argument, 0, set_grace},
    {"allow-kernel-option", required_argument, 0, add_kernel_option},
    {"log-file", required_argument, 0, set_log_file},
    {"config-problems", required_argument, 0, set_config_problems},
    {"test-methods", no_argument, 0, set_test_methods},
    {"verbose", no_argument, 'v', more_verbose},
    {"quiet", no_argument, 'q', set_quiet},
    {"version", no_argument, 0, print_version},
    {"help", no_argument, 'h', print_help},
};
#define N_FLAGS (sizeof flags / sizeof *flags)

/* What getopt_long answers for flags[i]: its letter, else 256 + i (above every letter). */
static int flag_code(size_t i) {
  return flags[i].letter ? flags[i].letter : 256 + (int)i;
}

static int parse_args(int argc, char **argv, upk_options *o, const char **log_file) {
  struct option longs[N_FLAGS + 1] = {{0}};
  for (size_t i = 0; i < N_FLAGS; i++)
    longs[i] = (struct option){flags[i].name, flags[i].has_arg, NULL, flag_code(i)};
  args_state a = {o, log_file, UPK_LOG_WARN};
  int c;
  while ((c = getopt_long(argc, argv, "vqh", longs, NULL)) != -1) {
    size_t i = 0;
    while (i < N_FLAGS && flag_code(i) != c)
      i++;
    if (i == N_FLAGS) { /* getopt said what is wrong */
      usage(stderr);
      return 2;
    }
    int rc = flags[i].apply(&a, optarg);
    if (rc >= 0)
      return rc;
  }
  if (optind < argc) {
    fprintf(stderr, "upskilld: unexpected argument '%s'\n", argv[optind]);
    usage(stderr);
    return 2;
  }
  upk_log_set_level((upk_log_level)a.level);
  return -1;
}

/* Closed standard fds would be reused by the next open(): park /dev/null there. */
static void occupy_std_fds(void) {
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      int n = open("/dev/null", O_RDWR);
      if (n >= 0 && n != fd) {
        dup2(n, fd);
        close(n);
      }
    }
}

/* Close whatever is still open so uv_loop_close succeeds (and valgrind is quiet). */
static void close_walk(uv_handle_t *h, void *arg) {
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

int main(int argc, char **argv) {
  upk_xalloc_install(); /* jansson aborts on exhaustion as the rest does (common/xalloc.h) */
  /* Decide how to read stdin before anything can take fd 0's number. */
  uv_handle_type in_kind = uv_guess_handle(0), out_kind = uv_guess_handle(1);
  occupy_std_fds();
  signal(SIGPIPE, SIG_IGN);

  upk_options opts = {.framing = UPK_FRAMING_AUTO,
                      .max_message = DEFAULT_MAX_MESSAGE,
                      .shutdown_grace_ms = DEFAULT_SHUTDOWN_GRACE_MS};
  const char *log_file = NULL;
  int rc = parse_args(argc, argv, &opts, &log_file);
  if (rc >= 0) {
    free(opts.agent_paths);
    return rc;
  }
  if (log_file && upk_log_open_file(log_file) < 0)
    upk_warn("cannot open log file %s: %s", log_file, strerror(errno));

  uv_loop_t loop;
  uv_loop_init(&loop);
  upk_server *server;
  rc = upk_server_new(&server, &loop, &opts, 0, in_kind, 1, out_kind);
  if (rc) {
    upk_error("cannot start: %s", uv_strerror(rc));
    return 1;
  }
  upk_server_start(server);
  /* Started bare in a terminal, it would wait in silence for a header: say what it waits for.
   * Never on a pipe, file or socket (an editor's or agent's stdin). */
  if (isatty(0))
    fprintf(stderr,
            "upskilld %s: waiting for LSP (Content-Length headers) or MCP (one JSON-RPC message "
            "per line) on stdin; upskilld --help for options, upskillctl for a command line\n",
            UPK_VERSION);
  const char *kind = uv_handle_type_name(in_kind);
  upk_info("upskilld %s ready (stdin: %s)", UPK_VERSION, kind ? kind : "closed");
  uv_run(&loop, UV_RUN_DEFAULT);
  int code = upk_server_exit_code(server);
  upk_server_free(server);
  if (uv_loop_close(&loop) == UV_EBUSY) {
    uv_walk(&loop, close_walk, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
  }
  upk_log_close_file();
  free(opts.agent_paths);
  return code;
}

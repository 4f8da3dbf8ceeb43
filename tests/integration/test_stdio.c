/* The daemon on every kind of stdin (pipe, socketpair, regular file, /dev/null, closed, pty),
 * input arriving byte by byte or many messages at once, concurrency, EOF with work in flight
 * and signals. */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/integration/harness.h"

TestSuite(stdio, .timeout = 180);

#define PING(id) "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"ping\"}"
#define MCP_INIT                                                                                   \
  "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"                     \
  "{\"protocolVersion\":\"2025-06-18\"}}"
#define LSP_INIT                                                                                   \
  "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"                     \
  "{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}"

/* The daemon logs (with -v) how it opened stdin: check it saw the kind we meant. */
static void assert_stdin_kind(hx *d, const char *name) {
  char want[64], *err = hx_stderr(d);
  snprintf(want, sizeof want, "(stdin: %s)", name);
  bool found = strstr(err, want) != NULL;
  if (!found)
    cr_log_error("daemon stderr:\n%.2000s", err);
  free(err);
  cr_assert(found, "the daemon did not report %s", want);
}

/* initialize, status and ping on a fresh daemon, then EOF: a clean exit. */
static void basic_session(hx_stdin kind, upk_framing framing, const char *kind_name) {
  hx *d = hx_spawn(kind, framing, HX_ARGS("-v"));
  if (framing == UPK_FRAMING_MCP)
    hx_mcp_init(d, "2025-11-25");
  else
    json_decref(hx_lsp_init(d, NULL));
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/status\"}");
  json_t *res = hx_assert_result(r, "1");
  cr_assert_str_eq(json_string_value(json_object_get(res, "protocol")),
                   framing == UPK_FRAMING_MCP ? "mcp" : "lsp");
  json_decref(r);
  hx_ping(d);
  assert_stdin_kind(d, kind_name);
  /* One banner line on stderr when stdin is a terminal (a person typing), never otherwise. */
  char *err = hx_stderr(d);
  bool banner = strstr(err, ": waiting for LSP (Content-Length headers) or MCP (one JSON-RPC "
                            "message per line) on stdin; upskilld --help for options") != NULL;
  free(err);
  cr_assert_eq(banner, kind == HX_PTY, "banner on stderr: %d with stdin %s", banner, kind_name);
  hx_finish(d, 0);
}

Test(stdio, pipe_mcp) {
  basic_session(HX_PIPE, UPK_FRAMING_MCP, "pipe");
}

Test(stdio, pipe_lsp) {
  basic_session(HX_PIPE, UPK_FRAMING_LSP, "pipe");
}

Test(stdio, socketpair_mcp) {
  basic_session(HX_SOCKETPAIR, UPK_FRAMING_MCP, "pipe");
}

Test(stdio, socketpair_lsp) {
  basic_session(HX_SOCKETPAIR, UPK_FRAMING_LSP, "pipe");
}

Test(stdio, pty_mcp) {
  if (!hx_pty_available())
    cr_skip_test("no pseudo-terminals on this system");
  basic_session(HX_PTY, UPK_FRAMING_MCP, "tty");
}

Test(stdio, pty_lsp) {
  if (!hx_pty_available())
    cr_skip_test("no pseudo-terminals on this system");
  basic_session(HX_PTY, UPK_FRAMING_LSP, "tty");
}

/* Every response in the queue by id; requires exactly `n` and EOF after them. */
static json_t *responses_to_eof(hx *d, size_t n) {
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT), "the daemon did not finish its input");
  json_t *by = json_object(), *m;
  while ((m = hx_response(d, 0))) {
    const char *id = hx_dump(json_object_get(m, "id"));
    cr_assert_null(json_object_get(by, id), "two answers for id %s", id);
    json_object_set_new(by, id, m);
  }
  cr_assert_eq(json_object_size(by), n, "expected %zu answers: %s", n, hx_dump(by));
  return by;
}

Test(stdio, regular_file_mcp) {
  const char input[] =
      MCP_INIT "\n"
               "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n" PING(
                   "1") "\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                        "\"params\":{\"name\":\"status\"}}\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"nope\"}\n";
  hx *d = hx_spawn_file(input, sizeof input - 1, HX_ARGS("-v"));
  json_t *by = responses_to_eof(d, 5);
  assert_stdin_kind(d, "file");
  cr_assert_str_eq(
      json_string_value(json_object_get(
          hx_assert_result(json_object_get(by, "\"init\""), "\"init\""), "protocolVersion")),
      "2025-06-18");
  hx_assert_result(json_object_get(by, "1"), "1");
  hx_assert_result(json_object_get(by, "2"), "2");
  json_t *st = hx_assert_result(json_object_get(by, "3"), "3");
  cr_assert(json_is_object(json_object_get(st, "structuredContent")), "%s", hx_dump(st));
  hx_assert_error(json_object_get(by, "4"), "4", -32601);
  json_decref(by);
  hx_finish(d, 0);
}

Test(stdio, regular_file_lsp) {
  char input[1024];
  const char *bodies[] = {LSP_INIT, PING("1"),
                          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}",
                          "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"};
  size_t n = 0;
  for (size_t i = 0; i < 4; i++)
    n += (size_t)snprintf(input + n, sizeof input - n, "Content-Length: %zu\r\n\r\n%s",
                          strlen(bodies[i]), bodies[i]);
  hx *d = hx_spawn_file(input, n, HX_NOARGS);
  json_t *by = responses_to_eof(d, 3);
  hx_assert_result(json_object_get(by, "1"), "1");
  cr_assert(json_is_null(hx_assert_result(json_object_get(by, "2"), "2")));
  json_decref(by);
  hx_finish(d, 0);
}

Test(stdio, regular_file_with_work_in_flight) {
  /* EOF comes at once, while the sleep still runs: its answer must still come. */
  const char input[] = MCP_INIT "\n"
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/sleep\","
                                "\"params\":{\"ms\":500,\"steps\":2}}\n";
  hx *d = hx_spawn_file(input, sizeof input - 1, HX_ARGS("--test-methods"));
  json_t *by = responses_to_eof(d, 2);
  hx_assert_result(json_object_get(by, "1"), "1");
  json_decref(by);
  hx_finish(d, 0);
}

Test(stdio, dev_null) {
  hx *d = hx_spawn(HX_DEVNULL, UPK_FRAMING_MCP, HX_ARGS("-v"));
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT));
  cr_assert_eq(hx_stdout_bytes(d), 0, "the daemon wrote to stdout");
  assert_stdin_kind(d, "file");
  hx_finish(d, 0);
}

Test(stdio, closed_stdin) {
  hx *d = hx_spawn(HX_CLOSED, UPK_FRAMING_MCP, HX_ARGS("-v"));
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT));
  cr_assert_eq(hx_stdout_bytes(d), 0, "the daemon wrote to stdout");
  assert_stdin_kind(d, "closed");
  hx_finish(d, 0);
}

Test(stdio, empty_pipe) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  hx_write(d, "\n\n  \n", 5); /* blanks only: the framing is never decided */
  hx_finish(d, 0);
}

/* Write `data` one byte at a time with a short pause between bytes. */
static void trickle(hx *d, const char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    hx_write(d, data + i, 1);
    if (i % 4 == 0)
      hx_msleep(1);
  }
}

Test(stdio, one_byte_at_a_time_mcp) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  const char input[] = MCP_INIT "\r\n" PING("1") "\n\n" PING("2") "\n";
  trickle(d, input, sizeof input - 1);
  const char *ids[] = {"\"init\"", "1", "2"};
  for (size_t i = 0; i < 3; i++) {
    json_t *r = hx_response(d, HX_TIMEOUT);
    hx_assert_result(r, ids[i]);
    json_decref(r);
  }
  hx_finish(d, 0);
}

Test(stdio, one_byte_at_a_time_lsp) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  char input[1024];
  int n = snprintf(input, sizeof input,
                   "Content-Length: %zu\r\n\r\n%scontent-length:%zu\r\nX-Other: 1\r\n\r\n%s",
                   strlen(LSP_INIT), LSP_INIT, strlen(PING("1")), PING("1"));
  trickle(d, input, (size_t)n);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "\"init\"");
  json_decref(r);
  r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "1");
  json_decref(r);
  hx_finish(d, 0);
}

static void pipelined(upk_framing framing, int count) {
  hx *d = hx_spawn(HX_PIPE, framing, HX_NOARGS);
  size_t cap = (size_t)count * 96 + 512, len = 0;
  char *all = malloc(cap);
  for (int i = 0; i < count; i++) {
    char body[96];
    snprintf(body, sizeof body, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}", i);
    size_t n;
    char *f = hx_frame(d, body, &n);
    memcpy(all + len, f, n);
    len += n;
    free(f);
  }
  hx_write(d, all, len); /* one write (the harness only splits it if the pipe is full) */
  free(all);
  for (int i = 0; i < count; i++) {
    json_t *r = hx_response(d, HX_TIMEOUT);
    char id[16];
    snprintf(id, sizeof id, "%d", i);
    hx_assert_result(r, id);
    json_decref(r);
  }
  hx_finish(d, 0);
}

Test(stdio, pipelined_mcp) {
  pipelined(UPK_FRAMING_MCP, 2000);
}

Test(stdio, pipelined_lsp) {
  pipelined(UPK_FRAMING_LSP, 2000);
}

Test(stdio, ping_overtakes_a_long_sleep) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":\"slow\",\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":60000,\"steps\":1}}");
  json_t *r = hx_call(d, PING("\"fast\""));
  hx_assert_result(r, "\"fast\"");
  json_decref(r);
  /* status runs on the thread pool, also while the sleep waits. */
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":\"st\",\"method\":\"upskilld/status\"}");
  cr_assert_eq(json_integer_value(json_object_get(hx_assert_result(r, "\"st\""), "inFlight")), 2,
               "%s", hx_dump(r));
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
             "{\"requestId\":\"slow\"}}");
  hx_finish(d, 0);
}

Test(stdio, eof_with_sleep_in_flight_mcp) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":700,\"steps\":2}}");
  hx_close_stdin(d);
  json_t *r = hx_response(d, HX_TIMEOUT);
  json_t *res = hx_assert_result(r, "8");
  cr_assert_eq(json_integer_value(json_object_get(res, "slept")), 700);
  json_decref(r);
  hx_finish(d, 0);
}

Test(stdio, eof_with_sleep_in_flight_lsp) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":700,\"steps\":2,\"fail\":\"on purpose\"}}");
  hx_close_stdin(d);
  json_t *r = hx_response(d, HX_TIMEOUT);
  cr_assert_str_eq(hx_assert_error(r, "8", -32803), "on purpose");
  json_decref(r);
  hx_finish(d, 0);
}

Test(stdio, client_that_does_not_read) {
  /* About 25 MB of answers (past the daemon's 16 MiB high-water mark) to a client that reads
   * nothing for a while: the daemon must stop reading (bounded memory) rather than fail, and
   * answer everything once the output drains. Pings with 4 KB ids make big answers cheaply. */
  hx *d = hx_mcp_session(HX_NOARGS);
  enum { COUNT = 6000, PAD = 4000 };
  size_t cap = (size_t)COUNT * (PAD + 64), len = 0;
  char *all = malloc(cap);
  for (int i = 0; i < COUNT; i++) {
    len += (size_t)snprintf(all + len, cap - len, "{\"jsonrpc\":\"2.0\",\"id\":\"%06d", i);
    memset(all + len, 'x', PAD);
    len += PAD;
    len += (size_t)snprintf(all + len, cap - len, "\",\"method\":\"ping\"}\n");
  }
  hx_write_background(d, all, len);
  free(all);
  hx_msleep(1500); /* not reading: its output backs up */
  for (int i = 0; i < COUNT; i++) {
    json_t *r = hx_response(d, HX_TIMEOUT);
    cr_assert(json_is_object(json_object_get(r, "result")), "answer %d: %s", i, hx_dump(r));
    const char *id = json_string_value(json_object_get(r, "id"));
    char want[8];
    snprintf(want, sizeof want, "%06d", i);
    cr_assert(id && strlen(id) == 6 + PAD && !strncmp(id, want, 6), "answer %d has the wrong id",
              i);
    json_decref(r);
  }
  cr_assert(hx_writer_done(d, HX_TIMEOUT), "the requests could not all be written");
  hx_finish(d, 0);
}

Test(stdio, sigterm_after_eof_with_work_in_flight) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods", "--shutdown-grace=1"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":120000,\"steps\":2}}");
  hx_ping(d);
  hx_close_stdin(d); /* the daemon now waits for the sleep... */
  hx_msleep(200);
  hx_signal(d, SIGTERM); /* ...until told to stop */
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 0, "exit status %d (-1: still running)", rc);
  hx_finish(d, 0);
}

/* Work on the thread pool logs too (the skill index scan that initialize starts): those
 * lines must never be written from the worker while the loop writes answers, which used to
 * splice messages together. A burst of pings right after initialize makes them overlap; the
 * harness fails on any output that is not well-framed JSON. */
static void worker_logs(upk_framing framing) {
  enum { PINGS = 10000 };
  hx *d = hx_spawn(HX_PIPE, framing, HX_ARGS("-vv"));
  const char *first[] = {framing == UPK_FRAMING_LSP ? LSP_INIT : MCP_INIT,
                         "{\"jsonrpc\":\"2.0\",\"id\":\"lvl\",\"method\":\"logging/setLevel\","
                         "\"params\":{\"level\":\"debug\"}}"};
  size_t cap = (PINGS + 8) * 96, len = 0, n;
  char *all = malloc(cap);
  for (int i = 0; i < (framing == UPK_FRAMING_LSP ? 1 : 2); i++) {
    char *f = hx_frame(d, first[i], &n);
    memcpy(all + len, f, n);
    len += n;
    free(f);
  }
  for (int i = 0; i < PINGS; i++) {
    char body[96];
    snprintf(body, sizeof body, PING("%d"), i);
    char *f = hx_frame(d, body, &n);
    memcpy(all + len, f, n);
    len += n;
    free(f);
  }
  hx_write(d, all, len);
  free(all);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "\"init\"");
  json_decref(r);
  if (framing == UPK_FRAMING_MCP) {
    r = hx_response(d, HX_TIMEOUT);
    hx_assert_result(r, "\"lvl\"");
    json_decref(r);
  }
  for (int i = 0; i < PINGS; i++) {
    char id[16];
    snprintf(id, sizeof id, "%d", i);
    r = hx_response(d, HX_TIMEOUT);
    hx_assert_result(r, id);
    json_decref(r);
  }
  hx_finish(d, 0);
}

/* The overlap is a matter of timing: a few rounds make a regression show up nearly always. */
Test(stdio, worker_thread_logs_keep_output_intact_lsp) {
  for (int round = 0; round < 6; round++)
    worker_logs(UPK_FRAMING_LSP);
}

Test(stdio, worker_thread_logs_keep_output_intact_mcp) {
  for (int round = 0; round < 6; round++)
    worker_logs(UPK_FRAMING_MCP);
}

/* The sleep outlasts the grace period: it is answered -32800, then the daemon exits 0. */
static void signal_exits_cleanly(int sig) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods", "--shutdown-grace=0.5"));
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"upskilld/sleep\",\"params\":"
             "{\"ms\":60000,\"steps\":60}}");
  hx_ping(d); /* the sleep is in flight */
  hx_signal(d, sig);
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_error(r, "1", -32800);
  json_decref(r);
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, 0, "signal %d: exit status %d", sig, rc);
  hx_finish(d, 0);
}

Test(stdio, sigterm_exits_cleanly) {
  signal_exits_cleanly(SIGTERM);
}

Test(stdio, sigint_exits_cleanly) {
  signal_exits_cleanly(SIGINT);
}

static void flag_exit(const char *const *args, int code) {
  hx *d = hx_spawn(HX_DEVNULL, UPK_FRAMING_MCP, args);
  int rc = hx_wait(d, HX_TIMEOUT);
  cr_assert_eq(rc, code, "%s: exit status %d, expected %d", args[0], rc, code);
  hx_assert_clean_stderr(d); /* stdout is text here, not protocol */
  hx_free(d);
}

Test(stdio, command_line_flags) {
  flag_exit(HX_ARGS("--version"), 0);
  flag_exit(HX_ARGS("--help"), 0);
  flag_exit(HX_ARGS("--no-such-flag"), 2);
  flag_exit(HX_ARGS("--max-message-size", "-1"), 2);
  flag_exit(HX_ARGS("--max-message-size=12Q"), 2);
  flag_exit(HX_ARGS("stray-argument"), 2);
}

/* The program process pid runs ("" if gone). */
static void exe_of(int pid, char *out, size_t len) {
  char link[64];
  snprintf(link, sizeof link, "/proc/%d/exe", pid);
  ssize_t n = readlink(link, out, len - 1);
  out[n > 0 ? n : 0] = 0;
}

/* The children of process `parent` that run a program of their own (a child between fork
 * and exec still holds every descriptor): their pids, up to cap. */
static size_t children_of(int parent, int *pids, size_t cap) {
  char parent_exe[PATH_MAX], exe[PATH_MAX];
  exe_of(parent, parent_exe, sizeof parent_exe);
  size_t n = 0;
  DIR *proc = opendir("/proc");
  struct dirent *e;
  while (proc && (e = readdir(proc)) && n < cap) {
    int pid = atoi(e->d_name), ppid = 0;
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = pid > 0 ? fopen(path, "r") : NULL;
    const char *end = f && fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
    if (f)
      fclose(f);
    if (!end || sscanf(end + 1, " %*c %d", &ppid) != 1 || ppid != parent)
      continue;
    exe_of(pid, exe, sizeof exe);
    if (exe[0] && strcmp(exe, parent_exe))
      pids[n++] = pid;
  }
  if (proc)
    closedir(proc);
  return n;
}

/* Whether process pid holds `file` open. */
static bool holds(int pid, const char *file) {
  char dir[64];
  snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
  DIR *d = opendir(dir);
  struct dirent *e;
  bool found = false;
  while (d && (e = readdir(d)) && !found) {
    char link[PATH_MAX + 80], target[PATH_MAX] = "";
    snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
    ssize_t n = readlink(link, target, sizeof target - 1);
    found = n > 0 && (size_t)n == strlen(file) && !memcmp(target, file, (size_t)n);
  }
  if (d)
    closedir(d);
  return found;
}

/* --log-file is the daemon's own: the processes it starts (kernel workers, the worker server
 * that outlives it by minutes, nvcc) must not inherit it, or a log file rotated or deleted
 * stays allocated, and a disk stays full, for as long as they run. */
Test(stdio, children_do_not_inherit_the_log_file) {
  char dir[] = "/tmp/upk-logfd-XXXXXX", log[sizeof dir + 16], arg[sizeof log + 16];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(log, sizeof log, "%s/d.log", dir);
  snprintf(arg, sizeof arg, "--log-file=%s", log);
  hx *d = hx_lsp_session(HX_ARGS("--lsp", arg)); /* an editor's kernel worker starts warm */
  int pids[8];
  size_t n = 0;
  for (int i = 0; i < 100 && !n; i++, hx_msleep(50))
    n = children_of(hx_pid(d), pids, 8);
  size_t holding = 0;
  for (size_t i = 0; i < n; i++)
    holding += holds(pids[i], log);
  hx_ping(d);
  hx_finish(d, 0);
  char cmd[sizeof dir + 16];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  (void)!system(cmd);
  cr_assert_gt(n, 0, "the daemon started no process in 5 s");
  cr_assert_eq(holding, 0, "%zu of the daemon's %zu child processes hold its log file", holding, n);
}

/* upskillctl ping / status over LSP: initializationOptions.warmKernels false starts no kernel
 * worker and no worker server (issue 34: an 84 MB server left running for 10 minutes). The
 * default (an editor) starts warm: children_do_not_inherit_the_log_file. */
Test(stdio, lsp_warm_kernels_false_starts_no_process) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_ARGS("--lsp"));
  json_t *r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                         "{\"processId\":null,\"rootUri\":null,\"capabilities\":{},"
                         "\"initializationOptions\":{\"warmKernels\":false}}}");
  hx_assert_result(r, "0");
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  hx_ping(d);
  r = hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"upskilld/status\",\"params\":{}}");
  json_t *kernels = json_object_get(hx_assert_result(r, "2"), "kernels");
  cr_expect(json_is_false(json_object_get(kernels, "started")), "kernels: %s", hx_dump(kernels));
  json_decref(r);
  int pids[8];
  size_t n = 0;
  for (int i = 0; i < 20 && !n; i++, hx_msleep(50))
    n = children_of(hx_pid(d), pids, 8);
  hx_finish(d, 0);
  cr_assert_eq(n, 0, "the daemon started %zu process(es) after initialize with warmKernels false",
               n);
}

Test(stdio, lsp_warm_kernels_must_be_a_boolean) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_ARGS("--lsp"));
  json_t *r =
      hx_call(d, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                 "{\"capabilities\":{},\"initializationOptions\":{\"warmKernels\":\"no\"}}}");
  cr_expect_str_eq(hx_assert_error(r, "0", -32602),
                   "params.initializationOptions.warmKernels: expected boolean");
  json_decref(r);
  hx_finish(d, 0);
}

/* An agent that never checks a kernel never pays for a kernel worker (48-84 MB): over MCP the
 * workers start on the first kernel request, not at initialize (an editor's start warm). */
Test(stdio, mcp_initialize_starts_no_kernel_worker) {
  hx *d = hx_mcp_session(HX_ARGS("--mcp"));
  int pids[8];
  size_t n = 0;
  for (int i = 0; i < 20 && !n; i++, hx_msleep(50))
    n = children_of(hx_pid(d), pids, 8);
  hx_ping(d);
  hx_finish(d, 0);
  cr_assert_eq(n, 0, "the daemon started %zu process(es) at MCP initialize", n);
}

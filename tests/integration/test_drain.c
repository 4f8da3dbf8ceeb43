/* Shutdown drains: `shutdown` is answered only after every request received before it, `exit`
 * after it loses nothing, and EOF and SIGTERM wait for work in flight for at most the grace
 * period (--shutdown-grace), then answer what is left with -32800. Both framings, input from a
 * regular file and from a pipe. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/integration/harness.h"

TestSuite(drain, .timeout = 180);

#define MCP_INIT                                                                                   \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"                            \
  "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"                                       \
  "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"
#define LSP_INIT                                                                                   \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"                            \
  "{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}"
#define STATUS(id) "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"upskilld/status\"}"
#define SLEEP(id, ms)                                                                              \
  "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"upskilld/sleep\",\"params\":"                   \
  "{\"ms\":" ms ",\"steps\":2}}"
#define SHUTDOWN(id) "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"shutdown\"}"
#define EXIT "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"

/* The bodies framed one after another, as one buffer (caller frees). */
static char *framed(upk_framing f, const char *const *bodies, size_t *len) {
  size_t cap = 16, n = 0;
  for (size_t i = 0; bodies[i]; i++)
    cap += strlen(bodies[i]) + 40;
  char *buf = malloc(cap);
  for (size_t i = 0; bodies[i]; i++) {
    size_t bl = strlen(bodies[i]);
    n += (size_t)(f == UPK_FRAMING_LSP
                      ? snprintf(buf + n, cap - n, "Content-Length: %zu\r\n\r\n%s", bl, bodies[i])
                      : snprintf(buf + n, cap - n, "%s\n", bodies[i]));
  }
  *len = n;
  return buf;
}

/* Start a daemon whose whole input is `bodies`: a regular file, or a pipe written at once and
 * closed. */
static hx *spawn_with(hx_stdin kind, upk_framing f, const char *const *bodies,
                      const char *const *args) {
  size_t len;
  char *in = framed(f, bodies, &len);
  hx *d;
  if (kind == HX_FILE) {
    d = hx_spawn_file(in, len, args);
  } else {
    d = hx_spawn(kind, f, args);
    hx_write(d, in, len);
    hx_close_stdin(d);
  }
  free(in);
  return d;
}

/* Every response until EOF, in the order they came (an array the caller owns). */
static json_t *answers(hx *d) {
  cr_assert(hx_read_to_eof(d, HX_TIMEOUT), "the daemon did not close its output");
  json_t *all = json_array(), *m;
  while ((m = hx_response(d, 0)))
    json_array_append_new(all, m);
  return all;
}

/* The position of the answer with this id (JSON text), failing if absent. */
static size_t position(json_t *all, const char *id) {
  size_t i;
  json_t *m;
  json_array_foreach(all, i, m) if (!strcmp(hx_dump(json_object_get(m, "id")), id)) return i;
  cr_assert_fail("no answer for id %s in %s", id, hx_dump(all));
  return 0;
}

/* The session from the issue: initialize, initialized, status, shutdown, exit, all at once.
 * Answers for 1, 3 and shutdown, shutdown last, exit status 0. */
static void issue_session(hx_stdin kind, upk_framing f) {
  const char *const bodies[] = {
      f == UPK_FRAMING_LSP ? LSP_INIT : MCP_INIT,
      f == UPK_FRAMING_LSP ? "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}"
                           : "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
      STATUS("3"),
      SHUTDOWN("4"),
      EXIT,
      NULL};
  hx *d = spawn_with(kind, f, bodies, HX_NOARGS);
  json_t *all = answers(d);
  cr_assert_eq(json_array_size(all), 3, "expected 3 answers: %s", hx_dump(all));
  hx_assert_result(json_array_get(all, position(all, "1")), "1");
  json_t *st = hx_assert_result(json_array_get(all, position(all, "3")), "3");
  cr_assert_str_eq(json_string_value(json_object_get(st, "name")), "upskilld");
  size_t sd = position(all, "4");
  cr_assert(json_is_null(hx_assert_result(json_array_get(all, sd), "4")));
  cr_assert_gt(sd, position(all, "3"), "shutdown was answered before the status request");
  json_decref(all);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

Test(drain, issue_session_file_mcp) {
  issue_session(HX_FILE, UPK_FRAMING_MCP);
}

Test(drain, issue_session_file_lsp) {
  issue_session(HX_FILE, UPK_FRAMING_LSP);
}

Test(drain, issue_session_pipe_mcp) {
  issue_session(HX_PIPE, UPK_FRAMING_MCP);
}

Test(drain, issue_session_pipe_lsp) {
  issue_session(HX_PIPE, UPK_FRAMING_LSP);
}

/* Work that takes a while (sleeps) before shutdown: every one is answered with its result,
 * shutdown after all of them; a request after shutdown is refused; exit then loses nothing. */
static void shutdown_waits(hx_stdin kind, upk_framing f) {
  const char *const bodies[] = {f == UPK_FRAMING_LSP ? LSP_INIT : MCP_INIT,
                                SLEEP("2", "400"),
                                SLEEP("3", "200"),
                                STATUS("4"),
                                SHUTDOWN("5"),
                                STATUS("6"),
                                EXIT,
                                NULL};
  hx *d = spawn_with(kind, f, bodies, HX_ARGS("--test-methods"));
  json_t *all = answers(d);
  cr_assert_eq(json_array_size(all), 6, "expected 6 answers: %s", hx_dump(all));
  hx_assert_result(json_array_get(all, position(all, "2")), "2");
  hx_assert_result(json_array_get(all, position(all, "3")), "3");
  hx_assert_result(json_array_get(all, position(all, "4")), "4");
  hx_assert_error(json_array_get(all, position(all, "6")), "6", -32600);
  size_t sd = position(all, "5");
  cr_assert_gt(sd, position(all, "2"), "shutdown answered before the 400 ms sleep");
  cr_assert_gt(sd, position(all, "3"), "shutdown answered before the 200 ms sleep");
  json_decref(all);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

Test(drain, shutdown_waits_file_mcp) {
  shutdown_waits(HX_FILE, UPK_FRAMING_MCP);
}

Test(drain, shutdown_waits_file_lsp) {
  shutdown_waits(HX_FILE, UPK_FRAMING_LSP);
}

Test(drain, shutdown_waits_pipe_mcp) {
  shutdown_waits(HX_PIPE, UPK_FRAMING_MCP);
}

Test(drain, shutdown_waits_pipe_lsp) {
  shutdown_waits(HX_PIPE, UPK_FRAMING_LSP);
}

/* Over an open pipe: shutdown's answer is held while the sleep runs, and comes after it. */
Test(drain, shutdown_answer_waits_on_an_open_pipe) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, SLEEP("2", "600"));
  hx_send(d, SHUTDOWN("3"));
  json_t *r = hx_response(d, HX_TIMEOUT);
  hx_assert_result(r, "2"); /* the sleep's answer comes first */
  json_decref(r);
  r = hx_response(d, HX_TIMEOUT);
  cr_assert(json_is_null(hx_assert_result(r, "3")));
  json_decref(r);
  hx_send(d, EXIT);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

/* The grace period runs out: the long sleep gets -32800 naming it, then shutdown is answered. */
static void grace_runs_out(upk_framing f, bool with_exit) {
  const char *const bodies[] = {f == UPK_FRAMING_LSP ? LSP_INIT : MCP_INIT, SLEEP("2", "120000"),
                                SHUTDOWN("3"), with_exit ? EXIT : NULL, NULL};
  hx *d = spawn_with(HX_FILE, f, bodies, HX_ARGS("--test-methods", "--shutdown-grace=0.3"));
  json_t *all = answers(d);
  cr_assert_eq(json_array_size(all), 3, "expected 3 answers: %s", hx_dump(all));
  const char *msg = hx_assert_error(json_array_get(all, position(all, "2")), "2", -32800);
  cr_assert(strstr(msg, "grace period"), "%s", msg);
  cr_assert_gt(position(all, "3"), position(all, "2"));
  json_decref(all);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

Test(drain, grace_runs_out_mcp) {
  grace_runs_out(UPK_FRAMING_MCP, true);
}

Test(drain, grace_runs_out_lsp) {
  grace_runs_out(UPK_FRAMING_LSP, true);
}

Test(drain, grace_runs_out_at_eof_without_exit) {
  grace_runs_out(UPK_FRAMING_MCP, false);
}

/* EOF without shutdown: short work is answered, long work is cancelled with -32800. */
Test(drain, eof_bounded_by_grace) {
  const char *const bodies[] = {MCP_INIT, SLEEP("2", "200"), SLEEP("3", "120000"), NULL};
  hx *d =
      spawn_with(HX_PIPE, UPK_FRAMING_MCP, bodies, HX_ARGS("--test-methods", "--shutdown-grace=1"));
  json_t *all = answers(d);
  cr_assert_eq(json_array_size(all), 3, "expected 3 answers: %s", hx_dump(all));
  hx_assert_result(json_array_get(all, position(all, "2")), "2");
  hx_assert_error(json_array_get(all, position(all, "3")), "3", -32800);
  json_decref(all);
  hx_finish(d, 0);
}

/* exit without shutdown does not wait, but still answers what was in flight. */
Test(drain, exit_without_shutdown_answers_in_flight) {
  hx *d = hx_lsp_session(HX_ARGS("--test-methods"));
  hx_send(d, SLEEP("2", "120000"));
  hx_ping(d);
  hx_send(d, EXIT);
  json_t *r = hx_response(d, HX_TIMEOUT);
  const char *msg = hx_assert_error(r, "2", -32800);
  cr_assert(strstr(msg, "exit"), "%s", msg);
  json_decref(r);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 1);
  hx_finish(d, 1);
}

/* SIGTERM: new requests are refused, the sleep in flight still gets its result, exit 0. */
static void sigterm_drains(upk_framing f) {
  hx *d = f == UPK_FRAMING_LSP ? hx_lsp_session(HX_ARGS("--test-methods"))
                               : hx_mcp_session(HX_ARGS("--test-methods"));
  hx_send(d, SLEEP("2", "1500"));
  hx_ping(d); /* the sleep is in flight */
  hx_signal(d, SIGTERM);
  /* Once the daemon has seen the signal (when is the scheduler's: a loaded machine delays it),
   * a new request is refused while the sleep in flight still gets its answer. Requests sent
   * before then are answered; none after. */
  bool refused = false, slept = false;
  for (int i = 0; i < 200 && !(refused && slept); i++) {
    if (!refused) {
      char status[96];
      snprintf(status, sizeof status, STATUS("%d"), 100 + i);
      hx_send(d, status);
    }
    json_t *r = hx_response(d, HX_TIMEOUT);
    cr_assert(r, "no answer after SIGTERM");
    json_t *id = json_object_get(r, "id");
    if (json_integer_value(id) == 2) {
      hx_assert_result(r, "2");
      slept = true;
    } else if (json_object_get(r, "error")) {
      cr_assert_not(refused, "a request was sent after the first refusal: %s", hx_dump(r));
      char want[16];
      snprintf(want, sizeof want, "%lld", (long long)json_integer_value(id));
      hx_assert_error(r, want, -32600);
      refused = true;
    } else {
      hx_msleep(20); /* answered: the signal is not seen yet */
    }
    json_decref(r);
  }
  cr_assert(refused && slept, "refused %d, slept %d", refused, slept);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

Test(drain, sigterm_drains_mcp) {
  sigterm_drains(UPK_FRAMING_MCP);
}

Test(drain, sigterm_drains_lsp) {
  sigterm_drains(UPK_FRAMING_LSP);
}

/* A second SIGTERM stops at once, and the work in flight still gets its -32800. */
Test(drain, second_sigterm_stops_at_once) {
  hx *d = hx_mcp_session(HX_ARGS("--test-methods"));
  hx_send(d, SLEEP("2", "120000"));
  hx_ping(d);
  hx_signal(d, SIGTERM);
  hx_msleep(200);
  cr_assert_eq(hx_wait(d, 0), -1, "one SIGTERM did not wait for the work in flight");
  hx_signal(d, SIGTERM);
  json_t *r = hx_response(d, HX_TIMEOUT);
  const char *msg = hx_assert_error(r, "2", -32800);
  cr_assert(strstr(msg, "signal"), "%s", msg);
  json_decref(r);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

/* A batch (MCP 2025-03-26) holding work and shutdown: one answer array with both. */
Test(drain, shutdown_inside_a_batch) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_ARGS("--test-methods"));
  hx_mcp_init(d, "2025-03-26");
  hx_send(d, "[" SLEEP("2", "300") "," SHUTDOWN("3") "]");
  json_t *r = hx_response(d, HX_TIMEOUT);
  cr_assert(json_is_array(r) && json_array_size(r) == 2, "%s", hx_dump(r));
  hx_assert_result(json_array_get(r, position(r, "2")), "2");
  cr_assert(json_is_null(hx_assert_result(json_array_get(r, position(r, "3")), "3")));
  json_decref(r);
  hx_send(d, EXIT);
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 0);
  hx_finish(d, 0);
}

Test(drain, bad_grace_flag) {
  hx *d = hx_spawn(HX_DEVNULL, UPK_FRAMING_MCP, HX_ARGS("--shutdown-grace=soon"));
  cr_assert_eq(hx_wait(d, HX_TIMEOUT), 2);
  hx_assert_clean_stderr(d);
  hx_free(d);
}

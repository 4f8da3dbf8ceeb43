/* Integration-test harness: run the real daemon ($UPSKILLD) as a child process over pipes (or
 * another kind of stdin), write raw bytes to it, read framed messages back with a timeout, and
 * wait for its exit.
 *
 * Every wait has a deadline (HX_TIMEOUT by default, generous for a loaded machine); a test
 * fails rather than hangs. Each daemon gets a private temporary HOME and XDG_CACHE_HOME (its
 * skill index lives there), removed by hx_free. The daemon's stderr goes to an unlinked temporary
 * file, so it can never block on a full pipe, and hx_finish checks it for sanitizer reports.
 */
#ifndef UPK_HARNESS_H
#define UPK_HARNESS_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "protocol/framing.h"

/** Milliseconds to wait for anything the daemon should do promptly. */
#define HX_TIMEOUT 15000

/** What the daemon's stdin is. */
typedef enum {
  HX_PIPE,       /* a pipe we write to */
  HX_SOCKETPAIR, /* one end of an AF_UNIX stream socketpair */
  HX_FILE,       /* a regular file with fixed contents (see hx_spawn_file) */
  HX_DEVNULL,    /* /dev/null */
  HX_CLOSED,     /* fd 0 closed */
  HX_PTY,        /* the slave side of a pseudo-terminal in raw mode; we hold the master */
} hx_stdin;

typedef struct hx hx;

/** A NULL-terminated argument list for hx_spawn: HX_ARGS("--mcp", "--test-methods"). */
#define HX_ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define HX_NOARGS ((const char *const[]){NULL})

/** Start the daemon with `args`. `framing` is how hx_send frames what we write
 * (LSP or MCP); replies are parsed whichever framing the daemon uses. */
hx *hx_spawn(hx_stdin kind, upk_framing framing, const char *const *args);
/** Whether this system can give us a pseudo-terminal (containers sometimes cannot). */
bool hx_pty_available(void);
/** Start the daemon reading a regular file holding `data`. */
hx *hx_spawn_file(const void *data, size_t len, const char *const *args);

/** Write raw bytes to the daemon's stdin (reading its output meanwhile, so that
 * neither side can block the other). Fails the test if it cannot be written. */
void hx_write(hx *d, const void *data, size_t len);
/** Same, but returns false instead of failing (for a daemon that may have gone). */
bool hx_try_write(hx *d, const void *data, size_t len);
/** Write one JSON text framed in the harness's framing. */
void hx_send(hx *d, const char *json);
void hx_sendf(hx *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Frame `json` as hx_send would, into a malloc'd buffer (for pipelining). */
char *hx_frame(hx *d, const char *json, size_t *len);
/** Hand `data` to a child process that writes it to the daemon's stdin (blocking, however
 * long the daemon stops reading) and then exits; our own end is closed, so the daemon sees
 * EOF once everything is written. Lets a test play a client that does not read. */
void hx_write_background(hx *d, const void *data, size_t len);
/** Wait for the background writer: true when it wrote everything within `timeout_ms`. */
bool hx_writer_done(hx *d, int timeout_ms);
/** Close our end of the daemon's stdin (EOF for the daemon). */
void hx_close_stdin(hx *d);

/** The next message of any kind (caller owns it), or NULL after `timeout_ms` or at EOF. */
json_t *hx_next(hx *d, int timeout_ms);
/** The next response (a message with an id and a result or error, or a batch
 * array), skipping notifications; NULL on timeout or EOF. */
json_t *hx_response(hx *d, int timeout_ms);
/** Send `json` and return the next response; fails the test if none comes. */
json_t *hx_call(hx *d, const char *json);
json_t *hx_callf(hx *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** skills/lookup of `task` (plain text, no quotes) with request id `id`, asked again while the
 * answer says the first scan is still `indexing`; the whole response (caller owns it). */
json_t *hx_lookup_settled(hx *d, int id, const char *task);
/** Read until the daemon closes stdout; true when it did within `timeout_ms`.
 * Messages read on the way stay queued for hx_next. */
bool hx_read_to_eof(hx *d, int timeout_ms);
/** Messages queued and not taken yet. */
size_t hx_queued(const hx *d);
/** Bytes seen on stdout so far. */
size_t hx_stdout_bytes(const hx *d);

/** Wait for the daemon to exit: its exit code, 128+N if killed by signal N,
 * or -1 if it still runs after `timeout_ms`. */
int hx_wait(hx *d, int timeout_ms);
/** Send a signal to the daemon. */
void hx_signal(hx *d, int sig);
/** The daemon's stderr so far (caller frees). */
char *hx_stderr(hx *d);
/** The daemon's process id. */
int hx_pid(const hx *d);
/** The daemon's private HOME (its XDG_CACHE_HOME is HOME/cache), removed by hx_free. */
const char *hx_home(const hx *d);

/** Close stdin, require exit code `code`, no sanitizer report and well-formed output, then
 * free. */
void hx_finish(hx *d, int code);
/** Require no sanitizer report on stderr (the daemon must have exited). */
void hx_assert_clean_stderr(hx *d);
/** Kill the daemon if it still runs and release everything. */
void hx_free(hx *d);

/* Checks on replies. `id` is the expected id as JSON text: "7", "\"abc\"", "null". */

/** Require a success response with this id; returns its result (borrowed). */
json_t *hx_assert_result(json_t *resp, const char *id);
/** Require an error response with this id and code; returns error.message. */
const char *hx_assert_error(json_t *resp, const char *id, int code);
/** Send a ping with a fresh id and require `{}` back: proof the daemon still answers. */
void hx_ping(hx *d);
/** Start a long kernel/validate (a header-heavy corpus kernel, cache off) with `id`, cancel it
 * 100 ms later with $/cancelRequest, and require its -32800 answer (LSP framing). */
void hx_validate_then_cancel(hx *d, int id);
/** MCP initialize with `version`, then notifications/initialized; returns the negotiated version
 * (static storage). */
const char *hx_mcp_init(hx *d, const char *version);
/** LSP initialize (rootUri may be NULL), then initialized; returns the result (caller owns). */
json_t *hx_lsp_init(hx *d, const char *root_uri);

/** A new daemon on a pipe, MCP framing, initialized with 2025-11-25 (args: extra flags). */
hx *hx_mcp_session(const char *const *args);
/** A new daemon on a pipe, LSP framing, initialized (args: extra flags). */
hx *hx_lsp_session(const char *const *args);

/** The next textDocument/publishDiagnostics for `uri` (caller owns it), skipping other
 * messages; NULL after `timeout_ms` without one. */
json_t *hx_next_publish(hx *d, const char *uri, int timeout_ms);
/** Whether the CUDA toolkit ($CUDA_PATH, else /usr/local/cuda) has NVRTC's header. */
bool hx_have_toolkit(void);
/** Skip the test, saying why, where there is no CUDA toolkit. */
#define HX_NEED_TOOLKIT()                                                                          \
  do {                                                                                             \
    if (!hx_have_toolkit())                                                                        \
      cr_skip_test("no CUDA toolkit (NVRTC) on this machine");                                     \
  } while (0)

/** Compact JSON text of a value, for messages (static buffer, valid until the next call). */
const char *hx_dump(const json_t *v);
/** Sleep for `ms` milliseconds. */
void hx_msleep(int ms);

#endif

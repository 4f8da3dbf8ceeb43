/* Helpers shared by the file, trace and stall tests (issue 44): plant a project with skills, a
 * secret outside it, FIFOs and links; start an LSP or MCP daemon on it; ask with a deadline; and
 * require that no answer carries the secret's marker. Static inline: each test uses a few. */
#ifndef UPK_SEC_PLANT_H
#define UPK_SEC_PLANT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/fsx.h"
#include "tests/integration/harness.h"

/** What a secret outside the project holds; no answer or error may ever carry it. */
#define SP_MARKER "SECRET5b9e1f" /* short: jansson quotes tokens up to 20 bytes */

/** How long an answer the daemon should give promptly may take (generous for ASan). */
#define SP_PROMPT_MS 5000

/** The text every secret file holds: a private key's look, the marker inside. */
#define SP_SECRET_TEXT                                                                             \
  "-----BEGIN OPENSSH PRIVATE KEY-----\n" SP_MARKER "\n-----END OPENSSH PRIVATE KEY-----\n"

/** A skill NAME under DIR/.claude/skills with a plain SKILL.md; its directory into out. */
static inline void sp_skill(const char *proj, const char *name, char *out, size_t len) {
  char path[PATH_MAX], text[512];
  snprintf(out, len, "%s/.claude/skills/%s", proj, name);
  snprintf(path, sizeof path, "%s/SKILL.md", out);
  snprintf(text, sizeof text,
           "---\nname: %s\ndescription: Use when checking the %s frobnitz calibration.\n---\n"
           "# %s\n\nSteps.\n",
           name, name, name);
  fsx_write(path, text);
}

/** A FIFO at path (its parents made first). */
static inline void sp_fifo(const char *path) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  *strrchr(dir, '/') = 0;
  char probe[PATH_MAX + 8];
  snprintf(probe, sizeof probe, "%s/.probe", dir);
  fsx_write(probe, "");
  unlink(probe);
  cr_assert_eq(mkfifo(path, 0600), 0, "mkfifo %s: %s", path, strerror(errno));
}

/** A symbolic link at path to target. */
static inline void sp_link(const char *target, const char *path) {
  cr_assert_eq(symlink(target, path), 0, "symlink %s: %s", path, strerror(errno));
}

/** A sparse file of `size` bytes (2 GiB and more cost nothing on disk). */
static inline void sp_sparse(const char *path, off_t size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
  cr_assert_eq(ftruncate(fd, size), 0);
  close(fd);
}

/** A daemon speaking LSP whose workspace is proj (no kernel warm-up). */
static inline hx *sp_lsp(const char *proj) {
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_LSP, HX_NOARGS);
  json_t *r = hx_callf(d,
                       "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                       "{\"rootUri\":\"file://%s\",\"capabilities\":{},"
                       "\"initializationOptions\":{\"warmKernels\":false}}}",
                       proj);
  hx_assert_result(r, "0");
  json_decref(r);
  hx_send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  return d;
}

/** A daemon speaking MCP whose workspace (its working directory) is proj. */
static inline hx *sp_mcp(const char *proj) {
  char here[PATH_MAX];
  cr_assert(getcwd(here, sizeof here));
  cr_assert_eq(chdir(proj), 0);
  hx *d = hx_spawn(HX_PIPE, UPK_FRAMING_MCP, HX_NOARGS);
  cr_assert_eq(chdir(here), 0);
  hx_mcp_init(d, "2025-11-25");
  return d;
}

/** The whole message as text (caller frees). */
static inline char *sp_text(const json_t *v) {
  char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  cr_assert(s);
  return s;
}

/** Send `json`; its answer within `ms`, or the test fails saying what did not answer. */
static inline json_t *sp_call_within(hx *d, int ms, const char *what, const char *json) {
  hx_send(d, json);
  json_t *r = hx_response(d, ms);
  cr_assert(r, "%s: no answer within %d ms: the daemon stalled", what, ms);
  return r;
}

/** Require that the answer never carries the secret's marker. */
static inline void sp_no_marker(const json_t *r, const char *what) {
  char *s = sp_text(r);
  cr_expect(!strstr(s, SP_MARKER), "%s: the secret left the daemon: %s", what, s);
  free(s);
}

/** Whether the message's text holds `needle`. */
static inline bool sp_has(const json_t *r, const char *needle) {
  char *s = sp_text(r);
  bool yes = strstr(s, needle) != NULL;
  free(s);
  return yes;
}

/** skills/lookup (LSP) until the first scan is done, each answer within SP_PROMPT_MS, the whole
 * at most 30 s: a scan stuck on a file never settles. */
static inline void sp_settle(hx *d, int id) {
  char req[256];
  for (int tries = 0; tries < 300; tries++) {
    snprintf(req, sizeof req,
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"skills/lookup\","
             "\"params\":{\"task\":\"frobnitz calibration\"}}",
             id);
    json_t *r = sp_call_within(d, SP_PROMPT_MS, "skills/lookup", req);
    bool indexing = json_object_get(json_object_get(r, "result"), "indexing") != NULL;
    json_decref(r);
    if (!indexing)
      return;
    hx_msleep(100);
  }
  cr_assert_fail("skills/lookup still says indexing after 30 s: the first scan is stuck");
}

/** MCP tools/call of `tool` with `args` (JSON text); the answer within `ms`. */
static inline json_t *sp_tool(hx *d, int id, int ms, const char *tool, const char *args) {
  size_t n = strlen(args) + strlen(tool) + 200;
  char *req = malloc(n);
  cr_assert(req);
  snprintf(req, n,
           "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\","
           "\"params\":{\"name\":\"%s\",\"arguments\":%s}}",
           id, tool, args);
  json_t *r = sp_call_within(d, ms, tool, req);
  free(req);
  return r;
}

/** Whether an MCP tool answer is a refusal (isError) rather than a result. */
static inline bool sp_tool_failed(const json_t *r) {
  return json_is_true(json_object_get(json_object_get(r, "result"), "isError")) ||
         json_object_get(r, "error");
}

#endif

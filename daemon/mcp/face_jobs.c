/* How the faces answer a job and speak its progress (face_jobs.h). Here, not in jobs.c, so
 * that only the faces build LSP and MCP messages (docs/architecture.md). */
#include "daemon/mcp/face_jobs.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/lsp.h"
#include "protocol/mcp.h"
#include "daemon/mcp/tool_text.h"

static bool is_lsp(const upk_job *job) {
  return upk_session_framing(job->server) == UPK_FRAMING_LSP;
}

static json_t *plain_reply(const upk_job *job, json_t *result) {
  return upk_rpc_result(job->id, result);
}

static json_t *plain_fail(const upk_method *m, json_t *id, int code, const char *msg,
                          json_t *data) {
  (void)m;
  return upk_rpc_error(id, code, msg, data);
}

static void progress(upk_job *job, double done, double total, const char *message) {
  upk_server *s = job->server;
  if (is_lsp(job)) {
    if (!job->progress_begun)
      upk_session_send(s, upk_lsp_progress_begin(job->progress_token, job->method->title, 1));
    job->progress_begun = true;
    int pct = total > 0 ? (int)(done * 100.0 / total) : -1;
    upk_session_send(s, upk_lsp_progress_report(job->progress_token, pct, message));
    return;
  }
  if (job->progress_begun && done <= job->progress_last)
    return; /* MCP requires progress to increase */
  job->progress_begun = true;
  job->progress_last = done;
  upk_session_send(s, upk_mcp_progress(job->progress_token, done, total > 0 ? total : -1, message));
}

/* MCP progress has no end; LSP's work-done progress does. */
static void progress_end(upk_job *job, const char *message) {
  if (is_lsp(job))
    upk_session_send(job->server, upk_lsp_progress_end(job->progress_token, message));
}

/* Where a diagnostic without a file is, when the result does not say: a skill method checks
 * a SKILL.md. */
static const char *default_file(const upk_method *m) {
  return strncmp(m->name, "skills/", 7) ? "input" : "SKILL.md";
}

static json_t *tool_reply(const upk_job *job, json_t *result) {
  if (!result)
    result = json_object();
  /* A failed check (ok: false) keeps its JSON text first, as MCP asks, and says what failed in
   * a second block for clients that show models only text (tool_text.h). */
  char *readable = upk_tool_failed_check_text(result, default_file(job->method));
  result = upk_mcp_tool_result(result, false, NULL);
  if (readable)
    json_array_append_new(json_object_get(result, "content"),
                          json_pack("{s:s,s:s}", "type", "text", "text", readable));
  free(readable);
  return upk_rpc_result(job->id, result);
}

static json_t *tool_fail(const upk_method *m, json_t *id, int code, const char *msg, json_t *data) {
  (void)code;
  /* A refusal's text names its diagnostics, not just their count (tool_text.h). */
  char *text = upk_tool_diag_text(data, msg, default_file(m));
  json_t *r = upk_rpc_result(id, upk_mcp_tool_result(data, true, text ? text : msg));
  free(text);
  return r;
}

const upk_job_face upk_face_job_plain = {false, plain_reply, plain_fail, progress, progress_end};
const upk_job_face upk_face_job_tool = {true, tool_reply, tool_fail, progress, progress_end};

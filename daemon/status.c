/* upskilld/status (MCP tool `status`): what the daemon is doing and what this
 * machine offers. The CUDA probes touch the file system and dlopen libcuda,
 * so they run on the thread pool, never on the loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "common/sandbox.h"
#include "common/trust.h"
#include "models/config.h"
#include "daemon/core/jobs.h"
#include "daemon/kernels/kernel_service.h"
#include "daemon/skills/skills_service.h"
#include "daemon/status.h"
#include "gpu/compile/toolkit.h"
#include "upk_config.h"
#include "common/xalloc.h"

typedef struct status_work {
  uv_work_t req;
  upk_job *job;
  char cuda_path[512];
  upk_cuda_toolkit toolkit;
  upk_cuda_driver driver;
  char *workspace; /* copied on the loop; NULL: none */
  json_t *trust;   /* the workspace's standing, built on the thread pool */
  bool sandbox;    /* common/sandbox.h: whether untrusted compiles can be sandboxed */
  char sandbox_what[640];
} status_work;

/* The workspace's standing with the user (common/trust.h) and the keys of its
 * upskill.config.yaml refused for want of it: what an eval or generate there would skip. */
static json_t *workspace_trust(const char *ws) {
  upk_config cfg;
  char err[512] = "";
  int rc = upk_config_load(&cfg, ws, NULL, err, sizeof err);
  upk_trust t = cfg.trust >= 0 ? (upk_trust)cfg.trust : upk_trust_check(ws);
  const char *state = t == UPK_TRUST_YES       ? "trusted"
                      : t == UPK_TRUST_CHANGED ? "changed"
                                               : "untrusted";
  json_t *j = json_pack("{s:s,s:s,s:O}", "path", ws, "state", state, "refused", cfg.refused);
  if (t != UPK_TRUST_YES)
    json_object_set_new(j, "hint",
                        json_sprintf("%sreview %s/upskill.config.yaml and build.toml, then "
                                     "run upskillctl trust %s to let them run programs, read "
                                     "your files or name hosts",
                                     t == UPK_TRUST_CHANGED ? "its config changed since you "
                                                              "trusted it: "
                                                            : "",
                                     ws, ws));
  if (rc)
    json_object_set_new(j, "configError", json_string(err));
  upk_config_free(&cfg);
  return j;
}

static void probe(uv_work_t *req) {
  status_work *w = req->data;
  upk_cuda_toolkit_probe(w->cuda_path, &w->toolkit);
  upk_cuda_driver_probe(&w->driver);
  w->sandbox = upk_sandbox_available(NULL, 0);
  upk_sandbox_describe(w->sandbox_what, sizeof w->sandbox_what);
  if (w->workspace)
    w->trust = workspace_trust(w->workspace);
}

static json_t *toolkit_json(const upk_cuda_toolkit *t) {
  json_t *j = json_pack("{s:b,s:s,s:b,s:b}", "available", t->found, "path", t->path, "nvrtc",
                        t->has_nvrtc, "nvJitLink", t->has_nvjitlink);
  if (t->version_major) {
    char v[32];
    snprintf(v, sizeof v, "%d.%d", t->version_major, t->version_minor);
    json_object_set_new(j, "version", json_string(v));
  }
  if (!t->found)
    json_object_set_new(j, "reason", json_string(t->reason));
  return j;
}

static json_t *driver_json(const upk_cuda_driver *d) {
  json_t *j = json_pack("{s:b}", "available", d->found);
  if (d->found) {
    char v[32];
    snprintf(v, sizeof v, "%d.%d", d->version_major, d->version_minor);
    json_object_set_new(j, "cudaVersion", json_string(v));
  } else {
    json_object_set_new(j, "reason", json_string(d->reason));
  }
  return j;
}

static json_t *providers_json(void) {
  json_t *j = json_object();
  for (const upk_provider_def *p = upk_provider_defs; p->name; p++) {
    const char *url = upk_provider_url(p);
    json_object_set_new(
        j, p->name,
        json_pack("{s:b,s:s?}", "configured", upk_provider_configured(p), "baseUrl", url));
  }
  return j;
}

static long rss_kib(void) {
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static json_t *status_json(upk_server *s, const status_work *w) {
  const char *framing = upk_session_framing(s) == UPK_FRAMING_LSP ? "lsp" : "mcp";
  json_t *r = json_pack(
      "{s:s,s:s,s:s,s:I,s:f,s:I,s:I,s:s?,s:I,s:I}", "name", "upskilld", "version", UPK_VERSION,
      "protocol", framing, "pid", (json_int_t)getpid(), "uptimeMs", upk_session_uptime_ms(s),
      "inFlight", (json_int_t)upk_jobs_inflight(s), "requestsAnswered",
      (json_int_t)upk_session_requests(s), "workspace", upk_session_workspace(s), "maxMessageBytes",
      (json_int_t)upk_session_options(s)->max_message, "rssKiB", (json_int_t)rss_kib());
  if (upk_session_init_options(s))
    json_object_set(r, "settings", upk_session_init_options(s));
  if (upk_session_mcp_version(s)[0])
    json_object_set_new(r, "protocolVersion", json_string(upk_session_mcp_version(s)));
  json_object_set_new(r, "cuda",
                      json_pack("{s:o,s:o,s:b}", "toolkit", toolkit_json(&w->toolkit), "driver",
                                driver_json(&w->driver), "builtWithNvrtc", UPK_HAVE_NVRTC));
  json_object_set_new(r, "kernels", upk_kernels_status(s));
  json_object_set_new(r, "sandbox",
                      json_pack("{s:b,s:s,s:s}", "available", w->sandbox, "what", w->sandbox_what,
                                "without",
                                "nvcc compiles carrying a project's or an agent's options are "
                                "refused (kernel/no-sandbox), and eval `script` assertions the "
                                "user did not write (trust/run); install bubblewrap, or trust "
                                "the project"));
  json_object_set_new(r, "skills", upk_skills_status(s));
  json_object_set_new(r, "providers", providers_json());
  if (w->trust)
    json_object_set(r, "workspaceTrust", w->trust);
  json_object_set_new(
      r, "libraries",
      json_pack("{s:s,s:s}", "libuv", uv_version_string(), "jansson", JANSSON_VERSION));
  return r;
}

static void probed(uv_work_t *req, int status) {
  status_work *w = req->data;
  upk_job *job = w->job;
  if (status == UV_ECANCELED)
    upk_job_fail(job, -32800, "cancelled");
  else
    upk_job_reply(job, status_json(job->server, w));
  json_decref(w->trust);
  free(w->workspace);
  free(w);
}

static void status_cancel(upk_job *job) {
  status_work *w = job->data;
  uv_cancel((uv_req_t *)&w->req); /* only works while queued; otherwise it finishes soon */
}

void upk_status_handler(upk_job *job, json_t *params) {
  status_work *w = upk_xcalloc(1, sizeof *w);
  w->job = job;
  w->req.data = w;
  snprintf(w->cuda_path, sizeof w->cuda_path, "%s",
           upk_cuda_default_path(upk_session_options(job->server)->cuda_path));
  const char *ws = upk_session_workspace(job->server);
  w->workspace = ws ? upk_xstrdup(ws) : NULL;
  upk_job_on_cancel(job, status_cancel, w);
  int rc = uv_queue_work(upk_session_loop(job->server), &w->req, probe, probed);
  if (rc) {
    upk_job_fail(job, -32603, "cannot queue work: %s", uv_strerror(rc));
    free(w->workspace);
    free(w);
  }
}

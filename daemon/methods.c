/* The method table and the small handlers that need no file of their own. */
#include "daemon/methods.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "daemon/eval/eval_methods.h"
#include "protocol/jsonrpc.h"
#include "daemon/kernels/kernel_methods.h"
#include "daemon/models/models_methods.h"
#include "daemon/skills/skills_methods.h"
#include "daemon/status.h"
#include "daemon/core/tool_results.h"
#include "common/xalloc.h"

/* upskilld/sleep: a test aid (enabled by --test-methods) that waits `ms` in
 * `steps` timer ticks, reporting progress each tick and stopping when
 * cancelled. It exercises the job machinery end to end without a GPU or a
 * model. */
typedef struct sleep_state {
  uv_timer_t timer;
  upk_job *job;
  int64_t steps, done;
  int64_t ms;
  char *fail;
} sleep_state;

static void sleep_free(uv_handle_t *h) {
  sleep_state *st = h->data;
  free(st->fail);
  free(st);
}

static void sleep_finish(sleep_state *st) {
  uv_timer_stop(&st->timer);
  uv_close((uv_handle_t *)&st->timer, sleep_free);
}

static void sleep_tick(uv_timer_t *t) {
  sleep_state *st = t->data;
  upk_job *job = st->job;
  st->done++;
  if (st->done < st->steps) {
    char msg[64];
    snprintf(msg, sizeof msg, "step %lld of %lld", (long long)st->done, (long long)st->steps);
    upk_job_progress(job, (double)st->done, (double)st->steps, msg);
    return;
  }
  if (st->fail)
    upk_job_fail(job, UPK_RPC_REQUEST_FAILED, "%s", st->fail);
  else
    upk_job_reply(
        job, json_pack("{s:I,s:I}", "slept", (json_int_t)st->ms, "steps", (json_int_t)st->steps));
  sleep_finish(st);
}

static void sleep_cancel(upk_job *job) {
  sleep_state *st = job->data;
  upk_job_fail(job, UPK_RPC_REQUEST_CANCELLED, "cancelled");
  sleep_finish(st);
}

static const upk_param sleep_params[] = {
    {"ms", UPK_T_INTEGER, 1, "How long to wait, in milliseconds.", UPK_RANGE(0, 600000)},
    {"steps", UPK_T_INTEGER, 0, "Progress notifications to send along the way.",
     UPK_RANGE(1, 10000), .def = "10"},
    {"fail", UPK_T_STRING, 0, "Finish with this error message instead of a result."},
    {0},
};

/* The table checked the ranges (jobs.c) before this runs. */
static void sleep_handler(upk_job *job, json_t *params) {
  json_int_t ms = json_integer_value(json_object_get(params, "ms"));
  json_int_t steps = json_integer_value(json_object_get(params, "steps"));
  sleep_state *st = upk_xcalloc(1, sizeof *st);
  st->job = job;
  st->ms = ms;
  st->steps = steps;
  const char *fail = json_string_value(json_object_get(params, "fail"));
  st->fail = fail ? upk_xstrdup(fail) : NULL;
  uv_timer_init(upk_session_loop(job->server), &st->timer);
  st->timer.data = st;
  upk_job_on_cancel(job, sleep_cancel, st);
  upk_job_progress(job, 0, (double)steps, "started");
  uint64_t tick = (uint64_t)(ms / steps);
  uv_timer_start(&st->timer, sleep_tick, tick, tick ? tick : 1);
}

static const upk_method table[] = {
    {"upskilld/status", "status", "Daemon status",
     "Call when a tool says something is missing: the CUDA toolkit, GPU driver and model "
     "providers here.",
     NULL, upk_status_handler, UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT,
     .result = upk_result_status},
    {"upskilld/sleep", "sleep", "Sleep (test aid)",
     "Wait for a while, reporting progress; for testing clients' progress and cancellation.",
     sleep_params, sleep_handler,
     UPK_METHOD_TEST_ONLY | UPK_METHOD_READ_ONLY | UPK_METHOD_IDEMPOTENT,
     .result = upk_result_sleep},
};
static const size_t table_count = sizeof table / sizeof *table;

/* All tables, in listing order. */
static const struct {
  const upk_method *items;
  const size_t *count;
} tables[] = {{table, &table_count},
              {upk_skills_methods, &upk_skills_methods_count},
              {upk_kernel_methods, &upk_kernel_methods_count},
              {upk_models_methods, &upk_models_methods_count},
              {upk_eval_methods, &upk_eval_methods_count}};

static bool visible(const upk_method *m, bool test_methods) {
  return test_methods || !(m->flags & UPK_METHOD_TEST_ONLY);
}

/* The i-th method of all tables together, visible or not. */
static const upk_method *nth(size_t i) {
  for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
    if (i < *tables[t].count)
      return &tables[t].items[i];
    i -= *tables[t].count;
  }
  return NULL;
}

const upk_method *upk_method_find(const char *name, bool test_methods) {
  const upk_method *m;
  for (size_t i = 0; (m = nth(i)); i++)
    if (!strcmp(m->name, name) && visible(m, test_methods))
      return m;
  return NULL;
}

const upk_method *upk_method_find_tool(const char *tool, bool test_methods) {
  const upk_method *m;
  for (size_t i = 0; (m = nth(i)); i++)
    if (m->tool && !strcmp(m->tool, tool) && visible(m, test_methods))
      return m;
  return NULL;
}

const upk_method *upk_method_at(size_t i, bool test_methods) {
  const upk_method *m;
  for (size_t k = 0; (m = nth(k)); k++)
    if (visible(m, test_methods) && i-- == 0)
      return m;
  return NULL;
}

/* MCP's tool hints, every one said (none left to a client's default): what a call may do at its
 * worst (jobs.h). */
static json_t *annotations(unsigned f) {
  json_t *a = json_object();
  json_object_set_new(a, "readOnlyHint", json_boolean(f & UPK_METHOD_READ_ONLY));
  json_object_set_new(a, "destructiveHint", json_boolean(f & UPK_METHOD_DESTRUCTIVE));
  json_object_set_new(a, "idempotentHint", json_boolean(f & UPK_METHOD_IDEMPOTENT));
  json_object_set_new(a, "openWorldHint", json_boolean(f & UPK_METHOD_OPEN_WORLD));
  return a;
}

json_t *upk_method_tool_json(const upk_method *m) {
  json_t *t = json_pack("{s:s,s:s,s:s,s:o}", "name", m->tool, "title", m->title, "description",
                        m->description, "inputSchema", upk_params_tool_schema(m->params));
  if (m->result)
    json_object_set_new(t, "outputSchema", upk_result_schema(m->result, m->refusal));
  json_object_set_new(t, "annotations", annotations(m->flags));
  return t;
}

/* Assertions on a model's answer (see assertion.h). */
#include "skills/eval/assertion.h"

#include <cmark.h>
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/dynbuf.h"
#include "common/xalloc.h"
#include "skills/eval/assertion_int.h"

static const char *const KIND_NAMES[] = {"contains",  "not_contains", "regex", "compiles",
                                         "resources", "expect",       "files", "tools",
                                         "script",    "diff",         "kernel"};
enum { N_KINDS = sizeof KIND_NAMES / sizeof *KIND_NAMES };
static const char *const STATUS_NAMES[] = {"pass", "fail", "skipped", "error", "pending"};

const char *upk_assert_kind_name(upk_assert_kind k) {
  return (unsigned)k < N_KINDS ? KIND_NAMES[k] : "unknown";
}

const char *upk_assert_status_name(upk_assert_status s) {
  return (unsigned)s < 5 ? STATUS_NAMES[s] : "unknown";
}

int upk_assert_kind_parse(const char *name, upk_assert_kind *out) {
  for (int i = 0; i < N_KINDS; i++)
    if (strcmp(name, KIND_NAMES[i]) == 0) {
      *out = (upk_assert_kind)i;
      return 0;
    }
  return -EINVAL;
}

/* ---- copies and frees ---------------------------------------------------- */

void upk_assertion_free(upk_assertion *a) {
  for (size_t i = 0; i < a->n_values; i++)
    free(a->values[i]);
  free(a->values);
  for (size_t i = 0; i < a->n_unchanged; i++)
    free(a->unchanged[i]);
  free(a->unchanged);
  free(a->arch);
  free(a->run);
  memset(a, 0, sizeof *a);
}

int upk_assertion_copy(upk_assertion *dst, const upk_assertion *src) {
  *dst = *src;
  dst->values = upk_xcalloc(src->n_values + 1, sizeof *dst->values);
  dst->unchanged = upk_xcalloc(src->n_unchanged + 1, sizeof *dst->unchanged);
  dst->arch = src->arch ? upk_xstrdup(src->arch) : NULL;
  dst->run = src->run ? upk_xstrdup(src->run) : NULL;
  dst->n_values = dst->n_unchanged = 0;
  bool ok = dst->values && dst->unchanged && (!src->arch || dst->arch) && (!src->run || dst->run);
  for (size_t i = 0; ok && i < src->n_values; i++)
    ok = (dst->values[dst->n_values++] = upk_xstrdup(src->values[i])) != NULL;
  for (size_t i = 0; ok && i < src->n_unchanged; i++)
    ok = (dst->unchanged[dst->n_unchanged++] = upk_xstrdup(src->unchanged[i])) != NULL;
  if (!ok) {
    upk_assertion_free(dst);
    return -ENOMEM;
  }
  return 0;
}

void upk_kcheck_result_free(upk_kcheck_result *r) {
  for (size_t i = 0; i < r->n_kernels; i++)
    free(r->kernels[i].name);
  free(r->kernels);
  free(r->reason);
  memset(r, 0, sizeof *r);
}

void upk_assert_blocks_free(char **blocks, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(blocks[i]);
  free(blocks);
}

void upk_assert_report_free(upk_assert_report *r) {
  for (size_t i = 0; i < r->n; i++) {
    free(r->results[i].label);
    free(r->results[i].reason);
    free(r->results[i].reqs);
  }
  free(r->results);
  for (size_t i = 0; i < r->n_requests; i++) {
    free(r->requests[i].code);
    free(r->requests[i].arch);
    upk_kcheck_result_free(&r->requests[i].result);
  }
  free(r->requests);
  memset(r, 0, sizeof *r);
}

/* ---- CUDA code blocks ---------------------------------------------------- */

/* Fences a model writes CUDA under; an unlabelled fence counts too because
 * models often leave the language out. The __global__ test decides. */
static bool cuda_fence(const char *info) {
  static const char *const langs[] = {"cuda", "cu", "cuh", "c++", "cpp", ""};
  char word[16];
  size_t n = 0;
  while (*info && isspace((unsigned char)*info))
    info++;
  while (info[n] && !isspace((unsigned char)info[n]) && info[n] != '{' && n < sizeof word - 1) {
    word[n] = (char)tolower((unsigned char)info[n]);
    n++;
  }
  word[n] = '\0';
  for (size_t i = 0; i < sizeof langs / sizeof *langs; i++)
    if (strcmp(word, langs[i]) == 0)
      return true;
  return false;
}

static int push_block(char ***blocks, size_t *n, const char *code) {
  char **p = upk_xrealloc(*blocks, (*n + 1) * sizeof *p);
  *blocks = p;
  p[*n] = upk_xstrdup(code);
  (*n)++;
  return 0;
}

int upk_extract_cuda_blocks(const char *answer, char ***blocks, size_t *n) {
  *blocks = NULL;
  *n = 0;
  cmark_node *doc = cmark_parse_document(answer, strlen(answer), CMARK_OPT_DEFAULT);
  if (!doc)
    return -ENOMEM;
  cmark_iter *it = cmark_iter_new(doc);
  int rc = it ? 0 : -ENOMEM;
  cmark_event_type ev;
  while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *node = cmark_iter_get_node(it);
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK)
      continue;
    const char *info = cmark_node_get_fence_info(node), *code = cmark_node_get_literal(node);
    /* cmark 0.30 cannot tell fenced from indented blocks; an indented block
     * (no info) holding a __global__ kernel is CUDA all the same. */
    if (code && cuda_fence(info ? info : "") && strstr(code, "__global__"))
      rc = push_block(blocks, n, code);
  }
  cmark_iter_free(it);
  cmark_node_free(doc);
  if (rc) {
    upk_assert_blocks_free(*blocks, *n);
    *blocks = NULL;
    *n = 0;
  }
  return rc;
}

/* ---- text assertions ----------------------------------------------------- */

/* A label such as `contains ["a", "b"]`; quotes inside values are escaped. */
static char *text_label(const upk_assertion *a) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_printf(&b, "%s [", upk_assert_kind_name(a->kind));
  for (size_t i = 0; i < a->n_values; i++) {
    upk_buf_puts(&b, i ? ", \"" : "\"");
    for (const char *v = a->values[i]; *v; v++) {
      if (*v == '"' || *v == '\\')
        upk_buf_puts(&b, "\\");
      upk_buf_append(&b, v, 1);
    }
    upk_buf_puts(&b, "\"");
  }
  upk_buf_puts(&b, "]");
  return upk_buf_take(&b, NULL);
}

static char *kernel_label(const upk_assertion *a) {
  const char *arch = a->arch ? a->arch : UPK_ASSERT_DEFAULT_ARCH;
  if (a->kind == UPK_ASSERT_COMPILES)
    return upk_xasprintf("compiles {arch: %s}", arch);
  char regs[32] = "";
  if (a->max_registers > 0)
    snprintf(regs, sizeof regs, ", maxRegisters: %d", a->max_registers);
  return upk_xasprintf("resources {arch: %s%s%s}", arch, regs,
                       a->no_spills ? ", noSpills: true" : "");
}

/* Case-insensitive (ASCII letters, like strcasestr) substring search. */
static void eval_contains(const upk_assertion *a, const char *answer, upk_assert_result *r) {
  bool want = a->kind == UPK_ASSERT_CONTAINS;
  for (size_t i = 0; i < a->n_values; i++) {
    if ((strcasestr(answer, a->values[i]) != NULL) == want)
      continue;
    r->status = UPK_ASSERT_FAIL;
    r->reason = upk_xasprintf(
        want ? "the answer does not contain \"%s\"" : "the answer contains \"%s\"", a->values[i]);
    return;
  }
  if (want && a->n_values == 0) {
    r->status = UPK_ASSERT_ERROR;
    r->reason = upk_xasprintf("contains lists no string");
    return;
  }
  r->status = UPK_ASSERT_PASS;
}

/* Every pattern must match. REG_NEWLINE so that ^ and $ anchor at lines, as
 * people mean them when they match code in an answer. */
static void eval_regex(const upk_assertion *a, const char *answer, upk_assert_result *r) {
  r->status = a->n_values ? UPK_ASSERT_PASS : UPK_ASSERT_ERROR;
  if (!a->n_values)
    r->reason = upk_xasprintf("regex lists no pattern");
  for (size_t i = 0; i < a->n_values && r->status == UPK_ASSERT_PASS; i++) {
    regex_t re;
    int rc = regcomp(&re, a->values[i], REG_EXTENDED | REG_ICASE | REG_NOSUB | REG_NEWLINE);
    if (rc != 0) {
      char err[256];
      regerror(rc, &re, err, sizeof err);
      r->status = UPK_ASSERT_ERROR;
      r->reason = upk_xasprintf("invalid regular expression \"%s\": %s", a->values[i], err);
      continue; /* regfree is not valid after a failed regcomp */
    }
    if (regexec(&re, answer, 0, NULL, 0) != 0) {
      r->status = UPK_ASSERT_FAIL;
      r->reason = upk_xasprintf("the answer does not match /%s/", a->values[i]);
    }
    regfree(&re);
  }
}

/* ---- agent assertions ---------------------------------------------------- */

/* A path the agent was asked to write: relative, no way out of the workspace. */
static bool inside_path(const char *p) {
  if (!*p || *p == '/')
    return false;
  for (const char *s = p; s; s = strchr(s, '/') ? strchr(s, '/') + 1 : NULL)
    if (s[0] == '.' && s[1] == '.' && (s[2] == '/' || !s[2]))
      return false;
  return true;
}

static void eval_files(const upk_assertion *a, const upk_assert_env *env, upk_assert_result *r) {
  r->status = a->n_values ? UPK_ASSERT_PASS : UPK_ASSERT_ERROR;
  if (!a->n_values)
    r->reason = upk_xasprintf("files lists no path");
  for (size_t i = 0; i < a->n_values && r->status == UPK_ASSERT_PASS; i++) {
    struct stat st;
    char *path =
        inside_path(a->values[i]) ? upk_xasprintf("%s/%s", env->workspace, a->values[i]) : NULL;
    if (!path) {
      r->status = UPK_ASSERT_ERROR;
      r->reason = upk_xasprintf("files: \"%s\" is not a path inside the workspace", a->values[i]);
    } else if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
      r->status = UPK_ASSERT_FAIL;
      r->reason = upk_xasprintf("the agent did not write \"%s\"", a->values[i]);
    }
    free(path);
  }
}

static void eval_tools(const upk_assertion *a, const upk_assert_env *env, upk_assert_result *r) {
  r->status = a->n_values ? UPK_ASSERT_PASS : UPK_ASSERT_ERROR;
  if (!a->n_values)
    r->reason = upk_xasprintf("tools lists no tool");
  for (size_t i = 0; i < a->n_values && r->status == UPK_ASSERT_PASS; i++) {
    bool called = false;
    for (size_t k = 0; k < env->n_tools && !called; k++)
      called = strcasecmp(env->tools[k], a->values[i]) == 0;
    if (!called) {
      r->status = UPK_ASSERT_FAIL;
      r->reason = upk_xasprintf("the agent never called %s", a->values[i]);
    }
  }
}

/* ---- kernel assertions --------------------------------------------------- */

static const char *arch_of(const upk_assertion *a) {
  return a->arch && *a->arch ? a->arch : UPK_ASSERT_DEFAULT_ARCH;
}

/* The request for (block, arch), made once and shared by every assertion. */
static int request_for(upk_assert_report *r, char **blocks, size_t block, const char *arch,
                       size_t *id) {
  for (size_t i = 0; i < r->n_requests; i++)
    if (r->requests[i].block == block && strcmp(r->requests[i].arch, arch) == 0) {
      *id = i;
      return 0;
    }
  upk_kcheck_req *p = upk_xrealloc(r->requests, (r->n_requests + 1) * sizeof *p);
  r->requests = p;
  upk_kcheck_req *q = &p[r->n_requests];
  memset(q, 0, sizeof *q);
  q->code = upk_xstrdup(blocks[block]);
  q->arch = upk_xstrdup(arch);
  q->block = block;
  q->id = *id = r->n_requests++;
  return q->code && q->arch ? 0 : -ENOMEM;
}

static int plan_kernel(upk_assert_report *r, const upk_assertion *a, char **blocks,
                       upk_assert_result *res) {
  res->reqs = upk_xcalloc(r->n_blocks + 1, sizeof *res->reqs);
  for (size_t b = 0; b < r->n_blocks; b++) {
    int rc = request_for(r, blocks, b, arch_of(a), &res->reqs[res->n_reqs]);
    if (rc)
      return rc;
    res->n_reqs++;
  }
  res->status = UPK_ASSERT_PENDING;
  return 0;
}

/* Resource limits on the kernels of one compiled block; a reason when broken. */
static char *resource_violation(const upk_assert_result *a, const upk_kcheck_req *q) {
  if (q->result.n_kernels == 0)
    return upk_xasprintf("code block %zu compiled no kernel (an uninstantiated template?)",
                         q->block + 1);
  for (size_t k = 0; k < q->result.n_kernels; k++) {
    const upk_kcheck_kernel *kn = &q->result.kernels[k];
    const char *name = kn->name ? kn->name : "?";
    if (a->max_registers > 0 && kn->registers > a->max_registers)
      return upk_xasprintf("kernel %s uses %d registers (limit %d) for %s", name, kn->registers,
                           a->max_registers, q->arch);
    if (a->no_spills && (kn->spill_stores > 0 || kn->spill_loads > 0))
      return upk_xasprintf(
          "kernel %s spills registers (%ld bytes spill stores, %ld bytes spill loads)", name,
          kn->spill_stores, kn->spill_loads);
  }
  return NULL;
}

/* Decide a kernel assertion once its requests are answered. Precedence:
 * error, fail, skipped, then the resource limits. */
static void decide_kernel(upk_assert_report *r, upk_assert_result *res) {
  static const upk_assert_status order[] = {UPK_ASSERT_ERROR, UPK_ASSERT_FAIL, UPK_ASSERT_SKIPPED};
  for (size_t i = 0; i < res->n_reqs; i++)
    if (!r->requests[res->reqs[i]].done)
      return;
  free(res->reason);
  res->reason = NULL;
  for (size_t o = 0; o < 3; o++)
    for (size_t i = 0; i < res->n_reqs; i++) {
      const upk_kcheck_req *q = &r->requests[res->reqs[i]];
      if (q->result.status != order[o])
        continue;
      res->status = order[o];
      res->reason = upk_xasprintf("code block %zu: %s", q->block + 1,
                                  q->result.reason              ? q->result.reason
                                  : order[o] == UPK_ASSERT_FAIL ? "does not compile"
                                                                : "not checked");
      return;
    }
  res->status = UPK_ASSERT_PASS;
  for (size_t i = 0; res->kind == UPK_ASSERT_RESOURCES && i < res->n_reqs && !res->reason; i++)
    res->reason = resource_violation(res, &r->requests[res->reqs[i]]);
  if (res->reason)
    res->status = UPK_ASSERT_FAIL;
}

static void tally(upk_assert_report *r) {
  r->passed = r->failed = r->skipped = r->errors = r->pending = 0;
  for (size_t i = 0; i < r->n; i++) {
    size_t *slots[] = {&r->passed, &r->failed, &r->skipped, &r->errors, &r->pending};
    (*slots[r->results[i].status])++;
  }
}

/* ---- evaluation ---------------------------------------------------------- */

static void set_skipped(upk_assert_result *res, const char *why) {
  res->status = UPK_ASSERT_SKIPPED;
  res->reason = upk_xstrdup(why);
}

/* Files, tools and statements: decided from the run's environment, or skipped. */
static void plan_agent(const upk_assertion *a, const upk_assert_env *env, upk_assert_result *res) {
  if (UPK_ASSERT_KIND_IS_EXEC(a->kind) && (!env || !env->workspace))
    set_skipped(res, "only an agent run (agent:...) leaves a workspace to check");
  else if (UPK_ASSERT_KIND_IS_EXEC(a->kind) && !env->exec)
    set_skipped(res, "executable checks need the daemon to run them");
  else if (UPK_ASSERT_KIND_IS_EXEC(a->kind))
    res->status = UPK_ASSERT_PENDING; /* the caller runs it and decides */
  else if (a->kind == UPK_ASSERT_EXPECT)
    set_skipped(res, "a statement in words needs a grader");
  else if (!env || (a->kind == UPK_ASSERT_FILES && !env->workspace))
    set_skipped(res, "only an agent run (agent:...) leaves files and tool calls to check");
  else if (a->kind == UPK_ASSERT_FILES)
    eval_files(a, env, res);
  else
    eval_tools(a, env, res);
}

static int plan_one(upk_assert_report *r, const upk_assertion *a, const char *answer, char **blocks,
                    const upk_assert_env *env, const upk_kernel_checker *checker,
                    upk_assert_result *res) {
  res->kind = a->kind;
  res->max_registers = a->max_registers;
  res->no_spills = a->no_spills;
  bool kernel = a->kind == UPK_ASSERT_COMPILES || a->kind == UPK_ASSERT_RESOURCES;
  res->label = kernel                             ? kernel_label(a)
               : UPK_ASSERT_KIND_IS_EXEC(a->kind) ? upk_assert_exec_label(a)
                                                  : text_label(a);
  if (!res->label)
    return -ENOMEM;
  if (a->kind == UPK_ASSERT_CONTAINS || a->kind == UPK_ASSERT_NOT_CONTAINS)
    eval_contains(a, answer, res);
  else if (a->kind == UPK_ASSERT_REGEX)
    eval_regex(a, answer, res);
  else if (!kernel)
    plan_agent(a, env, res);
  else if (r->n_blocks == 0) {
    res->status = UPK_ASSERT_FAIL;
    res->reason = upk_xstrdup("the answer has no CUDA code block with a __global__ kernel");
  } else if (!checker || !checker->check)
    set_skipped(res, "kernel checks are unavailable (no CUDA toolkit)");
  else
    return plan_kernel(r, a, blocks, res);
  bool reasoned = res->status == UPK_ASSERT_PASS || res->status == UPK_ASSERT_PENDING;
  return !reasoned && !res->reason ? -ENOMEM : 0;
}

static void ask_checker(upk_assert_report *r, const upk_kernel_checker *checker) {
  for (size_t i = 0; i < r->n_requests; i++) {
    upk_kcheck_result out = {0};
    int rc = checker->check(checker->ctx, &r->requests[i], &out);
    if (rc == 1 || r->requests[i].done) {
      upk_kcheck_result_free(&out);
      continue; /* answered later (or already, from inside check) */
    }
    if (rc < 0) {
      upk_kcheck_result_free(&out);
      out.status = UPK_ASSERT_ERROR;
      out.reason = upk_xasprintf("the kernel check failed: %s", strerror(-rc));
    }
    upk_assert_report_resolve(r, i, &out);
  }
}

int upk_assert_evaluate(const upk_assertion *a, size_t n, const char *answer,
                        const upk_kernel_checker *checker, upk_assert_report *out) {
  return upk_assert_evaluate_in(a, n, answer, NULL, checker, out);
}

int upk_assert_evaluate_in(const upk_assertion *a, size_t n, const char *answer,
                           const upk_assert_env *env, const upk_kernel_checker *checker,
                           upk_assert_report *out) {
  memset(out, 0, sizeof *out);
  char **blocks = NULL;
  bool kernel = false;
  for (size_t i = 0; i < n; i++)
    kernel |= a[i].kind == UPK_ASSERT_COMPILES || a[i].kind == UPK_ASSERT_RESOURCES;
  int rc = kernel ? upk_extract_cuda_blocks(answer, &blocks, &out->n_blocks) : 0;
  out->results = upk_xcalloc(n + 1, sizeof *out->results);
  for (size_t i = 0; rc == 0 && i < n; i++, out->n++)
    rc = plan_one(out, &a[i], answer, blocks, env, checker, &out->results[i]);
  upk_assert_blocks_free(blocks, out->n_blocks);
  if (rc) {
    upk_assert_report_free(out);
    return rc;
  }
  tally(out);
  if (out->n_requests && checker && checker->check)
    ask_checker(out, checker);
  return 0;
}

int upk_assert_report_resolve(upk_assert_report *r, size_t id, upk_kcheck_result *res) {
  if (id >= r->n_requests) {
    upk_kcheck_result_free(res);
    return -EINVAL;
  }
  upk_kcheck_req *q = &r->requests[id];
  if (q->done) {
    upk_kcheck_result_free(res);
    return -EALREADY;
  }
  q->result = *res;
  memset(res, 0, sizeof *res);
  if ((unsigned)q->result.status > UPK_ASSERT_ERROR)
    q->result.status = UPK_ASSERT_ERROR; /* a checker cannot answer "pending" */
  q->done = true;
  for (size_t i = 0; i < r->n; i++) /* a statement a grader is judging waits for it */
    if (r->results[i].status == UPK_ASSERT_PENDING && r->results[i].n_reqs)
      decide_kernel(r, &r->results[i]);
  tally(r);
  return 0;
}

int upk_assert_report_decide(upk_assert_report *r, size_t i, upk_assert_status status,
                             const char *reason) {
  if (i >= r->n || r->results[i].n_reqs || (unsigned)status > UPK_ASSERT_PENDING)
    return -EINVAL;
  char *why = reason ? upk_xstrdup(reason) : NULL;
  if (reason && !why)
    return -ENOMEM;
  free(r->results[i].reason);
  r->results[i].reason = why;
  r->results[i].status = status;
  tally(r);
  return 0;
}

bool upk_assert_report_done(const upk_assert_report *r) {
  return r->pending == 0;
}

upk_assert_status upk_assert_report_verdict(const upk_assert_report *r) {
  if (r->n == 0 || r->errors)
    return UPK_ASSERT_ERROR;
  if (r->failed)
    return UPK_ASSERT_FAIL;
  if (r->pending)
    return UPK_ASSERT_PENDING;
  return r->skipped ? UPK_ASSERT_SKIPPED : UPK_ASSERT_PASS;
}

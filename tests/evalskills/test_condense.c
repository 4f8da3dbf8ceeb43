/* Trace condensation: a big synthetic Claude Code session (JSONL) condensed
 * under budget keeps every error with its fix, the task, the user's later
 * instruction and the final file with its edits applied; Markdown logs and
 * OpenAI message arrays are read structurally; the budget always holds. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense.h"

static FILE *out;
static char *buf;
static size_t len;
static int id;

static void line(json_t *o) {
  char *s = json_dumps(o, JSON_COMPACT);
  fprintf(out, "%s\n", s);
  free(s);
  json_decref(o);
}

static void user_text(const char *t) {
  line(json_pack("{s:s, s:{s:s, s:s}}", "type", "user", "message", "role", "user", "content", t));
}

static void say(const char *t) {
  line(json_pack("{s:s, s:{s:s, s:[{s:s, s:s}]}}", "type", "assistant", "message", "role",
                 "assistant", "content", "type", "text", "text", t));
}

/* A tool call and its result. */
static void tool(const char *name, json_t *input, const char *result, bool is_error) {
  char tid[32];
  snprintf(tid, sizeof tid, "toolu_%04d", id++);
  line(json_pack("{s:s, s:{s:s, s:[{s:s, s:s, s:s, s:o}]}}", "type", "assistant", "message", "role",
                 "assistant", "content", "type", "tool_use", "id", tid, "name", name, "input",
                 input));
  line(json_pack("{s:s, s:{s:s, s:[{s:s, s:s, s:s, s:b}]}}", "type", "user", "message", "role",
                 "user", "content", "type", "tool_result", "tool_use_id", tid, "content", result,
                 "is_error", is_error));
}

static void bash(const char *cmd, const char *result, bool is_error) {
  tool("Bash", json_pack("{s:s}", "command", cmd), result, is_error);
}

static char *noise(int i, size_t bytes) {
  char *s = malloc(bytes + 1);
  for (size_t k = 0; k < bytes; k++)
    s[k] = k % 61 == 60 ? '\n' : "abcdefghij klmnop"[(k + (size_t)i) % 17];
  s[bytes] = '\0';
  return s;
}

static const char *session(void) {
  out = open_memstream(&buf, &len);
  id = 0;
  line(json_pack("{s:s, s:s}", "type", "summary", "summary", "bookkeeping"));
  user_text("Port the saxpy benchmark to H100 and make `make test` pass.");
  for (int i = 0; i < 120; i++) { /* reading around: big, uninteresting outputs */
    char path[64];
    snprintf(path, sizeof path, "src/file%03d.c", i);
    char *n = noise(i, 3000);
    tool("Read", json_pack("{s:s}", "file_path", path), n, false);
    free(n);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "grep -n 'saxpy' %s | head -n %d", path, i + 1);
    n = noise(i, 2000);
    bash(cmd, n, false);
    free(n);
  }
  tool("Write",
       json_pack("{s:s, s:s}", "file_path", "src/saxpy.cu", "content",
                 "#include <cstdio>\n__global__ void saxpy(float a, float *x) {\n"
                 "  x[threadIdx.x] *= OLD_FACTOR;\n}\n"),
       "ok", false);
  bash("make",
       "nvcc -arch=compute_35 src/saxpy.cu\nnvcc fatal   : Unsupported gpu architecture "
       "'compute_35'\nmake: *** [Makefile:3: all] Error 1",
       true);
  say("The issue is that the Makefile targets compute_35, which CUDA 13 dropped. I will target "
      "sm_90a instead.");
  tool("Edit",
       json_pack("{s:s, s:s, s:s}", "file_path", "Makefile", "old_string", "-arch=compute_35",
                 "new_string", "-arch=sm_90a"),
       "ok", false);
  bash("make", "nvcc -arch=sm_90a src/saxpy.cu -o saxpy", false);
  bash("make test", "./saxpy\nFAILED: max error 0.5 at index 17 (expected 2.0, got 1.5)", false);
  say("The kernel scales by a constant, not by a: the factor must be the argument.");
  tool("Edit",
       json_pack("{s:s, s:s, s:s}", "file_path", "src/saxpy.cu", "old_string", "OLD_FACTOR",
                 "new_string", "a"),
       "ok", false);
  user_text("Also never use cudaMallocManaged in this repo.");
  bash("make test", "./saxpy\nall 4096 checks passed, 0 errors", false);
  for (int i = 0; i < 40; i++) {
    char *n = noise(i, 2500);
    bash("make test", n, false);
    free(n);
  }
  fclose(out);
  return buf;
}

static void contains(const char *text, const char *s) {
  cr_assert(strstr(text, s), "condensed text lacks \"%s\":\n%s", s, text);
}

Test(condense, big_session_keeps_errors_and_fixes_under_budget) {
  const char *trace = session();
  upk_condensed c;
  cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, 1500, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_JSONL);
  cr_assert_gt(c.source_tokens, 100000, "the trace is big: %zu", c.source_tokens);
  cr_assert_leq(c.tokens, 1500);
  cr_assert_leq(upk_estimate_tokens(strlen(c.text)), 1500);
  contains(c.text, "Port the saxpy benchmark to H100");
  contains(c.text, "Unsupported gpu architecture 'compute_35'");
  contains(c.text, "- edited `Makefile`:\n\n~~~~diff\n--arch=compute_35\n+-arch=sm_90a\n~~~~");
  contains(c.text, "`make` then succeeded.");
  contains(c.text, "CUDA 13 dropped");
  contains(c.text, "FAILED: max error 0.5 at index 17");
  contains(c.text, "-OLD_FACTOR\n+a\n");
  contains(c.text, "`make test` then succeeded.");
  contains(c.text, "never use cudaMallocManaged");
  contains(c.text, "x[threadIdx.x] *= a;"); /* the final file, edit applied */
  cr_assert_null(strstr(c.text, "OLD_FACTOR;"), "the final file is the edited one");
  contains(c.text, "`make test` (run ");
  cr_assert_eq(c.errors, 2);
  cr_assert_eq(c.fixes, 2);
  /* 120 greps that differ only in numbers: one line, counted */
  contains(c.text,
           "- `grep -n 'saxpy' src/file000.c | head -n 1` (run 1 time; and 119 more like it)");
  upk_condensed_free(&c);
  free(buf);
}

Test(condense, the_budget_holds_at_every_size) {
  const char *trace = session();
  size_t budgets[] = {64, 100, 200, 400, 800, 3000, 20000};
  for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
    upk_condensed c;
    cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, budgets[i], &c), 0);
    cr_assert_leq(upk_estimate_tokens(strlen(c.text)), budgets[i], "budget %zu", budgets[i]);
    if (budgets[i] >= 400)
      contains(c.text, "Unsupported gpu architecture");
    upk_condensed_free(&c);
  }
  upk_condensed c;
  cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, 63, &c), -EINVAL);
  free(buf);
}

static const char MD[] =
    "# Session\n\n"
    "## User\n\nAdd a softmax kernel and make the tests pass.\n\n"
    "## Assistant\n\nI'll build it first.\n\n"
    "```console\n$ nvcc -o softmax softmax.cu\nsoftmax.cu(12): error: identifier \"expf_\" is "
    "undefined\n1 error detected in the compilation of \"softmax.cu\".\n$ ls\nsoftmax.cu\n```\n\n"
    "The problem is a typo: the intrinsic is `__expf`, because expf_ does not exist.\n\n"
    "Save this as `src/softmax.cu`:\n\n"
    "```cuda\n#include <cuda_runtime.h>\n__global__ void softmax(float *x, int n) {\n"
    "  x[threadIdx.x] = __expf(x[threadIdx.x]);\n}\n```\n\n"
    "```bash\nnvcc -o softmax src/softmax.cu && ./softmax\n```\n\n"
    "```text\nok: 0 errors\n```\n";

Test(condense, markdown_log) {
  upk_condensed c;
  cr_assert_eq(upk_condense(MD, strlen(MD), UPK_TRACE_AUTO, 2000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_MARKDOWN);
  contains(c.text, "## Task\n\nAdd a softmax kernel");
  contains(c.text, "identifier \"expf_\" is undefined");
  contains(c.text, "`nvcc -o softmax softmax.cu` failed");
  contains(c.text, "The agent: The problem is a typo: the intrinsic is `__expf`, because expf_ "
                   "does not exist.");
  contains(c.text, "- wrote `src/softmax.cu`");
  contains(c.text, "`nvcc -o softmax src/softmax.cu && ./softmax` then succeeded.");
  contains(c.text, "### src/softmax.cu");
  contains(c.text, "- `ls`");
  cr_assert_eq(c.errors, 1, "\"0 errors\" is not an error:\n%s", c.text);
  upk_condensed_free(&c);
}

static const char OPENAI[] =
    "{\"messages\": ["
    "{\"role\": \"system\", \"content\": \"You are a coding agent.\"},"
    "{\"role\": \"user\", \"content\": \"Make the build pass.\"},"
    "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": "
    "\"function\", \"function\": {\"name\": \"shell\", \"arguments\": \"{\\\"command\\\": "
    "\\\"cmake --build build\\\"}\"}}]},"
    "{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"ld: undefined reference to "
    "`cublasCreate_v2'\\ncollect2: error: ld returned 1 exit status\"},"
    "{\"role\": \"assistant\", \"content\": \"It needs to link cuBLAS.\", \"tool_calls\": "
    "[{\"id\": \"c2\", \"type\": \"function\", \"function\": {\"name\": \"write_file\", "
    "\"arguments\": \"{\\\"path\\\": \\\"CMakeLists.txt\\\", \\\"content\\\": "
    "\\\"target_link_libraries(app CUDA::cublas)\\\\n\\\"}\"}}]}"
    "]}";

Test(condense, openai_messages) {
  upk_condensed c;
  cr_assert_eq(upk_condense(OPENAI, strlen(OPENAI), UPK_TRACE_AUTO, 1000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_JSON);
  contains(c.text, "Make the build pass.");
  contains(c.text, "undefined reference to `cublasCreate_v2'");
  contains(c.text, "The agent: It needs to link cuBLAS.");
  contains(c.text, "- wrote `CMakeLists.txt`");
  contains(c.text, "target_link_libraries(app CUDA::cublas)");
  cr_assert_null(strstr(c.text, "You are a coding agent"), "system prompts are not the task");
  upk_condensed_free(&c);
}

Test(condense, forced_format_and_estimate) {
  upk_condensed c;
  cr_assert_eq(upk_estimate_tokens(0), 0);
  cr_assert_eq(upk_estimate_tokens(1), 1);
  cr_assert_eq(upk_estimate_tokens(8), 2);
  cr_assert_eq(upk_estimate_tokens(9), 3);
  cr_assert_eq(upk_condense("just prose", 10, UPK_TRACE_JSONL, 100, &c), -EINVAL);
  cr_assert_eq(upk_condense("[not json", 9, UPK_TRACE_AUTO, 100, &c), 0, "falls back to Markdown");
  cr_assert_eq(c.format, UPK_TRACE_MARKDOWN);
  upk_condensed_free(&c);
}

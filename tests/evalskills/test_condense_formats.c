/* Trace condensation, format by format, with traces written the way the
 * tools write them: the issue's 88,000-character Markdown trace whose fix
 * is only in the agent's last words; Claude Code session JSONL (Write,
 * MultiEdit, Bash with is_error, bookkeeping lines); Codex CLI rollouts
 * (shell argv, exec output with exit codes, apply_patch, event_msg
 * echoes); Anthropic message arrays; and malformed or truncated files of
 * each, which read what they can or fail with an error naming what was
 * expected. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense.h"

static void contains(const char *text, const char *s) {
  cr_assert(strstr(text, s), "condensed text lacks \"%s\":\n%s", s, text);
}

static void lacks(const char *text, const char *s) {
  cr_assert_null(strstr(text, s), "condensed text has \"%s\":\n%s", s, text);
}

/* ---- the issue's trace ------------------------------------------------------ */

/* A user asks for H100; nvcc's long ptxas log holds one error; the agent's
 * last message states the fix. Nothing runs after it. */
static char *issue_trace(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  fputs("# Claude Code session\n\n## User\n\nMake the warp reduction in `reduce.cu` compile for "
        "H100. It is our sum kernel; keep the launch configuration.\n\n## Assistant\n\nI'll build "
        "it as is first to see what fails.\n\n```bash\n$ nvcc -arch=sm_90a -Xptxas -v -o reduce "
        "reduce.cu\n```\n\n```text\n",
        f);
  for (int i = 0; len < 87800; i++) {
    if (i == 500)
      fputs("reduce.cu(12): error: identifier \"__shfl_down\" is undefined\n"
            "      v += __shfl_down(v, off);\n           ^\n",
            f);
    fprintf(f,
            "ptxas info    : Used %d registers, used 0 barriers, %d bytes smem, 380 bytes "
            "cmem[0]\n",
            16 + i % 40, i % 7 * 8);
    fflush(f);
  }
  fputs("1 error detected in the compilation of \"reduce.cu\".\n```\n\n## Assistant\n\nThe legacy "
        "intrinsic is gone. Fixed: use `__shfl_down_sync(0xffffffff, v, off)` and compile with "
        "`-arch=sm_90a`; the build passes.\n",
        f);
  fclose(f);
  return buf;
}

Test(condense_issue, the_fix_in_the_last_words_reaches_the_teacher) {
  char *trace = issue_trace();
  cr_assert_geq(strlen(trace), 88000);
  size_t budgets[] = {0, 2000, 600, 300};
  for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
    upk_condensed c;
    cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, budgets[i], &c), 0);
    contains(c.text, "reduce.cu(12): error: identifier \"__shfl_down\" is undefined");
    contains(c.text, "__shfl_down_sync(0xffffffff, v, off)");
    contains(c.text, "-arch=sm_90a`; the build passes.");
    lacks(c.text, "no fix followed");
    cr_assert_eq(c.errors, 1);
    cr_assert_eq(c.fixes, 1, "the explanation counts as what followed the error");
    if (budgets[i] == 0 || budgets[i] == 2000) {
      contains(c.text, "      v += __shfl_down(v, off);\n"); /* the error's context line */
      contains(c.text, "## The agent's closing summary\n\nThe legacy intrinsic is gone. Fixed:");
      contains(c.text, "Make the warp reduction in `reduce.cu` compile for H100.");
    }
    cr_assert_leq(c.tokens, budgets[i] ? budgets[i] : UPK_CONDENSE_DEFAULT_BUDGET);
    upk_condensed_free(&c);
  }
  free(trace);
}

/* ---- Claude Code session JSONL ------------------------------------------------ */

static FILE *out;
static int ids;

static void line(json_t *o) {
  char *s = json_dumps(o, JSON_COMPACT);
  fprintf(out, "%s\n", s);
  free(s);
  json_decref(o);
}

/* A Claude Code line: the envelope around a message. */
static void cc(const char *type, json_t *content) {
  line(json_pack("{s:n, s:b, s:s, s:s, s:s, s:{s:s, s:o}, s:s}", "parentUuid", "isSidechain", 0,
                 "userType", "external", "cwd", "/home/dev/proj", "type", type, "message", "role",
                 type, "content", content, "timestamp", "2025-06-01T10:00:00.000Z"));
}

static void cc_tool(const char *name, json_t *input, const char *result, bool is_error) {
  char id[32];
  snprintf(id, sizeof id, "toolu_01%06d", ids++);
  cc("assistant", json_pack("[{s:s, s:s, s:s, s:o}]", "type", "tool_use", "id", id, "name", name,
                            "input", input));
  cc("user", json_pack("[{s:s, s:s, s:[{s:s, s:s}], s:b}]", "type", "tool_result", "tool_use_id",
                       id, "content", "type", "text", "text", result, "is_error", is_error));
}

static char *claude_session(void) {
  char *buf = NULL;
  size_t len = 0;
  out = open_memstream(&buf, &len);
  line(json_pack("{s:s, s:s, s:s}", "type", "summary", "summary", "Fix the softmax build",
                 "leafUuid", "9ff29d57"));
  line(json_pack("{s:s, s:s, s:{}}", "type", "file-history-snapshot", "messageId", "m1",
                 "snapshot"));
  line(json_pack("{s:s, s:b, s:{s:s, s:s}}", "type", "user", "isMeta", 1, "message", "role", "user",
                 "content", "Caveat: The messages below were generated by the user."));
  cc("user", json_string("The softmax test fails on H100; fix it without changing the API."));
  cc_tool("Write",
          json_pack("{s:s, s:s}", "file_path", "/home/dev/proj/softmax.cu", "content",
                    "#include <cuda_runtime.h>\n__global__ void softmax(float *x) {\n"
                    "  float m = x[0];\n  x[threadIdx.x] = expf(x[threadIdx.x] - m);\n}\n"),
          "File created successfully at: /home/dev/proj/softmax.cu", false);
  cc_tool("Bash", json_pack("{s:s, s:s}", "command", "make test", "description", "Run the tests"),
          "Exit code 2\n./softmax_test\nFAILED: row 3: sum 0.73 (expected 1.0)\n"
          "make: *** [Makefile:9: test] Error 1",
          true);
  cc("assistant", json_pack("[{s:s, s:s}]", "type", "text", "text",
                            "The row max must be a block-wide max, not x[0]: rows are "
                            "normalised by the wrong value."));
  cc_tool("MultiEdit",
          json_pack("{s:s, s:[{s:s, s:s}, {s:s, s:s}]}", "file_path", "/home/dev/proj/softmax.cu",
                    "edits", "old_string", "  float m = x[0];", "new_string",
                    "  float m = block_max(x);", "old_string", "expf(", "new_string", "__expf("),
          "Applied 2 edits", false);
  /* Claude Code reads a file (numbered, cat -n style) before it edits it. */
  cc_tool("Read", json_pack("{s:s}", "file_path", "/home/dev/proj/launch.h"),
          "     1\t#pragma once\n     2\tconstexpr int kBlock = 128;\n     3\tconstexpr int kRows "
          "= 64;\n",
          false);
  cc_tool("Edit",
          json_pack("{s:s, s:s, s:s}", "file_path", "/home/dev/proj/launch.h", "old_string",
                    "kBlock = 128;", "new_string", "kBlock = 256;"),
          "The file has been updated.", false);
  cc_tool("Bash", json_pack("{s:s}", "command", "make test"), "all 64 rows sum to 1.0", false);
  cc("assistant", json_pack("[{s:s, s:s}]", "type", "text", "text",
                            "Done: softmax now subtracts the block max (`block_max`) and uses "
                            "`__expf`; `make test` passes."));
  fclose(out);
  return buf;
}

Test(condense_formats, claude_code_session) {
  char *trace = claude_session();
  upk_condensed c;
  cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, 3000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_JSONL);
  contains(c.text, "## Task\n\nThe softmax test fails on H100");
  lacks(c.text, "Caveat");
  contains(c.text, "### `make test` failed");
  contains(c.text, "FAILED: row 3: sum 0.73 (expected 1.0)");
  contains(c.text, "The agent: The row max must be a block-wide max");
  contains(c.text, "-  float m = x[0];\n+  float m = block_max(x);\n");
  contains(c.text, "`make test` then succeeded.");
  /* the final file: written, then both edits applied */
  contains(c.text, "  float m = block_max(x);\n  x[threadIdx.x] = __expf(x[threadIdx.x] - m);");
  contains(c.text, "## The agent's closing summary\n\nDone: softmax now subtracts");
  /* the file read, then edited: its final state, without the listing's numbers */
  contains(c.text, "#pragma once\nconstexpr int kBlock = 256;\nconstexpr int kRows = 64;\n");
  cr_assert_eq(c.n_left_out, 0, "all of it fits");
  upk_condensed_free(&c);

  /* The session was being written: its last line is cut. */
  size_t n = strlen(trace);
  trace[n - 30] = '\0';
  cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, 3000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_JSONL);
  contains(c.text, "`make test` then succeeded.");
  lacks(c.text, "closing summary");
  cr_assert_geq(c.n_left_out, 1);
  cr_assert_str_eq(c.left_out[0].kind, "line");
  contains(c.left_out[0].what, "1 line that were not JSON");
  upk_condensed_free(&c);
  free(trace);
}

/* ---- Codex CLI rollout ---------------------------------------------------------- */

static void cx(const char *type, json_t *payload) {
  line(json_pack("{s:s, s:s, s:o}", "timestamp", "2025-09-10T08:00:00.000Z", "type", type,
                 "payload", payload));
}

static void cx_msg(const char *role, const char *text) {
  cx("response_item",
     json_pack("{s:s, s:s, s:[{s:s, s:s}]}", "type", "message", "role", role, "content", "type",
               strcmp(role, "assistant") ? "input_text" : "output_text", "text", text));
}

static void cx_shell(const char *id, const char *cmd, const char *output) {
  char *args = NULL;
  json_t *a = json_pack("{s:[s, s, s], s:s}", "command", "bash", "-lc", cmd, "workdir", "/w");
  args = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  cx("response_item", json_pack("{s:s, s:s, s:s, s:s}", "type", "function_call", "name", "shell",
                                "arguments", args, "call_id", id));
  free(args);
  cx("response_item",
     json_pack("{s:s, s:s, s:s}", "type", "function_call_output", "call_id", id, "output", output));
}

static char *codex_rollout(void) {
  char *buf = NULL;
  size_t len = 0;
  out = open_memstream(&buf, &len);
  cx("session_meta",
     json_pack("{s:s, s:s, s:s}", "id", "0199", "cwd", "/w", "cli_version", "0.39.0"));
  cx_msg("developer", "<permissions instructions>sandboxed</permissions instructions>");
  cx_msg("user", "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>");
  cx_msg("user", "cargo build fails after the upgrade to cudarc 0.17; fix it.");
  cx("turn_context", json_pack("{s:s, s:s}", "cwd", "/w", "model", "gpt-5-codex"));
  cx_shell("call_1", "cargo build",
           "{\"output\":\"   Compiling kern v0.1.0\\nerror[E0425]: cannot find function "
           "`launch_builder` in module `cudarc::driver`\\n  --> src/lib.rs:14:9\\nerror: could "
           "not compile `kern`\\n\",\"metadata\":{\"exit_code\":101,\"duration_seconds\":3.1}}");
  cx("response_item", json_pack("{s:s, s:[], s:n, s:s}", "type", "reasoning", "summary", "content",
                                "encrypted_content", "gAAAA"));
  cx_msg("assistant", "cudarc 0.17 renamed it: the builder is `stream.launch_builder`, so the "
                      "call must go through the stream.");
  cx("event_msg",
     json_pack("{s:s, s:s}", "type", "agent_message", "message", "ECHO-OF-THE-LAST-MESSAGE"));
  cx("response_item",
     json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "custom_tool_call", "status", "completed",
               "call_id", "call_2", "name", "apply_patch", "input",
               "*** Begin Patch\n*** Update File: src/lib.rs\n@@ fn run\n-    "
               "cudarc::driver::launch_builder(&f)\n+    stream.launch_builder(&f)\n*** End "
               "Patch\n"));
  cx("response_item",
     json_pack("{s:s, s:s, s:s}", "type", "custom_tool_call_output", "call_id", "call_2", "output",
               "{\"output\":\"Success. Updated the following files:\\nM "
               "src/lib.rs\\n\",\"metadata\":{\"exit_code\":0}}"));
  cx_shell("call_3", "cargo build",
           "Exit code: 0\nWall time: 4.2 seconds\nOutput:\n    Finished `dev` profile in 4.1s\n");
  cx_msg("assistant", "Fixed: cudarc 0.17 moved `launch_builder` onto the stream; `cargo build` "
                      "passes.");
  fclose(out);
  return buf;
}

Test(condense_formats, codex_rollout) {
  char *trace = codex_rollout();
  upk_condensed c;
  cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, 3000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_CODEX);
  contains(c.text, "## Task\n\ncargo build fails after the upgrade to cudarc 0.17");
  lacks(c.text, "environment_context");
  lacks(c.text, "permissions instructions");
  lacks(c.text, "ECHO-OF-THE-LAST-MESSAGE");
  contains(c.text, "### `cargo build` failed");
  contains(c.text, "error[E0425]: cannot find function `launch_builder`");
  contains(c.text, "  --> src/lib.rs:14:9\n"); /* context after the error line */
  contains(c.text, "The agent: cudarc 0.17 renamed it");
  contains(c.text, "- edited `src/lib.rs`:\n\n~~~~diff\n-    cudarc::driver::launch_builder(&f)\n"
                   "+    stream.launch_builder(&f)\n");
  contains(c.text, "`cargo build` then succeeded.");
  contains(c.text, "Fixed: cudarc 0.17 moved `launch_builder` onto the stream");
  cr_assert_eq(c.errors, 1);
  upk_condensed_free(&c);

  trace[strlen(trace) - 20] = '\0'; /* cut inside the last line */
  cr_assert_eq(upk_condense(trace, strlen(trace), UPK_TRACE_AUTO, 3000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_CODEX);
  contains(c.text, "`cargo build` then succeeded.");
  cr_assert_str_eq(c.left_out[0].kind, "line");
  upk_condensed_free(&c);
  free(trace);
}

/* ---- Anthropic message arrays ----------------------------------------------------- */

static const char ANTHROPIC[] =
    "[{\"role\": \"user\", \"content\": \"Speed up the GEMM; keep it correct.\"},"
    "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Trying fast "
    "math.\"}, {\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"bash\", \"input\": "
    "{\"command\": \"nvcc --use_fast_math -o gemm gemm.cu && ./gemm\"}}]},"
    "{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", "
    "\"content\": \"max abs error 3.2e-2 exceeds tolerance 1e-3\\nFAILED\", \"is_error\": true}]},"
    "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Fast math breaks "
    "the tolerance, so I back it out and tile instead.\"}, {\"type\": \"tool_use\", \"id\": "
    "\"t2\", \"name\": \"str_replace_based_edit_tool\", \"input\": {\"command\": "
    "\"str_replace\", \"path\": \"gemm.cu\", \"old_str\": \"#define TILE 16\", \"new_str\": "
    "\"#define TILE 32\"}}]},"
    "{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t2\", "
    "\"content\": \"The file gemm.cu has been edited.\"}]},"
    "{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t3\", \"name\": "
    "\"bash\", \"input\": {\"command\": \"nvcc -O3 -o gemm gemm.cu && ./gemm\"}}]},"
    "{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t3\", "
    "\"content\": \"max abs error 4.1e-6; 1.9x faster\"}]},"
    "{\"role\": \"assistant\", \"content\": \"TILE 32 gives 1.9x at full precision; "
    "--use_fast_math must stay off.\"}]";

Test(condense_formats, anthropic_messages_with_a_dead_end) {
  upk_condensed c;
  cr_assert_eq(upk_condense(ANTHROPIC, strlen(ANTHROPIC), UPK_TRACE_AUTO, 2000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_JSON);
  contains(c.text, "### `nvcc --use_fast_math -o gemm gemm.cu && ./gemm` failed");
  contains(c.text, "exceeds tolerance 1e-3");
  contains(c.text, "The agent: Fast math breaks the tolerance");
  contains(c.text, "-#define TILE 16\n+#define TILE 32\n");
  contains(c.text, "`nvcc -O3 -o gemm gemm.cu && ./gemm` then succeeded.");
  contains(c.text, "--use_fast_math must stay off.");
  upk_condensed_free(&c);
}

/* ---- malformed and truncated input ------------------------------------------------ */

static void fails_with(const char *trace, upk_trace_format f, const char *why) {
  upk_condensed c;
  cr_assert_eq(upk_condense(trace, strlen(trace), f, 1000, &c), -EINVAL, "%s", trace);
  contains(c.error, why);
  cr_assert_null(c.text);
}

Test(condense_formats, unknown_shapes_and_truncated_json_are_named) {
  const char *expected = "expected a JSON array of {role, content} messages";
  fails_with("{\"foo\": [1, 2]}", UPK_TRACE_AUTO, expected);
  fails_with("[1, 2, 3]", UPK_TRACE_AUTO, expected);
  fails_with("[{\"kind\": \"note\", \"body\": \"hi\"}]", UPK_TRACE_AUTO, "no message in it");
  fails_with("[{\"role\": \"user\", \"content\": \"fix it\"}, {\"role\": \"assis", UPK_TRACE_AUTO,
             "ends early");
  fails_with("{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}", UPK_TRACE_AUTO,
             "ends early");
  fails_with("not json at all", UPK_TRACE_JSON, "not JSON (line 1");
  fails_with("just prose\nmore prose", UPK_TRACE_JSONL, "not JSON, nor JSON lines");
  fails_with("{\"type\": \"telemetry\", \"payload\": {\"n\": 1}}\n{\"a\": 1}\n", UPK_TRACE_AUTO,
             "no message in it");
  upk_condensed c;
  cr_assert_eq(upk_condense("x", 1, UPK_TRACE_AUTO, 10, &c), -EINVAL);
  contains(c.error, "at least 64 tokens");
}

Test(condense_formats, malformed_parts_are_skipped_not_fatal) {
  /* OpenAI tool call arguments cut short: the call is not understood, the rest is read. */
  const char *openai =
      "[{\"role\": \"user\", \"content\": \"build it\"}, {\"role\": \"assistant\", \"content\": "
      "null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": "
      "\"shell\", \"arguments\": \"{\\\"command\\\": \\\"ma\"}}]}, {\"role\": \"tool\", "
      "\"tool_call_id\": \"c1\", \"content\": \"error: no rule to make target\"}]";
  upk_condensed c;
  cr_assert_eq(upk_condense(openai, strlen(openai), UPK_TRACE_AUTO, 1000, &c), 0);
  contains(c.text, "build it");
  upk_condensed_free(&c);
  /* A Markdown log cut inside a code fence: the fence runs to the end. */
  const char *md = "## User\n\nFix the build.\n\n## Assistant\n\n```console\n$ make\n"
                   "main.c:3:10: fatal error: cuda.h: No such file or directory\n";
  cr_assert_eq(upk_condense(md, strlen(md), UPK_TRACE_AUTO, 1000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_MARKDOWN);
  contains(c.text, "Fix the build.");
  contains(c.text, "fatal error: cuda.h: No such file or directory");
  upk_condensed_free(&c);
  /* Lines that only begin like JSON: a Markdown log after all. */
  const char *looks =
      "[2025-01-01 10:00] build log\n\n```console\n$ make\nmake: *** Error 2\n```\n";
  cr_assert_eq(upk_condense(looks, strlen(looks), UPK_TRACE_AUTO, 1000, &c), 0);
  cr_assert_eq(c.format, UPK_TRACE_MARKDOWN);
  contains(c.text, "make: *** Error 2");
  upk_condensed_free(&c);
}

/* ---- repetition and the budget ------------------------------------------------------ */

Test(condense_formats, repeats_are_counted_and_the_end_is_kept) {
  char *buf = NULL;
  size_t len = 0;
  out = open_memstream(&buf, &len);
  cc("user", json_string("Make the tests pass."));
  for (int i = 0; i < 5; i++) {
    char log[4096] = "";
    for (int k = 0; k < 40; k++)
      strcat(log, "warning: deprecated API used here\nerror: CUDA_ERROR_ILLEGAL_ADDRESS\n");
    cc_tool("Bash", json_pack("{s:s}", "command", "./run_tests"), log, true);
    char why[120];
    snprintf(why, sizeof why, "Attempt %d did not help; the index math is still off by %d.", i,
             i + 1);
    cc("assistant", json_pack("[{s:s, s:s}]", "type", "text", "text", why));
  }
  for (int i = 0; i < 300; i++) { /* much looking around */
    char cmd[64];
    snprintf(cmd, sizeof cmd, "grep -rn idx src/%c%c%c.cu", 'a' + i % 26, 'a' + i / 26 % 26,
             'k' + i % 7);
    cc_tool("Bash", json_pack("{s:s}", "command", cmd), "src: idx = blockIdx.x * 256", false);
  }
  cc("assistant", json_pack("[{s:s, s:s}]", "type", "text", "text",
                            "Root cause: the grid used 256 threads per block but the kernel "
                            "assumed 128. Launch with `<<<n / 128, 128>>>`; all tests pass."));
  fclose(out);
  upk_condensed c;
  cr_assert_eq(upk_condense(buf, len, UPK_TRACE_AUTO, 400, &c), 0);
  contains(c.text, "(hit 5 times)");
  contains(c.text, "Launch with `<<<n / 128, 128>>>`; all tests pass.");
  cr_assert_leq(c.tokens, 400);
  cr_assert_gt(c.omitted, 100, "most of the looking around is left out");
  size_t commands = 0;
  for (size_t i = 0; i < c.n_left_out; i++)
    commands += !strcmp(c.left_out[i].kind, "command") && !c.left_out[i].shortened;
  cr_assert_gt(commands, 100);
  upk_condensed_free(&c);
  cr_assert_eq(upk_condense(buf, len, UPK_TRACE_AUTO, 4000, &c), 0);
  contains(c.text, "error: CUDA_ERROR_ILLEGAL_ADDRESS   [repeated 39 more times]");
  contains(c.text, "the index math is still off by");
  upk_condensed_free(&c);
  free(buf);
}

Test(condense_formats, an_error_followed_by_many_edits_keeps_a_bounded_record) {
  char *buf = NULL;
  size_t len = 0;
  out = open_memstream(&buf, &len);
  cc("user", json_string("Rename the kernels."));
  cc_tool("Bash", json_pack("{s:s}", "command", "make"), "error: 'kernel_0' was not declared",
          true);
  for (int i = 0; i < 200; i++) {
    char o[64], n[64];
    snprintf(o, sizeof o, "launch(kernel_%d)", i);
    snprintf(n, sizeof n, "launch(renamed_kernel_%d)", i);
    cc_tool(
        "Edit",
        json_pack("{s:s, s:s, s:s}", "file_path", "src/all.cu", "old_string", o, "new_string", n),
        "ok", false);
  }
  cc_tool("Bash", json_pack("{s:s}", "command", "make"), "built", false);
  fclose(out);
  upk_condensed c;
  cr_assert_eq(upk_condense(buf, len, UPK_TRACE_AUTO, 8000, &c), 0);
  contains(c.text, "+launch(renamed_kernel_0)\n");
  contains(c.text, "- [… more steps left out]\n");
  lacks(c.text, "renamed_kernel_199");
  contains(c.text, "`make` then succeeded.");
  upk_condensed_free(&c);
  free(buf);
}

Test(condense_formats, a_long_changed_file_shows_the_regions_its_edits_touched) {
  char *buf = NULL, *content = NULL;
  size_t len = 0, clen = 0;
  FILE *cf = open_memstream(&content, &clen);
  for (int i = 0; i < 400; i++)
    fprintf(cf, "  step_%03d(ctx);\n", i);
  fclose(cf);
  out = open_memstream(&buf, &len);
  cc("user", json_string("Make step 200 use the async copy."));
  cc_tool("Write", json_pack("{s:s, s:s}", "file_path", "src/pipeline.cu", "content", content),
          "ok", false);
  cc_tool("Bash", json_pack("{s:s}", "command", "make"), "pipeline.cu:201: error: stalls", true);
  cc_tool("Edit",
          json_pack("{s:s, s:s, s:s}", "file_path", "src/pipeline.cu", "old_string",
                    "  step_200(ctx);", "new_string", "  step_200_async(ctx, stream);"),
          "ok", false);
  cc_tool("Bash", json_pack("{s:s}", "command", "make"), "built", false);
  fclose(out);
  upk_condensed c;
  cr_assert_eq(upk_condense(buf, len, UPK_TRACE_AUTO, 4000, &c), 0);
  contains(c.text, "### src/pipeline.cu (the changed regions: 400 lines in all)");
  contains(c.text, "  step_199(ctx);\n  step_200_async(ctx, stream);\n  step_201(ctx);\n");
  lacks(c.text, "step_100(ctx)");
  upk_condensed_free(&c);
  free(buf);
  free(content);
}

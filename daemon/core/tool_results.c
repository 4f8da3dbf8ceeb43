/* Every tool's result, described for its MCP outputSchema (tool_results.h). Read each table
 * beside the handler that builds the result; descriptions are for the model reading the
 * schema, so they say what a field means, not how it is made. */
#include "daemon/core/tool_results.h"

/* ---- shared shapes ---- */

static const upk_param position_f[] = {
    {"line", UPK_T_INTEGER, 1, "Zero-based."},
    {"character", UPK_T_INTEGER, 1, "Zero-based, in UTF-16 code units."},
    {0},
};
static const upk_param range_f[] = {
    {"start", UPK_T_OBJECT, 1, NULL, .props = position_f},
    {"end", UPK_T_OBJECT, 1, NULL, .props = position_f},
    {0},
};
/* common/diag_json.c: an LSP Diagnostic, plus the file when it is not the one checked. */
static const upk_param diag_f[] = {
    {"range", UPK_T_OBJECT, 1, NULL, .props = range_f},
    {"severity", UPK_T_INTEGER, 1, "1 error, 2 warning, 3 information, 4 hint.", UPK_RANGE(1, 4)},
    {"code", UPK_T_STRING, 0, "Stable identifier (docs/diagnostics.md), e.g. skill/name-invalid."},
    {"source", UPK_T_STRING, 0, "What found it: upskilld-skill, nvrtc, ptxas, ..."},
    {"message", UPK_T_STRING, 1, NULL},
    {"file", UPK_T_STRING, 0, "The file the range is in."},
    {"category", UPK_T_STRING, 0, "The audit's: the kind of risk, e.g. reverse-shell."},
    {"evidence", UPK_T_STRING, 0, "The audit's: the matched text, trimmed and escaped."},
    {"rule", UPK_T_STRING, 0,
     "The audit's: the rule that made it (a YARA rule's name, or a row of the intent layer's "
     "severity table)."},
    {"reason", UPK_T_STRING, 0,
     "The audit's: why its severity was raised or lowered from the one the rule gave."},
    {0},
};
/* clang-format off */
#define DIAGNOSTICS(required, what)                                                                \
  {"diagnostics", UPK_T_ARRAY, required, what, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = diag_f)}
#define STRINGS UPK_ITEMS(UPK_T_STRING)
/* clang-format on */

/* ---- status, sleep ---- */

static const upk_param toolkit_f[] = {
    {"available", UPK_T_BOOLEAN, 1, "The NVRTC library and include/nvrtc.h are present."},
    {"path", UPK_T_STRING, 1, NULL},
    {"nvrtc", UPK_T_BOOLEAN, 1, NULL},
    {"nvJitLink", UPK_T_BOOLEAN, 1, NULL},
    {"version", UPK_T_STRING, 0, "From cuda.h, e.g. 13.0."},
    {"reason", UPK_T_STRING, 0, "Why the toolkit is not available."},
    {0},
};
static const upk_param driver_f[] = {
    {"available", UPK_T_BOOLEAN, 1, NULL},
    {"cudaVersion", UPK_T_STRING, 0, "The driver's CUDA version."},
    {"reason", UPK_T_STRING, 0, "Why there is no driver."},
    {0},
};
static const upk_param cuda_f[] = {
    {"toolkit", UPK_T_OBJECT, 1, NULL, .props = toolkit_f},
    {"driver", UPK_T_OBJECT, 1, NULL, .props = driver_f},
    {"builtWithNvrtc", UPK_T_BOOLEAN, 1, NULL},
    {0},
};
static const upk_param libraries_f[] = {
    {"libuv", UPK_T_STRING, 1, NULL},
    {"jansson", UPK_T_STRING, 1, NULL},
    {0},
};

const upk_param upk_result_status[] = {
    {"name", UPK_T_STRING, 1, "upskilld"},
    {"version", UPK_T_STRING, 1, NULL},
    {"protocol", UPK_T_STRING, 1, "The framing in use.", UPK_ONE_OF("lsp", "mcp")},
    {"protocolVersion", UPK_T_STRING, 0, "MCP: the negotiated revision."},
    {"pid", UPK_T_INTEGER, 1, NULL},
    {"uptimeMs", UPK_T_NUMBER, 1, NULL},
    {"inFlight", UPK_T_INTEGER, 1, "Requests in flight, this one included."},
    {"requestsAnswered", UPK_T_INTEGER, 1, NULL},
    {"workspace", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"maxMessageBytes", UPK_T_INTEGER, 1, NULL},
    {"rssKiB", UPK_T_INTEGER, 1, NULL},
    {"settings", UPK_T_ANY, 0, "LSP: initializationOptions as the editor sent them."},
    {"cuda", UPK_T_OBJECT, 1, NULL, .props = cuda_f},
    {"kernels", UPK_T_OBJECT, 1, "The kernel workers and the compile cache."},
    {"skills", UPK_T_OBJECT, 1, "The skill index: indexed, scanning, indexing {done, total}, ..."},
    {"providers", UPK_T_OBJECT, 1, "anthropic, openai, generic: each {configured, baseUrl}."},
    {"libraries", UPK_T_OBJECT, 1, NULL, .props = libraries_f},
    {0},
};

const upk_param upk_result_sleep[] = {
    {"slept", UPK_T_INTEGER, 1, "Milliseconds."},
    {"steps", UPK_T_INTEGER, 1, NULL},
    {0},
};

/* ---- skills ---- */

static const upk_param indexing_f[] = {
    {"done", UPK_T_INTEGER, 1, "Skill directories indexed so far."},
    {"total", UPK_T_INTEGER, 1, "Skill directories found."},
    {0},
};
/* clang-format off */
/* What a client must know to trust an index answer (skills_methods.c add_index_state). */
#define INDEX_STATE                                                                                \
  {"indexing", UPK_T_OBJECT, 0, "The first index is still being built: partial, ask again.",      \
   .props = indexing_f},                                                                           \
      {"truncated", UPK_T_BOOLEAN, 0, "A root was cut at the directory limit."},                   \
      {"truncatedRoots", UPK_T_ARRAY, 0, NULL, STRINGS}
/* clang-format on */

static const upk_param hit_f[] = {
    {"name", UPK_T_STRING, 1, NULL},
    {"description", UPK_T_STRING, 1, NULL},
    {"path", UPK_T_STRING, 1, "Its SKILL.md."},
    {"agent", UPK_T_STRING, 1, "The agent whose directory holds it.", .nullable = 1},
    {"scope", UPK_T_STRING, 1, "project, user, builtin or extra."},
    {"relevance", UPK_T_NUMBER, 1,
     "0 to 1, comparable across tasks: how well it fits; under relevanceCut it does not."},
    {"score", UPK_T_NUMBER, 1, "The ranking's own score: orders one answer's hits only."},
    {"why", UPK_T_STRING, 1, "The task's words and the fields they matched in."},
    {0},
};

const upk_param upk_result_find_skill[] = {
    {"results", UPK_T_ARRAY, 1, "Best first.", UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = hit_f)},
    {"noMatch", UPK_T_BOOLEAN, 1, "No skill fits the task: results are only the nearest."},
    {"relevanceCut", UPK_T_NUMBER, 1, "The relevance a fitting skill reaches."},
    INDEX_STATE,
    {0},
};

/* clang-format off */
/* skills_methods.c entry_json */
#define ENTRY_FIELDS                                                                               \
  {"name", UPK_T_STRING, 1, NULL}, {"description", UPK_T_STRING, 1, NULL},                         \
      {"path", UPK_T_STRING, 1, "Its SKILL.md."}, {"dir", UPK_T_STRING, 1, NULL},                  \
      {"agent", UPK_T_STRING, 1, NULL, .nullable = 1},                                             \
      {"scope", UPK_T_STRING, 1, "project, user, builtin or extra."},                              \
      {"shadowed", UPK_T_BOOLEAN, 1, "Another skill of the same name wins for this agent."},       \
      {"usable", UPK_T_BOOLEAN, 1, "Agents can load it."},                                         \
      {"tokens", UPK_T_INTEGER, 1, "What its SKILL.md costs in context."},                         \
      DIAGNOSTICS(0, "Why it loads badly or not at all.")
/* clang-format on */

static const upk_param entry_f[] = {
    ENTRY_FIELDS,
    {"agents", UPK_T_ARRAY, 0, "fold: the agents whose directories hold it.", STRINGS},
    {"placements", UPK_T_INTEGER, 0, "fold: the places it is installed (fold: false lists each)."},
    {"problems", UPK_T_INTEGER, 0, "fold: diagnostics of its placements (fold: false has them)."},
    {0},
};
static const upk_param shadow_f[] = {
    {"name", UPK_T_STRING, 1, NULL},
    {"agent", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"winner", UPK_T_STRING, 1, "The SKILL.md the agent loads."},
    {"shadowed", UPK_T_STRING, 1, "The SKILL.md it hides."},
    {0},
};

const upk_param upk_result_list_skills[] = {
    {"skills", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = entry_f)},
    {"shadows", UPK_T_ARRAY, 1, "Shadowing among the names on this page.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = shadow_f)},
    {"total", UPK_T_INTEGER, 1, NULL},
    {"offset", UPK_T_INTEGER, 1, NULL},
    {"nextOffset", UPK_T_INTEGER, 1, "The next page's offset; null on the last page.",
     .nullable = 1},
    {"nextCursor", UPK_T_STRING, 1, "The next page's cursor; null on the last page.",
     .nullable = 1},
    INDEX_STATE,
    {0},
};

const upk_param upk_result_get_skill[] = {
    ENTRY_FIELDS,
    {"text", UPK_T_STRING, 1, "SKILL.md."},
    {"files", UPK_T_ARRAY, 1, "Its other files, relative, sorted.", STRINGS},
    {"meta", UPK_T_ANY, 1, "skill_meta.json, or null."},
    {0},
};

const upk_param upk_result_skills_prompt[] = {
    {"xml", UPK_T_STRING, 1, "The <available_skills> block."},
    {0},
};

const upk_param upk_result_validate_skill[] = {
    {"ok", UPK_T_BOOLEAN, 1, "No errors."},
    {"errors", UPK_T_INTEGER, 1, NULL},
    {"warnings", UPK_T_INTEGER, 1, NULL},
    {"mode", UPK_T_STRING, 1, NULL, UPK_ONE_OF("strict", "lenient")},
    DIAGNOSTICS(1, NULL),
    {0},
};

static const upk_param target_f[] = {
    {"root", UPK_T_STRING, 1, "The agents' skills directory."},
    {"path", UPK_T_STRING, 1, "The skill's directory in it."},
    {"agents", UPK_T_ARRAY, 1, "The agents that read it there.", STRINGS},
    {"replaced", UPK_T_BOOLEAN, 1, NULL},
    {"unchanged", UPK_T_BOOLEAN, 1, NULL},
    {"removed", UPK_T_BOOLEAN, 1, NULL},
    {"error", UPK_T_STRING, 1, "Why this target failed; null when it did not.", .nullable = 1},
    {0},
};

static const upk_param installed_f[] = {
    {"name", UPK_T_STRING, 1, NULL},
    {"hash", UPK_T_STRING, 1, NULL},
    {"skillPath", UPK_T_STRING, 1, "SKILL.md in the source."},
    {"targets", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = target_f)},
    {0},
};
static const upk_param source_f[] = {
    {"type", UPK_T_STRING, 1, "github, git or local (skills-lock.json's sourceType)."},
    {"url", UPK_T_STRING, 1, NULL},
    {"path", UPK_T_STRING, 1, "Inside the repository."},
    {"ref", UPK_T_STRING, 0, NULL},
    {"commit", UPK_T_STRING, 0, "What was fetched."},
    {"lock", UPK_T_STRING, 1, "The source as skills-lock.json records it."},
    {0},
};
static const upk_param found_skill_f[] = {
    {"name", UPK_T_STRING, 1, NULL},
    {"description", UPK_T_STRING, 1, NULL},
    {"path", UPK_T_STRING, 1, "SKILL.md in the source."},
    {0},
};
const upk_param upk_result_install[] = {
    {"name", UPK_T_STRING, 0, NULL, .nullable = 1},
    {"hash", UPK_T_STRING, 0, "The installed content's hash."},
    {"targets", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = target_f)},
    {"skills", UPK_T_ARRAY, 0, "From a source: each skill installed.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = installed_f)},
    {"source", UPK_T_OBJECT, 0, "From a source: where the skills came from.", .props = source_f},
    {"found", UPK_T_ARRAY, 0, "With list: the skills the source holds.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = found_skill_f)},
    DIAGNOSTICS(1, "Warnings; on a refusal, why (errors)."),
    {0},
};

static const upk_param audited_f[] = {
    {"name", UPK_T_STRING, 1, NULL},
    {"path", UPK_T_STRING, 1, "SKILL.md in the source."},
    {"high", UPK_T_INTEGER, 1, "Findings that refuse an install (errors)."},
    {"medium", UPK_T_INTEGER, 1, NULL},
    {"low", UPK_T_INTEGER, 1, NULL},
    {"findings", UPK_T_ARRAY, 1, "Each on its file (relative to the skill) and line.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = diag_f)},
    {0},
};
const upk_param upk_result_audit[] = {
    {"skills", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = audited_f)},
    {"source", UPK_T_OBJECT, 1, NULL, .props = source_f},
    DIAGNOSTICS(1, "About the source itself."),
    {0},
};
const upk_param upk_result_restore[] = {
    {"restored", UPK_T_ARRAY, 1, "Each skill placed again.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = installed_f)},
    DIAGNOSTICS(1, "Warnings; on a refusal, why (drift, a missing source or skill)."),
    {0},
};
static const upk_param checked_f[] = {
    {"name", UPK_T_STRING, 1, NULL},
    {"source", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"commit", UPK_T_STRING, 0, "Recorded in the lock."},
    {"latest", UPK_T_STRING, 0, "The source's ref now."},
    {"outdated", UPK_T_BOOLEAN, 1, "The skill there differs from the lock's hash."},
    {"updated", UPK_T_BOOLEAN, 0, "With update: installed again."},
    {0},
};
const upk_param upk_result_check[] = {
    {"skills", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = checked_f)},
    DIAGNOSTICS(1, "Sources that could not be reached, skills no longer there."),
    {0},
};

/* ---- kernels (gpu/worker/validate_op.c) ---- */

static const upk_param occupancy_f[] = {
    {"blockSize", UPK_T_INTEGER, 1, NULL},
    {"blocksPerSM", UPK_T_INTEGER, 1, NULL},
    {"activeWarps", UPK_T_INTEGER, 1, NULL},
    {"percent", UPK_T_NUMBER, 1, NULL},
    {"limiter", UPK_T_STRING, 1, "warps, registers, shared, blocks, ..."},
    {"assumed", UPK_T_BOOLEAN, 1, "The block size was assumed (256), not given."},
    {0},
};
static const upk_param kernel_f[] = {
    {"name", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"mangled", UPK_T_STRING, 0, NULL, .nullable = 1},
    {"line", UPK_T_INTEGER, 0, NULL},
    {"registers", UPK_T_INTEGER, 0, NULL},
    {"barriers", UPK_T_INTEGER, 0, NULL},
    {"stackFrame", UPK_T_INTEGER, 0, "Bytes."},
    {"spillStores", UPK_T_INTEGER, 0, "Bytes."},
    {"spillLoads", UPK_T_INTEGER, 0, "Bytes."},
    {"sharedStatic", UPK_T_INTEGER, 0, "Bytes."},
    {"constant", UPK_T_INTEGER, 0, "Parameter bank bytes."},
    {"occupancy", UPK_T_OBJECT, 0, NULL, .props = occupancy_f},
    {"occupancyBySize", UPK_T_ARRAY, 0, NULL,
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = occupancy_f)},
    {"launchBounds", UPK_T_OBJECT, 0, "{maxThreads, minBlocks}, or null.", .nullable = 1},
    {"clusterDims", UPK_T_ARRAY, 0, "[x, y, z], or null.", UPK_ITEMS(UPK_T_INTEGER), .nullable = 1},
    {0},
};
/* clang-format off */
#define KERNELS                                                                                    \
  {"kernels", UPK_T_ARRAY, 0, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = kernel_f)}
/* clang-format on */
static const upk_param row_f[] = {
    {"kernel", UPK_T_STRING, 1, "The [kernel.*] table."},
    {"file", UPK_T_STRING, 1, "As in src."},
    {"path", UPK_T_STRING, 1, NULL},
    {"capability", UPK_T_STRING, 1, NULL},
    {"arch", UPK_T_STRING, 1, NULL},
    {"ok", UPK_T_BOOLEAN, 1, NULL},
    DIAGNOSTICS(1, NULL),
    KERNELS,
    {0},
};

const upk_param upk_result_validate_kernel[] = {
    {"ok", UPK_T_BOOLEAN, 1, "Compiled (and, for a run, passed) without errors."},
    DIAGNOSTICS(1, "Compile errors and warnings, H100 lint, run checks; also worker failures."),
    KERNELS,
    {"backend", UPK_T_STRING, 0, "nvrtc or nvcc: what ran."},
    {"arch", UPK_T_STRING, 0, NULL},
    {"toolkit", UPK_T_STRING, 0, "The CUDA toolkit's version."},
    {"file", UPK_T_STRING, 0, NULL},
    {"compileMs", UPK_T_NUMBER, 0, NULL},
    {"elapsedMs", UPK_T_NUMBER, 0, NULL},
    {"cached", UPK_T_BOOLEAN, 0, NULL},
    {"dependencies", UPK_T_ARRAY, 0, "Headers the source reached, stamped.",
     UPK_ITEMS(UPK_T_OBJECT)},
    {"project", UPK_T_STRING, 0, "A kernel-builder project's root."},
    {"buildToml", UPK_T_STRING, 0, NULL},
    {"name", UPK_T_STRING, 0, NULL, .nullable = 1},
    {"rows", UPK_T_ARRAY, 0, "A project: one per kernel, file and capability.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = row_f)},
    {0},
};

/* ---- models ---- */

static const upk_param usage_f[] = {
    {"inputTokens", UPK_T_INTEGER, 1, NULL, .nullable = 1},
    {"outputTokens", UPK_T_INTEGER, 1, NULL, .nullable = 1},
    {0},
};

const upk_param upk_result_complete[] = {
    {"text", UPK_T_STRING, 1, "The answer."},
    {"model", UPK_T_STRING, 1, NULL},
    {"provider", UPK_T_STRING, 1, NULL},
    {"usage", UPK_T_OBJECT, 1, NULL, .props = usage_f},
    {"stopReason", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"attempts", UPK_T_INTEGER, 1, NULL},
    {"elapsedMs", UPK_T_NUMBER, 1, NULL},
    {"responseModel", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"requestId", UPK_T_STRING, 1, NULL, .nullable = 1},
    {0},
};

const upk_param upk_refusal_complete[] = {
    {"kind", UPK_T_STRING, 1,
     "auth, permission, unknown_model, rate_limited, server, bad_request, malformed, timeout, "
     "connection or config."},
    {"provider", UPK_T_STRING, 0, NULL},
    {"model", UPK_T_STRING, 0, NULL},
    {"httpStatus", UPK_T_INTEGER, 0, NULL},
    {"attempts", UPK_T_INTEGER, 0, NULL},
    {"elapsedMs", UPK_T_NUMBER, 0, NULL},
    {"requestId", UPK_T_STRING, 0, NULL, .nullable = 1},
    {0},
};

/* ---- evaluation, generation, runs (docs/eval.md) ---- */

static const upk_param trial_f[] = {
    {"model", UPK_T_STRING, 1, NULL},
    {"condition", UPK_T_STRING, 1, NULL, UPK_ONE_OF("with_skill", "baseline")},
    {"run", UPK_T_INTEGER, 1, NULL},
    {"case", UPK_T_INTEGER, 1, NULL},
    {"verdict", UPK_T_STRING, 1, "pass, fail, error, skipped, or not-run (a cost limit)."},
    {"assertionsPassed", UPK_T_INTEGER, 1, NULL},
    {"assertionsSkipped", UPK_T_INTEGER, 1, NULL},
    {"inputTokens", UPK_T_INTEGER, 1, NULL},
    {"outputTokens", UPK_T_INTEGER, 1, NULL},
    {"error", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"unpassed", UPK_T_ARRAY, 0,
     "The assertions that did not pass: {assertion, status (fail, skipped, error), reason}.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT)},
    {"skillLoaded", UPK_T_BOOLEAN, 0, "Agent runs: the agent loaded the skill (null: cannot tell).",
     .nullable = 1},
    {"turns", UPK_T_INTEGER, 0, "Agent runs: model round trips.", .nullable = 1},
    {"costUsd", UPK_T_NUMBER, 0, "Agent runs: as the agent reports it.", .nullable = 1},
    {"toolCalls", UPK_T_INTEGER, 0, "Agent runs: tool calls made."},
    {"files", UPK_T_ARRAY, 0, "Agent runs: files written in the workspace.", STRINGS},
    {"exitStatus", UPK_T_INTEGER, 0, "Agent runs: the agent's exit status (-1: did not run)."},
    {"durationMs", UPK_T_NUMBER, 0, "Wall time of the trial."},
    {"agentDir", UPK_T_STRING, 0, "Agent runs: workspace, home, transcript.", .nullable = 1},
    {0},
};

/* What eval and generate results say about cost limits and dry runs (daemon/eval/budget.h). */
// clang-format off
#define LIMIT_FIELDS                                                                              \
  {"stopped", UPK_T_OBJECT, 0,                                                                    \
   "A cost limit stopped it: {reason: max-calls | max-cost-usd, limit, spent, calls}; the "       \
   "result is partial."},                                                                         \
  {"limits", UPK_T_OBJECT, 0,                                                                     \
   "The cost limits given: {maxCalls?, maxCostUsd?, calls, spentUsd, unpricedCalls}."},           \
  {"dryRun", UPK_T_BOOLEAN, 0, "A dry run: nothing was called; `plan` says what would be."},     \
  {"plan", UPK_T_OBJECT, 0,                                                                       \
   "A dry run's plan: mode, trials, calls, estimatedTokens {input, output}, "                     \
   "estimatedCostUsd, and per model the same (models[])."}
// clang-format on

static const upk_param model_stats_f[] = {
    {"model", UPK_T_STRING, 1, NULL},
    {"skill", UPK_T_OBJECT, 1,
     "With the skill: trials, passed, passRate, passRateCi, passAtK, passHatK, ...", .nullable = 1},
    {"baseline", UPK_T_OBJECT, 0, "Without it, or null.", .nullable = 1},
    {"lift", UPK_T_NUMBER, 0, NULL, .nullable = 1},
    {"liftCi", UPK_T_ARRAY, 0, NULL, UPK_ITEMS_OF(.type = UPK_T_NUMBER, .nullable = 1)},
    {"tokenSavings", UPK_T_NUMBER, 0, NULL, .nullable = 1},
    {0},
};

const upk_param upk_result_eval[] = {
    {"models", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = model_stats_f)},
    {"skill", UPK_T_STRING, 1, NULL},
    {"trials", UPK_T_INTEGER, 1, NULL},
    {"cases", UPK_T_INTEGER, 1, NULL},
    {"runs", UPK_T_INTEGER, 1, NULL},
    {"baseline", UPK_T_BOOLEAN, 1, NULL},
    {"concurrency", UPK_T_INTEGER, 1, NULL},
    {"elapsedMs", UPK_T_NUMBER, 1, NULL},
    {"runId", UPK_T_STRING, 1, NULL},
    {"runDir", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"storeError", UPK_T_STRING, 0, "The run could not be written."},
    {"results", UPK_T_ARRAY, 1, "Every trial.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = trial_f)},
    {"caseDiagnostics", UPK_T_ARRAY, 0, "Bad cases, left out.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = diag_f)},
    {"refusedCases", UPK_T_ARRAY, 0,
     "Cases of the tests file refused before they ran: {case (its 0-based place in the file, as "
     "results[].case), reason}.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT)},
    {"agents", UPK_T_OBJECT, 0,
     "Agent runs: byModel and byCase, with_skill and without_skill side by side (passRate, "
     "skillLoadedRate, meanTurns, meanInputTokens, meanOutputTokens, meanCostUsd, meanMs)."},
    {"baselineSkill", UPK_T_BOOLEAN, 0, "The without condition ran an older version of the skill."},
    {"agentSkillsDir", UPK_T_STRING, 0,
     "The run in the Agent Skills layout, one folder per model."},
    {"layoutError", UPK_T_STRING, 0, "Why the Agent Skills layout was not written."},
    {"mode", UPK_T_STRING, 0, "\"trigger\" for a trigger eval."},
    {"iterations", UPK_T_ARRAY, 0,
     "Trigger mode: each description tried, with run_eval.py's results per agent.",
     UPK_ITEMS(UPK_T_OBJECT)},
    {"best", UPK_T_OBJECT, 0,
     "Trigger mode: the best description (iteration, description, result)."},
    {"runIds", UPK_T_ARRAY, 0, "Trigger mode: the run of each iteration.", STRINGS},
    {"applied", UPK_T_ANY, 0, "Trigger mode: the SKILL.md written with the best description."},
    {"optimizeStopped", UPK_T_STRING, 0,
     "Trigger mode: why fewer descriptions were tried than asked (the teacher failed, the skill "
     "never triggered, a cost limit)."},
    {"notRun", UPK_T_INTEGER, 0, "Trials a cost limit kept from running (verdict not-run)."},
    LIMIT_FIELDS,
    {"queryDiagnostics", UPK_T_ARRAY, 0, "Trigger mode: bad queries, left out.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = diag_f)},
    {0},
};

const upk_param upk_refusal_eval[] = {
    DIAGNOSTICS(1, "Why the skill or its test cases could not be used."),
    {0},
};

static const upk_param attempt_f[] = {
    {"attempt", UPK_T_INTEGER, 1, NULL},
    {"passRate", UPK_T_NUMBER, 1, NULL, .nullable = 1},
    {"baselineRate", UPK_T_NUMBER, 1, NULL, .nullable = 1},
    {"passed", UPK_T_INTEGER, 1, NULL},
    {"trials", UPK_T_INTEGER, 1, NULL},
    {"validationFixes", UPK_T_INTEGER, 1, NULL},
    {"runId", UPK_T_STRING, 1, NULL},
    {"best", UPK_T_BOOLEAN, 1, NULL},
    {0},
};
static const upk_param tokens_f[] = {
    {"input", UPK_T_INTEGER, 1, NULL},
    {"output", UPK_T_INTEGER, 1, NULL},
    {"costUsd", UPK_T_NUMBER, 0, "What an agent teacher reported it cost (absent: none)."},
    {0},
};

/* gen_service.c: upk__gen_base_result is in every answer, success or failure; upk__gen_finish adds
 * the rest; a failure adds what went wrong (kind, diagnostics, draft). */
const upk_param upk_result_generate[] = {
    {"stage", UPK_T_STRING, 1, "done, or the stage that failed."},
    {"teacher", UPK_T_STRING, 1, NULL},
    {"testGenModel", UPK_T_STRING, 1, NULL},
    {"evalModels", UPK_T_ARRAY, 1, NULL, STRINGS},
    {"attempts", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = attempt_f)},
    {"tests", UPK_T_INTEGER, 1, NULL},
    {"refinementCases", UPK_T_INTEGER, 1, NULL},
    {"heldOutCases", UPK_T_INTEGER, 1, NULL},
    {"teacherTokens", UPK_T_OBJECT, 1, NULL, .props = tokens_f},
    {"trace", UPK_T_OBJECT, 0, "The condensed trace: tokens, sourceTokens, errors, ..."},
    {"name", UPK_T_STRING, 0, NULL},
    {"path", UPK_T_STRING, 0, "Where the skill was saved."},
    {"replaced", UPK_T_BOOLEAN, 0, NULL},
    {"bestAttempt", UPK_T_INTEGER, 0, NULL},
    {"skill", UPK_T_STRING, 0, "The saved SKILL.md."},
    {"heldOut", UPK_T_OBJECT, 0, "The held-out summary, or null.", .nullable = 1},
    {"finalPassRate", UPK_T_NUMBER, 0, NULL, .nullable = 1},
    {"generationRunId", UPK_T_STRING, 0, NULL, .nullable = 1},
    {"install", UPK_T_OBJECT, 0, "{ok, targets, diagnostics}"},
    {"kind", UPK_T_STRING, 0, "A failed model call: what kind of failure."},
    DIAGNOSTICS(0, "A failure: why the skill was refused."),
    {"draft", UPK_T_STRING, 0, "A failure: the refused SKILL.md."},
    LIMIT_FIELDS,
    {0},
};

static const upk_param found_f[] = {
    {"commands", UPK_T_INTEGER, 1, NULL}, {"errors", UPK_T_INTEGER, 1, NULL},
    {"fixes", UPK_T_INTEGER, 1, NULL},    {"files", UPK_T_INTEGER, 1, NULL},
    {"facts", UPK_T_INTEGER, 1, NULL},    {0},
};
static const upk_param left_out_f[] = {
    {"kind", UPK_T_STRING, 1, "task, summary, error, file, ..."},
    {"what", UPK_T_STRING, 1, NULL},
    {"tokens", UPK_T_INTEGER, 1, NULL},
    {"shortened", UPK_T_BOOLEAN, 1, "Kept, but shortened."},
    {0},
};

const upk_param upk_result_condense[] = {
    {"text", UPK_T_STRING, 1, "The condensed trace."},
    {"format", UPK_T_STRING, 1, "The format it was read as."},
    {"tokens", UPK_T_INTEGER, 1, NULL},
    {"sourceTokens", UPK_T_INTEGER, 1, NULL},
    {"budget", UPK_T_INTEGER, 1, NULL},
    {"found", UPK_T_OBJECT, 1, NULL, .props = found_f},
    {"omitted", UPK_T_INTEGER, 1, NULL},
    {"leftOut", UPK_T_ARRAY, 1, NULL, UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = left_out_f)},
    {0},
};

const upk_param upk_refusal_condense[] = {
    {"code", UPK_T_STRING, 1, "trace/unreadable, trace/not-json, ..."},
    DIAGNOSTICS(1, "The same, as one error diagnostic (file: the trace's path)."),
    {0},
};

static const upk_param run_info_f[] = {
    {"id", UPK_T_STRING, 1, NULL},
    {"kind", UPK_T_STRING, 1, "eval, benchmark or generation.", .nullable = 1},
    {"skill", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"createdAt", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"models", UPK_T_ARRAY, 1, NULL, STRINGS},
    {"transcripts", UPK_T_INTEGER, 1, NULL},
    {"hasSummary", UPK_T_BOOLEAN, 1, NULL},
    {0},
};

const upk_param upk_result_list_runs[] = {
    {"runsDir", UPK_T_STRING, 1, NULL},
    {"runs", UPK_T_ARRAY, 1, "Newest first.",
     UPK_ITEMS_OF(.type = UPK_T_OBJECT, .props = run_info_f)},
    {"csv", UPK_T_STRING, 0, "Every trial of every run, when asked for."},
    {0},
};

const upk_param upk_result_show_run[] = {
    {"id", UPK_T_STRING, 1, NULL},
    {"run", UPK_T_OBJECT, 1, "run.json: what was run.", .nullable = 1},
    {"summary", UPK_T_OBJECT, 1, "summary.json.", .nullable = 1},
    {"transcripts", UPK_T_ARRAY, 1, "null when not asked for.", UPK_ITEMS(UPK_T_OBJECT),
     .nullable = 1},
    {0},
};

const upk_param upk_result_report_run[] = {
    {"id", UPK_T_STRING, 1, NULL},
    {"compareWith", UPK_T_STRING, 1, NULL, .nullable = 1},
    {"html", UPK_T_STRING, 1, "One self-contained HTML file."},
    {"bytes", UPK_T_INTEGER, 1, NULL},
    {0},
};

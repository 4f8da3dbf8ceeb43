/** Assertions on a model's answer, for skill evaluation.
 *
 * (Named assertion.h, not assert.h: skills/ is on every dependent's include
 * path, and a skills/assert.h would shadow the C library's <assert.h>.)
 *
 * Text assertions are decided here: upskill's `contains` (every item must
 * occur, case-insensitively), `not_contains` (no item may occur,
 * case-insensitively) and `regex` (every POSIX extended pattern must match,
 * case-insensitively; a pattern that does not compile is an ERROR result,
 * never a crash and never a pass).
 *
 * Kernel-grounded assertions (`compiles {arch}`, `resources {maxRegisters,
 * noSpills}`) need the CUDA toolkit, which skills/ does not know. The CUDA
 * code blocks of the answer are extracted with cmark (fenced ```cuda, ```cu,
 * ```cuh, ```c++, ```cpp or unlabelled blocks that contain `__global__`),
 * one kernel-check request is made per distinct (block, arch), and the
 * caller's checker answers them: at once (synchronously) or later, through
 * upk_assert_report_resolve, when the daemon has heard back from a compile
 * worker. Until every request is answered, kernel assertions are PENDING.
 * Without a checker they are SKIPPED, and SKIPPED is never counted as passed.
 */
#ifndef UPK_ASSERTION_H
#define UPK_ASSERTION_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  UPK_ASSERT_CONTAINS = 0,
  UPK_ASSERT_NOT_CONTAINS,
  UPK_ASSERT_REGEX,
  UPK_ASSERT_COMPILES,
  UPK_ASSERT_RESOURCES,
  UPK_ASSERT_EXPECT, /* a statement in words (Agent Skills' expectations): a grader judges it */
  UPK_ASSERT_FILES,  /* agent runs: these workspace-relative files exist after the run */
  UPK_ASSERT_TOOLS,  /* agent runs: the agent called each of these tools at least once */
  UPK_ASSERT_SCRIPT, /* agent runs: a shell command in the workspace exits as expected */
  UPK_ASSERT_DIFF,   /* agent runs: the workspace's git changes match these patterns */
  UPK_ASSERT_KERNEL, /* agent runs: a CUDA file the agent wrote compiles (within limits) */
} upk_assert_kind;

/** Kinds whose values are a list of strings (all but compiles, resources and the executable
 * kinds, which are objects). */
#define UPK_ASSERT_KIND_IS_LIST(k)                                                                 \
  ((k) != UPK_ASSERT_COMPILES && (k) != UPK_ASSERT_RESOURCES && !UPK_ASSERT_KIND_IS_EXEC(k))
/** The executable kinds: decided by the caller after an agent run (see upk_assert_env.exec). */
#define UPK_ASSERT_KIND_IS_EXEC(k)                                                                 \
  ((k) == UPK_ASSERT_SCRIPT || (k) == UPK_ASSERT_DIFF || (k) == UPK_ASSERT_KERNEL)

/** A script's default deadline, and the most a case may give it. */
#define UPK_ASSERT_SCRIPT_TIMEOUT_MS 60000L
#define UPK_ASSERT_SCRIPT_TIMEOUT_MAX_MS 3600000L

/** The default architecture of kernel checks: the H100's full feature set. */
#define UPK_ASSERT_DEFAULT_ARCH "sm_90a"

/** One assertion of a test case. */
typedef struct upk_assertion {
  upk_assert_kind kind;
  char **values; /* contains / not_contains: strings; regex: patterns */
  size_t n_values;
  char *arch;        /* compiles / resources: NULL means UPK_ASSERT_DEFAULT_ARCH */
  int max_registers; /* resources: at most this many registers per kernel; 0: no limit */
  bool no_spills;    /* resources: no spill stores or loads in any kernel */
  /* script: values[0] is the command; diff: values are the `changed` patterns;
   * kernel: values[0] is the file's workspace-relative path (arch, limits as resources). */
  long timeout_ms;  /* script: its deadline; 0: UPK_ASSERT_SCRIPT_TIMEOUT_MS */
  int exit_code;    /* script: the exit status that passes */
  char **unchanged; /* diff: patterns no changed path may match */
  size_t n_unchanged;
  bool only; /* diff: every changed path matches a `changed` pattern */
  char *run; /* kernel: the runtime check's spec as compact JSON; NULL: none */
} upk_assertion;

typedef enum {
  UPK_ASSERT_PASS = 0,
  UPK_ASSERT_FAIL,    /* the answer does not satisfy the assertion */
  UPK_ASSERT_SKIPPED, /* could not be checked (no CUDA toolkit): never a pass */
  UPK_ASSERT_ERROR,   /* the assertion itself is broken (a bad regex) or the check failed */
  UPK_ASSERT_PENDING, /* waiting for a kernel check */
} upk_assert_status;

/** What the caller's checker reports for one kernel per code block. */
typedef struct upk_kcheck_kernel {
  char *name;
  int registers;
  long spill_stores, spill_loads;
} upk_kcheck_kernel;

/** A kernel check's outcome. Fill it with upk_kcheck_result_* helpers or by
 * hand (strings malloc'd: the report takes ownership when it is resolved). */
typedef struct upk_kcheck_result {
  upk_assert_status status; /* PASS: compiled; FAIL: did not compile; SKIPPED; ERROR */
  char *reason;             /* first compiler error, why it was skipped, ...; may be NULL */
  upk_kcheck_kernel *kernels;
  size_t n_kernels;
} upk_kcheck_result;

/** One request for the caller: compile `code` for `arch` and report resources. */
typedef struct upk_kcheck_req {
  size_t id;    /* index in report->requests */
  char *code;   /* the code block, NUL-terminated */
  size_t block; /* which CUDA block of the answer (0-based) */
  char *arch;
  bool done;
  upk_kcheck_result result; /* valid when done */
} upk_kcheck_req;

/** The caller's kernel checker. check() returns 0 after filling *out
 * (synchronous), 1 when it will answer later through
 * upk_assert_report_resolve(report, req->id, ...), or a negative errno (the
 * request is resolved as ERROR). It must not keep `req` pointers past
 * upk_assert_report_free. */
typedef struct upk_kernel_checker {
  int (*check)(void *ctx, const upk_kcheck_req *req, upk_kcheck_result *out);
  void *ctx;
} upk_kernel_checker;

/** One assertion's verdict. */
typedef struct upk_assert_result {
  upk_assert_kind kind;
  upk_assert_status status;
  char *label;  /* what was asserted, for people: `contains ["a", "b"]` */
  char *reason; /* why it failed, was skipped or errored; NULL on a pass */
  size_t *reqs; /* kernel assertions: the requests it depends on */
  size_t n_reqs;
  int max_registers; /* resources: the limits, kept to decide when requests resolve */
  bool no_spills;
} upk_assert_result;

typedef struct upk_assert_report {
  upk_assert_result *results; /* one per assertion, in order */
  size_t n;
  upk_kcheck_req *requests; /* kernel checks, deduplicated */
  size_t n_requests;
  size_t n_blocks; /* CUDA code blocks found in the answer */
  /* Tallies, kept current by evaluate and resolve. */
  size_t passed, failed, skipped, errors, pending;
} upk_assert_report;

/** What an agent run leaves besides its answer, for `files` and `tools`. */
typedef struct upk_assert_env {
  const char *workspace;    /* the run's workspace directory after the run */
  const char *const *tools; /* the names of the tools it called, repeats allowed */
  size_t n_tools;
  /* The caller runs `script`, `diff` and `kernel` in the workspace and decides them with
   * upk_assert_report_decide: they are left PENDING. false: SKIPPED. (Nothing here spawns a
   * process: the daemon does, off its loop.) */
  bool exec;
} upk_assert_env;

/** Evaluate assertions against an answer. Text assertions are decided now;
 * kernel assertions go through `checker` (NULL: SKIPPED). `files` and
 * `tools` need `env` (NULL: SKIPPED, as for a model answered over an API);
 * `expect` is SKIPPED (a statement in words needs a grader). Returns 0 or
 * -ENOMEM (the report is then freed and empty). */
int upk_assert_evaluate_in(const upk_assertion *a, size_t n, const char *answer,
                           const upk_assert_env *env, const upk_kernel_checker *checker,
                           upk_assert_report *out);
/** upk_assert_evaluate_in without an agent's environment. */
int upk_assert_evaluate(const upk_assertion *a, size_t n, const char *answer,
                        const upk_kernel_checker *checker, upk_assert_report *out);
/** Answer request `id` later; takes ownership of res's strings and kernels
 * (res is zeroed). Returns 0, -EINVAL for an unknown id, -EALREADY when it
 * was answered already (res is then freed). */
int upk_assert_report_resolve(upk_assert_report *r, size_t id, upk_kcheck_result *res);
/** Decide assertion i by hand: a grader's verdict on an `expect` statement.
 * PENDING marks it as being asked (the report is not done until it is
 * decided); PASS, FAIL or ERROR decide it with `reason` (copied; NULL: none).
 * Re-tallies. Returns 0, -EINVAL (no such assertion, or a kernel one), -ENOMEM. */
int upk_assert_report_decide(upk_assert_report *r, size_t i, upk_assert_status status,
                             const char *reason);
/** Every assertion decided (nothing PENDING)? */
bool upk_assert_report_done(const upk_assert_report *r);
/** The test case's verdict: ERROR if any assertion errored, else FAIL if any
 * failed, else PENDING if any is pending, else SKIPPED if any was skipped,
 * else PASS. An empty report is an ERROR: a case that asserts nothing
 * cannot fail, so it proves nothing. */
upk_assert_status upk_assert_report_verdict(const upk_assert_report *r);
void upk_assert_report_free(upk_assert_report *r);

/** The CUDA code blocks of a Markdown answer (see the header comment), as
 * malloc'd strings. Returns 0 or -ENOMEM. */
int upk_extract_cuda_blocks(const char *answer, char ***blocks, size_t *n);
void upk_assert_blocks_free(char **blocks, size_t n);

/** `diff`: decide from the changed paths (added, modified, deleted; a rename is both of its
 * paths). Patterns are upk_assert_glob's. Returns PASS or FAIL with *reason set (malloc'd)
 * on a failure, NULL on a pass. */
upk_assert_status upk_assert_diff_decide(const upk_assertion *a, char *const *changed, size_t n,
                                         char **reason);
/** A `diff` pattern: relative, '/'-separated, no "." or ".." part, `**` only as a whole part,
 * brackets closed. Returns NULL when good, else why not (static text). */
const char *upk_assert_glob_check(const char *pattern);
// fnmatch(3) with FNM_PATHNAME (`*`, `?` and `[...]` stay within one part) where a part
// `**` matches any number of parts (none included): "src/**" matches everything under src,
// "**/*.cu" a .cu file anywhere. A pattern naming a directory matches nothing beneath it:
// write "dir/**". (Line comments: the patterns hold "/*".)
bool upk_assert_glob(const char *pattern, const char *path);
/** `kernel`: decide from the kernel check of the file (compiled? within a's limits?).
 * Returns the status, *reason malloc'd (the first compiler error, the limit broken, or the
 * verdict's summary on a pass: "compiled for sm_90a: 1 kernel, k 32 registers, no spills"). */
upk_assert_status upk_assert_kernel_decide(const upk_assertion *a, const upk_kcheck_result *res,
                                           char **reason);

/** "contains", "not_contains", "regex", "compiles", "resources", "expect",
 * "files", "tools", "script", "diff", "kernel". */
const char *upk_assert_kind_name(upk_assert_kind k);
/** Parse a kind name; returns -EINVAL when unknown. */
int upk_assert_kind_parse(const char *name, upk_assert_kind *out);
/** "pass", "fail", "skipped", "error", "pending". */
const char *upk_assert_status_name(upk_assert_status s);

/** Deep copy / release of one assertion. */
int upk_assertion_copy(upk_assertion *dst, const upk_assertion *src);
void upk_assertion_free(upk_assertion *a);
/** Release a checker's result (what was not handed to a report). */
void upk_kcheck_result_free(upk_kcheck_result *r);

#endif

/* The UPSKILLD* variables; see env_options.h. */
#include "common/env_options.h"

#include "common/xalloc.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define WEEK_S (86400L * 7)
#define F(field) offsetof(upk_env_options, field)

/* One row per variable, in upk_env_var's order. docs/daemon.md, "Environment variables", shows
 * each row as `| NAME | shown | description | readers |` (tests/unit/test_env_options.c keeps
 * the two equal). The numeric defaults are the values the readers always had. */
static const upk_env_entry TABLE[UPK_ENV_COUNT] = {
    [UPK_ENV_DAEMON] = {"UPSKILLD", UPK_ENV_TEXT, F(daemon), 0, 0,
                        "`upskilld` beside upskillctl (or in its build tree), else on `PATH`",
                        "upskillctl", "the daemon upskillctl starts when it has no `--server`"},
    [UPK_ENV_WORKER] = {"UPSKILLD_WORKER", UPK_ENV_TEXT, F(worker), 0, 0,
                        "`<libexecdir>/upskilld/upskilld-worker` (or the build tree's); "
                        "the sanitizer: the running worker",
                        "upskilld, upskilld-worker",
                        "the worker program: the daemon's kernel workers, and the fresh worker the "
                        "sanitizer runs a kernel in"},
    [UPK_ENV_WORKER_COMMAND] = {"UPSKILLD_WORKER_COMMAND", UPK_ENV_TEXT, F(worker_command), 0, 0,
                                "none: workers run on this machine", "upskilld",
                                "a command each worker starts through, split as a shell would "
                                "(`srun --gres=gpu:1`); `--worker-command` wins"},
    [UPK_ENV_WORKER_SERVER_IDLE] = {"UPSKILLD_WORKER_SERVER_IDLE", UPK_ENV_SECONDS,
                                    F(worker_server_idle), 600, WEEK_S, "600", "upskilld",
                                    "seconds the worker server (warm workers that outlive the "
                                    "daemon) idles before it exits, digits only, at most a week; "
                                    "`0`: no server; `--worker-server-idle` wins"},
    [UPK_ENV_WORKER_FAULTS] = {"UPSKILLD_WORKER_FAULTS", UPK_ENV_ONE, F(worker_faults), 0, 0,
                               "unset", "upskilld-worker",
                               "`1`: the worker answers its test ops (echo, sleep, crash, hang, "
                               "...); upskilld sets it for its workers under `--test-methods`"},
    [UPK_ENV_PYTHON] = {"UPSKILLD_PYTHON", UPK_ENV_TEXT, F(python), 0, 0, "`python3` from `PATH`",
                        "upskilld (hands it to the worker), upskilld-worker",
                        "the python3 (with torch) that runs PyTorch references; `--python` wins"},
    [UPK_ENV_PYREF_HELPER] = {"UPSKILLD_PYREF_HELPER", UPK_ENV_TEXT, F(pyref_helper), 0, 0,
                              "`upskilld-pyref.py` beside the worker", "upskilld-worker",
                              "the helper script that runs a PyTorch reference"},
    [UPK_ENV_LIBCUDA] = {"UPSKILLD_LIBCUDA", UPK_ENV_TEXT, F(libcuda), 0, 0, "`libcuda.so.1`",
                         "upskilld-worker",
                         "the NVIDIA driver library to load (tests name a missing file: the "
                         "no-driver answer on any machine)"},
    [UPK_ENV_LIBRARY] = {"UPSKILLD_LIBRARY", UPK_ENV_TEXT, F(library), 0, 0,
                         "`<prefix>/share/upskilld/library`, else the source tree's "
                         "`skills/library`",
                         "upskilld", "the built-in skill library"},
    [UPK_ENV_INDEX] = {"UPSKILLD_INDEX", UPK_ENV_RAW, F(index), 0, 0,
                       "a file under `$XDG_CACHE_HOME/upskilld/`", "upskilld",
                       "the skill index (SQLite); `:memory:` or empty: kept in memory"},
    [UPK_ENV_MAX_DIRS] = {"UPSKILLD_MAX_DIRS", UPK_ENV_INT, F(max_dirs), 0, 0, "200,000",
                          "upskilld",
                          "directories scanned per skill root (`atoi`; `<= 0`: the default); "
                          "`initializationOptions.skills.maxDirs` wins"},
    /* Requests queued during the first scan wait at most one batch (~0.1-0.3 s). */
    [UPK_ENV_SCAN_BATCH] = {"UPSKILLD_SCAN_BATCH", UPK_ENV_POSITIVE, F(scan_batch), 4000, 0, "4000",
                            "upskilld",
                            "skills indexed per queue item of the first scan (not a positive "
                            "number: the default; tests: several batches)"},
    /* ~10 ms a page: listing 240,000 placements (60,000 skills) in one item took ~150 ms. */
    [UPK_ENV_WATCH_PAGE] = {"UPSKILLD_WATCH_PAGE", UPK_ENV_POSITIVE, F(watch_page), 4096, 0, "4096",
                            "upskilld",
                            "watch placements listed per queue item (not a positive number: the "
                            "default; tests: many pages)"},
    /* ~10-30 ms a page, so lookups queued meanwhile wait little. */
    [UPK_ENV_TIDY_PAGES] = {"UPSKILLD_TIDY_PAGES", UPK_ENV_POSITIVE, F(tidy_pages), 200, 0, "200",
                            "upskilld",
                            "index pages per table merged per queue item once a scan is done (not "
                            "a positive number: the default; tests: a merge of many steps)"},
    /* A session's lookups come in bursts: the index's page cache is kept through one. */
    [UPK_ENV_IDLE_RELEASE] = {"UPSKILLD_IDLE_RELEASE_MS", UPK_ENV_POSITIVE, F(idle_release_ms),
                              30000, 0, "30000", "upskilld",
                              "milliseconds without skills work after which a large index page "
                              "cache is handed back (not a positive number: the default; tests: "
                              "at once)"},
    /* Half the SDKs' 60 s request timeout, which nothing resets for a client without progress. */
    [UPK_ENV_LIST_WAIT] = {"UPSKILLD_LIST_WAIT_MS", UPK_ENV_POSITIVE, F(list_wait_ms), 30000, 0,
                           "30000", "upskilld",
                           "milliseconds the first page of an MCP skills/list that asked for no "
                           "progress waits for the first index before it answers with the skills "
                           "indexed so far (not a positive number: the default; tests: at once)"},
    [UPK_ENV_FAULT] = {"UPSKILLD_FAULT", UPK_ENV_TEXT, F(fault), 0, 0, "unset",
                       "upskilld, upskilld-worker, test programs",
                       "test-only fault injection: `POINT[:N[:ACTION]]` rules separated by `,` "
                       "(`common/fault.h`, docs/testing.md)"},
    /* A depth-1 fetch of a skills repository takes seconds; a silent server is given up
     * sooner by git's low-speed limit (20 s below 1 KB/s over http). */
    [UPK_ENV_FETCH_TIMEOUT] = {"UPSKILLD_FETCH_TIMEOUT", UPK_ENV_SECONDS, F(fetch_timeout), 60,
                               3600, "60", "upskilld",
                               "seconds one git source's fetch may take (git init, fetch and "
                               "checkout together) before git's process group is killed, digits "
                               "only, at most 3600; `0`: the default"},
    [UPK_ENV_RANK_DUMP] = {"UPSKILLD_RANK_DUMP", UPK_ENV_TEXT, F(rank_dump), 0, 0, "unset",
                           "upskilld",
                           "bench-only: a file each `skills/lookup` appends its task and its 24 "
                           "best candidates' ranking features to (`bench/skills/ltr_fit.py` "
                           "refits the learned order from it; "
                           "bench/skills/results/ranking.md); slow, never for a daemon in use"},
};

static upk_env_options opts;
static pthread_once_t once = PTHREAD_ONCE_INIT;

const upk_env_entry *upk_env_opts_entry(upk_env_var var) {
  return &TABLE[var];
}

/* The leading integer of the text, as atoi read it (space, a sign, digits; 0 when there are
 * none), held to int's range. */
static int leading_int(const char *text) {
  long n = strtol(text, NULL, 10);
  return n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : (int)n;
}

/* Digits only (no sign, no space), capped: what the worker-server flag always accepted. */
static long seconds(const char *text, long def, long max) {
  if (!text || !*text || text[strspn(text, "0123456789")])
    return def;
  unsigned long n = strtoul(text, NULL, 10);
  return n > (unsigned long)max ? max : (long)n;
}

void upk_env_opts_parse(upk_env_var var, const char *text, upk_env_options *out) {
  const upk_env_entry *e = &TABLE[var];
  void *field = (char *)out + e->offset;
  switch (e->kind) {
  case UPK_ENV_TEXT:
    *(const char **)field = text && *text ? text : NULL;
    break;
  case UPK_ENV_RAW:
    *(const char **)field = text;
    break;
  case UPK_ENV_SECONDS:
    *(unsigned *)field = (unsigned)seconds(text, e->def, e->max);
    break;
  case UPK_ENV_INT:
    *(int *)field = text ? leading_int(text) : (int)e->def;
    break;
  case UPK_ENV_POSITIVE:
    *(int *)field = text && leading_int(text) > 0 ? leading_int(text) : (int)e->def;
    break;
  case UPK_ENV_ONE:
    *(bool *)field = text && !strcmp(text, "1");
    break;
  }
}

static bool is_string(const upk_env_entry *e) {
  return e->kind == UPK_ENV_TEXT || e->kind == UPK_ENV_RAW;
}

static const char **string_field(const upk_env_entry *e) {
  return (const char **)((char *)&opts + e->offset);
}

/* Strings are copied: a later setenv of the same name may free what getenv returned. */
static void load(void) {
  for (int i = 0; i < UPK_ENV_COUNT; i++) {
    upk_env_opts_parse((upk_env_var)i, getenv(TABLE[i].name), &opts);
    if (is_string(&TABLE[i]) && *string_field(&TABLE[i]))
      *string_field(&TABLE[i]) = upk_xstrdup(*string_field(&TABLE[i]));
  }
}

const upk_env_options *upk_env_opts(void) {
  pthread_once(&once, load);
  return &opts;
}

void upk_env_opts_reload(void) {
  pthread_once(&once, load);
  for (int i = 0; i < UPK_ENV_COUNT; i++)
    if (is_string(&TABLE[i]))
      free((char *)*string_field(&TABLE[i]));
  load();
}

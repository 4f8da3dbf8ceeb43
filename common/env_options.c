/* The UPSKILLD* variables; see env_options.h. */
#include "common/env_options.h"

#include "common/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define WEEK_S (86400L * 7)
#define F(field) offsetof(upk_env_options, field)

/* One row per variable, in upk_env_var's order; docs/daemon.md lists the same names (a unit
 * test compares them). The numeric defaults are the values the readers always had. */
static const upk_env_entry TABLE[UPK_ENV_COUNT] = {
    [UPK_ENV_DAEMON] = {"UPSKILLD", UPK_ENV_TEXT, F(daemon), 0, 0,
                        "the `upskilld` next to upskillctl, then on `PATH`", "upskillctl",
                        "the daemon upskillctl starts (when there is no `--server`)"},
    [UPK_ENV_WORKER] = {"UPSKILLD_WORKER", UPK_ENV_TEXT, F(worker), 0, 0,
                        "`upskilld-worker` beside the daemon", "upskilld, upskilld-worker",
                        "the worker program: the daemon's kernel workers, the sanitizer's "
                        "re-executed worker"},
    [UPK_ENV_WORKER_COMMAND] = {"UPSKILLD_WORKER_COMMAND", UPK_ENV_TEXT, F(worker_command), 0, 0,
                                "none: workers run here", "upskilld",
                                "a command every worker starts through (`srun --gres=gpu:1`); "
                                "`--worker-command` wins"},
    [UPK_ENV_WORKER_SERVER_IDLE] = {"UPSKILLD_WORKER_SERVER_IDLE", UPK_ENV_SECONDS,
                                    F(worker_server_idle), 600, WEEK_S, "600", "upskilld",
                                    "seconds the worker server idles before exiting (at most a "
                                    "week; `0`: no server); `--worker-server-idle` wins"},
    [UPK_ENV_WORKER_FAULTS] =
        {"UPSKILLD_WORKER_FAULTS", UPK_ENV_ONE, F(worker_faults), 0, 0, "unset", "upskilld-worker",
         "`1`: the worker's test ops (echo, sleep, crash, hang...) answer; the daemon sets "
         "it for its workers with `--test-methods`"},
    [UPK_ENV_PYTHON] = {"UPSKILLD_PYTHON", UPK_ENV_TEXT, F(python), 0, 0, "`python3` from `PATH`",
                        "upskilld, upskilld-worker",
                        "the python3 (with torch) for PyTorch references; `--python` wins"},
    [UPK_ENV_PYREF_HELPER] = {"UPSKILLD_PYREF_HELPER", UPK_ENV_TEXT, F(pyref_helper), 0, 0,
                              "`upskilld-pyref.py` beside the worker", "upskilld-worker",
                              "the PyTorch reference's helper script"},
    [UPK_ENV_LIBCUDA] = {"UPSKILLD_LIBCUDA", UPK_ENV_TEXT, F(libcuda), 0, 0, "`libcuda.so.1`",
                         "upskilld-worker",
                         "the driver library to load (tests name a missing one: no driver)"},
    [UPK_ENV_LIBRARY] = {"UPSKILLD_LIBRARY", UPK_ENV_TEXT, F(library), 0, 0,
                         "`<prefix>/share/upskilld/library`, else the source tree's", "upskilld",
                         "the built-in skill library"},
    [UPK_ENV_INDEX] = {"UPSKILLD_INDEX", UPK_ENV_RAW, F(index), 0, 0,
                       "a file under `$XDG_CACHE_HOME/upskilld/`", "upskilld",
                       "the skill index file; `:memory:` or empty: in memory"},
    [UPK_ENV_MAX_DIRS] = {"UPSKILLD_MAX_DIRS", UPK_ENV_INT, F(max_dirs), 0, 0, "200,000",
                          "upskilld",
                          "directories scanned per skill root (`<= 0`: the default); "
                          "`initializationOptions.skills.maxDirs` wins"},
    [UPK_ENV_SCAN_BATCH] = {"UPSKILLD_SCAN_BATCH", UPK_ENV_POSITIVE, F(scan_batch), 4000, 0, "4000",
                            "upskilld",
                            "skills indexed per queue item of the first scan (tests: several "
                            "batches)"},
    [UPK_ENV_WATCH_PAGE] = {"UPSKILLD_WATCH_PAGE", UPK_ENV_POSITIVE, F(watch_page), 4096, 0, "4096",
                            "upskilld",
                            "placements listed per queue item while the watch set is built "
                            "(tests: many pages)"},
    [UPK_ENV_TIDY_PAGES] = {"UPSKILLD_TIDY_PAGES", UPK_ENV_POSITIVE, F(tidy_pages), 200, 0, "200",
                            "upskilld",
                            "index pages merged per queue item after a scan (tests: a merge "
                            "of many steps)"},
    [UPK_ENV_FAULT] = {"UPSKILLD_FAULT", UPK_ENV_TEXT, F(fault), 0, 0, "unset", "all",
                       "fault injection for tests: `POINT[:N[:ACTION]]`, comma-separated "
                       "(docs/testing.md)"},
};

static upk_env_options opts;
static pthread_once_t once = PTHREAD_ONCE_INIT;

const upk_env_entry *upk_env_opts_entry(upk_env_var var) {
  return &TABLE[var];
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
    *(int *)field = text ? atoi(text) : (int)e->def;
    break;
  case UPK_ENV_POSITIVE:
    *(int *)field = text && atoi(text) > 0 ? atoi(text) : (int)e->def;
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

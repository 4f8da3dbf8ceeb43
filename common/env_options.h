/** The UPSKILLD* environment variables, in one table and one struct.
 *
 * The project's programs (upskilld, upskilld-worker, upskillctl) and the libraries they share
 * read these variables here and nowhere else: once per process, at the first upk_env_opts()
 * call, parsed into typed fields with the defaults of the table (env_options.c, listed in
 * docs/daemon.md, "Environment variables"); tests set them in the environment as before. A
 * command-line flag that overrides a variable (upskilld --worker-command, --worker-server-idle,
 * --python) is applied by its reader: flag, else the field, else the field's default. Children
 * started with the inherited environment read the same values in turn. */
#ifndef UPK_ENV_OPTIONS_H
#define UPK_ENV_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/** The variables, in the table's order (one field of upk_env_options each). */
typedef enum upk_env_var {
  UPK_ENV_DAEMON,
  UPK_ENV_WORKER,
  UPK_ENV_WORKER_COMMAND,
  UPK_ENV_WORKER_SERVER_IDLE,
  UPK_ENV_WORKER_FAULTS,
  UPK_ENV_PYTHON,
  UPK_ENV_PYREF_HELPER,
  UPK_ENV_LIBCUDA,
  UPK_ENV_LIBRARY,
  UPK_ENV_INDEX,
  UPK_ENV_MAX_DIRS,
  UPK_ENV_SCAN_BATCH,
  UPK_ENV_WATCH_PAGE,
  UPK_ENV_TIDY_PAGES,
  UPK_ENV_IDLE_RELEASE,
  UPK_ENV_LIST_WAIT,
  UPK_ENV_FAULT,
  UPK_ENV_FETCH_TIMEOUT,
  UPK_ENV_RANK_DUMP,
  UPK_ENV_COUNT
} upk_env_var;

/** The values. Strings are NULL when the variable is unset or empty (index: only when unset,
 * since an empty UPSKILLD_INDEX asks for an in-memory index); numbers hold the table's default
 * when the variable is unset or not a valid value. */
typedef struct upk_env_options {
  const char *daemon;          /* UPSKILLD: the upskilld that upskillctl starts */
  const char *worker;          /* UPSKILLD_WORKER: the upskilld-worker program */
  const char *worker_command;  /* UPSKILLD_WORKER_COMMAND: a prefix the workers start through */
  unsigned worker_server_idle; /* UPSKILLD_WORKER_SERVER_IDLE: seconds; 0: no worker server */
  bool worker_faults;          /* UPSKILLD_WORKER_FAULTS=1: the worker's fault ops answer */
  const char *python;          /* UPSKILLD_PYTHON: python3 for PyTorch references */
  const char *pyref_helper;    /* UPSKILLD_PYREF_HELPER: the PyTorch reference's helper script */
  const char *libcuda;         /* UPSKILLD_LIBCUDA: the driver library to dlopen */
  const char *library;         /* UPSKILLD_LIBRARY: the built-in skill library */
  const char *index;           /* UPSKILLD_INDEX: the skill index file ("": in memory) */
  int max_dirs;                /* UPSKILLD_MAX_DIRS: directories per root; <= 0: the index's */
  int scan_batch;              /* UPSKILLD_SCAN_BATCH: skills indexed per queue item */
  int watch_page;              /* UPSKILLD_WATCH_PAGE: watch placements listed per queue item */
  int tidy_pages;              /* UPSKILLD_TIDY_PAGES: index pages merged per queue item */
  int list_wait_ms;            /* UPSKILLD_LIST_WAIT_MS: a progress-less listing's first wait */
  int idle_release_ms;         /* UPSKILLD_IDLE_RELEASE_MS: quiet time before the cache goes */
  const char *fault;           /* UPSKILLD_FAULT: fault-injection rules (common/fault.h) */
  unsigned fetch_timeout;      /* UPSKILLD_FETCH_TIMEOUT: seconds one git source's fetch has */
  const char *rank_dump;       /* UPSKILLD_RANK_DUMP: bench-only ranking-feature dump file */
} upk_env_options;

/** How a variable's text becomes its field. */
typedef enum upk_env_kind {
  UPK_ENV_TEXT,     /* a string; empty is unset */
  UPK_ENV_RAW,      /* a string; empty is a value */
  UPK_ENV_SECONDS,  /* digits only, at most `max`; anything else (or empty): the default */
  UPK_ENV_INT,      /* the text's leading integer when set (as atoi read it), else default */
  UPK_ENV_POSITIVE, /* its leading integer when that is > 0, else the default */
  UPK_ENV_ONE       /* true when the text is exactly "1" */
} upk_env_kind;

/** One row of the table. */
typedef struct upk_env_entry {
  const char *name;        /* "UPSKILLD_WORKER" */
  upk_env_kind kind;       /* how it is parsed */
  size_t offset;           /* of its field in upk_env_options */
  long def, max;           /* numbers: the default, and the largest value (SECONDS) */
  const char *shown;       /* the default as docs/daemon.md states it */
  const char *readers;     /* the programs that read it */
  const char *description; /* one line: what it does */
} upk_env_entry;

/** The values of this process's environment, read at the first call (thread-safe). The
 * struct and its strings live until exit. */
const upk_env_options *upk_env_opts(void);

/** Reads the environment again (a test that changes a variable within one process). Not
 * thread-safe: no other thread may be reading the options; strings from before are freed. */
void upk_env_opts_reload(void);

/** Parses `text` (NULL: unset) as variable `var` would be parsed into its field of `out`,
 * leaving the other fields alone: how a flag that overrides the variable gets the same
 * parsing. Strings are borrowed from `text`. */
void upk_env_opts_parse(upk_env_var var, const char *text, upk_env_options *out);

/** The table's row for `var` (var < UPK_ENV_COUNT). */
const upk_env_entry *upk_env_opts_entry(upk_env_var var);

#endif

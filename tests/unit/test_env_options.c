/* common/env_options.c: each kind of variable parsed as its reader always did (defaults, bad
 * values, empty strings), the struct read from the environment, and docs/daemon.md's
 * "Environment variables" table equal to the options table, row for row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env_options.h"
#include "tests/unit/unit.h"

static upk_env_options parsed(upk_env_var var, const char *text) {
  upk_env_options o;
  memset(&o, 0xa5, sizeof o); /* a field the parse leaves alone would show */
  upk_env_opts_parse(var, text, &o);
  return o;
}

UTest(env_options, positive_numbers_take_atoi_above_zero_else_the_default) {
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, NULL).scan_batch, 4000);
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, "300").scan_batch, 300);
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, "0").scan_batch, 4000);
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, "-5").scan_batch, 4000);
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, "many").scan_batch, 4000);
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, "").scan_batch, 4000);
  cr_assert_eq(parsed(UPK_ENV_SCAN_BATCH, "12abc").scan_batch, 12, "atoi's prefix, as before");
  cr_assert_eq(parsed(UPK_ENV_WATCH_PAGE, NULL).watch_page, 4096);
  cr_assert_eq(parsed(UPK_ENV_WATCH_PAGE, "1000").watch_page, 1000);
  cr_assert_eq(parsed(UPK_ENV_TIDY_PAGES, NULL).tidy_pages, 200);
  cr_assert_eq(parsed(UPK_ENV_TIDY_PAGES, "1").tidy_pages, 1);
}

UTest(env_options, max_dirs_is_atoi_when_set) {
  cr_assert_eq(parsed(UPK_ENV_MAX_DIRS, NULL).max_dirs, 0, "0: the index's own limit");
  cr_assert_eq(parsed(UPK_ENV_MAX_DIRS, "50").max_dirs, 50);
  cr_assert_eq(parsed(UPK_ENV_MAX_DIRS, "-3").max_dirs, -3);
  cr_assert_eq(parsed(UPK_ENV_MAX_DIRS, "lots").max_dirs, 0);
}

UTest(env_options, idle_seconds_are_digits_only_and_capped_at_a_week) {
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, NULL).worker_server_idle, 600);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "").worker_server_idle, 600);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "0").worker_server_idle, 0);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "60").worker_server_idle, 60);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "-1").worker_server_idle, 600);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, " 5").worker_server_idle, 600);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "5s").worker_server_idle, 600);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "604801").worker_server_idle, 604800);
  cr_assert_eq(parsed(UPK_ENV_WORKER_SERVER_IDLE, "99999999999999999999999").worker_server_idle,
               604800);
}

UTest(env_options, strings_and_the_faults_flag) {
  cr_assert_null(parsed(UPK_ENV_WORKER, NULL).worker);
  cr_assert_null(parsed(UPK_ENV_WORKER, "").worker, "empty is unset");
  cr_assert_str_eq(parsed(UPK_ENV_WORKER, "/w").worker, "/w");
  cr_assert_null(parsed(UPK_ENV_INDEX, NULL).index);
  cr_assert_str_eq(parsed(UPK_ENV_INDEX, "").index, "", "an empty index path means memory");
  cr_assert(parsed(UPK_ENV_WORKER_FAULTS, "1").worker_faults);
  cr_assert_not(parsed(UPK_ENV_WORKER_FAULTS, "0").worker_faults);
  cr_assert_not(parsed(UPK_ENV_WORKER_FAULTS, "true").worker_faults);
  cr_assert_not(parsed(UPK_ENV_WORKER_FAULTS, NULL).worker_faults);
}

UTest(env_options, the_struct_holds_the_environment_of_the_first_call) {
  for (int i = 0; i < UPK_ENV_COUNT; i++)
    unsetenv(upk_env_opts_entry((upk_env_var)i)->name);
  setenv("UPSKILLD_SCAN_BATCH", "77", 1);
  setenv("UPSKILLD_TIDY_PAGES", "none", 1);
  setenv("UPSKILLD_LIBRARY", "/lib/skills", 1);
  const upk_env_options *o = upk_env_opts();
  cr_assert_eq(o->scan_batch, 77);
  cr_assert_eq(o->tidy_pages, 200);
  cr_assert_eq(o->watch_page, 4096);
  cr_assert_eq(o->worker_server_idle, 600);
  cr_assert_str_eq(o->library, "/lib/skills");
  cr_assert_null(o->python);
  setenv("UPSKILLD_SCAN_BATCH", "5", 1);
  unsetenv("UPSKILLD_LIBRARY");
  cr_assert_eq(upk_env_opts()->scan_batch, 77, "read once");
  cr_assert_str_eq(upk_env_opts()->library, "/lib/skills");
  upk_env_opts_reload();
  cr_assert_eq(upk_env_opts()->scan_batch, 5);
  cr_assert_null(upk_env_opts()->library);
}

/* docs/daemon.md's section, read through UPK_SOURCE_ROOT (set by the test environment). */
static char *doc_section(void) {
  const char *root = getenv("UPK_SOURCE_ROOT");
  cr_assert(root && *root, "UPK_SOURCE_ROOT is not set (run the tests through meson test)");
  char path[4096];
  snprintf(path, sizeof path, "%s/docs/daemon.md", root);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  char *start = strstr(text, "\n## Environment variables\n");
  cr_assert_not_null(start, "docs/daemon.md has no section \"Environment variables\"");
  char *end = strstr(start + 1, "\n## ");
  if (end)
    end[1] = '\0';
  return start;
}

UTest(env_options, docs_list_exactly_the_table) {
  char *section = doc_section();
  char row[1024];
  for (int i = 0; i < UPK_ENV_COUNT; i++) {
    const upk_env_entry *e = upk_env_opts_entry((upk_env_var)i);
    snprintf(row, sizeof row, "\n| `%s` | %s | %s | %s |\n", e->name, e->shown, e->description,
             e->readers);
    cr_assert_not_null(strstr(section, row), "docs/daemon.md lacks the row%s", row);
  }
  int rows = 0;
  for (char *p = section; (p = strstr(p, "\n| `UPSKILLD")); p++)
    rows++;
  cr_assert_eq(rows, UPK_ENV_COUNT, "docs/daemon.md lists %d variables, the table %d", rows,
               UPK_ENV_COUNT);
}

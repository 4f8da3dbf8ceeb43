/* common/run.c's upk_run_program_opts: the child's whole environment when env_only, its
 * group killed at the deadline, and with kill_group also when it exits, so what it left in
 * the background is gone (checked by the group id the child printed: only ours). */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/run.h"

/* Is any process of group `pgid` left after up to 5 s? (A killed one lingers until reaped.) */
static bool group_alive(pid_t pgid) {
  for (int i = 0; i < 50; i++) {
    if (kill(-pgid, 0) < 0 && errno == ESRCH)
      return false;
    nanosleep(&(struct timespec){0, 100000000}, NULL);
  }
  return true;
}

Test(run, env_only_is_the_whole_environment) {
  setenv("UPK_RUN_TEST_SECRET_KEY", "sk-x", 1);
  const char *argv[] = {"/bin/sh", "-c", "echo \"[$UPK_RUN_TEST_SECRET_KEY][$ONLY]\"", NULL};
  const char *env[] = {"ONLY=1", NULL};
  upk_run_opts o = {argv, NULL, env, true, 10000, 256, -1, false};
  upk_run_result res;
  cr_assert_eq(upk_run_program_opts(&o, &res), 0);
  cr_assert_str_eq(res.output, "[][1]\n");
  upk_run_result_free(&res);
  o.env_only = false; /* added to ours */
  cr_assert_eq(upk_run_program_opts(&o, &res), 0);
  cr_assert_str_eq(res.output, "[sk-x][1]\n");
  upk_run_result_free(&res);
  unsetenv("UPK_RUN_TEST_SECRET_KEY");
}

Test(run, kill_group_on_exit) {
  const char *argv[] = {"/bin/sh", "-c", "(sleep 300 >/dev/null 2>&1 &); echo $$", NULL};
  upk_run_opts o = {argv, NULL, NULL, false, 10000, 256, -1, true};
  upk_run_result res;
  cr_assert_eq(upk_run_program_opts(&o, &res), 0);
  cr_assert_eq(res.exit_code, 0);
  pid_t pgid = (pid_t)atoi(res.output);
  cr_assert_gt(pgid, 1);
  cr_assert(!group_alive(pgid), "the background sleep of group %d was killed", (int)pgid);
  upk_run_result_free(&res);
}

Test(run, deadline_kills_the_group) {
  const char *argv[] = {"/bin/sh", "-c", "echo $$; sleep 300 & sleep 300", NULL};
  upk_run_opts o = {argv, NULL, NULL, false, 500, 256, -1, false};
  upk_run_result res;
  time_t t0 = time(NULL);
  cr_assert_eq(upk_run_program_opts(&o, &res), 0);
  cr_assert(res.timed_out);
  cr_assert_lt(time(NULL) - t0, 10);
  pid_t pgid = (pid_t)atoi(res.output);
  cr_assert(!group_alive(pgid), "group %d killed at the deadline", (int)pgid);
  upk_run_result_free(&res);
}

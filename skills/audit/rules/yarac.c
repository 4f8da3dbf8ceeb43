/* Build tool: compile the audit's embedded YARA rules (skills/audit/audit_rules_compile.c) and save
 * them in libyara's own format to OUT, which the build then links into the binary
 * (skills/audit/rules/incbin.py): a daemon loads them in milliseconds instead of compiling the
 * rule text at its first audit (about 0.4 s of CPU per process).
 *
 *   yarac OUT */
#include <stdio.h>
#include <yara.h>

#include "skills/audit/audit_rules.h"

int main(int argc, char **argv) {
  char err[512];
  YR_RULES *rules = NULL;
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT\n", argv[0]);
    return 2;
  }
  if (yr_initialize() != ERROR_SUCCESS) {
    fprintf(stderr, "yarac: libyara could not start\n");
    return 1;
  }
  int rc = 0;
  if (upk__audit_rules_compile(&rules, err, sizeof err) != 0) {
    fprintf(stderr, "yarac: the audit's rules do not compile: %s\n", err);
    rc = 1;
  } else if (yr_rules_save(rules, argv[1]) != ERROR_SUCCESS) {
    fprintf(stderr, "yarac: could not write %s\n", argv[1]);
    rc = 1;
  }
  if (rules)
    yr_rules_destroy(rules);
  yr_finalize();
  return rc;
}

/* The audit's YARA rules compiled from the embedded rule text: at build time by
 * skills/audit/rules/yarac.c, which saves them for the binary, and at run time only where that
 * saved form cannot be loaded. One function, so both compile the same rules the same way. */
#include "skills/audit/audit_rules.h"

#include <stdio.h>
#include <yara.h>

struct compile_errors {
  char *buf;
  size_t cap;
};

static void on_compile(int level, const char *file, int line, const YR_RULE *rule, const char *msg,
                       void *data) {
  struct compile_errors *e = data;
  (void)rule;
  if (level == YARA_ERROR_LEVEL_ERROR && e->cap && !e->buf[0])
    snprintf(e->buf, e->cap, "%s:%d: %s", file ? file : "?", line, msg);
}

int upk__audit_rules_compile(YR_RULES **out, char *err, size_t err_cap) {
  struct compile_errors e = {err, err_cap};
  YR_COMPILER *c = NULL;
  *out = NULL;
  if (err_cap)
    err[0] = '\0';
  if (yr_compiler_create(&c) != ERROR_SUCCESS) {
    snprintf(err, err_cap, "libyara could not start");
    return -1;
  }
  yr_compiler_set_callback(c, on_compile, &e);
  /* Externals: the file's language, whether it is a script, whether it is prose. */
  yr_compiler_define_string_variable(c, "lang", "");
  yr_compiler_define_boolean_variable(c, "is_script", 0);
  yr_compiler_define_boolean_variable(c, "is_prose", 0);
  int errors = 0;
  for (size_t i = 0; i < upk__audit_rule_count && !errors; i++)
    errors = yr_compiler_add_string(c, upk__audit_rule_files[i].text, NULL);
  if (!errors && yr_compiler_get_rules(c, out) != ERROR_SUCCESS) {
    snprintf(err, err_cap, "libyara: out of memory");
    errors = 1;
  }
  yr_compiler_destroy(c);
  return errors ? -1 : 0;
}

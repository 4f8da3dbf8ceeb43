/* upskillctl restore, check and update: the project's skills-lock.json (lock_cmds.h). */
#include "clients/lock_cmds.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clients/commands.h"
#include "clients/skills_cmds.h"

static const char *str_of(json_t *o, const char *k) {
  const char *v = json_string_value(json_object_get(o, k));
  return v ? v : "-";
}

/* restore [--frozen], check [NAME...], update [NAME...]: the project's skills-lock.json. */
int ctl_lock_command(ctl *c, int argc, char **argv) {
  const char *verb = argv[0];
  int frozen = 0, ch;
  optind = 0;
  while ((ch = getopt_long(argc, argv, ctl_shortopts(verb), ctl_longopts(verb), NULL)) != -1) {
    if (ch != 'F') {
      ctl_usage_hint(verb);
      return 2;
    }
    frozen = 1;
  }
  bool restore = !strcmp(verb, "restore");
  if (restore && optind < argc) {
    fprintf(stderr, "upskillctl restore: expected no arguments\n");
    return 2;
  }
  json_t *p = json_object(), *names = json_array();
  for (int i = optind; i < argc; i++)
    json_array_append_new(names, json_string(argv[i]));
  if (json_array_size(names))
    json_object_set(p, "names", names);
  json_decref(names);
  if (frozen)
    json_object_set_new(p, "frozen", json_true());
  if (!strcmp(verb, "update"))
    json_object_set_new(p, "update", json_true());
  int err = 0, rc = 0;
  c->diag_file = "skills-lock.json"; /* a refusal's diagnostics are about the lock */
  json_t *r = ctl_call(c, restore ? "skills/restore" : "skills/check", p, &err), *e;
  c->diag_file = NULL;
  if (!r)
    return 1;
  size_t i;
  ctl_print_diags(stdout, "skills-lock.json", json_object_get(r, "diagnostics"), NULL, NULL);
  if (c->json) {
    ctl_print_json(r);
  } else if (!json_array_size(json_object_get(r, restore ? "restored" : "skills")) &&
             !json_array_size(json_object_get(r, "diagnostics"))) {
    printf("%s: nothing to %s (upskillctl install SOURCE adds one)\n",
           access("skills-lock.json", F_OK) ? "no skills-lock.json here"
                                            : "skills-lock.json names no skill",
           verb);
  } else if (restore) {
    json_array_foreach(json_object_get(r, "restored"), i, e) ctl_print_targets("install", e);
  } else {
    json_array_foreach(json_object_get(r, "skills"), i, e) {
      bool old = json_is_true(json_object_get(e, "outdated"));
      const json_t *updated = json_object_get(e, "updated"); /* false: refused (diagnostics) */
      const char *state = !old                    ? "up to date"
                          : json_is_true(updated) ? "updated"
                          : updated               ? "not updated"
                                                  : "outdated";
      printf("%-32s %-10s %s\n", str_of(e, "name"), state, str_of(e, "source"));
      rc |= old && !json_is_true(updated);
    }
  }
  json_decref(r);
  return rc;
}

/* trust [DIR] [--list], untrust [DIR]: the user's store of trusted projects (common/trust.h,
 * docs/security.md). Answered here, in the user's own process, never through the daemon: no
 * daemon method writes the store, so neither an agent nor an editor's settings can trust a
 * project. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clients/commands.h"
#include "clients/ctl.h"
#include "common/trust.h"

static const char *state_word(upk_trust t) {
  return t == UPK_TRUST_YES ? "trusted" : t == UPK_TRUST_CHANGED ? "changed" : "untrusted";
}

/* The config files the trust covers, each with whether it is there now (never followed). */
static json_t *covered(const char *real) {
  json_t *a = json_array();
  for (size_t i = 0; upk_trust_files[i]; i++) {
    char p[PATH_MAX + 64];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", real, upk_trust_files[i]);
    json_array_append_new(
        a, json_pack("{s:s,s:b}", "name", upk_trust_files[i], "present", lstat(p, &st) == 0));
  }
  return a;
}

static int trust_one(const char *dir, int json) {
  char real[PATH_MAX], hex[65], err[PATH_MAX + 128];
  if (upk_trust_grant(dir, real, hex, err, sizeof err)) {
    fprintf(stderr, "upskillctl trust: %s\n", err);
    return 1;
  }
  json_t *files = covered(real);
  if (json) {
    json_t *j = json_pack("{s:s,s:s,s:o}", "path", real, "sha256", hex, "files", files);
    ctl_print_json(j);
    json_decref(j);
    return 0;
  }
  printf("trusted %s\n  config sha256 %s\n  covers ", real, hex);
  size_t i;
  json_t *f;
  json_array_foreach(files, i, f) {
    printf("%s%s (%s)", i ? ", " : "", json_string_value(json_object_get(f, "name")),
           json_is_true(json_object_get(f, "present")) ? "present" : "absent");
  }
  printf("\n  its agent commands, environment, login files, git host and directories now take "
         "effect;\n  an edit to these files lapses the trust until you run upskillctl trust "
         "again\n");
  json_decref(files);
  return 0;
}

static int untrust_one(const char *dir, int json) {
  char real[PATH_MAX], err[PATH_MAX + 128];
  const char *key = realpath(dir, real) ? real : dir;
  json_t *list = upk_trust_list();
  int was = json_object_get(list, key) != NULL;
  json_decref(list);
  if (upk_trust_revoke(dir, err, sizeof err)) {
    fprintf(stderr, "upskillctl untrust: %s\n", err);
    return 1;
  }
  if (json) {
    json_t *j = json_pack("{s:s,s:b}", "path", key, "wasTrusted", was);
    ctl_print_json(j);
    json_decref(j);
  } else
    printf(was ? "untrusted %s\n" : "%s was not trusted\n", key);
  return 0;
}

static int list_all(int json) {
  json_t *list = upk_trust_list();
  const char *path;
  json_t *e;
  json_object_foreach(list, path, e) {
    struct stat st;
    const char *state = stat(path, &st) ? "missing" : state_word(upk_trust_check(path));
    json_object_set_new(e, "state", json_string(state));
  }
  if (json) {
    ctl_print_json(list);
    json_decref(list);
    return 0;
  }
  if (!json_object_size(list))
    printf("no trusted projects (upskillctl trust DIR trusts one)\n");
  else
    printf("%-9s  %-20s  %s\n", "STATE", "TRUSTED AT", "PROJECT");
  json_object_foreach(list, path, e) {
    printf("%-9s  %-20s  %s\n", json_string_value(json_object_get(e, "state")),
           json_string_value(json_object_get(e, "trustedAt")) ?: "?", path);
  }
  json_decref(list);
  return 0;
}

int ctl_trust_command(int argc, char **argv, int json) {
  const char *cmd = argv[0];
  int list = 0, ch;
  optind = 0;
  opterr = 1;
  while ((ch = getopt_long(argc, argv, ctl_shortopts(cmd), ctl_longopts(cmd), NULL)) != -1) {
    if (ch != 'l') {
      ctl_usage_hint(cmd);
      return 2;
    }
    list = 1;
  }
  if (argc - optind > 1 || (list && argc - optind)) {
    fprintf(stderr, "upskillctl %s: expected at most one directory%s\n", cmd,
            list ? " and not with --list" : "");
    ctl_usage_hint(cmd);
    return 2;
  }
  const char *dir = optind < argc ? argv[optind] : ".";
  if (list)
    return list_all(json);
  return !strcmp(cmd, "trust") ? trust_one(dir, json) : untrust_one(dir, json);
}

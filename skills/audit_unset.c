/* rm -rf "$X"/ and a glob, of a variable the file never sets (ShellCheck SC2115): unset, it
 * expands to rm -rf / and the glob; Make's $(X) and ${X} alike (an undefined Make variable is
 * empty). A rule with `unset_var = "veto"`
 * (audit_rules/catalogue_impact.yar) drops its matches whose variable the file sets, declares,
 * reads, tests or defaults, or whose shell stops on unset names (set -u), or that the login or a CI
 * runner always sets (HOME, GITHUB_...). */
#include "skills/audit_int.h"

#include <ctype.h>
#include <string.h>

#define NAME_LEN_MAX 64

/* CURDIR: Make sets it to the directory it runs in */
static const char *const ALWAYS[] = {"HOME",    "PWD",   "OLDPWD", "USER",
                                     "LOGNAME", "SHELL", "PATH",   "CURDIR"};
static const char *const RUNNER_PREFIX[] = {"GITHUB_", "RUNNER_", "CI_"};

static bool word_char(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

/* The first variable named in d[at, at + n): `$NAME`, `${NAME` or Make's `$(NAME`; 0 when none. */
static size_t var_name(const char *d, size_t at, size_t n, char *name) {
  for (size_t i = at; i + 1 < at + n; i++) {
    if (d[i] != '$')
      continue;
    size_t j = i + 1 + (d[i + 1] == '{' || d[i + 1] == '('), k = 0;
    while (j < at + n && word_char(d[j]) && k + 1 < NAME_LEN_MAX)
      name[k++] = d[j++];
    name[k] = '\0';
    if (k && !isdigit((unsigned char)name[0]))
      return k;
  }
  return 0;
}

/* `set -u`, `set -eu`, `set -euo pipefail`, `set -o nounset`: an unset name stops the script. */
static bool nounset(const char *d, size_t len) {
  if (memmem(d, len, "nounset", 7))
    return true;
  for (const char *p = d; (p = memmem(p, len - (size_t)(p - d), "set -", 5)); p += 5) {
    if (p > d && word_char(p[-1]))
      continue;
    for (const char *q = p + 5; q < d + len && isalpha((unsigned char)*q); q++)
      if (*q == 'u')
        return true;
  }
  return false;
}

/* Whether the file gives `name` a value or checks it: the name written bare (NAME=, export,
 * read, for NAME in, local), or used as ${NAME:?, ${NAME:=, ${NAME?, or on a test's line. */
static bool set_or_checked(const char *d, size_t len, const char *name, size_t k) {
  for (const char *p = d; (p = memmem(p, len - (size_t)(p - d), name, k)); p += k) {
    size_t at = (size_t)(p - d);
    if ((at && word_char(d[at - 1])) || (at + k < len && word_char(d[at + k])))
      continue;
    bool braced = at >= 2 && (d[at - 1] == '{' || d[at - 1] == '(') && d[at - 2] == '$';
    if (!(at && d[at - 1] == '$') && !braced)
      return true; /* NAME=..., export NAME, read NAME, for NAME in */
    if (braced && at + k + 1 < len &&
        (d[at + k] == '?' || (d[at + k] == ':' && (d[at + k + 1] == '?' || d[at + k + 1] == '='))))
      return true;
    size_t ls = at, le = at;
    while (ls && d[ls - 1] != '\n')
      ls--;
    while (le < len && d[le] != '\n')
      le++;
    if (memmem(d + ls, le - ls, "[ ", 2) || memmem(d + ls, le - ls, "test ", 5) ||
        memmem(d + ls, le - ls, "[[ ", 3))
      return true;
  }
  return false;
}

bool upk__audit_unset_var(const char *d, size_t len, size_t at, size_t n) {
  char name[NAME_LEN_MAX];
  size_t k = var_name(d, at, n, name);
  if (!k)
    return true;
  for (size_t i = 0; i < sizeof ALWAYS / sizeof *ALWAYS; i++)
    if (!strcmp(name, ALWAYS[i]))
      return true;
  for (size_t i = 0; i < sizeof RUNNER_PREFIX / sizeof *RUNNER_PREFIX; i++)
    if (!strncmp(name, RUNNER_PREFIX[i], strlen(RUNNER_PREFIX[i])))
      return true;
  return nounset(d, len) || set_or_checked(d, len, name, k);
}

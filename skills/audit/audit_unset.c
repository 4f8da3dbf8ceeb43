/* rm -rf "$X"/ and a glob, of a variable the file never sets (ShellCheck SC2115): unset, it
 * expands to rm -rf / and the glob; Make's $(X) and ${X} alike (an undefined Make variable is
 * empty). A rule with `unset_var = "veto"`
 * (audit_rules/catalogue_impact.yar) drops its matches whose variable the file sets, declares,
 * reads, tests or defaults, or whose shell stops on unset names (set -u), or that the login or a CI
 * runner always sets (HOME, GITHUB_...). */
#include "skills/audit/audit_int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define NAME_LEN_MAX 64

/* CURDIR: Make sets it to the directory it runs in */
static const char *const ALWAYS[] = {"HOME",    "PWD",   "OLDPWD", "USER",
                                     "LOGNAME", "SHELL", "PATH",   "CURDIR"};
static const char *const RUNNER_PREFIX[] = {"GITHUB_", "RUNNER_", "CI_"};

static bool word_char(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

/* Whether d[at] starts PowerShell's `$env:` (any case). */
static bool ps_env_at(const char *d, size_t len, size_t at) {
  return at + 5 <= len && d[at] == '$' && !strncasecmp(d + at + 1, "env:", 4);
}

/* The first variable named in d[at, at + n): `$NAME`, `${NAME`, Make's `$(NAME`, PowerShell's
 * `$env:NAME` or cmd's `%NAME%`; 0 when none. */
static size_t var_name(const char *d, size_t at, size_t n, char *name) {
  for (size_t i = at; i + 1 < at + n; i++) {
    if (d[i] != '$' && d[i] != '%')
      continue;
    size_t j = i + 1, k = 0;
    if (d[i] == '$')
      j += ps_env_at(d, at + n, i) ? 4 : (d[i + 1] == '{' || d[i + 1] == '(');
    while (j < at + n && word_char(d[j]) && k + 1 < NAME_LEN_MAX)
      name[k++] = d[j++];
    name[k] = '\0';
    if (d[i] == '%' && (j >= at + n || d[j] != '%'))
      continue; /* a lone percent sign, not cmd's %NAME% */
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

/* Whether the line holding d[at] is a comment (#, //, cmd's REM and ::). */
static bool comment_line(const char *d, size_t at) {
  size_t ls = at;
  while (ls && d[ls - 1] != '\n')
    ls--;
  while (ls < at && (d[ls] == ' ' || d[ls] == '\t'))
    ls++;
  return d[ls] == '#' || !strncmp(d + ls, "//", 2) || !strncmp(d + ls, "::", 2) ||
         !strncasecmp(d + ls, "rem ", 4);
}

/* PowerShell's `= value` after a name (not `==`, `-eq`): the variable is given a value. */
static bool assigned(const char *p, size_t n) {
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t'))
    i++;
  return i < n && p[i] == '=' && (i + 1 >= n || p[i + 1] != '=');
}

/* A line that tests a value: the shell's test and [ ], PowerShell's `if (`/`-not`/
 * IsNullOrEmpty, cmd's `if [not] defined`. */
static bool test_line(const char *l, size_t n) {
  static const char *const TESTS[] = {"[ ",  "test ", "[[ ",      "if (",
                                      "if(", "-not ", "IsNullOr", "defined "};
  for (size_t i = 0; i < sizeof TESTS / sizeof *TESTS; i++)
    if (memmem(l, n, TESTS[i], strlen(TESTS[i])))
      return true;
  return false;
}

/* Whether the file gives `name` a value or checks it: the name written bare (NAME=, export,
 * read, for NAME in, local, `$env:NAME =`, `set NAME=`), or used as ${NAME:?, ${NAME:=, ${NAME?, or
 * on a test's line. */
static bool set_or_checked(const char *d, size_t len, const char *name, size_t k) {
  for (const char *p = d; (p = memmem(p, len - (size_t)(p - d), name, k)); p += k) {
    size_t at = (size_t)(p - d);
    if ((at && word_char(d[at - 1])) || (at + k < len && word_char(d[at + k])) ||
        comment_line(d, at))
      continue; /* a comment that names the variable ("X is set by CI") neither sets nor checks */
    bool braced = at >= 2 && (d[at - 1] == '{' || d[at - 1] == '(') && d[at - 2] == '$';
    bool env = at >= 5 && ps_env_at(d, len, at - 5), cmd = at && d[at - 1] == '%';
    if (env && assigned(d + at + k, len - at - k))
      return true; /* $env:NAME = ... */
    if (!(at && d[at - 1] == '$') && !braced && !env && !cmd)
      return true; /* NAME=..., export NAME, read NAME, for NAME in, set NAME= */
    if (braced && at + k + 1 < len &&
        (d[at + k] == '?' || (d[at + k] == ':' && (d[at + k + 1] == '?' || d[at + k + 1] == '='))))
      return true;
    size_t ls = at, le = at;
    while (ls && d[ls - 1] != '\n')
      ls--;
    while (le < len && d[le] != '\n')
      le++;
    if (test_line(d + ls, le - ls))
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

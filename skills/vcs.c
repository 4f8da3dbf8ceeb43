/* Version-control metadata in a skill's paths (vcs.h). */
#include "skills/vcs.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const NAMES[] = {".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", "git~1"};

/* The length of a code point HFS+ ignores at s (UTF-8), else 0: U+200C..U+200F,
 * U+202A..U+202E, U+206A..U+206F, U+FEFF (git's is_hfs_dotgit list). */
static size_t hfs_ignorable(const unsigned char *s, size_t left) {
  if (left >= 3 && s[0] == 0xE2 && s[1] == 0x80 &&
      ((s[2] >= 0x8C && s[2] <= 0x8F) || (s[2] >= 0xAA && s[2] <= 0xAE)))
    return 3;
  if (left >= 3 && s[0] == 0xE2 && s[1] == 0x81 && s[2] >= 0xAA && s[2] <= 0xAF)
    return 3;
  if (left >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
    return 3;
  return 0;
}

bool upk_vcs_name(const char *name, size_t len) {
  char folded[64];
  size_t n = 0;
  const unsigned char *s = (const unsigned char *)name;
  for (size_t i = 0; i < len;) {
    size_t skip = hfs_ignorable(s + i, len - i);
    if (skip) {
      i += skip;
      continue;
    }
    if (n + 1 >= sizeof folded)
      return false; /* longer than any name above, whatever is dropped from its end */
    folded[n++] = (char)tolower(s[i++]);
  }
  while (n && (folded[n - 1] == '.' || folded[n - 1] == ' '))
    n--;
  folded[n] = '\0';
  for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++)
    if (!strcmp(folded, NAMES[i]))
      return true;
  return false;
}

const char *upk_vcs_in_path(const char *rel, size_t *len) {
  for (const char *p = rel; p && *p;) {
    size_t n = strcspn(p, "/");
    if (upk_vcs_name(p, n)) {
      *len = n;
      return p;
    }
    p += n;
    while (*p == '/')
      p++;
  }
  return NULL;
}

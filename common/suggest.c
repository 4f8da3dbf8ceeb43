/* "Did you mean": optimal string alignment distance and the nearest close candidate. */
#include "common/suggest.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xalloc.h"

enum { SUGGEST_MAX = 64 };

static unsigned char lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static size_t min3(size_t a, size_t b, size_t c) {
  size_t m = a < b ? a : b;
  return m < c ? m : c;
}

size_t upk_edit_distance(const char *a, const char *b) {
  size_t n = strnlen(a, SUGGEST_MAX), m = strnlen(b, SUGGEST_MAX);
  /* three rows of the dynamic programme: two back (for a transposition), one back, this one */
  size_t rows[3][SUGGEST_MAX + 1];
  size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++)
    prev[j] = j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = i;
    unsigned char ca = lower((unsigned char)a[i - 1]);
    for (size_t j = 1; j <= m; j++) {
      unsigned char cb = lower((unsigned char)b[j - 1]);
      size_t cost = ca != cb;
      cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && ca == lower((unsigned char)b[j - 2]) &&
          lower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < cur[j])
        cur[j] = pp[j - 2] + 1;
    }
    size_t *t = pp;
    pp = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

const char *upk_suggest(const char *word, const char *const *cands, size_t n) {
  if (!word || !*word)
    return NULL;
  const char *best = NULL;
  size_t best_d = (size_t)-1;
  for (size_t i = 0; i < n; i++) {
    if (!cands[i] || !*cands[i])
      continue;
    size_t d = upk_edit_distance(word, cands[i]);
    if (d == 0)
      return NULL; /* the word is known: nothing to suggest */
    size_t len = strnlen(word, SUGGEST_MAX), cl = strnlen(cands[i], SUGGEST_MAX);
    size_t cut = (len > cl ? len : cl) / 3;
    if (cut < 1)
      cut = 1;
    if (cut > 3)
      cut = 3;
    if (d <= cut && d < best_d) {
      best = cands[i];
      best_d = d;
    }
  }
  return best;
}

enum { SUGGEST_DIR_MAX = 4096 };

/* The entry of `dir` nearest to `name`, into out (NAME_MAX + 1); false when none is close. */
static bool nearest_entry(const char *dir, const char *name, char *out) {
  DIR *d = opendir(dir);
  if (!d)
    return false;
  char **cands = upk_xcalloc(SUGGEST_DIR_MAX, sizeof *cands);
  size_t n = 0;
  struct dirent *e;
  while (n < SUGGEST_DIR_MAX && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      cands[n++] = upk_xstrdup(e->d_name);
  closedir(d);
  const char *best = upk_suggest(name, (const char *const *)cands, n);
  if (best)
    snprintf(out, NAME_MAX + 1, "%s", best);
  for (size_t i = 0; i < n; i++)
    free(cands[i]);
  free(cands);
  return best != NULL;
}

enum { BELOW_DEPTH = 4, BELOW_DIRS = 256 };

/* A directory below `dir` worth looking in: not hidden, not a link, not a build or package tree. */
static bool worth_entering(const char *dir, const char *name, char *out) {
  static const char *const skip[] = {"node_modules", "build", "__pycache__", NULL};
  if (name[0] == '.')
    return false;
  for (size_t i = 0; skip[i]; i++)
    if (!strcmp(name, skip[i]))
      return false;
  struct stat st;
  snprintf(out, PATH_MAX, "%s/%s", dir, name);
  return strlen(dir) + strlen(name) + 2 < PATH_MAX && !lstat(out, &st) && S_ISDIR(st.st_mode);
}

/* The file `name` a few directories below `dir` (breadth first: the shallowest wins), as an agent
 * names src/gain.cu by gain.cu. At most BELOW_DIRS directories and SUGGEST_DIR_MAX entries in
 * all are read; links are never followed. True with the path in out (PATH_MAX). */
static bool find_below(const char *dir, const char *name, char *out) {
  char **queue = upk_xcalloc(BELOW_DIRS, sizeof *queue);
  int depth[BELOW_DIRS];
  size_t head = 0, tail = 0, read = 0;
  bool found = false;
  queue[tail] = upk_xstrdup(dir), depth[tail++] = 0;
  while (head < tail && !found && read < SUGGEST_DIR_MAX) {
    const char *at = queue[head];
    int dp = depth[head++];
    DIR *d = opendir(at);
    struct dirent *e;
    char sub[PATH_MAX];
    while (d && !found && read++ < SUGGEST_DIR_MAX && (e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      if (dp > 0 && !strcmp(e->d_name, name)) {
        snprintf(out, PATH_MAX, "%s/%s", at, name);
        found = strlen(at) + strlen(name) + 2 < PATH_MAX;
      } else if (dp < BELOW_DEPTH && tail < BELOW_DIRS && worth_entering(at, e->d_name, sub)) {
        queue[tail] = upk_xstrdup(sub), depth[tail++] = dp + 1;
      }
    }
    if (d)
      closedir(d);
  }
  for (size_t i = 0; i < tail; i++)
    free(queue[i]);
  free(queue);
  return found;
}

bool upk_suggest_path(const char *path, char *out, size_t len) {
  struct stat st;
  if (path[0] != '/' || strlen(path) >= PATH_MAX || len < 2)
    return false;
  char have[PATH_MAX] = "";
  const char *p = path;
  bool mended = false;
  while (*p) {
    while (*p == '/')
      p++;
    size_t n = strcspn(p, "/");
    if (!n)
      break;
    char name[NAME_MAX + 1], next[PATH_MAX];
    snprintf(name, sizeof name, "%.*s", (int)(n < NAME_MAX ? n : NAME_MAX), p);
    p += n;
    if (!strcmp(name, ".") || !strcmp(name, ".."))
      return false; /* mended only below what was named, never above it */
    snprintf(next, sizeof next, "%s/%s", have, name);
    if (lstat(next, &st)) {
      char fix[NAME_MAX + 1];
      bool last = !p[strspn(p, "/")];
      if (nearest_entry(have[0] ? have : "/", name, fix))
        snprintf(next, sizeof next, "%s/%s", have, fix);
      else if (!last || !have[0] || !find_below(have, name, next))
        return false;
      mended = true;
    }
    snprintf(have, sizeof have, "%s", next);
  }
  if (!mended || lstat(have, &st) || strlen(have) >= len)
    return false;
  snprintf(out, len, "%s", have);
  return true;
}

/* The .cu files beneath a directory, for check-kernel DIR: a kernel developer's repository.
 *
 * Walked without following a link (a link loop cannot trap it; a link is counted, not read),
 * skipping hidden entries (.git), build output (build/, build-*, cmake-build-*, _build,
 * CMakeFiles, dist, node_modules, __pycache__) and what .gitignore ignores: `git check-ignore
 * --no-index` when the tree is in a git work tree (core.fsmonitor off: a cloned repository's
 * config runs nothing), else the root's .gitignore read simply (names, globs, dir/). At most
 * TREE_MAX_ENTRIES entries are looked at; past that the walk stops and says so. An unreadable
 * directory is reported by name, the rest still walked. */
#include "clients/kernel_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "common/run.h"
#include "common/xalloc.h"

enum { GIT_BATCH = 256, GIT_TIMEOUT_MS = 20000, GITIGNORE_MAX = 256 << 10 };

static bool build_dir(const char *name) {
  static const char *const exact[] = {"build",        "_build",      "CMakeFiles", "dist",
                                      "node_modules", "__pycache__", NULL};
  for (size_t i = 0; exact[i]; i++)
    if (!strcmp(name, exact[i]))
      return true;
  return !strncmp(name, "build-", 6) || !strncmp(name, "cmake-build-", 12);
}

static void add(char ***v, size_t *n, size_t *cap, char *s) {
  UPK_GROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = s;
}

/* One directory, relative to root ("" for the root itself); subdirectories pushed on the stack. */
static void walk_one(ctl_cu_tree *t, const char *root, const char *rel, char ***stack, size_t *ns,
                     size_t *cs) {
  char *abs = *rel ? upk_xasprintf("%s/%s", root, rel) : upk_xstrdup(root);
  DIR *d = opendir(abs);
  if (!d) {
    add(&t->unreadable, &t->n_unreadable, &t->cap_unreadable,
        upk_xasprintf("%s: %s", *rel ? rel : ".", strerror(errno)));
    free(abs);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) && !t->truncated) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    if (t->seen == TREE_MAX_ENTRIES) {
      t->truncated = true;
      break;
    }
    t->seen++;
    if (e->d_name[0] == '.')
      continue;
    char *path = *rel ? upk_xasprintf("%s/%s", rel, e->d_name) : upk_xstrdup(e->d_name);
    struct stat st;
    char *full = upk_xasprintf("%s/%s", abs, e->d_name);
    int ok = lstat(full, &st);
    free(full);
    size_t len = strlen(e->d_name);
    if (ok) {
      free(path);
    } else if (S_ISLNK(st.st_mode)) {
      t->links++;
      free(path);
    } else if (S_ISDIR(st.st_mode) && build_dir(e->d_name)) {
      t->build_dirs++;
      free(path);
    } else if (S_ISDIR(st.st_mode)) {
      add(stack, ns, cs, path);
    } else if (S_ISREG(st.st_mode) && len > 3 && !strcmp(e->d_name + len - 3, ".cu")) {
      add(&t->files, &t->n, &t->cap, path);
    } else {
      free(path);
    }
  }
  closedir(d);
  free(abs);
}

/* 1: ignored by the simple reading of .gitignore's patterns (no negation, no **). */
static bool simple_ignored(char **pats, size_t np, const char *path) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  for (size_t i = 0; i < np; i++) {
    const char *p = pats[i];
    size_t pl = strlen(p);
    if (p[pl - 1] == '/') { /* a directory: any component of the path's folders */
      char *dir = upk_xasprintf("%.*s", (int)(pl - 1), p);
      bool hit = false;
      for (const char *s = path, *slash; !hit && (slash = strchr(s, '/')); s = slash + 1) {
        char *comp = upk_xasprintf("%.*s", (int)(slash - s), s);
        hit = fnmatch(dir, comp, 0) == 0;
        free(comp);
      }
      free(dir);
      if (hit)
        return true;
    } else if (strchr(p, '/') ? fnmatch(*p == '/' ? p + 1 : p, path, FNM_PATHNAME) == 0
                              : fnmatch(p, base, 0) == 0) {
      return true;
    }
  }
  return false;
}

static void filter_simple(ctl_cu_tree *t, const char *root) {
  char *text = NULL;
  size_t len = 0;
  if (upk_read_beneath(root, ".gitignore", GITIGNORE_MAX, &text, &len))
    return;
  char **pats = NULL, *save = NULL;
  size_t np = 0, cap = 0;
  for (char *l = strtok_r(text, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save))
    if (*l && *l != '#' && *l != '!')
      add(&pats, &np, &cap, l);
  size_t kept = 0;
  for (size_t i = 0; i < t->n; i++) {
    if (simple_ignored(pats, np, t->files[i])) {
      t->ignored++;
      free(t->files[i]);
    } else {
      t->files[kept++] = t->files[i];
    }
  }
  t->n = kept;
  free(pats);
  free(text);
}

/* git check-ignore on files[from, to): marks the ignored ones NULL. -1: not a git tree. */
static int git_batch(ctl_cu_tree *t, const char *root, size_t from, size_t to) {
  const char **argv = upk_xcalloc(to - from + 8, sizeof *argv);
  size_t a = 0;
  argv[a++] = "git";
  argv[a++] = "-c";
  argv[a++] = "core.fsmonitor=false";
  argv[a++] = "check-ignore";
  argv[a++] = "--no-index";
  argv[a++] = "--";
  for (size_t i = from; i < to; i++)
    argv[a++] = t->files[i];
  upk_run_result res = {0};
  int rc = upk_run_program(argv, root, NULL, GIT_TIMEOUT_MS, 1 << 20, &res);
  free(argv);
  if (rc || res.timed_out || (res.exit_code != 0 && res.exit_code != 1)) {
    upk_run_result_free(&res);
    return -1;
  }
  char *save = NULL;
  for (char *l = strtok_r(res.output, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
    for (size_t i = from; i < to; i++)
      if (t->files[i] && !strcmp(t->files[i], l)) {
        free(t->files[i]);
        t->files[i] = NULL;
        t->ignored++;
        break;
      }
  upk_run_result_free(&res);
  return 0;
}

static void filter_ignored(ctl_cu_tree *t, const char *root) {
  for (size_t from = 0; from < t->n; from += GIT_BATCH) {
    size_t to = from + GIT_BATCH < t->n ? from + GIT_BATCH : t->n;
    if (git_batch(t, root, from, to)) {
      if (from == 0) { /* not a git work tree, or no git: the .gitignore read simply */
        filter_simple(t, root);
        return;
      }
      break;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->files[i])
      t->files[kept++] = t->files[i];
  t->n = kept;
}

static int by_path(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void ctl_cu_tree_walk(const char *root, ctl_cu_tree *t) {
  memset(t, 0, sizeof *t);
  char **stack = NULL;
  size_t ns = 0, cs = 0;
  add(&stack, &ns, &cs, upk_xstrdup(""));
  while (ns && !t->truncated) {
    char *rel = stack[--ns];
    walk_one(t, root, rel, &stack, &ns, &cs);
    free(rel);
  }
  while (ns)
    free(stack[--ns]);
  free(stack);
  if (t->n)
    filter_ignored(t, root);
  if (t->n > 1)
    qsort(t->files, t->n, sizeof *t->files, by_path);
}

void ctl_cu_tree_free(ctl_cu_tree *t) {
  for (size_t i = 0; i < t->n; i++)
    free(t->files[i]);
  for (size_t i = 0; i < t->n_unreadable; i++)
    free(t->unreadable[i]);
  free(t->files);
  free(t->unreadable);
  memset(t, 0, sizeof *t);
}

/* Finding the skills in a source, as vercel's `skills` CLI does (source.h, DISCOVERY). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "skills/skill.h"
#include "skills/source.h"
#include "common/xalloc.h"

#define DEEP_LEVELS 5
#define PRIORITY_LEVELS 3

typedef struct finder {
  const char *root; /* the repository (or local directory) */
  upk_found_skills *out;
} finder;

static const char *const SKIPPED[] = {"node_modules", ".git", "dist", "build", "__pycache__"};
static const char *const AGENT_DIRS[] = {".agents/skills", ".claude/skills",  ".github/skills",
                                         ".codex/skills",  ".cursor/skills",  ".opencode/skills",
                                         ".gemini/skills", ".windsurf/skills"};
static const char *const SKILLS_DIRS[] = {"skills", "skills/.curated", "skills/.experimental",
                                          "skills/.system"};

static bool is_real_dir(const char *p) {
  struct stat st;
  return lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_real_file(const char *p) {
  struct stat st;
  return lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *path_join(const char *a, const char *b) {
  return upk_xasprintf("%s/%s", a, b);
}

static bool known(const upk_found_skills *f, const char *name) {
  for (size_t i = 0; i < f->len; i++)
    if (!strcmp(f->items[i].name, name))
      return true;
  return false;
}

static int push(upk_found_skills *f, upk_found_skill s) {
  UPK_GROW(f->items, f->cap, f->len + 1);
  f->items[f->len++] = s;
  return 0;
}

/* `dir` holds SKILL.md: add it when it names itself and says what it does (the first of a
 * name wins). True when it was a skill directory at all (do not look inside it). */
static bool try_skill(finder *fd, const char *dir) {
  char *md = path_join(dir, "SKILL.md");
  if (!md || !is_real_file(md)) {
    free(md);
    return false;
  }
  upk_skill s;
  upk_diags ignored = {0};
  if (upk_skill_load(md, &s, &ignored) == 0 && s.name && *s.name && s.description &&
      !known(fd->out, s.name)) {
    size_t n = strlen(fd->root);
    upk_found_skill f = {upk_xstrdup(s.name), upk_xstrdup(s.description), upk_xstrdup(dir),
                         upk_xstrdup(md[n] == '/' ? md + n + 1 : md)};
    if (!f.name || !f.description || !f.dir || !f.skill_path || push(fd->out, f)) {
      free(f.name);
      free(f.description);
      free(f.dir);
      free(f.skill_path);
    }
  }
  upk_skill_free(&s);
  upk_diags_free(&ignored);
  free(md);
  return true;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool skipped(const char *name) {
  for (size_t i = 0; i < sizeof SKIPPED / sizeof *SKIPPED; i++)
    if (!strcmp(name, SKIPPED[i]))
      return true;
  return false;
}

/* Skills in the subdirectories of `dir`, down to `levels` below it. */
static void scan(finder *fd, const char *dir, int levels) {
  DIR *d = levels > 0 ? opendir(dir) : NULL;
  struct dirent *e;
  char **subs = NULL;
  size_t n = 0;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || skipped(e->d_name))
      continue;
    char *sub = path_join(dir, e->d_name), **grown = upk_xrealloc(subs, (n + 1) * sizeof *subs);
    if (!sub || !grown || !is_real_dir(sub)) {
      free(sub);
      subs = grown ? grown : subs;
      continue;
    }
    subs = grown;
    subs[n++] = sub;
  }
  if (d)
    closedir(d);
  /* Sorted, so the first of a name is the same on every file system. */
  if (n)
    qsort(subs, n, sizeof *subs, by_name);
  for (size_t i = 0; i < n; i++) {
    if (!try_skill(fd, subs[i]))
      scan(fd, subs[i], levels - 1);
    free(subs[i]);
  }
  free(subs);
}

/* A path a plugin manifest gives: "./x" inside the repository, nothing else. */
static char *plugin_path(const char *base, const char *rel) {
  if (!rel || strncmp(rel, "./", 2) || strstr(rel, ".."))
    return NULL;
  return path_join(base, rel + 2);
}

/* .claude-plugin/marketplace.json: each plugin's skills/ (below its source and the
 * metadata's pluginRoot) and the skills it lists. */
static void marketplace(finder *fd, const char *base) {
  char *file = path_join(base, ".claude-plugin/marketplace.json");
  json_t *m = file && is_real_file(file) ? json_load_file(file, 0, NULL) : NULL, *p, *sk;
  free(file);
  const char *root_rel =
      json_string_value(json_object_get(json_object_get(m, "metadata"), "pluginRoot"));
  char *root = root_rel ? plugin_path(base, root_rel) : upk_xstrdup(base);
  size_t i, k;
  json_array_foreach(json_object_get(m, "plugins"), i, p) {
    const char *src = json_string_value(json_object_get(p, "source"));
    char *dir = root ? (src ? plugin_path(root, src) : upk_xstrdup(root)) : NULL;
    char *skills = dir ? path_join(dir, "skills") : NULL;
    if (skills && is_real_dir(skills))
      scan(fd, skills, PRIORITY_LEVELS);
    json_array_foreach(json_object_get(p, "skills"), k, sk) {
      char *one = dir ? plugin_path(dir, json_string_value(sk)) : NULL;
      if (one && is_real_dir(one) && !try_skill(fd, one))
        scan(fd, one, 1);
      free(one);
    }
    free(skills);
    free(dir);
  }
  free(root);
  json_decref(m);
}

int upk_source_discover(const char *root, const char *subpath, upk_found_skills *out,
                        upk_diags *d) {
  (void)d;
  memset(out, 0, sizeof *out);
  char *base = subpath && *subpath ? path_join(root, subpath) : upk_xstrdup(root);
  if (!base)
    return -ENOMEM;
  if (!is_real_dir(base)) {
    free(base);
    return -ENOENT;
  }
  finder fd = {root, out};
  if (!try_skill(&fd, base)) {
    scan(&fd, base, 1);
    for (size_t i = 0; i < sizeof SKILLS_DIRS / sizeof *SKILLS_DIRS; i++) {
      char *p = path_join(base, SKILLS_DIRS[i]);
      if (p && is_real_dir(p))
        scan(&fd, p, PRIORITY_LEVELS);
      free(p);
    }
    for (size_t i = 0; i < sizeof AGENT_DIRS / sizeof *AGENT_DIRS; i++) {
      char *p = path_join(base, AGENT_DIRS[i]);
      if (p && is_real_dir(p))
        scan(&fd, p, 1);
      free(p);
    }
    marketplace(&fd, base);
    if (!out->len)
      scan(&fd, base, DEEP_LEVELS);
  }
  free(base);
  return 0;
}

void upk_found_skills_free(upk_found_skills *f) {
  for (size_t i = 0; i < f->len; i++) {
    free(f->items[i].name);
    free(f->items[i].description);
    free(f->items[i].dir);
    free(f->items[i].skill_path);
  }
  free(f->items);
  memset(f, 0, sizeof *f);
}

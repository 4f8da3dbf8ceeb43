/* Finding the skills in a source, as vercel's `skills` CLI does (source.h, DISCOVERY). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trust.h"
#include "skills/skill.h"
#include "skills/source.h"
#include "common/xalloc.h"

#define DEEP_LEVELS 5
#define PRIORITY_LEVELS 3

typedef struct finder {
  const char *root; /* the repository (or local directory) */
  char real_root[PATH_MAX];
  upk_found_skills *out;
  upk_diags *d;
  json_t *told; /* the links already reported, by path below the root */
  size_t errors;
  bool every; /* an audit's: broken and same-named skills too */
} finder;

/* A discovery diagnostic about the whole source. */
__attribute__((format(printf, 4, 5))) static void fdiag(finder *fd, upk_severity sev,
                                                        const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (fd->d)
    upk_diags_vadd(fd->d, sev, code, "upskilld-source", upk_skill_whole_file(), fmt, ap);
  va_end(ap);
  fd->errors += sev == UPK_SEV_ERROR;
}

/* `path` below the root, for messages. */
static const char *below(const finder *fd, const char *path) {
  size_t n = strlen(fd->root);
  return !strncmp(path, fd->root, n) && path[n] == '/' ? path + n + 1 : path;
}

/* A symbolic link where discovery would have gone on (a directory on the way to a skill, the
 * skill itself, its SKILL.md). It is never followed. One that leads out of the repository (or
 * nowhere) refuses the install: a stranger's repository may not read the user's files
 * (rule trust/read); one inside is only not followed (`loud`: said, as a warning). */
static void link_met(finder *fd, const char *path, bool loud) {
  const char *rel = below(fd, path);
  if (json_object_get(fd->told, rel))
    return;
  json_object_set_new(fd->told, rel, json_true());
  char real[PATH_MAX], why[512], what[PATH_MAX + 64];
  size_t n = strlen(fd->real_root);
  bool inside = realpath(path, real) && !strncmp(real, fd->real_root, n) &&
                (real[n] == '/' || real[n] == '\0');
  if (inside) {
    if (loud)
      fdiag(fd, UPK_SEV_WARNING, "source/symlink-skipped",
            "%s is a symbolic link: not followed (a source's skills are found where they are)",
            rel);
    return;
  }
  snprintf(what, sizeof what, "%s, a symbolic link to outside the repository,", rel);
  fdiag(fd, UPK_SEV_ERROR, "source/symlink-outside", "%s",
        upk_policy_refusal(why, sizeof why, UPK_ORIGIN_STRANGER, UPK_POWER_READ, what, NULL));
}

/* Whether root/rel is a directory reached without passing a symbolic link (each component
 * opened with O_NOFOLLOW from the root); a link on the way is reported (link_met). */
static bool reach(finder *fd, const char *rel, bool loud) {
  int dfd = open(fd->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  char *path = upk_xstrdup(fd->root);
  bool ok = dfd >= 0;
  for (const char *p = rel; ok && *p;) {
    size_t n = strcspn(p, "/");
    char name[NAME_MAX + 1];
    struct stat st;
    if (n == 0 || n > NAME_MAX) {
      ok = n == 0;
      p += n + (p[n] == '/');
      continue;
    }
    memcpy(name, p, n);
    name[n] = '\0';
    char *next = upk_xasprintf("%s/%s", path, name);
    free(path);
    path = next;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
      ok = false;
    } else if (S_ISLNK(st.st_mode)) {
      link_met(fd, path, loud);
      ok = false;
    } else {
      int sub = S_ISDIR(st.st_mode)
                    ? openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    : -1;
      close(dfd);
      dfd = sub;
      ok = sub >= 0;
    }
    p += n + (p[n] == '/');
  }
  if (dfd >= 0)
    close(dfd);
  free(path);
  return ok;
}

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

/* Skill `s` in `dir` added to what was found; s NULL: its frontmatter did not load (an
 * audit's: listed under the directory's name, with the first error of `why`). */
static void found(finder *fd, const char *dir, const char *md, const upk_skill *s,
                  const upk_diags *why) {
  size_t n = strlen(fd->root);
  const char *base = strrchr(dir, '/') ? strrchr(dir, '/') : dir - 1;
  const char *err = "it has no name or description";
  for (size_t i = 0; i < why->len && !s; i++)
    if (why->items[i].severity == UPK_SEV_ERROR) {
      err = why->items[i].message;
      break;
    }
  const char *name = s ? s->name : base + 1;
  upk_found_skill f = {upk_xstrdup(name), upk_xstrdup(s ? s->description : ""), upk_xstrdup(dir),
                       upk_xstrdup(md[n] == '/' ? md + n + 1 : md), s ? NULL : upk_xstrdup(err)};
  /* One SKILL.md is one skill, however many ways reach it (skills/ and a marketplace's plugins
   * that share the root): an audit audits it once. */
  bool again = false;
  for (size_t i = 0; f.skill_path && i < fd->out->len && !again; i++)
    again = !strcmp(fd->out->items[i].skill_path, f.skill_path);
  if (again || !f.name || !f.description || !f.dir || !f.skill_path || (!s && !f.broken) ||
      push(fd->out, f)) {
    free(f.name);
    free(f.description);
    free(f.dir);
    free(f.skill_path);
    free(f.broken);
  }
}

/* `dir` holds SKILL.md: add it when it names itself and says what it does (the first of a
 * name wins; an audit's finder takes every one). True when it was a skill directory at all
 * (do not look inside it). */
static bool try_skill(finder *fd, const char *dir) {
  char *md = path_join(dir, "SKILL.md");
  struct stat st;
  bool link = md && lstat(md, &st) == 0 && S_ISLNK(st.st_mode);
  if (link)
    link_met(fd, md, true);
  if (md && fd->every && lstat(md, &st) == 0 && !S_ISREG(st.st_mode)) {
    /* A link, directory, FIFO or device named SKILL.md: the audit says so (never reading
     * through a link) and audits the rest; an install finds no skill here. */
    upk_diags why = {0};
    upk_diags_add(&why, UPK_SEV_ERROR, "skill/not-a-file", md, (upk_range){0},
                  "SKILL.md is a %s, not a file",
                  link                  ? "symbolic link (not followed)"
                  : S_ISDIR(st.st_mode) ? "directory"
                                        : "special file");
    found(fd, dir, md, NULL, &why);
    upk_diags_free(&why);
    free(md);
    return true;
  }
  if (!md || !is_real_file(md)) {
    free(md);
    return false;
  }
  upk_skill s;
  upk_diags ignored = {0};
  bool ok = upk_skill_load(md, &s, &ignored) == 0 && s.name && *s.name && s.description;
  if ((ok && (fd->every || !known(fd->out, s.name))) || (!ok && fd->every))
    found(fd, dir, md, ok ? &s : NULL, &ignored);
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
    struct stat st, to;
    /* A link to a directory is where discovery would have gone on (one to a file or nowhere
     * could never be a skill): refused when it leads out, quietly not followed inside. */
    if (lstat(sub, &st) == 0 && S_ISLNK(st.st_mode) && stat(sub, &to) == 0 && S_ISDIR(to.st_mode))
      link_met(fd, sub, false);
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

/* A path a plugin manifest gives (`field` of plugin `plugin`), relative to `base` (a
 * directory below the root, "" for the root): "./x" or "x", plain names only. Malloc'd, below
 * the root; NULL when there is none or it is refused (an absolute path, '..', a backslash:
 * source/marketplace-path, which refuses the install). */
static char *plugin_path(finder *fd, const char *base, const char *rel, const char *plugin,
                         const char *field) {
  if (!rel)
    return NULL;
  const char *p = !strncmp(rel, "./", 2) ? rel + 2 : rel;
  const char *why = NULL;
  if (rel[0] == '/' || p[0] == '/')
    why = "is an absolute path";
  else if (strchr(rel, '\\'))
    why = "has a backslash";
  for (const char *q = p; !why && *q;) {
    size_t n = strcspn(q, "/");
    if (n == 2 && !strncmp(q, "..", 2))
      why = "has a '..' component";
    q += n + (q[n] == '/');
  }
  if (why) {
    char msg[1024], what[768];
    snprintf(what, sizeof what, ".claude-plugin/marketplace.json: plugin '%s' %s '%s' %s;", plugin,
             field, rel, why);
    fdiag(fd, UPK_SEV_ERROR, "source/marketplace-path", "%s",
          upk_policy_refusal(msg, sizeof msg, UPK_ORIGIN_STRANGER, UPK_POWER_READ, what, NULL));
    return NULL;
  }
  size_t n = strlen(p);
  while (n && p[n - 1] == '/')
    n--;
  return *base ? (n ? upk_xasprintf("%s/%.*s", base, (int)n, p) : upk_xstrdup(base))
               : upk_xstrndup(p, n);
}

/* Scan root/rel (reached without a link) down `levels`; `one`: rel may be a skill itself. */
static void scan_rel(finder *fd, const char *rel, int levels, bool one) {
  if (!reach(fd, rel, true))
    return;
  char *abs = *rel ? path_join(fd->root, rel) : upk_xstrdup(fd->root);
  if (!one || !try_skill(fd, abs))
    scan(fd, abs, levels);
  free(abs);
}

/* .claude-plugin/marketplace.json (below `base`): each plugin's skills/ (below its source and
 * the metadata's pluginRoot) and the skills it lists. */
static void marketplace(finder *fd, const char *base) {
  char *rel = *base ? upk_xasprintf("%s/.claude-plugin", base) : upk_xstrdup(".claude-plugin");
  char *file = path_join(fd->root, rel);
  char *mfile = reach(fd, rel, true) ? path_join(file, "marketplace.json") : NULL;
  json_t *m = mfile && is_real_file(mfile) ? json_load_file(mfile, 0, NULL) : NULL, *p, *sk;
  free(rel);
  free(file);
  free(mfile);
  const char *root_rel =
      json_string_value(json_object_get(json_object_get(m, "metadata"), "pluginRoot"));
  char *root =
      root_rel ? plugin_path(fd, base, root_rel, "(metadata)", "pluginRoot") : upk_xstrdup(base);
  size_t i, k;
  json_array_foreach(json_object_get(m, "plugins"), i, p) {
    const char *src = json_string_value(json_object_get(p, "source"));
    const char *name = json_string_value(json_object_get(p, "name"));
    if (!src && json_object_get(p, "source"))
      continue; /* another repository ({"source": "github", ...}): not this one's */
    char *dir =
        root ? (src ? plugin_path(fd, root, src, name ? name : "?", "source") : upk_xstrdup(root))
             : NULL;
    char *skills = dir ? (*dir ? upk_xasprintf("%s/skills", dir) : upk_xstrdup("skills")) : NULL;
    if (skills)
      scan_rel(fd, skills, PRIORITY_LEVELS, false);
    json_array_foreach(json_object_get(p, "skills"), k, sk) {
      char *one =
          dir ? plugin_path(fd, dir, json_string_value(sk), name ? name : "?", "skills") : NULL;
      if (one)
        scan_rel(fd, one, 1, true);
      free(one);
    }
    free(skills);
    free(dir);
  }
  free(root);
  json_decref(m);
}

static int discover(const char *root, const char *subpath, upk_found_skills *out, upk_diags *d,
                    bool every) {
  memset(out, 0, sizeof *out);
  const char *sub = subpath ? subpath : "";
  finder fd = {.root = root, .out = out, .d = d, .told = json_object(), .every = every};
  if (!realpath(root, fd.real_root))
    snprintf(fd.real_root, sizeof fd.real_root, "%s", root);
  if (!reach(&fd, sub, true)) {
    json_decref(fd.told);
    return fd.errors ? -EPERM : -ENOENT;
  }
  char *base = *sub ? path_join(root, sub) : upk_xstrdup(root);
  if (!try_skill(&fd, base)) {
    scan(&fd, base, 1);
    for (size_t i = 0; i < sizeof SKILLS_DIRS / sizeof *SKILLS_DIRS; i++) {
      char *rel = *sub ? upk_xasprintf("%s/%s", sub, SKILLS_DIRS[i]) : upk_xstrdup(SKILLS_DIRS[i]);
      scan_rel(&fd, rel, PRIORITY_LEVELS, false);
      free(rel);
    }
    for (size_t i = 0; i < sizeof AGENT_DIRS / sizeof *AGENT_DIRS; i++) {
      char *rel = *sub ? upk_xasprintf("%s/%s", sub, AGENT_DIRS[i]) : upk_xstrdup(AGENT_DIRS[i]);
      scan_rel(&fd, rel, 1, false);
      free(rel);
    }
    marketplace(&fd, sub);
    if (!out->len)
      scan(&fd, base, DEEP_LEVELS);
  }
  free(base);
  json_decref(fd.told);
  return fd.errors ? -EPERM : 0;
}

int upk_source_discover(const char *root, const char *subpath, upk_found_skills *out,
                        upk_diags *d) {
  return discover(root, subpath, out, d, false);
}

int upk_source_discover_every(const char *root, const char *subpath, upk_found_skills *out,
                              upk_diags *d) {
  return discover(root, subpath, out, d, true);
}

bool upk_source_path_clean(const char *root, const char *dir, upk_diags *d) {
  finder fd = {.root = root, .d = d, .told = json_object()};
  if (!realpath(root, fd.real_root))
    snprintf(fd.real_root, sizeof fd.real_root, "%s", root);
  size_t n = strlen(root);
  const char *rel = !strncmp(dir, root, n) && (dir[n] == '/' || !dir[n]) ? dir + n : NULL;
  bool ok = rel && reach(&fd, rel + (*rel == '/'), true);
  if (!rel)
    fdiag(&fd, UPK_SEV_ERROR, "source/symlink-outside", "%s is not inside the source %s", dir,
          root);
  json_decref(fd.told);
  return ok && !fd.errors;
}

void upk_found_skills_free(upk_found_skills *f) {
  for (size_t i = 0; i < f->len; i++) {
    free(f->items[i].name);
    free(f->items[i].description);
    free(f->items[i].dir);
    free(f->items[i].skill_path);
    free(f->items[i].broken);
  }
  free(f->items);
  memset(f, 0, sizeof *f);
}

/* Skill sources: parsing a source and fetching a git one (source.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "skills/source.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fnv1a.h"
#include "skills/fsutil.h"
#include "common/run.h"
#include "skills/skill.h"
#include "common/xalloc.h"

#define DEFAULT_HOST "https://github.com"
#define GIT_OUTPUT_CAP 8192

/* A source diagnostic: an error about the whole source. */
__attribute__((format(printf, 3, 4))) static void sdiag(upk_diags *d, const char *code,
                                                        const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_diags_vadd(d, UPK_SEV_ERROR, code, "upskilld-source", upk_skill_whole_file(), fmt, ap);
  va_end(ap);
}

/* ---- parsing ---- */

static bool starts(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}

static bool is_url(const char *s) {
  return starts(s, "https://") || starts(s, "http://") || starts(s, "ssh://") ||
         starts(s, "git://") || starts(s, "file://") || starts(s, "git@");
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *joined(const char *dir, const char *rel) {
  return upk_xasprintf("%s/%s", dir, rel);
}

static bool shorthand_char(char c) {
  return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* owner/repo[/path]: two plain names, then anything. */
static bool is_shorthand(const char *s) {
  const char *p = s;
  int names = 0;
  while (names < 2) {
    const char *b = p;
    while (shorthand_char(*p))
      p++;
    if (p == b || !strcmp(b, ".") || !strcmp(b, ".."))
      return false;
    names++;
    if (names < 2 && *p++ != '/')
      return false;
  }
  return *p == '\0' || *p == '/' || *p == '@' || *p == '#';
}

/* Cut "#ref" (and, for the shorthand, "@ref") off `s` (modified in place). */
static char *cut_ref(char *s, bool at_too) {
  char *h = strrchr(s, '#');
  if (!h && at_too)
    h = strchr(s, '@');
  if (!h)
    return NULL;
  *h = '\0';
  return h[1] ? upk_xstrdup(h + 1) : NULL;
}

/* Why `path` (a path inside a repository, from a source the user or a lock names) may not be
 * used: NULL when every component is a plain name. Refused: absolute, '..' or '.' components,
 * empty ones ('a//b'), a backslash (a separator elsewhere), a NUL-free string being given. */
static const char *subpath_problem(const char *path) {
  if (path[0] == '/')
    return "is absolute";
  if (strchr(path, '\\'))
    return "has a backslash";
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0)
      return "has an empty component ('//')";
    if (n == 2 && !strncmp(p, "..", 2))
      return "has a '..' component";
    if (n == 1 && *p == '.')
      return "has a '.' component";
    p += n;
    if (*p == '/')
      p++;
  }
  return NULL;
}

/* One component of a URL's path, percent-decoded enough to see a dot: "%2e" is '.'. */
static bool url_dots(const char *p, size_t n) {
  size_t dots = 0;
  for (size_t i = 0; i < n;) {
    if (p[i] == '.') {
      i++;
    } else if (n - i >= 3 && p[i] == '%' && p[i + 1] == '2' &&
               (p[i + 2] == 'e' || p[i + 2] == 'E')) {
      i += 3;
    } else {
      return false;
    }
    dots++;
  }
  return dots == 1 || dots == 2;
}

/* Why a git URL's path may not be used (a '.' or '..' component, a backslash), or NULL. */
static const char *url_problem(const char *url) {
  const char *path = strstr(url, "://");
  path = path ? strchr(path + 3, '/') : strchr(url, ':'); /* scp-like git@host:path */
  if (!path)
    return NULL;
  if (strchr(path, '\\'))
    return "has a backslash";
  for (const char *p = path; *p;) {
    while (*p == '/' || *p == ':')
      p++;
    size_t n = strcspn(p, "/?#");
    if (n && url_dots(p, n))
      return "has a '.' or '..' component";
    p += n;
    if (*p == '?' || *p == '#')
      break;
  }
  return NULL;
}

static void trim_slashes(char *p) {
  size_t n = strlen(p);
  while (n && p[n - 1] == '/')
    p[--n] = '\0';
}

static int parse_local(const char *spec, const char *cwd, upk_source *out) {
  char *abs = spec[0] == '/' ? upk_xstrdup(spec) : joined(cwd, spec), real[PATH_MAX];
  if (!abs)
    return -ENOMEM;
  out->kind = UPK_SOURCE_PATH;
  out->url = realpath(abs, real) ? upk_xstrdup(real) : abs;
  if (out->url != abs)
    free(abs);
  out->subpath = upk_xstrdup("");
  out->lock_source = upk_xstrdup(out->url);
  out->lock_type = "local";
  return out->url && out->subpath && out->lock_source ? 0 : -ENOMEM;
}

/* owner/repo[/path][@ref] on `host`. */
static int parse_shorthand(char *s, const char *host, bool github, upk_source *out) {
  out->ref = cut_ref(s, true);
  char *slash = strchr(s, '/'), *path = strchr(slash + 1, '/');
  if (path)
    *path++ = '\0';
  size_t hn = strlen(host);
  while (hn && host[hn - 1] == '/')
    hn--;
  out->kind = UPK_SOURCE_GIT;
  out->subpath = upk_xstrdup(path ? path : "");
  out->url = upk_xasprintf("%.*s/%s", (int)hn, host, s);
  out->lock_source = upk_xstrdup(github ? s : out->url ? out->url : "");
  out->lock_type = github ? "github" : "git";
  if (out->subpath)
    trim_slashes(out->subpath);
  return out->url && out->subpath && out->lock_source ? 0 : -ENOMEM;
}

/* https://host/owner/repo/tree/REF[/PATH] (GitHub, GitHub Enterprise): the repository, the
 * ref and the path; false when `s` is not such a URL. */
static bool parse_tree_url(const char *s, upk_source *out) {
  const char *host = strstr(s, "://") + 3, *p = strchr(host, '/');
  const char *tree = p ? strstr(p, "/tree/") : NULL;
  int slashes = 0;
  for (const char *q = p; q && q < tree; q++)
    slashes += *q == '/';
  if (!tree || slashes != 2)
    return false;
  const char *ref = tree + 6, *path = strchr(ref, '/');
  out->kind = UPK_SOURCE_GIT;
  out->url = upk_xasprintf("%.*s.git", (int)(tree - s), s);
  out->ref = path ? upk_xstrndup(ref, (size_t)(path - ref)) : upk_xstrdup(ref);
  out->subpath = upk_xstrdup(path ? path + 1 : "");
  bool github = !strncmp(host, "github.com/", 11);
  out->lock_source = github ? upk_xstrndup(p + 1, (size_t)(tree - p - 1)) : upk_xstrdup(out->url);
  out->lock_type = github ? "github" : "git";
  if (out->subpath)
    trim_slashes(out->subpath);
  return true;
}

static int parse_url(char *s, upk_source *out) {
  if ((starts(s, "https://") || starts(s, "http://")) && parse_tree_url(s, out))
    return out->url && out->ref && out->subpath && out->lock_source ? 0 : -ENOMEM;
  out->ref = cut_ref(s, false);
  out->kind = UPK_SOURCE_GIT;
  out->url = upk_xstrdup(s);
  out->subpath = upk_xstrdup("");
  const char *gh = starts(s, "https://github.com/") ? s + 19 : NULL;
  if (gh) { /* owner/repo as the CLI records GitHub sources */
    size_t n = strlen(gh);
    if (n > 4 && !strcmp(gh + n - 4, ".git"))
      n -= 4;
    out->lock_source = upk_xstrndup(gh, n);
  } else {
    out->lock_source = upk_xstrdup(s);
  }
  out->lock_type = gh ? "github" : "git";
  return out->url && out->subpath && out->lock_source ? 0 : -ENOMEM;
}

int upk_source_parse(const char *spec, const char *git_host, const char *cwd, upk_source *out,
                     char *err, size_t err_len) {
  memset(out, 0, sizeof *out);
  if (!spec || !*spec) {
    snprintf(err, err_len, "an empty source");
    return -EINVAL;
  }
  bool explicit_local = spec[0] == '/' || starts(spec, "./") || starts(spec, "../") ||
                        !strcmp(spec, ".") || !strcmp(spec, "..");
  char *rel = explicit_local || is_url(spec) ? NULL : joined(cwd ? cwd : ".", spec);
  bool exists = rel && is_dir(rel);
  free(rel);
  if (explicit_local || exists)
    return parse_local(spec, cwd ? cwd : ".", out);
  char *s = upk_xstrdup(spec);
  int rc;
  if (!s)
    return -ENOMEM;
  if (is_url(s))
    rc = parse_url(s, out);
  else if (starts(s, "github:") && is_shorthand(s + 7))
    rc = parse_shorthand(s + 7, DEFAULT_HOST, true, out);
  else if (is_shorthand(s))
    rc = parse_shorthand(s, git_host ? git_host : DEFAULT_HOST,
                         !git_host || !strcmp(git_host, DEFAULT_HOST), out);
  else
    rc = -EINVAL;
  free(s);
  const char *why = NULL;
  if (!rc && (why = subpath_problem(out->subpath)))
    snprintf(err, err_len,
             "the path '%s' inside the repository %s; a source's path names a directory of the "
             "repository with plain names (rule source/bad-path)",
             out->subpath, why);
  else if (!rc && (why = url_problem(out->url)))
    snprintf(err, err_len, "the git URL '%s' %s (rule source/bad-path)", out->url, why);
  if (why)
    rc = -EINVAL;
  else if (rc == -EINVAL)
    snprintf(err, err_len,
             "'%s' is neither a directory nor a git source (owner/repo[/path][@ref], a git URL)",
             spec);
  if (rc)
    upk_source_free(out);
  return rc;
}

void upk_source_free(upk_source *s) {
  free(s->url);
  free(s->subpath);
  free(s->ref);
  free(s->lock_source);
  memset(s, 0, sizeof *s);
}

/* ---- fetching ---- */

static char *sources_dir(const upk_env *env) {
  return upk_env_xdg_dir(env, "XDG_CACHE_HOME", ".cache", "upskilld/sources");
}

static bool is_commit(const char *ref) {
  size_t n = 0;
  while (ref && isxdigit((unsigned char)ref[n]))
    n++;
  return ref && n == 40 && !ref[n];
}

/* The last non-empty line git printed (its message), in place. */
static const char *last_line(upk_run_result *r) {
  char *end = r->output + r->len;
  while (end > r->output && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
    *--end = '\0';
  char *nl = strrchr(r->output, '\n');
  return nl ? nl + 1 : r->output;
}

static void fetch_diag(const upk_source *s, upk_run_result *r, upk_diags *d) {
  const char *msg = last_line(r), *code = "source/fetch-failed";
  if (strstr(r->output, "couldn't find remote ref") || strstr(r->output, "not our ref"))
    code = "source/ref-not-found";
  else if (strstr(r->output, "not found") || strstr(r->output, "does not exist") ||
           strstr(r->output, "not appear to be a git repository") ||
           strstr(r->output, "not exported"))
    code = "source/repo-not-found";
  else if (strstr(r->output, "Could not resolve host") || strstr(r->output, "unable to access") ||
           strstr(r->output, "Connection refused") || strstr(r->output, "unable to connect"))
    code = "source/unreachable";
  if (!strcmp(code, "source/ref-not-found"))
    sdiag(d, code, "%s has no ref '%s' (git: %s)", s->url, s->ref, msg);
  else
    sdiag(d, code, "cannot fetch %s (git: %s)", s->url, msg);
}

/* What every git run gets: never a prompt, a low-speed limit (a silent server is given up
 * after GIT_HTTP_LOW_SPEED_TIME seconds below the limit, unless the user's environment sets
 * them), no Git LFS download, and `-c` settings that keep a stranger's repository from
 * reaching anything of the user's: no hooks (the user's core.hooksPath would run on a
 * checkout of the stranger's files), no fsmonitor, no submodules (a .gitmodules naming a
 * file:// path would copy a local repository), file:// only where the user named it. */
static const char *const GIT_CONFIG[] = {
    "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false",
    "-c", "submodule.recurse=false",  "-c", "fetch.recurseSubmodules=false",
    "-c", "protocol.file.allow=user", "-c", "advice.detachedHead=false",
};
enum { GIT_CONFIG_N = sizeof GIT_CONFIG / sizeof *GIT_CONFIG };

static void git_env(const char *env[16]) {
  size_t n = 0;
  static const char *const fixed[] = {"GIT_TERMINAL_PROMPT=0",
                                      "GCM_INTERACTIVE=never",
                                      "GIT_ASKPASS=true",
                                      "SSH_ASKPASS=true",
                                      "LC_ALL=C",
                                      "GIT_LFS_SKIP_SMUDGE=1"};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    env[n++] = fixed[i];
  if (!getenv("GIT_HTTP_LOW_SPEED_LIMIT"))
    env[n++] = "GIT_HTTP_LOW_SPEED_LIMIT=1000";
  if (!getenv("GIT_HTTP_LOW_SPEED_TIME"))
    env[n++] = "GIT_HTTP_LOW_SPEED_TIME=" UPK_SOURCE_LOW_SPEED_S;
  env[n] = NULL;
}

static long long mono_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* One fetch: the source, its deadline (monotonic ms) and what cancels it. */
typedef struct fetch_ctx {
  const upk_source *s;
  long long deadline;
  int timeout_ms, cancel_fd;
  upk_diags *d;
} fetch_ctx;

/* git with `args` in `dir`; 0, or a negative errno with a diagnostic (-ETIMEDOUT at the
 * deadline, -ECANCELED when cancelled). Output (trimmed) into *out. */
static int git(fetch_ctx *f, const char *dir, const char *const *args, char **out) {
  const char *argv[40] = {"git", "-C", dir};
  size_t n = 3;
  for (size_t i = 0; i < GIT_CONFIG_N; i++)
    argv[n++] = GIT_CONFIG[i];
  for (size_t i = 0; args[i] && n < 39; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  const char *env[16];
  git_env(env);
  upk_run_result r;
  long long left = f->deadline - mono_ms();
  int rc = upk_run_program_cancellable(argv, NULL, env, left > 0 ? (int)left : 1, GIT_OUTPUT_CAP,
                                       f->cancel_fd, &r);
  const upk_source *s = f->s;
  if (rc == -ENOENT) {
    sdiag(f->d, "source/git-missing",
          "git is not installed (needed to fetch %s): sudo apt install git", s->url);
    return rc;
  }
  if (rc < 0) {
    sdiag(f->d, "source/fetch-failed", "cannot run git: %s", strerror(-rc));
    return rc;
  }
  if (r.cancelled) {
    sdiag(f->d, "source/cancelled", "fetching %s was cancelled; git was stopped", s->url);
    upk_run_result_free(&r);
    return -ECANCELED;
  }
  if (r.timed_out) {
    sdiag(f->d, "source/timeout",
          "fetching %s took longer than its deadline (%d s); git was stopped "
          "(UPSKILLD_FETCH_TIMEOUT sets the deadline)",
          s->url, (f->timeout_ms + 999) / 1000);
    upk_run_result_free(&r);
    return -ETIMEDOUT;
  }
  if (r.exit_code) {
    fetch_diag(s, &r, f->d);
    upk_run_result_free(&r);
    return -EIO;
  }
  if (out)
    *out = upk_xstrdup(last_line(&r));
  upk_run_result_free(&r);
  return 0;
}

/* Fetch into a private directory below `repo_dir`, then rename it to <commit>. */
static int fetch_new(fetch_ctx *f, const char *repo_dir, char **dir, char **commit) {
  const upk_source *s = f->s;
  char *tmp = joined(repo_dir, ".fetch-XXXXXX");
  if (!tmp || !mkdtemp(tmp)) {
    free(tmp);
    return -errno;
  }
  const char *init[] = {"init", "-q", "--template=", NULL};
  const char *fetch[] = {
      "fetch", "-q", "--depth", "1", "--no-tags", "--", s->url, s->ref ? s->ref : "HEAD", NULL};
  const char *checkout[] = {"checkout", "-q", "--detach", "FETCH_HEAD", NULL};
  const char *head[] = {"rev-parse", "HEAD", NULL};
  int rc = git(f, tmp, init, NULL);
  if (!rc)
    rc = git(f, tmp, fetch, NULL);
  if (!rc)
    rc = git(f, tmp, checkout, NULL);
  if (!rc)
    rc = git(f, tmp, head, commit);
  char *final = !rc && *commit ? joined(repo_dir, *commit) : NULL;
  if (final && rename(tmp, final) < 0 && is_dir(final)) /* fetched meanwhile: theirs is whole */
    upk_rmtree_at(AT_FDCWD, tmp);
  else if (!final)
    upk_rmtree_at(AT_FDCWD, tmp);
  free(tmp);
  if (!rc && !final)
    rc = -ENOMEM;
  *dir = final;
  return rc;
}

int upk_source_fetch(const upk_source *s, const upk_env *env, int timeout_ms, int cancel_fd,
                     char **dir, char **commit, upk_diags *d) {
  *dir = *commit = NULL;
  if (s->kind == UPK_SOURCE_PATH) {
    *dir = upk_xstrdup(s->url);
    return 0;
  }
  char *base = sources_dir(env), *repo_dir = NULL, key[20];
  snprintf(key, sizeof key, "%016llx",
           (unsigned long long)upk_fnv1a(UPK_FNV1A_INIT, s->url, strlen(s->url)));
  int mk = base && (repo_dir = joined(base, key)) ? upk_mkdir_p(repo_dir, 0700) : -ENOMEM;
  if (mk < 0 && mk != -EEXIST) {
    sdiag(d, "source/cache", "cannot create the source cache %s: %s", repo_dir ? repo_dir : "",
          strerror(-mk));
    free(base);
    free(repo_dir);
    return mk;
  }
  int rc;
  char *cached = is_commit(s->ref) ? joined(repo_dir, s->ref) : NULL;
  if (cached && is_dir(cached)) { /* a commit never changes: no network */
    *dir = cached;
    *commit = upk_xstrdup(s->ref);
    rc = 0;
  } else {
    free(cached);
    fetch_ctx f = {s, mono_ms() + timeout_ms, timeout_ms, cancel_fd, d};
    rc = fetch_new(&f, repo_dir, dir, commit);
  }
  free(base);
  free(repo_dir);
  return rc;
}

/* ---- links that leave the repository ---- */

static bool inside(const char *path, const char *root) {
  size_t n = strlen(root);
  return !strncmp(path, root, n) && (path[n] == '/' || path[n] == '\0');
}

/* `p` below the repository, for messages (the cache's path says nothing to a user). */
static const char *rel_to(const char *p) {
  const char *cache = strstr(p, "/upskilld/sources/");
  const char *q = cache ? strchr(cache + 18, '/') : NULL; /* past <url key>/ */
  q = q ? strchr(q + 1, '/') : NULL;                      /* past <commit>/ */
  return q ? q + 1 : p;
}

typedef struct tree_walk {
  const char *root; /* the repository, resolved */
  upk_diags *d;
  size_t bad, files;
  unsigned long long bytes;
} tree_walk;

static void walk_below(tree_walk *w, const char *dir, int depth) {
  DIR *dp = depth < 32 ? opendir(dir) : NULL;
  struct dirent *e;
  while (dp && (e = readdir(dp))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
      continue;
    char *p = joined(dir, e->d_name), real[PATH_MAX];
    struct stat st;
    if (!p || lstat(p, &st) < 0) {
      free(p);
      continue;
    }
    if (S_ISLNK(st.st_mode) && (!realpath(p, real) || !inside(real, w->root))) {
      sdiag(w->d, "source/symlink-outside",
            "%s is a symbolic link to outside the repository; refused", rel_to(p));
      w->bad++;
    } else if (S_ISDIR(st.st_mode)) {
      walk_below(w, p, depth + 1);
    } else if (S_ISREG(st.st_mode)) {
      w->files++;
      w->bytes += (unsigned long long)st.st_size;
    }
    free(p);
  }
  if (dp)
    closedir(dp);
}

size_t upk_source_check_tree(const char *dir, const char *root, upk_diags *d) {
  char real_root[PATH_MAX];
  tree_walk w = {real_root, d, 0, 0, 0};
  if (!realpath(root, real_root))
    return 0;
  walk_below(&w, dir, 0);
  if (w.files > UPK_TREE_MAX_FILES || w.bytes > UPK_TREE_MAX_BYTES) {
    sdiag(d, "source/too-large",
          "%s: %zu files, %llu MiB: over the %u files or %u MiB a skill may hold", rel_to(dir),
          w.files, w.bytes >> 20, UPK_TREE_MAX_FILES, UPK_TREE_MAX_BYTES >> 20);
    w.bad++;
  }
  return w.bad;
}

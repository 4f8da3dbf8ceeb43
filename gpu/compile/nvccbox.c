/* What nvcc may read (nvccbox.h): its sandbox, and without one its dependency output checked. */
#include "gpu/compile/nvccbox.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "common/landlock.h"
#include "common/sandbox.h"
#include "common/xalloc.h"
#include "gpu/compile/toolkit.h"

enum { MAX_DEPS_BYTES = 8 << 20 };

/* The directory an include option of nvcc's line names, or NULL. */
static const char *option_dir(const char *o) {
  static const char *const pre[] = {"-I", "--include-path=", "-isystem=", "--system-include="};
  for (size_t k = 0; k < 4; k++)
    if (!strncmp(o, pre[k], strlen(pre[k])))
      return o + strlen(pre[k]);
  return NULL;
}

/* A host compiler the user allowed (-ccbin, trusted or on upskilld's command line): its
 * installation, read-only (the directory above a bin/ it sits in, else its own). */
static void compiler_dir(const char *o, char *out) {
  static const char *const pre[] = {"-ccbin=", "--compiler-bindir="};
  out[0] = '\0';
  for (size_t k = 0; k < 2; k++) {
    if (strncmp(o, pre[k], strlen(pre[k])))
      continue;
    struct stat st;
    snprintf(out, PATH_MAX, "%s", o + strlen(pre[k]));
    char *slash = strrchr(out, '/');
    if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode) && slash && slash != out)
      *slash = '\0'; /* the program's directory */
    slash = strrchr(out, '/');
    if (slash && slash != out && !strcmp(slash, "/bin"))
      *slash = '\0';
  }
}

typedef struct places {
  const char **ro; /* the file, the toolkit, the readable dirs, include dirs, a compiler's */
  size_t n;
  char real_cuda[PATH_MAX], cc[PATH_MAX];
  char **split; /* include values nvcc splits at commas, copied with each comma a NUL */
  size_t n_split;
} places;

/* An include option's directories: nvcc reads "-I/a,/b" as two, so both are places. */
static void add_dirs(places *p, const char *v) {
  if (!strchr(v, ',')) {
    p->ro[p->n++] = v;
    return;
  }
  char *copy = p->split[p->n_split++] = upk_xstrdup(v);
  for (char *at = copy, *comma; at; at = comma ? comma + 1 : NULL) {
    comma = strchr(at, ',');
    if (comma)
      *comma = '\0';
    if (*at)
      p->ro[p->n++] = at;
  }
}

static void places_free(places *p) {
  for (size_t i = 0; i < p->n_split; i++)
    free(p->split[i]);
  free(p->split);
  free(p->ro);
}

static void places_of(const upk_compile_req *req, const char *file, const char *const *argv,
                      places *p) {
  const char *cuda = upk_cuda_default_path(req->cuda_path);
  size_t argc = 0;
  while (argv[argc])
    argc++;
  size_t commas = 0;
  for (size_t i = 1; i < argc; i++)
    for (const char *c = option_dir(argv[i]); c && (c = strchr(c, ',')); c++)
      commas++;
  p->n = p->n_split = 0;
  p->cc[0] = '\0';
  p->ro = upk_xcalloc(argc + commas + req->readable.n + 5, sizeof *p->ro);
  p->split = upk_xcalloc(argc, sizeof *p->split);
  p->ro[p->n++] = file;
  p->ro[p->n++] = cuda;
  if (realpath(cuda, p->real_cuda))
    p->ro[p->n++] = p->real_cuda;
  for (size_t i = 0; i < req->readable.n; i++)
    p->ro[p->n++] = req->readable.v[i];
  for (size_t i = 1; i < argc; i++) {
    if (option_dir(argv[i]))
      add_dirs(p, option_dir(argv[i]));
    else if (!p->cc[0] && (compiler_dir(argv[i], p->cc), p->cc[0]))
      p->ro[p->n++] = p->cc;
  }
}

char **upk_nvcc_boxed(const upk_compile_req *req, const char *tmp, const char *file,
                      const char *const *argv, char ***env) {
  static const char *const keep[] = {
      "LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"};
  places p;
  places_of(req, file, argv, &p);
  upk_sandbox_spec s = {.scratch = tmp, .ro = p.ro, .n_ro = p.n, .env_keep = keep, .n_env_keep = 6};
  char **boxed = upk_sandbox_wrap(&s, argv, env);
  places_free(&p);
  return boxed;
}

int upk_nvcc_ruleset(const upk_compile_req *req, const char *tmp, const char *file,
                     const char *const *argv) {
  static const char *const sys[] = {"/usr",
                                    "/etc/ld.so.cache",
                                    "/etc/ld.so.conf",
                                    "/etc/ld.so.conf.d",
                                    "/etc/alternatives",
                                    "/bin",
                                    "/lib",
                                    "/lib64",
                                    "/sbin"};
  enum { N_SYS = sizeof sys / sizeof *sys };
  places p;
  places_of(req, file, argv, &p);
  const char **ro = upk_xcalloc(p.n + N_SYS, sizeof *ro);
  memcpy(ro, p.ro, p.n * sizeof *ro);
  memcpy(ro + p.n, sys, sizeof sys);
  const char *rw[] = {tmp, "/dev/null"};
  upk_landlock_spec s = {.ro = ro, .n_ro = p.n + N_SYS, .rw = rw, .n_rw = 2};
  int fd = upk_landlock_ruleset(&s);
  free(ro);
  places_free(&p);
  return fd;
}

bool upk_nvcc_refuse_unboxed(const upk_compile_req *req, upk_compile_result *out) {
  char why[600];
  if (!req->sandbox_required || upk_sandbox_available(why, sizeof why))
    return false;
  upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/no-sandbox", "upskilld",
                upk_range_line(0, 0, 0),
                "nvcc did not run: this compile carries options a project or an agent wrote, "
                "and nvcc runs its steps through a shell, so it runs only in a sandbox, and "
                "there is none: %s. Install bubblewrap (apt-get install bubblewrap) and allow "
                "user namespaces, or trust the project (upskillctl trust DIR), or drop the "
                "options (docs/security.md, \"Sandbox\")",
                why);
  return true;
}

/* `path` (relative to `dir`) made real lies under one of `real` (the places, made real once). */
static bool inside(char *const *real, size_t n, const char *dir, const char *path) {
  char abs[PATH_MAX], got[PATH_MAX];
  if (path[0] != '/' && snprintf(abs, sizeof abs, "%s/%s", dir, path) >= (int)sizeof abs)
    return false;
  if (!realpath(path[0] == '/' ? path : abs, got))
    return false; /* gone since, or never a file: not shown to have been inside */
  for (size_t i = 0; i < n; i++)
    if (real[i] && (!strcmp(got, real[i]) || upk_path_under(got, real[i])))
      return true;
  return false;
}

/* The next file of a make rule's prerequisites ("\ " is a space, "\<newline>" goes on), or
 * NULL at the end; *at advances past it. Writes into `word` (PATH_MAX). */
static const char *next_dep(const char **at, char *word) {
  const char *s = *at;
  size_t n = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || (*s == '\\' && s[1] == '\n'))
      s += *s == '\\' ? 2 : 1;
    if (!*s)
      return NULL;
    n = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
      if (*s == '\\' && (s[1] == ' ' || s[1] == '\\' || s[1] == '#'))
        s++;
      else if (*s == '\\' && s[1] == '\n')
        break;
      if (n + 1 < PATH_MAX)
        word[n++] = *s;
      s++;
    }
    word[n] = '\0';
    *at = s;
    if (n && word[n - 1] != ':')
      return word; /* the target ("out.cubin" then ":" or "out.cubin:") is not read */
  }
}

void upk_compile_withhold(upk_compile_result *out, const char *message) {
  upk_diags_free(&out->diags); /* leaves it empty */
  free(out->log);
  out->log = upk_xstrdup("");
  free(out->cubin);
  out->cubin = NULL;
  out->cubin_size = 0;
  out->ok = false;
  upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/include-outside", "upskilld",
                upk_range_line(0, 0, 0), "%s", message);
}

/* nvcc read `bad` outside its places, or (NULL) stopped before saying what it read. */
static void withhold(upk_compile_result *out, const char *bad) {
  char msg[PATH_MAX + 512];
  if (!bad)
    snprintf(msg, sizeof msg,
             "nvcc's preprocessor stopped before it listed the files it read, and nothing here "
             "confines it (no bubblewrap, no Landlock): its output is withheld, as it may quote "
             "a file outside the project. Install bubblewrap (apt-get install bubblewrap), or "
             "check the file with backend nvrtc (docs/security.md, \"Sandbox\")");
  else
    snprintf(msg, sizeof msg,
             "nvcc read %s, outside the allowed directories (the project, its include "
             "directories, the toolkit, /usr): the compile is refused and nvcc's output "
             "withheld. No sandbox here to keep it out (install bubblewrap: apt-get install "
             "bubblewrap); or move the header under the project (docs/security.md, \"Sandbox\")",
             bad);
  upk_compile_withhold(out, msg);
}

int upk_nvcc_deps_check(const upk_compile_req *req, const char *tmp, const char *dir,
                        const char *file, const char *const *argv, upk_compile_result *out) {
  char path[PATH_MAX], word[PATH_MAX];
  snprintf(path, sizeof path, "%s/deps.d", tmp);
  size_t len = 0;
  char *text = upk_read_file(path, MAX_DEPS_BYTES, &len); /* written by nvcc in our scratch */
  if (!text && out->confined)
    return 0;  /* the preprocessor stopped first; Landlock kept it to its places */
  if (!text) { /* it stopped first, and nothing confined it: what it read is unknown, and a
                  file it read may be quoted (`#pragma message` of a macro it defined) */
    withhold(out, NULL);
    return 1;
  }
  places p;
  places_of(req, file, argv, &p);
  /* The places made real once (a deps file lists ~200 headers): the sandbox's binds, /usr (it
   * binds that too) and the scratch directory. NULL where a place does not exist. */
  size_t n = p.n + 2;
  char **real = upk_xcalloc(n, sizeof *real);
  for (size_t i = 0; i < p.n; i++)
    real[i] = realpath(p.ro[i], NULL);
  real[p.n] = realpath("/usr", NULL);
  real[p.n + 1] = realpath(tmp, NULL);
  const char *at = strchr(text, ':') ? strchr(text, ':') + 1 : text, *dep;
  int refused = 0;
  while (!refused && (dep = next_dep(&at, word)))
    if (!inside(real, n, dir, dep)) {
      withhold(out, dep);
      refused = 1;
    }
  for (size_t i = 0; i < n; i++)
    free(real[i]);
  free(real);
  places_free(&p);
  free(text);
  return refused;
}

/* The file a "Permission denied" message names: NVRTC's `cannot open source file "X": ...`, the
 * preprocessor's `X: Permission denied`. Its length in *len; NULL when there is none. */
static const char *denied_name(const char *m, int *len) {
  static const char OPEN[] = "cannot open source file \"";
  const char *den = strstr(m, "Permission denied"), *q = strstr(m, OPEN);
  if (!den)
    return NULL;
  const char *name = q ? q + sizeof OPEN - 1 : m, *end = q ? strchr(name, '"') : NULL;
  if (!end)
    end = den >= m + 2 && den[-2] == ':' ? den - 2 : den;
  *len = (int)(end - name);
  return end > name ? name : NULL;
}

void upk_compile_explain_denied(upk_diags *d) {
  for (size_t i = 0; i < d->len; i++) {
    int len = 0;
    const char *name = denied_name(d->items[i].message, &len);
    if (!name)
      continue;
    char *msg = upk_xasprintf(
        "the compile may not open %.*s: it lies outside the places a compile may read (the "
        "project, its include directories, the toolkit, /usr), or a link leads out of them "
        "(Landlock refused it). Move the header into the project, or name its directory "
        "yourself: upskillctl check-kernel -I DIR FILE (docs/security.md, \"Sandbox\")",
        len, name);
    free(d->items[i].message);
    free(d->items[i].code);
    d->items[i].message = msg;
    d->items[i].code = upk_xstrdup("kernel/include-outside");
  }
}

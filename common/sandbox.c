/* The sandbox (sandbox.h): a bubblewrap command line with prlimit(1) inside, and a probe that
 * runs `true` that way once to learn whether it works here. */
#include "common/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/landlock.h"
#include "common/run.h"
#include "common/xalloc.h"

/* Where bubblewrap and prlimit are looked for: fixed places, never a PATH a project could fill. */
static const char *const BWRAP_AT[] = {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"};
static const char *const PRLIMIT = "/usr/bin/prlimit";

/* The limits (prlimit(1) spelling). Address space only without a GPU: the CUDA driver
 * reserves far more virtual memory than it uses. */
static const char *const LIMITS[] = {"--cpu=600",     "--fsize=1073741824", "--nproc=1024",
                                     "--nofile=1024", "--core=0",           NULL};
static const char *const LIMIT_AS = "--as=17179869184"; /* 16 GiB */

/* What the dynamic linker and the toolchain read under /etc (gcc through `cc` alternatives). */
static const char *const ETC[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                  "/etc/alternatives", NULL};
/* The merged-/usr links (or, on an older system, directories) at the root. */
static const char *const ROOT_LINKS[] = {"/bin",   "/sbin",   "/lib", "/lib32",
                                         "/lib64", "/libx32", NULL};

typedef struct vec {
  char **v;
  size_t n, cap;
} vec;

static void put(vec *a, const char *s) {
  UPK_GROW(a->v, a->cap, a->n + 2);
  a->v[a->n++] = upk_xstrdup(s);
  a->v[a->n] = NULL;
}

static void put3(vec *a, const char *x, const char *y, const char *z) {
  put(a, x);
  put(a, y);
  if (z)
    put(a, z);
}

void upk_sandbox_free(char **v) {
  for (size_t i = 0; v && v[i]; i++)
    free(v[i]);
  free(v);
}

static const char *bwrap_path(void) {
  for (size_t i = 0; i < sizeof BWRAP_AT / sizeof *BWRAP_AT; i++)
    if (access(BWRAP_AT[i], X_OK) == 0)
      return BWRAP_AT[i];
  return NULL;
}

/* A directory that would show too much: "/", /tmp (everyone's), the home directory or one above
 * it. A file is never too much. */
static bool too_wide(const char *path) {
  char real[PATH_MAX], home[PATH_MAX];
  struct stat st;
  if (!realpath(path, real) || stat(real, &st) || !S_ISDIR(st.st_mode))
    return false;
  if (!strcmp(real, "/") || !strcmp(real, "/tmp"))
    return true;
  const char *h = getenv("HOME");
  return h && *h && realpath(h, home) && upk_path_under(home, real);
}

/* `path` read-only: what it really is at its real place (a link to it then works inside), and
 * at the path as named when that differs. /usr is there already; a bind on a link inside a bound
 * tree fails, so nothing under /usr is bound again. */
static void bind_ro(vec *a, const char *path) {
  char real[PATH_MAX], lex[PATH_MAX];
  if (!realpath(path, real))
    return;
  upk_path_lexical(path, lex);
  if (!upk_path_under(real, "/usr"))
    put3(a, "--ro-bind", real, real);
  if (strcmp(lex, real) && !upk_path_under(lex, "/usr"))
    put3(a, "--ro-bind", real, lex);
}

static void base_args(vec *a) {
  put3(a, "--unshare-all", "--die-with-parent", NULL);
  put3(a, "--new-session", "--cap-drop", "ALL");
  put3(a, "--ro-bind", "/usr", "/usr");
  for (size_t i = 0; ROOT_LINKS[i]; i++) {
    char target[PATH_MAX];
    struct stat st;
    ssize_t n = readlink(ROOT_LINKS[i], target, sizeof target - 1);
    if (n > 0) {
      target[n] = '\0';
      put3(a, "--symlink", target, ROOT_LINKS[i]);
    } else if (stat(ROOT_LINKS[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      put3(a, "--ro-bind", ROOT_LINKS[i], ROOT_LINKS[i]);
    }
  }
  for (size_t i = 0; ETC[i]; i++)
    put3(a, "--ro-bind-try", ETC[i], ETC[i]);
  put3(a, "--proc", "/proc", NULL);
  put3(a, "--dev", "/dev", NULL);
  put3(a, "--tmpfs", "/tmp", NULL);
}

/* The GPU's device nodes (bound as devices) and /sys, read-only, for the driver. */
static void gpu_args(vec *a) {
  DIR *d = opendir("/dev");
  struct dirent *e;
  char path[PATH_MAX];
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, "nvidia", 6))
      continue;
    snprintf(path, sizeof path, "/dev/%s", e->d_name);
    put3(a, "--dev-bind-try", path, path);
  }
  if (d)
    closedir(d);
  put3(a, "--ro-bind-try", "/sys", "/sys");
}

/* The child's environment: PATH's absolute entries (a relative one finds programs in the
 * current directory), HOME and TMPDIR inside, and the variables the caller keeps. */
static char **child_env(const upk_sandbox_spec *s) {
  vec e = {0};
  const char *path = getenv("PATH");
  char *clean = upk_xstrdup("PATH=");
  for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
    size_t len = strcspn(p, ":");
    if (len && p[0] == '/') {
      char *next = upk_xasprintf("%s%s%.*s", clean, clean[5] ? ":" : "", (int)len, p);
      free(clean);
      clean = next;
    }
    p += len + (p[len] == ':');
  }
  put(&e, clean);
  free(clean);
  char *home = upk_xasprintf("HOME=%s", s->home ? s->home : s->scratch);
  put(&e, home);
  free(home);
  char *tmp = upk_xasprintf("TMPDIR=%s", s->tmp ? s->tmp : "/tmp");
  put(&e, tmp);
  free(tmp);
  for (size_t i = 0; i < s->n_env_keep; i++) {
    const char *v = getenv(s->env_keep[i]);
    if (!v)
      continue;
    char *kv = upk_xasprintf("%s=%s", s->env_keep[i], v);
    put(&e, kv);
    free(kv);
  }
  return e.v;
}

static char **wrap(const char *bwrap, const upk_sandbox_spec *s, const char *const *argv,
                   char ***envp) {
  vec a = {0};
  put(&a, bwrap);
  base_args(&a);
  if (s->gpu)
    gpu_args(&a);
  for (size_t i = 0; i < s->n_ro; i++)
    if (s->ro[i] && s->ro[i][0] == '/' && !too_wide(s->ro[i]))
      bind_ro(&a, s->ro[i]);
  put3(&a, "--bind", s->scratch, s->scratch);
  for (size_t i = 0; i < s->n_rw; i++)
    if (s->rw[i] && s->rw[i][0] == '/')
      put3(&a, "--bind-try", s->rw[i], s->rw[i]);
  put3(&a, "--chdir", s->scratch, NULL);
  put3(&a, "--", PRLIMIT, NULL);
  for (size_t i = 0; LIMITS[i]; i++)
    put(&a, LIMITS[i]);
  if (!s->gpu)
    put(&a, LIMIT_AS);
  put(&a, "--");
  for (size_t i = 0; argv[i]; i++)
    put(&a, argv[i]);
  *envp = child_env(s);
  return a.v;
}

/* ---- the probe ---- */

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static bool probe_ok;
static char probe_why[512];

static void probe(void) {
  const char *bwrap = bwrap_path();
  if (!bwrap) {
    snprintf(probe_why, sizeof probe_why,
             "bubblewrap is not installed (Debian: apt-get install bubblewrap)");
    return;
  }
  if (access(PRLIMIT, X_OK)) {
    snprintf(probe_why, sizeof probe_why, "%s is missing (Debian: util-linux)", PRLIMIT);
    return;
  }
  char dir[PATH_MAX];
  int mk = upk_private_tmpdir("probe", dir, sizeof dir);
  if (mk) {
    snprintf(probe_why, sizeof probe_why, "cannot make a directory under TMPDIR: %s",
             strerror(-mk));
    return;
  }
  upk_sandbox_spec s = {.scratch = dir};
  const char *const cmd[] = {"/usr/bin/true", NULL};
  char **env = NULL, **argv = wrap(bwrap, &s, cmd, &env);
  upk_run_result r = {0};
  upk_run_opts o = {.argv = (const char *const *)argv,
                    .env = (const char *const *)env,
                    .env_only = true,
                    .timeout_ms = 10000,
                    .cap = 400,
                    .cancel_fd = -1,
                    .kill_group = true};
  int rc = upk_run_program_opts(&o, &r);
  probe_ok = rc == 0 && r.exit_code == 0;
  if (!probe_ok)
    snprintf(probe_why, sizeof probe_why,
             "%s cannot make a sandbox here (%s%.200s): unprivileged user namespaces may be "
             "off (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap)",
             bwrap, rc ? strerror(-rc) : "", rc ? "" : r.output);
  for (char *c = probe_why; *c; c++)
    *c = *c == '\n' ? ' ' : *c;
  if (rc == 0)
    upk_run_result_free(&r);
  upk_sandbox_free(argv);
  upk_sandbox_free(env);
  rmdir(dir);
}

static bool test_off(void) {
  const char *off = getenv("UPK_TEST_NO_SANDBOX");
  return off && !strcmp(off, "1");
}

bool upk_sandbox_available(char *why, size_t why_len) {
  if (test_off()) {
    if (why)
      snprintf(why, why_len, "UPK_TEST_NO_SANDBOX=1 is set (a test's switch)");
    return false;
  }
  pthread_once(&probe_once, probe);
  if (!probe_ok && why)
    snprintf(why, why_len, "%s", probe_why);
  return probe_ok;
}

void upk_sandbox_describe(char *out, size_t len) {
  char why[512], ll[96] = "; no Landlock in this kernel";
  int abi = upk_landlock_abi();
  if (abi > 0)
    snprintf(ll, sizeof ll, "; Landlock ABI %d confines NVRTC and any nvcc outside bubblewrap",
             abi);
  if (upk_sandbox_available(why, sizeof why))
    snprintf(out, len, "bubblewrap (%s): no network, read-only toolkit, one scratch directory%s",
             bwrap_path(), ll);
  else
    snprintf(out, len, "none: %s%s", why, ll);
}

char **upk_sandbox_wrap(const upk_sandbox_spec *s, const char *const *argv, char ***envp) {
  *envp = NULL;
  if (!upk_sandbox_available(NULL, 0))
    return NULL;
  const char *bwrap = bwrap_path();
  return bwrap ? wrap(bwrap, s, argv, envp) : NULL;
}

/* The worker server's daemon side (worker_server.h): its socket's path, connecting, launching. */
#include "daemon/kernels/worker_server.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/fnv1a.h"
#include "common/xalloc.h"

/* A directory only we can enter: created 0700 when missing; an existing one must be a real
 * directory we own that nobody else can open (a symlink or a shared one is refused). */
static int private_dir(const char *dir) {
  if (mkdir(dir, 0700) && errno != EEXIST)
    return -errno;
  struct stat st;
  if (lstat(dir, &st))
    return -errno;
  if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
    return UV_EPERM;
  return 0;
}

static int runtime_dir(char *out, size_t n) {
  const char *xdg = getenv("XDG_RUNTIME_DIR");
  struct stat st;
  int len = xdg && xdg[0] == '/' && !stat(xdg, &st) && S_ISDIR(st.st_mode)
                ? snprintf(out, n, "%s/upskilld", xdg)
                : snprintf(out, n, "/tmp/upskilld-%u", (unsigned)geteuid());
  return len < 0 || (size_t)len >= n ? UV_ENAMETOOLONG : private_dir(out);
}

static uint64_t hash_str(uint64_t h, const char *v) {
  return upk_fnv1a(h, v ? v : "", v ? strlen(v) + 1 : 1);
}

/* One PATH entry's `name`, as execvp would take it: an executable regular file. Its real path
 * (a symlink to the same compiler is the same compiler) into `out`; false when there is none. */
static bool exe_in(const char *dir, size_t dir_len, const char *name, char *out) {
  char p[PATH_MAX];
  struct stat st;
  int len = snprintf(p, sizeof p, "%.*s/%s", (int)dir_len, dir, name);
  if (len < 0 || (size_t)len >= sizeof p || stat(p, &st) || !S_ISREG(st.st_mode) || access(p, X_OK))
    return false;
  return realpath(p, out) != NULL;
}

/* Hash the program `name` that nvcc's steps would run: nvcc puts the toolkit's nvvm/bin and bin
 * before PATH. Stats only, nothing runs. A relative PATH entry would be looked up in the
 * worker's private directory, so it is hashed as written. */
static uint64_t hash_tool(uint64_t h, const char *root, const char *path_env, const char *name) {
  char own[PATH_MAX], real[PATH_MAX];
  static const char *const subdirs[] = {"nvvm/bin", "bin"};
  for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
    int len = snprintf(own, sizeof own, "%s/%s", root, subdirs[i]);
    if (*root == '/' && len > 0 && (size_t)len < sizeof own && exe_in(own, (size_t)len, name, real))
      return hash_str(h, real);
  }
  for (const char *d = path_env ? path_env : "", *end; *d; d = *end ? end + 1 : end) {
    end = d + strcspn(d, ":");
    if (*d == '/' && exe_in(d, (size_t)(end - d), name, real))
      return hash_str(h, real);
    if (*d != '/')
      h = upk_fnv1a(upk_fnv1a(h, d, (size_t)(end - d)), "", 1);
  }
  return hash_str(h, "");
}

int upk_wserver_path(char *out, size_t n, const char *worker_path, const char *cuda_path) {
  struct stat st;
  if (stat(worker_path, &st))
    return -errno;
  uint64_t h = UPK_FNV1A_INIT; /* a name, not a secret: the directory is the protection */
  h = hash_str(h, worker_path);
  h = upk_fnv1a(h, &st.st_ino, sizeof st.st_ino);
  h = upk_fnv1a(h, &st.st_size, sizeof st.st_size);
  h = upk_fnv1a(h, &st.st_mtim, sizeof st.st_mtim);
  const char *root = cuda_path && *cuda_path ? cuda_path : "";
  char real_root[PATH_MAX];
  h = hash_str(h, realpath(root, real_root) ? real_root : root);
  uid_t uid = geteuid();
  h = upk_fnv1a(h, &uid, sizeof uid);
  /* The server's workers keep the environment of the daemon that launched it. Not its whole PATH
   * (an agent may put a fresh directory in front on every run, with no compiler in it): the host
   * compilers nvcc finds on it. */
  static const char *const tools[] = {"gcc", "g++", "cc", "c++"};
  for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
    h = hash_tool(h, root, getenv("PATH"), tools[i]);
  h = hash_str(h, getenv("CUDA_PATH"));
  /* Not HOME nor XDG_CACHE_HOME, where its workers keep their temporary files (worker.c): runs of
   * one user with another HOME share it (an agent may give each run one), and a worker whose
   * directory is gone makes it again (gpu/compile/nvcc.c). */
  h = hash_str(h, getenv("TMPDIR"));
  h = hash_str(h, getenv("UPK_TEST_NO_SANDBOX")); /* tests' switches: a server of their own */
  h = hash_str(h, getenv("UPK_TEST_NO_LANDLOCK"));
  char dir[sizeof((struct sockaddr_un *)0)->sun_path];
  int rc = runtime_dir(dir, sizeof dir);
  if (rc)
    return rc;
  int len = snprintf(out, n, "%s/workers-%016" PRIx64 ".sock", dir, h);
  if (len < 0 || (size_t)len >= n || (size_t)len >= sizeof dir)
    return UV_ENAMETOOLONG;
  return 0;
}

int upk_wserver_connect(const char *path) {
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof a.sun_path)
    return UV_ENAMETOOLONG;
  memcpy(a.sun_path, path, strlen(path) + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return -errno;
  /* A Unix stream connect completes at once or fails at once (EAGAIN: backlog full). */
  if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
    int err = -errno;
    close(fd);
    return err;
  }
  return fd;
}

static void free_handle(uv_handle_t *h) {
  free(h);
}

static void on_server_exit(uv_process_t *proc, int64_t status, int sig) {
  (void)status, (void)sig;
  upk_wserver_forget(proc->data);
}

void upk_wserver_forget(uv_process_t **owner) {
  uv_process_t *proc = owner ? *owner : NULL;
  if (!proc)
    return;
  *owner = NULL;
  uv_close((uv_handle_t *)proc, free_handle);
}

int upk_wserver_launch(uv_loop_t *loop, uv_process_t **owner, const char *worker_path,
                       const char *path, unsigned idle_s) {
  upk_wserver_forget(owner); /* an earlier launch: no longer tracked */
  uv_process_t *proc = upk_xmalloc(sizeof *proc);
  char idle[16];
  snprintf(idle, sizeof idle, "%u", idle_s);
  char *args[] = {(char *)worker_path, "--serve", (char *)path, "--idle", idle, NULL};
  uv_stdio_container_t io[3] = {{.flags = UV_IGNORE}, {.flags = UV_IGNORE}, {.flags = UV_IGNORE}};
  uv_process_options_t o = {.exit_cb = on_server_exit, .file = worker_path, .args = args};
  o.flags = UV_PROCESS_DETACHED, o.stdio_count = 3, o.stdio = io;
  int rc = uv_spawn(loop, proc, &o); /* initializes the handle even when it fails */
  proc->data = owner;
  *owner = proc;
  if (rc) {
    upk_wserver_forget(owner);
    return rc;
  }
  uv_unref((uv_handle_t *)proc); /* the daemon does not wait for it */
  return 0;
}

/* The worker server's daemon side (worker_server.h): its socket's path, connecting, launching. */
#include "daemon/worker_server.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

int upk_wserver_path(char *out, size_t n, const char *worker_path, const char *cuda_path) {
  struct stat st;
  if (stat(worker_path, &st))
    return -errno;
  uint64_t h = UPK_FNV1A_INIT; /* a name, not a secret: the directory is the protection */
  h = upk_fnv1a(h, worker_path, strlen(worker_path) + 1);
  h = upk_fnv1a(h, &st.st_size, sizeof st.st_size);
  h = upk_fnv1a(h, &st.st_mtim, sizeof st.st_mtim);
  h = upk_fnv1a(h, cuda_path ? cuda_path : "", cuda_path ? strlen(cuda_path) + 1 : 1);
  uid_t uid = geteuid();
  h = upk_fnv1a(h, &uid, sizeof uid);
  /* The server's workers keep the environment of the daemon that launched it: what they read
   * from it (nvcc finds its host compiler on PATH) must match. */
  static const char *const vars[] = {"PATH", "CUDA_PATH", "TMPDIR"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    h = upk_fnv1a(h, v ? v : "", v ? strlen(v) + 1 : 1);
  }
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

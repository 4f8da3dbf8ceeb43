/* The worker server (serve.h): a supervisor that holds the socket and keeps warm
 * children, and the children's accept loop. Sockets and processes only: the ops, the wire
 * protocol and the compiler setup are worker.c's, reached through the config's callbacks.
 *
 * The supervisor is single-threaded and never loads NVRTC, so forking it is cheap and safe (no
 * threads, no CUDA state to inherit). Everything it waits for arrives on a pipe, read from one
 * poll loop: each child's status pipe, and a self-pipe for SIGTERM/SIGINT. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "gpu/worker/serve.h"
#include "common/fileio.h"

#define DEFAULT_IDLE_S 600
#define DEFAULT_MAX_CHILDREN 8
#define EARLY_DEATHS_MAX 3    /* children dead before 'R' in a row: the server cannot work */
#define RESPAWN_RETRY_MS 1000 /* after a failed fork */

typedef enum { CH_STARTING, CH_IDLE, CH_BUSY } child_state;

typedef struct child {
  pid_t pid;
  int fd; /* read end of its status pipe */
  child_state state;
  bool reaped; /* waited for already (by the WNOHANG sweep), its pipe not yet at EOF */
} child;

typedef struct server {
  const upk_wserve_config *cfg;
  int lock_fd, listen_fd, sig_r;
  bool locked; /* lock_fd holds the lock on the file at SOCKET.lock */
  dev_t dev;   /* the bound socket file, to remove it only while it is ours */
  ino_t ino;
  pid_t self;
  child kids[UPK_WSERVE_MAX_CHILDREN];
  unsigned n;
  unsigned early_deaths; /* in a row */
  bool spawn_failed;     /* retry on a timer */
  struct timespec last_event;
} server;

static int sig_w = -1; /* the self-pipe's write end, for the signal handler */

/* ---- arguments ---- */

static int usage(void) {
  fprintf(stderr, "usage: upskilld-worker [--serve SOCKET_PATH [--idle SECONDS] [--max N]]\n");
  return -EINVAL;
}

static int parse_uint(const char *s, unsigned long max, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long v = s && *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : max + 1;
  if (errno || v > max || *end)
    return -EINVAL;
  *out = (unsigned)v;
  return 0;
}

static unsigned default_max_children(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > DEFAULT_MAX_CHILDREN ? DEFAULT_MAX_CHILDREN : (unsigned)n;
}

int upk_wserve_parse_args(int argc, char **argv, upk_wserve_config *cfg) {
  if (argc < 3 || strcmp(argv[1], "--serve") || !*argv[2])
    return usage();
  cfg->socket_path = argv[2];
  cfg->idle_s = DEFAULT_IDLE_S;
  cfg->max_children = default_max_children();
  for (int i = 3; i < argc; i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int rc = -EINVAL;
    if (!strcmp(argv[i], "--idle"))
      rc = parse_uint(v, 365UL * 24 * 3600, &cfg->idle_s);
    else if (!strcmp(argv[i], "--max"))
      rc = parse_uint(v, UPK_WSERVE_MAX_CHILDREN, &cfg->max_children);
    if (rc < 0 || cfg->max_children < 1)
      return usage();
  }
  return 0;
}

/* ---- small helpers ---- */

static double elapsed_s(const struct timespec *since) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

static void on_signal(int sig) {
  int saved = errno;
  char c = (char)sig;
  ssize_t k = write(sig_w, &c, 1); /* fails only when full: a signal is pending already */
  (void)k;
  errno = saved;
}

/* ---- setup: lock, socket, signals ---- */

static bool same_file(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

#define LOCK_TRIES 8 /* a lock file replaced under us that often: give up */

static int lock_path(const server *s, char *path, size_t n) {
  return (size_t)snprintf(path, n, "%s.lock", s->cfg->socket_path) >= n ? -ENAMETOOLONG : 0;
}

/* The lock file is removed by the server that holds it (shut_down), before it lets go. A starter
 * that opened the file before that holds a lock on a name that is gone: it sees that (the path
 * is no longer the file it locked) and starts over, so two servers never both hold "the" lock.
 * Returns 0 with the lock held, -EWOULDBLOCK when another server holds it, or -errno. */
static int take_lock(server *s) {
  char path[PATH_MAX];
  int rc = lock_path(s, path, sizeof path);
  for (int i = 0; !rc && i < LOCK_TRIES; i++) {
    struct stat held, named;
    s->lock_fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (s->lock_fd < 0)
      return -errno;
    if (flock(s->lock_fd, LOCK_EX | LOCK_NB) < 0)
      return -errno;
    if (fstat(s->lock_fd, &held) < 0)
      return -errno;
    if (stat(path, &named) == 0 && same_file(&named, &held)) {
      s->locked = true;
      return 0;
    }
    close(s->lock_fd);
    s->lock_fd = -1;
  }
  return rc ? rc : -EWOULDBLOCK; /* replaced each time: other servers are at it */
}

/* Remove the lock file while it is still held and still the one we hold (see take_lock). */
static void drop_lock(server *s) {
  char path[PATH_MAX];
  struct stat held, named;
  if (s->lock_fd < 0)
    return;
  if (!lock_path(s, path, sizeof path) && fstat(s->lock_fd, &held) == 0 &&
      stat(path, &named) == 0 && same_file(&named, &held))
    unlink(path);
  close(s->lock_fd);
  s->lock_fd = -1;
}

/* One `workers-*.sock.lock` of another key: when nobody holds it, its server is gone (killed, or
 * older than the removal in drop_lock): remove it and its socket, holding the lock as drop_lock
 * does, so a server starting on that key at the same time starts over (take_lock). */
static void sweep_one(int dfd, const char *name) {
  int fd = openat(dfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  struct stat held, named, st;
  char sock[NAME_MAX + 1];
  size_t n = strlen(name) - strlen(".lock");
  if (fd < 0)
    return;
  if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &held) == 0 &&
      fstatat(dfd, name, &named, AT_SYMLINK_NOFOLLOW) == 0 && same_file(&held, &named)) {
    memcpy(sock, name, n), sock[n] = '\0';
    if (fstatat(dfd, sock, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(st.st_mode))
      unlinkat(dfd, sock, 0);
    unlinkat(dfd, name, 0);
  }
  close(fd);
}

/* Leftovers of other servers in our directory, when it is the daemon's (our socket is named
 * workers-*.sock, the directory is private): only names of that form are touched. */
static void sweep_stale(const server *s) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", s->cfg->socket_path);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir || strncmp(slash + 1, "workers-", 8))
    return;
  const char *own = strrchr(s->cfg->socket_path, '/') + 1;
  size_t own_len = strlen(own);
  *slash = '\0';
  DIR *d = opendir(dir);
  struct stat st; /* only in a directory of ours nobody else can enter, as the daemon's is */
  if (d && (fstat(dirfd(d), &st) || st.st_uid != geteuid() || (st.st_mode & 077)))
    closedir(d), d = NULL;
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (!strncmp(e->d_name, "workers-", 8) && len > 10 &&
        !strcmp(e->d_name + len - 10, ".sock.lock") &&
        !(len == own_len + 5 && !strncmp(e->d_name, own, own_len)))
      sweep_one(dirfd(d), e->d_name);
  }
  if (d)
    closedir(d);
}

/* With the lock held, whatever socket sits at the path is a dead server's: replace it. */
static int bind_socket(server *s) {
  const char *path = s->cfg->socket_path;
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  memcpy(sa.sun_path, path, strlen(path) + 1); /* the length was checked */
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && unlink(path) < 0)
    return -errno;
  s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s->listen_fd < 0)
    return -errno;
  if (bind(s->listen_fd, (struct sockaddr *)&sa, sizeof sa) < 0 || stat(path, &st) < 0)
    return -errno;
  s->dev = st.st_dev, s->ino = st.st_ino;
  return listen(s->listen_fd, SOMAXCONN) < 0 ? -errno : 0;
}

static int set_signals(server *s) {
  int p[2];
  if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
    return -errno;
  s->sig_r = p[0], sig_w = p[1];
  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN); /* a gone peer or supervisor is an EPIPE, not a death */
  return 0;
}

/* stdin from /dev/null, stdout onto stderr: nothing the server or a library in a child prints
 * lands on the launcher's stdout, and no pipe of the launcher's but stderr is held open. Also
 * makes sure fds 0-2 are open, so no socket or lock gets one of them. */
static void quiet_stdio(void) {
  int null = open("/dev/null", O_RDWR); /* may itself be 0, 1 or 2: the order matters */
  if (null >= 0 && fcntl(STDERR_FILENO, F_GETFD) < 0)
    dup2(null, STDERR_FILENO);
  if (null >= 0)
    dup2(null, STDIN_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  if (null > STDERR_FILENO)
    close(null);
}

/* ---- the child ---- */

static void status_byte(int fd, char c) {
  if (upk_write_all(fd, &c, 1) < 0)
    _exit(1); /* the supervisor is gone */
}

static bool peer_is_us(int fd) {
  struct ucred cr;
  socklen_t len = sizeof cr;
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 && cr.uid == getuid();
}

/* One connection: the greeting (the daemon's proof that a worker took it, and the pid to kill a
 * hung compile by), then the protocol until EOF. */
static void serve_one(const upk_wserve_config *cfg, int fd) {
  char greeting[64];
  int n = snprintf(greeting, sizeof greeting, "{\"worker\":{\"pid\":%ld}}\n", (long)getpid());
  if (upk_write_all(fd, greeting, (size_t)n) == 0)
    cfg->serve(cfg->arg, fd);
}

static _Noreturn void accept_loop(const upk_wserve_config *cfg, int listen_fd, int status_fd) {
  status_byte(status_fd, 'R');
  for (;;) {
    int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
      continue;
    if (fd < 0) {
      perror("upskilld-worker: accept");
      _exit(1); /* the supervisor starts another */
    }
    if (!peer_is_us(fd)) {
      close(fd);
      continue;
    }
    status_byte(status_fd, 'B');
    serve_one(cfg, fd);
    close(fd);
    status_byte(status_fd, 'I');
  }
}

/* A new child: tie its life to the supervisor's, drop the supervisor's fds and signal handlers,
 * set up, warm up unless a connection already waits, then serve. */
static _Noreturn void child_main(server *s, int status_fd, const sigset_t *mask) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != s->self)
    _exit(1);               /* the supervisor died before the line above */
  signal(SIGTERM, SIG_DFL); /* the supervisor's handlers write to its self-pipe */
  signal(SIGINT, SIG_DFL);
  sigprocmask(SIG_SETMASK, mask, NULL);
  for (unsigned i = 0; i < s->n; i++)
    close(s->kids[i].fd);
  close(s->sig_r), close(sig_w), close(s->lock_fd);
  const upk_wserve_config *cfg = s->cfg;
  if (cfg->child_init)
    cfg->child_init(cfg->arg);
  struct pollfd p = {.fd = s->listen_fd, .events = POLLIN};
  if (cfg->warm_up && poll(&p, 1, 0) == 0)
    cfg->warm_up(cfg->arg);
  accept_loop(cfg, s->listen_fd, status_fd);
}

/* ---- the supervisor ---- */

static int spawn(server *s) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) < 0)
    return -errno;
  /* Blocked until the child has dropped the handlers: a SIGTERM meant for it must not reach the
   * supervisor's self-pipe. */
  sigset_t term, mask;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigaddset(&term, SIGINT);
  sigprocmask(SIG_BLOCK, &term, &mask);
  pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    child_main(s, p[1], &mask);
  }
  int err = errno;
  sigprocmask(SIG_SETMASK, &mask, NULL);
  close(p[1]); /* else the child's death would not show as EOF */
  if (pid < 0) {
    close(p[0]);
    return -err;
  }
  s->kids[s->n++] = (child){.pid = pid, .fd = p[0], .state = CH_STARTING};
  return 0;
}

static bool all_busy(const server *s) {
  for (unsigned i = 0; i < s->n; i++)
    if (s->kids[i].state != CH_BUSY)
      return false;
  return true;
}

/* Whether another child may be needed: every child busy, and room for one more. */
static bool may_grow(const server *s) {
  return s->n && s->n < s->cfg->max_children && all_busy(s);
}

static bool connection_waits(const server *s) {
  struct pollfd p = {.fd = s->listen_fd, .events = POLLIN};
  return poll(&p, 1, 0) == 1;
}

/* Always one child; another only when every child is busy and a connection waits. A spare
 * started as soon as the last idle child got busy would load NVRTC and warm up on a core the
 * running check needs, and daemons that come one after another never need it. */
static void keep_spare(server *s) {
  if (s->n && !(may_grow(s) && connection_waits(s)))
    return;
  if (s->n >= s->cfg->max_children)
    return;
  int rc = spawn(s);
  s->spawn_failed = rc < 0;
  if (rc < 0)
    fprintf(stderr, "upskilld-worker: cannot start a worker: %s\n", strerror(-rc));
}

/* Reap whatever has exited, marking the children we still track. */
static void reap(server *s) {
  pid_t pid;
  while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
    for (unsigned i = 0; i < s->n; i++)
      if (s->kids[i].pid == pid)
        s->kids[i].reaped = true;
}

/* Its pipe is at EOF: the child is dead or dying. */
static void forget(server *s, unsigned i) {
  child *k = &s->kids[i];
  if (!k->reaped) {
    kill(k->pid, SIGKILL); /* a child that closed its pipe is no use either */
    while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
      ;
  }
  s->early_deaths = k->state == CH_STARTING ? s->early_deaths + 1 : 0;
  close(k->fd);
  s->kids[i] = s->kids[--s->n];
}

/* Read a child's status bytes. */
static void on_status(server *s, unsigned i) {
  char buf[64];
  ssize_t n = read(s->kids[i].fd, buf, sizeof buf);
  if (n < 0 && errno == EINTR)
    return;
  clock_gettime(CLOCK_MONOTONIC, &s->last_event);
  if (n <= 0) {
    forget(s, i);
    return;
  }
  for (ssize_t j = 0; j < n; j++) {
    if (buf[j] == 'R')
      s->early_deaths = 0;                                /* one got ready: the server works */
    s->kids[i].state = buf[j] == 'B' ? CH_BUSY : CH_IDLE; /* 'R' or 'I' */
  }
}

/* Milliseconds poll may sleep: until the idle deadline, a fork retry, or forever. */
static int poll_timeout(const server *s) {
  int ms = s->spawn_failed ? RESPAWN_RETRY_MS : -1;
  for (unsigned i = 0; i < s->n; i++)
    if (s->kids[i].state == CH_BUSY)
      return ms;
  if (!s->cfg->idle_s)
    return ms;
  double left = (double)s->cfg->idle_s - elapsed_s(&s->last_event);
  int idle_ms = left <= 0 ? 0 : left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1;
  return ms < 0 || idle_ms < ms ? idle_ms : ms;
}

static bool idle_expired(const server *s) {
  for (unsigned i = 0; i < s->n; i++)
    if (s->kids[i].state == CH_BUSY)
      return false;
  return s->cfg->idle_s && elapsed_s(&s->last_event) >= (double)s->cfg->idle_s;
}

/* Returns 0 on a clean exit (idle, a signal), -ECHILD when children keep dying early, -errno. */
static int supervise(server *s) {
  for (;;) {
    reap(s);
    if (s->early_deaths >= EARLY_DEATHS_MAX) {
      fprintf(stderr, "upskilld-worker: %d workers in a row died before they were ready\n",
              EARLY_DEATHS_MAX);
      return -ECHILD;
    }
    keep_spare(s);
    if (idle_expired(s))
      return 0;
    struct pollfd p[UPK_WSERVE_MAX_CHILDREN + 2] = {{.fd = s->sig_r, .events = POLLIN}};
    unsigned n = s->n; /* on_status may reorder kids: go by fd */
    for (unsigned i = 0; i < n; i++)
      p[i + 1] = (struct pollfd){.fd = s->kids[i].fd, .events = POLLIN};
    /* A connection that waits while every child is busy wakes us to start another. */
    unsigned listening = may_grow(s);
    if (listening)
      p[n + 1] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
    int rc = poll(p, n + 1 + listening, poll_timeout(s));
    if (rc < 0 && errno != EINTR)
      return -errno;
    if (rc > 0 && p[0].revents)
      return 0; /* SIGTERM or SIGINT */
    for (unsigned j = 1; rc > 0 && j <= n; j++)
      for (unsigned i = 0; p[j].revents && i < s->n; i++)
        if (s->kids[i].fd == p[j].fd) {
          on_status(s, i);
          break;
        }
  }
}

/* Remove the socket (while it is the one we bound), then kill and reap every child. */
static void shut_down(server *s) {
  struct stat st;
  if (s->listen_fd >= 0 && stat(s->cfg->socket_path, &st) == 0 && st.st_dev == s->dev &&
      st.st_ino == s->ino)
    unlink(s->cfg->socket_path);
  for (unsigned i = 0; i < s->n; i++)
    if (!s->kids[i].reaped)
      kill(s->kids[i].pid, SIGKILL);
  for (unsigned i = 0; i < s->n; i++) {
    while (!s->kids[i].reaped && waitpid(s->kids[i].pid, NULL, 0) < 0 && errno == EINTR)
      ;
    close(s->kids[i].fd);
  }
  s->n = 0;
  if (s->listen_fd >= 0)
    close(s->listen_fd);
  if (s->sig_r >= 0)
    close(s->sig_r), close(sig_w);
  if (s->locked)
    drop_lock(s);
  else if (s->lock_fd >= 0)
    close(s->lock_fd);
}

int upk_worker_serve(const upk_wserve_config *cfg) {
  server s = {.cfg = cfg, .lock_fd = -1, .listen_fd = -1, .sig_r = -1, .self = getpid()};
  if (strlen(cfg->socket_path) >= sizeof((struct sockaddr_un *)0)->sun_path) {
    fprintf(stderr, "upskilld-worker: socket path too long (at most %zu bytes): %s\n",
            sizeof((struct sockaddr_un *)0)->sun_path - 1, cfg->socket_path);
    return -ENAMETOOLONG;
  }
  quiet_stdio();
  int rc = take_lock(&s);
  if (rc == -EWOULDBLOCK) {
    close(s.lock_fd);
    return 0; /* another server serves this path */
  }
  umask(077);
  clock_gettime(CLOCK_MONOTONIC, &s.last_event);
  if (rc == 0)
    sweep_stale(&s); /* once, at start */
  if (rc < 0)
    fprintf(stderr, "upskilld-worker: lock %s.lock: %s\n", cfg->socket_path, strerror(-rc));
  else if ((rc = bind_socket(&s)) < 0)
    fprintf(stderr, "upskilld-worker: socket %s: %s\n", cfg->socket_path, strerror(-rc));
  else if ((rc = set_signals(&s)) < 0)
    fprintf(stderr, "upskilld-worker: pipe: %s\n", strerror(-rc));
  else
    rc = supervise(&s);
  shut_down(&s);
  return rc;
}

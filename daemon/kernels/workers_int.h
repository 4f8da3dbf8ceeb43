/* The worker pool's insides, shared by workers.c (queue, replies, lifetime) and
 * workers_spawn.c (starting local workers, connecting to the worker server). */
#ifndef UPK_WORKERS_INT_H
#define UPK_WORKERS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/dynbuf.h"
#include "daemon/kernels/workers.h"

#define UPK__SERVER_RETRY_MS 30000u   /* the server failed us: local workers for this long */
#define UPK__GREETING_MS 2000u        /* a server worker must take the connection within this */
#define REPLY_CAP ((size_t)256 << 20) /* a line longer than this is not a reply */
#define READ_CHUNK ((size_t)65536)
#define KEEP_BUF ((size_t)1 << 20) /* a reply buffer bigger than this is freed after use */
#define AUTO_MAX_WORKERS 8
#define DEFAULT_TIMEOUT_MS 60000u
/* A local worker told to stop (SIGTERM through a worker command) that has not exited within
 * this gets SIGTERM again, every as long, up to UPK__TERM_TRIES in all, then SIGKILL: a queued
 * srun that gets SIGTERM before it knows its job id cannot cancel the job yet, and one killed
 * outright leaves the job queued in the scheduler (seen under load: the first two SIGTERMs
 * came before the controller's answer). The daemon's exit waits for it: 10 s at most. */
#define UPK__TERM_GRACE_MS 2000u
#define UPK__TERM_TRIES 5u
/* After SIGKILL, how long its exit is waited for before the worker is given up on (a process
 * stuck in the kernel): shutdown stays bounded. */
#define UPK__KILL_GRACE_MS 10000u

/* An intrusive circular list with a sentinel. */
typedef struct ring {
  struct ring *prev, *next;
} ring;
#define RING_ENTRY(p, type) ((type *)(void *)((char *)(p)-offsetof(type, node)))
#define RING_EMPTY(r) ((r)->next == (r))

static inline void ring_init(ring *r) {
  r->prev = r->next = r;
}
static inline void ring_remove(ring *e) {
  e->prev->next = e->next;
  e->next->prev = e->prev;
  ring_init(e);
}
static inline void ring_insert(ring *after, ring *e) {
  e->prev = after;
  e->next = after->next;
  after->next->prev = e;
  after->next = e;
}

typedef enum { W_NEW, W_IDLE, W_BUSY, W_DYING } wstate; /* W_NEW: on no list yet */

/* How far stopping a local worker has gone (workers_spawn.c). */
typedef enum { STOP_NONE, STOP_TERM, STOP_KILL } wstop; /* STOP_TERM: `terms` sent so far */

typedef struct worker {
  ring node; /* on the pool's idle, busy or dying list */
  upk_workers *pool;
  wstate state;
  uv_process_t proc;  /* a local worker's process */
  uv_pipe_t to, from; /* its stdin and stdout, or both ends of a server connection */
  uv_timer_t deadline;
  uv_timer_t escalate; /* a local worker's next stop signal; closed once its exit is seen */
  wstop stop;
  unsigned terms; /* SIGTERMs sent to stop it */
  int open;       /* handles not closed yet: the struct is freed at 0 */
  bool exited, killed;
  bool remote;   /* served by the worker server over a socket: no process handle of ours */
  bool greeted;  /* remote: its greeting (pid) came, so it has taken the connection */
  bool answered; /* it replied at least once: a worker command (srun ...) did start it */
  int pid;       /* remote: from the greeting */
  int pidfd;     /* remote: a pidfd for that pid, or -1 */
  bool has_err;  /* local through a worker command: `err` reads the command's stderr */
  uv_pipe_t err;
  char said[256]; /* the command's last line on stderr ("srun: error: ..."), or "" */
  char part[256]; /* a stderr line not ended yet */
  size_t plen;
  long job; /* the Slurm job srun said it queued or was given, or 0 */
  bool job_cancelled;
  upk_wreq *req;  /* the request it runs (W_BUSY) */
  upk_buf in;     /* reply bytes read so far (REPLY_CAP is checked after each read) */
  size_t scanned; /* in.data up to here holds no newline */
} worker;

struct upk_wreq {
  ring node; /* on the queue while queued */
  upk_workers *pool;
  worker *w; /* the worker running it; NULL while queued */
  json_int_t id;
  char *op;
  json_t *params;
  unsigned timeout_ms;
  upk_wreq_cb cb;
  void *arg;
};

/* A request line in flight: freed by its write callback, which libuv runs before the pipe's
 * close callback, so the worker outlives it. */
typedef struct wline {
  uv_write_t wr;
  json_int_t id;
  char *text;
} wline;

struct upk_workers {
  uv_loop_t *loop;
  char **argv;      /* prefix..., worker_path, NULL (owned) */
  char **extra_env; /* NULL-terminated (owned) */
  int max, warm;
  unsigned timeout_ms;
  ring queue, idle, busy, dying;
  int n_queued, n_idle, n_busy, n_workers; /* n_workers: structs allocated, any state */
  uv_timer_t kick;
  bool kick_open, closing;
  char *server_path;           /* the worker server's socket, or NULL: local workers only */
  unsigned server_idle_s;      /* the idle timeout a launched server gets */
  uint64_t server_off_until;   /* loop time before which workers are local (it failed us) */
  uint64_t server_next_launch; /* no second launch before this loop time */
  bool server_launched;
  bool server_wanted;        /* none answered: launch one when no compile of ours runs */
  uv_process_t *server_proc; /* a server this pool launched, while it runs */
  unsigned long from_server;
  json_int_t next_id;
  unsigned long started, killed, crashed;
  void (*done)(void *arg);
  void *done_arg;
};

/** The worker command's name ("srun" for "/usr/bin/srun"). */
static inline const char *upk__command_name(const upk_workers *p) {
  const char *slash = strrchr(p->argv[0], '/');
  return slash ? slash + 1 : p->argv[0];
}

/* workers.c */
void upk__worker_set_state(worker *w, wstate s);
void upk__worker_kill(worker *w);
void upk__worker_retire(worker *w);
void upk__worker_on_handle_closed(uv_handle_t *h);
void upk__worker_on_exit(uv_process_t *proc, int64_t status, int sig);
void upk__worker_on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
void upk__worker_on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);

/* workers_spawn.c */
/** Start a worker (from the server when it answers, else a local process); it goes to the
 * front of the idle list. 0, or UV_ENOENT with `err` saying why. */
int upk__worker_spawn(upk_workers *p, char *err, size_t err_len);
/** Launch the worker server if a connect found none, at most once per UPK__SERVER_RETRY_MS.
 * Called when no compile of this daemon runs (its warm-up would take their cores) and at close,
 * so the daemons after this one find it. */
void upk__server_launch_if_wanted(upk_workers *p);
/** Stop the worker's process: a remote one by its greeting's pid (SIGKILL), a local child with
 * SIGKILL, or SIGTERM through a worker command, escalated on the loop while it lives on. */
void upk__worker_signal_kill(worker *w);
/** A local worker's exit was seen: says how an escalated stop ended. */
void upk__worker_stop_ended(worker *w);
/** A remote worker's first line: 0 when it is the greeting `{"worker":{"pid":N}}`. */
int upk__worker_greeting(worker *w, const char *line, size_t len);
/** environ with every extra "K=V" replacing an inherited K (borrowed strings; free the array). */
char **upk__worker_env(char **extra);

/* workers_launcher.c: a worker command's stderr and the scheduler job it queued */
/** Start reading the worker command's stderr (w->err, set up as its stderr by uv_spawn): each
 * line is logged as a warning, the last kept in w->said, and srun's job id in w->job. */
int upk__launcher_watch(worker *w);
/** Read what the command left on stderr before it exited (its last words arrive in the pipe
 * before its exit is seen), without waiting. */
void upk__launcher_drain(worker *w);
/** The command is being stopped: if srun named its job, cancel the job with scancel (once), so
 * a srun that misses its SIGTERMs, or is killed, leaves nothing queued in the scheduler. */
void upk__launcher_cancel_job(worker *w);

#endif

#include "common/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static upk_log_level threshold = UPK_LOG_WARN;
static FILE *log_file;
static upk_log_sink sink;
static void *sink_ud;
static upk_log_level sink_max;
static int in_sink; /* a sink that logs must not recurse */
/* The sink writes protocol output, which only the loop thread may touch: lines logged on a
 * worker thread (the thread pool) go to stderr and the log file only. */
static pthread_t sink_thread;

static const char *const names[] = {"error", "warn", "info", "debug"};

void upk_log_set_level(upk_log_level level) {
  threshold = level;
}

upk_log_level upk_log_get_level(void) {
  return threshold;
}

int upk_log_open_file(const char *path) {
  upk_log_close_file();
  log_file = fopen(path, "ae"); /* close-on-exec: not the children's (worker server, nvcc) */
  if (!log_file)
    return -errno;
  setvbuf(log_file, NULL, _IOLBF, 0);
  return 0;
}

void upk_log_close_file(void) {
  if (log_file)
    fclose(log_file);
  log_file = NULL;
}

void upk_log_set_sink(upk_log_sink fn, void *ud, upk_log_level max) {
  if (fn)
    sink_thread = pthread_self();
  sink = fn;
  sink_ud = ud;
  sink_max = max;
}

void upk_log(upk_log_level level, const char *fmt, ...) {
  int to_sink = pthread_equal(pthread_self(), sink_thread) && sink && level <= sink_max && !in_sink;
  if (level > threshold && !to_sink)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (level <= threshold) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
    fprintf(stderr, "upskilld %s.%03ld %s: %s\n", stamp, ts.tv_nsec / 1000000, names[level], line);
    if (log_file)
      fprintf(log_file, "%s.%03ld %s: %s\n", stamp, ts.tv_nsec / 1000000, names[level], line);
  }
  if (to_sink) {
    in_sink = 1;
    sink(sink_ud, level, line);
    in_sink = 0;
  }
}

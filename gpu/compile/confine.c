/* NVRTC's confined thread (confine.h). */
#include "gpu/compile/confine.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/landlock.h"
#include "common/xalloc.h"
#include "gpu/compile/nvccbox.h"

typedef struct confined {
  const upk_compile_req *req;
  const char *root;
  upk_confined_fn fn;
  void *arg;
  upk_compile_result *out;
  int ruleset, rc;
} confined;

/* Where the compile may read: the toolkit (as named and made real), /usr (libnvrtc-builtins,
 * what the dynamic linker reads), the file's directory unless detached, the request's include
 * and readable directories. `ro` has room for 5 + includes + readable; `real`, `dir` PATH_MAX. */
static size_t places_of(const confined *c, const char **ro, char *real, char *dir) {
  const upk_compile_req *r = c->req;
  size_t n = 0;
  ro[n++] = c->root;
  if (realpath(c->root, real))
    ro[n++] = real;
  ro[n++] = "/usr";
  const char *slash = r->file_name ? strrchr(r->file_name, '/') : NULL;
  if (!r->detached && slash && slash != r->file_name) {
    snprintf(dir, PATH_MAX, "%.*s", (int)(slash - r->file_name), r->file_name);
    ro[n++] = dir;
  }
  for (size_t i = 0; i < r->includes.n; i++)
    ro[n++] = r->includes.v[i];
  for (size_t i = 0; i < r->readable.n; i++)
    ro[n++] = r->readable.v[i];
  return n;
}

/* The rule set: -ENOSYS where the kernel has no Landlock. NVRTC's precompiled headers are built
 * in files under TMPDIR (the worker's own directory, gpu/worker/worker.c), else /tmp. */
static int ruleset_of(const confined *c, bool pch) {
  char real[PATH_MAX], dir[PATH_MAX];
  const char **ro = upk_xcalloc(c->req->includes.n + c->req->readable.n + 6, sizeof *ro);
  size_t n = places_of(c, ro, real, dir);
  ro[n++] = "/etc/ld.so.cache";
  const char *tmp = getenv("TMPDIR"), *rw[] = {tmp && tmp[0] == '/' ? tmp : "/tmp"};
  upk_landlock_spec s = {.ro = ro, .n_ro = n, .rw = rw, .n_rw = pch ? 1 : 0};
  int fd = upk_landlock_ruleset(&s);
  free(ro);
  return fd;
}

/* Unconfined: the first diagnostic located in a file outside the places, or NULL. Relative
 * names are headers served from memory; /dev/null/... the detached program. */
static const char *outside_file(const confined *c) {
  char real[PATH_MAX], dir[PATH_MAX], got[PATH_MAX];
  const char **ro = upk_xcalloc(c->req->includes.n + c->req->readable.n + 6, sizeof *ro);
  size_t n = places_of(c, ro, real, dir);
  char **place = upk_xcalloc(n, sizeof *place); /* made real once; NULL where one is missing */
  for (size_t k = 0; k < n; k++)
    place[k] = realpath(ro[k], NULL);
  const char *bad = NULL;
  for (size_t i = 0; !bad && i < c->out->diags.len; i++) {
    const char *f = c->out->diags.items[i].file;
    if (!f || f[0] != '/' || !strncmp(f, "/dev/null/", 10) || !realpath(f, got))
      continue;
    bool in = false;
    for (size_t k = 0; !in && k < n; k++)
      in = place[k] && (!strcmp(got, place[k]) || upk_path_under(got, place[k]));
    bad = in ? NULL : f;
  }
  for (size_t k = 0; k < n; k++)
    free(place[k]);
  free(place);
  free(ro);
  return bad;
}

/* Unconfined, a file outside read: all the compile said is withheld (it may quote the file). */
static void withhold_outside(const confined *c) {
  upk_compile_result *out = c->out;
  const char *bad = outside_file(c);
  if (!bad)
    return;
  char msg[PATH_MAX + 512];
  snprintf(msg, sizeof msg,
           "NVRTC read %s, outside the places a compile may read (the project, its include "
           "directories, the toolkit, /usr): the compile is refused and its output withheld. This "
           "kernel has no Landlock to keep it out; move the header into the project "
           "(docs/security.md, \"Sandbox\")",
           bad);
  upk_compile_withhold(out, msg);
}

static void *confined_main(void *arg) {
  confined *c = arg;
  c->out->confined = upk_landlock_enter(c->ruleset) == 0; /* else as without Landlock */
  c->rc = c->fn(c->arg, c->out);
  return NULL;
}

int upk_nvrtc_confined(const upk_compile_req *req, const char *root, bool pch, upk_confined_fn fn,
                       void *arg, upk_compile_result *out) {
  confined c = {.req = req, .root = root, .fn = fn, .arg = arg, .out = out};
  c.ruleset = ruleset_of(&c, pch);
  int err = -1;
  if (c.ruleset >= 0) {
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64u << 20); /* the front end recurses deeply */
    err = pthread_create(&t, &attr, confined_main, &c);
    pthread_attr_destroy(&attr);
    if (!err)
      pthread_join(t, NULL);
    close(c.ruleset);
  }
  if (err)
    c.rc = fn(arg, out);
  if (out->confined)
    upk_compile_explain_denied(&out->diags);
  else
    withhold_outside(&c);
  return c.rc;
}

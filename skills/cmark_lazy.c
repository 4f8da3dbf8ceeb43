/* libcmark, loaded on first use.
 *
 * Linked, libcmark was mapped and relocated before main in every daemon and upskillctl: 320 KiB
 * of an idle daemon's 6.1 MiB resident set (its relocations write its tables; the rest comes in
 * with them), for sessions whose skills were all indexed by an earlier one and so never parse
 * Markdown. So the skills library is built against cmark's header only, and these definitions of
 * the functions it calls forward to the real libcmark, opened with dlopen by the first call
 * (as skills/audit/yara_lazy.c does for libyara). Without the library every call answers as
 * for an empty document (cmark_parse_document NULL, the iterator done), the load logs why, once,
 * and upk_cmark_error() says it to the readers of Markdown (the skill body's scan, the audit).
 * Thread-safe: the load runs once (pthread_once), the table is read-only after. */
#include <cmark.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/fault.h"
#include "common/log.h"
#include "skills/cmark_lazy.h"
#include "upk_config.h"

/* Each function: its result type, name, parameters, arguments, and its answer without the
 * library. */
#define CMARK_CALLS(X)                                                                             \
  X(cmark_node *, cmark_parse_document, (const char *b, size_t n, int o), (b, n, o), NULL)         \
  X(cmark_iter *, cmark_iter_new, (cmark_node * r), (r), NULL)                                     \
  X(cmark_event_type, cmark_iter_next, (cmark_iter * i), (i), CMARK_EVENT_DONE)                    \
  X(cmark_node *, cmark_iter_get_node, (cmark_iter * i), (i), NULL)                                \
  X(cmark_node_type, cmark_node_get_type, (cmark_node * n), (n), CMARK_NODE_NONE)                  \
  X(int, cmark_node_get_start_line, (cmark_node * n), (n), 0)                                      \
  X(int, cmark_node_get_end_line, (cmark_node * n), (n), 0)                                        \
  X(int, cmark_node_get_start_column, (cmark_node * n), (n), 0)                                    \
  X(int, cmark_node_get_end_column, (cmark_node * n), (n), 0)                                      \
  X(int, cmark_node_get_heading_level, (cmark_node * n), (n), 0)                                   \
  X(const char *, cmark_node_get_literal, (cmark_node * n), (n), NULL)                             \
  X(const char *, cmark_node_get_fence_info, (cmark_node * n), (n), NULL)                          \
  X(const char *, cmark_node_get_url, (cmark_node * n), (n), NULL)                                 \
  X(cmark_node *, cmark_node_previous, (cmark_node * n), (n), NULL)                                \
  X(cmark_node *, cmark_node_next, (cmark_node * n), (n), NULL)                                    \
  X(cmark_node *, cmark_node_parent, (cmark_node * n), (n), NULL)                                  \
  X(cmark_node *, cmark_node_first_child, (cmark_node * n), (n), NULL)
#define CMARK_VOID_CALLS(X)                                                                        \
  X(cmark_iter_free, (cmark_iter * i), (i))                                                        \
  X(cmark_node_free, (cmark_node * n), (n))

#define FIELD(type, name, params, args, none) type(*name) params;
#define VOID_FIELD(name, params, args) void(*name) params;
/* Debian's package of the SONAME built against (libcmark.so.0.30.2: libcmark0.30.2). */
#define UPK_CMARK_PACKAGE "libcmark0.30.2"
static char why[512];
static struct {
  void *lib;
  CMARK_CALLS(FIELD)
  CMARK_VOID_CALLS(VOID_FIELD)
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(type, name, params, args, none)                                                    \
  if (!(*(void **)&fn.name = dlsym(lib, #name)))                                                   \
    goto missing;
#define VOID_RESOLVE(name, params, args) RESOLVE(void, name, params, args, 0)

static void load(void) {
  int fault = upk_fault("cmark.load"); /* tests: as if the library were not installed */
  void *lib = fault ? NULL : dlopen(UPK_CMARK_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(why, sizeof why, "libcmark could not be loaded: %s; install it: sudo apt install %s",
             fault ? strerror(-fault) : dlerror(), UPK_CMARK_PACKAGE);
    upk_log(UPK_LOG_ERROR, "reading a skill's Markdown: %s", why);
    return;
  }
  CMARK_CALLS(RESOLVE)
  CMARK_VOID_CALLS(VOID_RESOLVE)
  fn.lib = lib;
  return;
missing:
  snprintf(why, sizeof why,
           "libcmark is too old or broken: %s; reinstall it: sudo apt install "
           "--reinstall %s",
           dlerror(), UPK_CMARK_PACKAGE);
  upk_log(UPK_LOG_ERROR, "reading a skill's Markdown: %s", why);
  dlclose(lib);
}

/* True once the library is loaded and every entry point resolved. */
static bool loaded(void) {
  pthread_once(&once, load);
  return fn.lib != NULL;
}

const char *upk_cmark_error(void) {
  return loaded() ? NULL : why;
}

#define FORWARD(type, name, params, args, none)                                                    \
  type name params {                                                                               \
    return loaded() ? fn.name args : none;                                                         \
  }
#define VOID_FORWARD(name, params, args)                                                           \
  void name params {                                                                               \
    if (loaded())                                                                                  \
      fn.name args;                                                                                \
  }
CMARK_CALLS(FORWARD)
CMARK_VOID_CALLS(VOID_FORWARD)

/* libcurl, loaded on first use.
 *
 * Linking libcurl maps about thirty libraries (TLS, Kerberos, LDAP, ...) into
 * every daemon at start: measured, start-to-initialize went from 4 ms to 25 ms
 * and idle RSS from 6 to 11 MiB, for sessions that mostly never call a model.
 * So the daemon is built against curl's headers only, and these definitions of
 * the curl functions http.c uses forward to the real libcurl, opened with
 * dlopen by the first curl_global_init (http.c calls it before anything else;
 * when the library is missing it fails with CURLE_FAILED_INIT and http.c
 * reports it). Everything else assumes a successful curl_global_init.
 * Loop thread only, like http.c. */
/* Plain prototypes: the definitions below would clash with typecheck-gcc.h's macros. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>

#include "common/log.h"

static struct {
  void *lib;
  CURLcode (*global_init)(long);
  void (*global_cleanup)(void);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  const char *(*easy_strerror)(CURLcode);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_cleanup)(CURLM *);
  CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_assign)(CURLM *, curl_socket_t, void *);
  CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
  CURLMsg *(*multi_info_read)(CURLM *, int *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  time_t (*getdate)(const char *, const time_t *);
} fn;

#define RESOLVE(field, name)                                                                       \
  if (!(*(void **)&fn.field = dlsym(fn.lib, name)))                                                \
  goto missing

static int load(void) {
  if (fn.lib)
    return 0;
  fn.lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!fn.lib) {
    upk_log(UPK_LOG_ERROR, "model providers need libcurl: %s", dlerror());
    return -1;
  }
  RESOLVE(global_init, "curl_global_init");
  RESOLVE(global_cleanup, "curl_global_cleanup");
  RESOLVE(easy_init, "curl_easy_init");
  RESOLVE(easy_cleanup, "curl_easy_cleanup");
  RESOLVE(easy_setopt, "curl_easy_setopt");
  RESOLVE(easy_getinfo, "curl_easy_getinfo");
  RESOLVE(easy_strerror, "curl_easy_strerror");
  RESOLVE(multi_init, "curl_multi_init");
  RESOLVE(multi_cleanup, "curl_multi_cleanup");
  RESOLVE(multi_setopt, "curl_multi_setopt");
  RESOLVE(multi_add_handle, "curl_multi_add_handle");
  RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
  RESOLVE(multi_assign, "curl_multi_assign");
  RESOLVE(multi_socket_action, "curl_multi_socket_action");
  RESOLVE(multi_info_read, "curl_multi_info_read");
  RESOLVE(slist_append, "curl_slist_append");
  RESOLVE(slist_free_all, "curl_slist_free_all");
  RESOLVE(getdate, "curl_getdate");
  return 0;
missing:
  upk_log(UPK_LOG_ERROR, "libcurl is too old or broken: %s", dlerror());
  dlclose(fn.lib);
  fn.lib = NULL;
  return -1;
}

CURLcode curl_global_init(long flags) {
  return load() ? CURLE_FAILED_INIT : fn.global_init(flags);
}

/* The library stays mapped: a later client would load it again anyway. */
void curl_global_cleanup(void) {
  if (fn.lib)
    fn.global_cleanup();
}

CURL *curl_easy_init(void) {
  return fn.easy_init();
}

void curl_easy_cleanup(CURL *h) {
  fn.easy_cleanup(h);
}

const char *curl_easy_strerror(CURLcode c) {
  return fn.lib ? fn.easy_strerror(c) : "libcurl is not loaded";
}

/* The one variadic argument's type follows from the option's number, as in
 * libcurl itself: long, object or function pointer, curl_off_t, or a blob. */
#define FORWARD_OPTION(call, h, opt, ap)                                                           \
  ((opt) < CURLOPTTYPE_OBJECTPOINT ? call(h, opt, va_arg(ap, long))                                \
   : (opt) < CURLOPTTYPE_OFF_T     ? call(h, opt, va_arg(ap, void *))                              \
   : (opt) < CURLOPTTYPE_BLOB      ? call(h, opt, va_arg(ap, curl_off_t))                          \
                                   : call(h, opt, va_arg(ap, void *)))

CURLcode curl_easy_setopt(CURL *h, CURLoption opt, ...) {
  va_list ap;
  va_start(ap, opt);
  CURLcode rc = FORWARD_OPTION(fn.easy_setopt, h, opt, ap);
  va_end(ap);
  return rc;
}

CURLMcode curl_multi_setopt(CURLM *m, CURLMoption opt, ...) {
  va_list ap;
  va_start(ap, opt);
  CURLMcode rc = FORWARD_OPTION(fn.multi_setopt, m, opt, ap);
  va_end(ap);
  return rc;
}

/* Every CURLINFO takes one pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...) {
  va_list ap;
  va_start(ap, info);
  CURLcode rc = fn.easy_getinfo(h, info, va_arg(ap, void *));
  va_end(ap);
  return rc;
}

CURLM *curl_multi_init(void) {
  return fn.multi_init();
}

CURLMcode curl_multi_cleanup(CURLM *m) {
  return fn.multi_cleanup(m);
}

CURLMcode curl_multi_add_handle(CURLM *m, CURL *h) {
  return fn.multi_add_handle(m, h);
}

CURLMcode curl_multi_remove_handle(CURLM *m, CURL *h) {
  return fn.multi_remove_handle(m, h);
}

CURLMcode curl_multi_assign(CURLM *m, curl_socket_t s, void *p) {
  return fn.multi_assign(m, s, p);
}

CURLMcode curl_multi_socket_action(CURLM *m, curl_socket_t s, int mask, int *running) {
  return fn.multi_socket_action(m, s, mask, running);
}

CURLMsg *curl_multi_info_read(CURLM *m, int *left) {
  return fn.multi_info_read(m, left);
}

struct curl_slist *curl_slist_append(struct curl_slist *l, const char *s) {
  return fn.slist_append(l, s);
}

void curl_slist_free_all(struct curl_slist *l) {
  fn.slist_free_all(l);
}

time_t curl_getdate(const char *p, const time_t *unused) {
  return fn.getdate(p, unused);
}

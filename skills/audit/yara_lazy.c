/* libyara, loaded on first use.
 *
 * Linking libyara maps it and what it needs (libcrypto, libmagic and through it liblzma, libbz2,
 * libz: fifteen shared objects) into every daemon before main: measured, start-to-initialize
 * went from 2-5 ms to 12-22 ms and idle RSS from 5 to 7-11 MiB, for sessions that mostly never
 * audit. So the skills library is built against libyara's headers only, and these definitions
 * of the functions the audit calls forward to the real libyara, opened with dlopen by the first
 * yr_initialize (skills/audit/audit_yara.c calls it, once per process, before anything else; when
 * the library is missing it fails and the audit reports "libyara could not start"). Every other
 * call comes after a successful yr_initialize; each still checks, and fails cleanly, without
 * it. Thread-safe: the load runs once (pthread_once), the table is read-only after. */
#include <dlfcn.h>
#include <stdbool.h>
#include <pthread.h>
#include <stddef.h>
#include <yara.h>

#include "common/log.h"
#include "upk_config.h"

static struct {
  void *lib;
  int (*initialize)(void);
  int (*rules_load_stream)(YR_STREAM *, YR_RULES **);
  int (*rules_destroy)(YR_RULES *);
  int (*scanner_create)(YR_RULES *, YR_SCANNER **);
  void (*scanner_destroy)(YR_SCANNER *);
  void (*scanner_set_callback)(YR_SCANNER *, YR_CALLBACK_FUNC, void *);
  void (*scanner_set_timeout)(YR_SCANNER *, int);
  int (*scanner_scan_mem)(YR_SCANNER *, const uint8_t *, size_t);
  int (*scanner_define_string_variable)(YR_SCANNER *, const char *, const char *);
  int (*scanner_define_boolean_variable)(YR_SCANNER *, const char *, int);
  int (*compiler_create)(YR_COMPILER **);
  void (*compiler_destroy)(YR_COMPILER *);
  void (*compiler_set_callback)(YR_COMPILER *, YR_COMPILER_CALLBACK_FUNC, void *);
  int (*compiler_add_string)(YR_COMPILER *, const char *, const char *);
  int (*compiler_get_rules)(YR_COMPILER *, YR_RULES **);
  int (*compiler_define_string_variable)(YR_COMPILER *, const char *, const char *);
  int (*compiler_define_boolean_variable)(YR_COMPILER *, const char *, int);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                                                       \
  if (!(*(void **)&fn.field = dlsym(lib, name)))                                                   \
  goto missing

static void load(void) {
  void *lib = dlopen(UPK_YARA_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    upk_log(UPK_LOG_ERROR, "the audit needs libyara: %s", dlerror());
    return;
  }
  RESOLVE(initialize, "yr_initialize");
  RESOLVE(rules_load_stream, "yr_rules_load_stream");
  RESOLVE(rules_destroy, "yr_rules_destroy");
  RESOLVE(scanner_create, "yr_scanner_create");
  RESOLVE(scanner_destroy, "yr_scanner_destroy");
  RESOLVE(scanner_set_callback, "yr_scanner_set_callback");
  RESOLVE(scanner_set_timeout, "yr_scanner_set_timeout");
  RESOLVE(scanner_scan_mem, "yr_scanner_scan_mem");
  RESOLVE(scanner_define_string_variable, "yr_scanner_define_string_variable");
  RESOLVE(scanner_define_boolean_variable, "yr_scanner_define_boolean_variable");
  RESOLVE(compiler_create, "yr_compiler_create");
  RESOLVE(compiler_destroy, "yr_compiler_destroy");
  RESOLVE(compiler_set_callback, "yr_compiler_set_callback");
  RESOLVE(compiler_add_string, "yr_compiler_add_string");
  RESOLVE(compiler_get_rules, "yr_compiler_get_rules");
  RESOLVE(compiler_define_string_variable, "yr_compiler_define_string_variable");
  RESOLVE(compiler_define_boolean_variable, "yr_compiler_define_boolean_variable");
  fn.lib = lib;
  return;
missing:
  upk_log(UPK_LOG_ERROR, "libyara is too old or broken: %s", dlerror());
  dlclose(lib);
}

/* True once the library is loaded and every entry point resolved. */
static bool loaded(void) {
  pthread_once(&once, load);
  return fn.lib != NULL;
}

int yr_initialize(void) {
  return loaded() ? fn.initialize() : ERROR_INTERNAL_FATAL_ERROR;
}

/* The library and its state stay until exit (skills/audit/audit_yara.c never finalizes). */
int yr_finalize(void) {
  return ERROR_SUCCESS;
}

int yr_rules_load_stream(YR_STREAM *stream, YR_RULES **rules) {
  return loaded() ? fn.rules_load_stream(stream, rules) : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_rules_destroy(YR_RULES *rules) {
  return loaded() ? fn.rules_destroy(rules) : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_scanner_create(YR_RULES *rules, YR_SCANNER **scanner) {
  return loaded() ? fn.scanner_create(rules, scanner) : ERROR_INTERNAL_FATAL_ERROR;
}

void yr_scanner_destroy(YR_SCANNER *scanner) {
  if (loaded())
    fn.scanner_destroy(scanner);
}

void yr_scanner_set_callback(YR_SCANNER *scanner, YR_CALLBACK_FUNC cb, void *user_data) {
  if (loaded())
    fn.scanner_set_callback(scanner, cb, user_data);
}

void yr_scanner_set_timeout(YR_SCANNER *scanner, int timeout) {
  if (loaded())
    fn.scanner_set_timeout(scanner, timeout);
}

int yr_scanner_scan_mem(YR_SCANNER *scanner, const uint8_t *buffer, size_t size) {
  return loaded() ? fn.scanner_scan_mem(scanner, buffer, size) : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_scanner_define_string_variable(YR_SCANNER *scanner, const char *id, const char *value) {
  return loaded() ? fn.scanner_define_string_variable(scanner, id, value)
                  : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_scanner_define_boolean_variable(YR_SCANNER *scanner, const char *id, int value) {
  return loaded() ? fn.scanner_define_boolean_variable(scanner, id, value)
                  : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_compiler_create(YR_COMPILER **compiler) {
  return loaded() ? fn.compiler_create(compiler) : ERROR_INTERNAL_FATAL_ERROR;
}

void yr_compiler_destroy(YR_COMPILER *compiler) {
  if (loaded())
    fn.compiler_destroy(compiler);
}

void yr_compiler_set_callback(YR_COMPILER *compiler, YR_COMPILER_CALLBACK_FUNC cb, void *ud) {
  if (loaded())
    fn.compiler_set_callback(compiler, cb, ud);
}

/* Returns the number of errors, as libyara's does: one when the library is missing. */
int yr_compiler_add_string(YR_COMPILER *compiler, const char *text, const char *ns) {
  return loaded() ? fn.compiler_add_string(compiler, text, ns) : 1;
}

int yr_compiler_get_rules(YR_COMPILER *compiler, YR_RULES **rules) {
  return loaded() ? fn.compiler_get_rules(compiler, rules) : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_compiler_define_string_variable(YR_COMPILER *compiler, const char *id, const char *value) {
  return loaded() ? fn.compiler_define_string_variable(compiler, id, value)
                  : ERROR_INTERNAL_FATAL_ERROR;
}

int yr_compiler_define_boolean_variable(YR_COMPILER *compiler, const char *id, int value) {
  return loaded() ? fn.compiler_define_boolean_variable(compiler, id, value)
                  : ERROR_INTERNAL_FATAL_ERROR;
}

#include "gpu/compile/cache.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/sha256.h"

int upk_kcache_key(json_t *params, const char *toolkit, char out[65]) {
  /* "noCache" says how to look, not what: not part of the key. */
  json_t *what = json_copy(params);
  json_object_del(what, "noCache");
  char *text = json_dumps(what, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(what);
  char stamp[160] = "";
  const char *path = json_string_value(json_object_get(params, "path"));
  struct stat st;
  if (path && stat(path, &st) == 0)
    snprintf(stamp, sizeof stamp, "|%lld|%lld.%ld|%llu", (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
  unsigned char md[32];
  upk_sha256_ctx c;
  int rc = text ? upk_sha256_init(&c) : -ENOMEM;
  if (!rc && ((rc = upk_sha256_update(&c, text, strlen(text))) ||
              (rc = upk_sha256_update(&c, toolkit, strlen(toolkit))) ||
              (rc = upk_sha256_update(&c, stamp, strlen(stamp)))))
    upk_sha256_abort(&c);
  if (!rc)
    rc = upk_sha256_final(&c, md);
  free(text);
  for (unsigned i = 0; !rc && i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", md[i]);
  return rc;
}

bool upk_kcache_fresh(json_t *result) {
  json_t *d;
  size_t i;
  json_array_foreach(json_object_get(result, "dependencies"), i, d) {
    struct stat st;
    const char *p = json_string_value(json_object_get(d, "path"));
    if (!p || stat(p, &st))
      return false;
    json_int_t ns = (json_int_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    if (st.st_size != json_integer_value(json_object_get(d, "size")) ||
        ns != json_integer_value(json_object_get(d, "mtimeNs")))
      return false;
  }
  return true;
}

const char *upk_kcache_dir(void) {
  /* v2: results from before kernel facts came from the cubin may hold the
   * empty kernel lists of NVRTC's driver cache (issue 12): never read them. */
  static char dir[PATH_MAX];
  if (!dir[0]) {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
      snprintf(dir, sizeof dir, "%s/upskilld/kernels-v4", xdg);
    else
      snprintf(dir, sizeof dir, "%s/.cache/upskilld/kernels-v4", home && *home ? home : "/tmp");
  }
  return dir;
}

static void entry_path(const char *key, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s.json", upk_kcache_dir(), key);
}

json_t *upk_kcache_load(const char *key) {
  char p[PATH_MAX];
  entry_path(key, p, sizeof p);
  json_t *r = json_load_file(p, 0, NULL);
  if (r && (!json_is_object(r) || !upk_kcache_fresh(r))) {
    json_decref(r);
    unlink(p); /* stale: a header changed */
    r = NULL;
  }
  return r;
}

/* Temporary files are <key>.json.<pid>.tmp. One whose process is gone was left by a killed
 * store: delete it (once per process, at its first store). */
static void sweep_stale(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[PATH_MAX];
  while (d && (e = readdir(d))) {
    const char *dot = strstr(e->d_name, ".json.");
    size_t n = strlen(e->d_name);
    if (!dot || n < 5 || strcmp(e->d_name + n - 4, ".tmp"))
      continue;
    long pid = strtol(dot + 6, NULL, 10);
    if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH)) {
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  }
  if (d)
    closedir(d);
}

int upk_kcache_store(const char *key, json_t *result, char *err, size_t err_len) {
  static bool swept;
  char p[PATH_MAX], tmp[PATH_MAX];
  const char *dir = upk_kcache_dir();
  int rc = upk_mkdir_p(dir, 0700);
  if (rc) {
    snprintf(err, err_len, "cannot create the kernel cache %s: %s", dir, strerror(-rc));
    return rc;
  }
  if (!swept)
    sweep_stale(dir);
  swept = true;
  entry_path(key, p, sizeof p);
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", p, (long)getpid());
  char *text = json_dumps(result, JSON_COMPACT);
  rc = text ? upk_write_file_via(p, tmp, "kcache.rename", text, strlen(text)) : -EIO;
  free(text);
  if (rc)
    snprintf(err, err_len, "cannot write the kernel cache entry %s: %s", p, strerror(-rc));
  return rc;
}

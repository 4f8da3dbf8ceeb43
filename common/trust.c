/* The trust policy and the user's store of trusted projects (trust.h). */
#include "common/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/sha256.h"
#include "common/xalloc.h"

enum { STORE_MAX = 4 << 20, CONFIG_MAX = 1 << 20 };

const char *const upk_trust_files[] = {"upskill.config.yaml", "build.toml", NULL};

static const char *const RULES[] = {
    [UPK_POWER_RUN] = "trust/run",
    [UPK_POWER_READ] = "trust/read",
    [UPK_POWER_WRITE] = "trust/write",
    [UPK_POWER_SEND] = "trust/send",
};

static const char *const VERBS[] = {
    [UPK_POWER_RUN] = "run a program",
    [UPK_POWER_READ] = "read files outside its own place",
    [UPK_POWER_WRITE] = "write files outside its own place",
    [UPK_POWER_SEND] = "send credentials or data to a host it names",
};

const char *upk_power_rule(upk_power p) {
  return RULES[p];
}

const char *upk_origin_name(upk_origin o) {
  switch (o) {
  case UPK_ORIGIN_USER:
    return "the user";
  case UPK_ORIGIN_WORKSPACE:
    return "the project";
  case UPK_ORIGIN_STRANGER:
    return "a skill source";
  case UPK_ORIGIN_AGENT:
    return "an agent";
  }
  return "an unknown origin";
}

bool upk_policy_allows(upk_origin origin, upk_power power, bool trusted) {
  (void)power; /* every power is granted or refused alike today; the table is the place to split */
  switch (origin) {
  case UPK_ORIGIN_USER:
    return true;
  case UPK_ORIGIN_WORKSPACE:
    return trusted;
  case UPK_ORIGIN_STRANGER:
  case UPK_ORIGIN_AGENT:
    return false;
  }
  return false;
}

const char *upk_policy_refusal(char *buf, size_t len, upk_origin origin, upk_power power,
                               const char *what, const char *dir) {
  const char *how = NULL;
  switch (origin) {
  case UPK_ORIGIN_WORKSPACE:
    how = "to allow it, trust the project: upskillctl trust";
    break;
  case UPK_ORIGIN_AGENT:
    how = "an agent's arguments never may on their own; the user allows it on upskilld's "
          "command line";
    break;
  default:
    how = "a skill source never may; install from a source you have reviewed with a "
          "local directory instead";
    break;
  }
  if (origin == UPK_ORIGIN_WORKSPACE)
    snprintf(buf, len, "%s refused: %s may not %s until you trust it (rule %s); %s %s", what,
             upk_origin_name(origin), VERBS[power], RULES[power], how, dir ? dir : "DIR");
  else
    snprintf(buf, len, "%s refused: %s may not %s (rule %s); %s", what, upk_origin_name(origin),
             VERBS[power], RULES[power], how);
  return buf;
}

bool upk_trust_store_path(char *buf, size_t len) {
  const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
  int n = -1;
  if (state && *state == '/')
    n = snprintf(buf, len, "%s/upskilld/trust.json", state);
  else if (home && *home == '/')
    n = snprintf(buf, len, "%s/.local/state/upskilld/trust.json", home);
  if (n < 0 || (size_t)n >= len) {
    if (len)
      buf[0] = '\0';
    return false;
  }
  return true;
}

/* Feed one config file into the hash: its name, then "-" when absent or its size and bytes.
 * A file that is there but unreadable (a link, a FIFO, too big) fails the hash. */
static int hash_file(upk_sha256_ctx *c, int dfd, const char *name, const upk_trust_bytes *given) {
  char *data = NULL, head[64];
  size_t len = 0;
  int rc = 0;
  if (given && !strcmp(given->name, name)) /* what a parser read: hashed, not read again */
    data = upk_xmalloc(given->len + 1), memcpy(data, given->text, given->len), len = given->len;
  else
    rc = upk_read_file_at(dfd, name, CONFIG_MAX, &data, &len);
  if (rc == -ENOENT) {
    snprintf(head, sizeof head, "-");
    rc = 0;
  } else if (!rc) {
    snprintf(head, sizeof head, "%zu", len);
  }
  if (!rc)
    rc = upk_sha256_update(c, name, strlen(name) + 1);
  if (!rc)
    rc = upk_sha256_update(c, head, strlen(head) + 1);
  if (!rc && data)
    rc = upk_sha256_update(c, data, len);
  free(data);
  return rc;
}

int upk_trust_hash(const char *real_dir, char hex[65]) {
  return upk_trust_hash_with(real_dir, NULL, hex);
}

int upk_trust_hash_with(const char *real_dir, const upk_trust_bytes *given, char hex[65]) {
  int dfd = open(real_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return -errno;
  upk_sha256_ctx c;
  int rc = upk_sha256_init(&c);
  for (size_t i = 0; !rc && upk_trust_files[i]; i++)
    rc = hash_file(&c, dfd, upk_trust_files[i], given);
  unsigned char md[32];
  if (!rc)
    rc = upk_sha256_final(&c, md);
  else
    upk_sha256_abort(&c);
  close(dfd);
  for (size_t i = 0; !rc && i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", md[i]);
  return rc < 0 ? rc : rc ? -EIO : 0;
}

/* The store as JSON ({"version":1,"projects":{}} when absent); NULL when unreadable. */
static json_t *store_load(const char *path) {
  char *text = NULL;
  size_t len = 0;
  int rc = upk_read_file_at(AT_FDCWD, path, STORE_MAX, &text, &len);
  if (rc == -ENOENT)
    return json_pack("{s:i,s:{}}", "version", 1, "projects");
  if (rc)
    return NULL;
  json_t *j = json_loadb(text, len, 0, NULL);
  free(text);
  if (!json_is_object(j) || !json_is_object(json_object_get(j, "projects"))) {
    json_decref(j);
    return NULL;
  }
  return j;
}

static int store_save(const char *path, json_t *store) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  int rc = upk_mkdir_p(dir, 0700);
  char *text = rc ? NULL : json_dumps(store, JSON_INDENT(2) | JSON_SORT_KEYS);
  if (!rc && !text)
    rc = -ENOMEM;
  if (!rc)
    rc = upk_write_file_atomic(path, text, strlen(text));
  if (!rc && chmod(path, 0600) < 0)
    rc = -errno;
  free(text);
  return rc;
}

upk_trust upk_trust_check(const char *dir) {
  char store_path[PATH_MAX], real[PATH_MAX], hex[65];
  if (!dir || !upk_trust_store_path(store_path, sizeof store_path) || !realpath(dir, real))
    return UPK_TRUST_NO;
  json_t *store = store_load(store_path);
  json_t *entry = json_object_get(json_object_get(store, "projects"), real);
  const char *want = json_string_value(json_object_get(entry, "sha256"));
  upk_trust t = UPK_TRUST_NO;
  /* A config that cannot be hashed now (a link, a FIFO, too big) is not trusted at all: NO,
   * not CHANGED, as it could never have been trusted in that state. */
  if (want && upk_trust_hash(real, hex) == 0)
    t = !strcmp(hex, want) ? UPK_TRUST_YES : UPK_TRUST_CHANGED;
  json_decref(store);
  return t;
}

bool upk_trust_matches(const char *dir, const char hex[65]) {
  char store_path[PATH_MAX], real[PATH_MAX];
  if (!dir || !upk_trust_store_path(store_path, sizeof store_path) || !realpath(dir, real))
    return false;
  json_t *store = store_load(store_path);
  json_t *entry = json_object_get(json_object_get(store, "projects"), real);
  const char *want = json_string_value(json_object_get(entry, "sha256"));
  bool yes = want && !strcmp(want, hex);
  json_decref(store);
  return yes;
}

static int fail(char *err, size_t errlen, int rc, const char *fmt, const char *arg) {
  snprintf(err, errlen, fmt, arg, strerror(-rc));
  return rc;
}

int upk_trust_grant(const char *dir, char *real, char hex[65], char *err, size_t errlen) {
  char store_path[PATH_MAX], when[32];
  if (!upk_trust_store_path(store_path, sizeof store_path))
    return fail(err, errlen, -ENOENT, "%s: no state directory (set HOME or XDG_STATE_HOME): %s",
                "trust");
  if (!realpath(dir, real))
    return fail(err, errlen, -errno, "%s: %s", dir);
  struct stat st;
  if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
    return fail(err, errlen, -ENOTDIR, "%s: %s", real);
  int rc = upk_trust_hash(real, hex);
  if (rc)
    return fail(err, errlen, rc, "%s: cannot read its config: %s", real);
  json_t *store = store_load(store_path);
  if (!store)
    return fail(err, errlen, -EINVAL, "%s: unreadable trust store: %s", store_path);
  time_t now = time(NULL);
  struct tm tm;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
  json_object_set_new(json_object_get(store, "projects"), real,
                      json_pack("{s:s,s:s}", "sha256", hex, "trustedAt", when));
  rc = store_save(store_path, store);
  json_decref(store);
  return rc ? fail(err, errlen, rc, "%s: %s", store_path) : 0;
}

int upk_trust_revoke(const char *dir, char *err, size_t errlen) {
  char store_path[PATH_MAX], real[PATH_MAX];
  if (!upk_trust_store_path(store_path, sizeof store_path))
    return 0;
  json_t *store = store_load(store_path);
  if (!store)
    return fail(err, errlen, -EINVAL, "%s: unreadable trust store: %s", store_path);
  json_t *projects = json_object_get(store, "projects");
  /* A project that is gone can still be forgotten by the path it was trusted under. */
  const char *key = realpath(dir, real) ? real : dir;
  int rc = 0;
  if (json_object_get(projects, key)) {
    json_object_del(projects, key);
    rc = store_save(store_path, store);
  }
  json_decref(store);
  return rc ? fail(err, errlen, rc, "%s: %s", store_path) : 0;
}

json_t *upk_trust_list(void) {
  char store_path[PATH_MAX];
  json_t *store =
      upk_trust_store_path(store_path, sizeof store_path) ? store_load(store_path) : NULL;
  json_t *projects = json_incref(json_object_get(store, "projects"));
  json_decref(store);
  return projects ? projects : json_object();
}

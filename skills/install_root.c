/* One skills directory on disk: lock, manifest, staging, recovery. See
 * install.h for the layout and install_root.h for the contract. */
#include "skills/install_root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fault.h"
#include "common/fnv1a.h"
#include "skills/fsutil.h"
#include "skills/install.h"
#include "common/xalloc.h"

#define MANIFEST_MAX (16u << 20)

/* The strict validator already enforces the spec's character set; this
 * guards the file system on its own, also for names given to remove. */
bool upk_install_name_ok(const char *n) {
  size_t len = n ? strlen(n) : 0;
  if (len == 0 || len > 128 || n[0] == '.')
    return false;
  for (const char *p = n; *p; p++)
    if (*p == '/' || *p == '\\' || (unsigned char)*p < 0x20)
      return false;
  return true;
}

static bool is_regular_at(int dfd, const char *name) {
  struct stat st;
  return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

upk_entry_kind upk_entry_classify(int rfd, const char *name, const char *hash, bool *same) {
  struct stat st;
  if (same)
    *same = false;
  if (fstatat(rfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return errno == ENOENT ? UPK_ENTRY_NONE : UPK_ENTRY_OTHER;
  if (S_ISLNK(st.st_mode))
    return UPK_ENTRY_SYMLINK;
  int sub = S_ISDIR(st.st_mode) ? upk_open_subdir(rfd, name) : -ENOTDIR;
  if (sub < 0)
    return UPK_ENTRY_OTHER;
  bool skill = is_regular_at(sub, "SKILL.md") || is_regular_at(sub, "skill.md");
  if (skill && hash && same) {
    upk_tree t = {0};
    char have[65];
    *same = upk_tree_load(sub, &t, NULL) == 0 && upk_tree_hash(&t, have) == 0 &&
            strcmp(have, hash) == 0;
    upk_tree_free(&t);
  }
  close(sub);
  return skill ? UPK_ENTRY_SKILL : UPK_ENTRY_OTHER;
}

int upk_tmp_make(int rfd, char out[64]) {
  for (int tries = 0; tries < 16; tries++) {
    unsigned long long r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
      r = (unsigned long long)time(NULL) ^ ((unsigned long long)tries << 40) ^ (uintptr_t)&r;
    snprintf(out, 64, UPK_TMP_PREFIX "%d.%012llx", (int)getpid(), r & 0xffffffffffffULL);
    if (mkdirat(rfd, out, 0700) == 0)
      return upk_open_subdir(rfd, out);
    if (errno != EEXIST)
      return -errno;
  }
  return -EEXIST;
}

void upk_tmp_drop(int rfd, const char *tmp) {
  upk_rmtree_at(rfd, tmp);
  upk_fsync_dir(rfd);
}

json_t *upk_json_read_at(int dfd, const char *name, int *err) {
  char *text;
  size_t len;
  *err = upk_read_file_at(dfd, name, MANIFEST_MAX, &text, &len);
  if (*err < 0)
    return NULL;
  json_t *j = json_loadb(text, len, 0, NULL);
  free(text);
  *err = j ? 0 : -EINVAL;
  return j;
}

/* ---- the manifest, in the state directory (install.h) ---- */

typedef struct manifest_loc {
  int dfd;       /* $XDG_STATE_HOME/upskilld/installs */
  char name[24]; /* <16 hex>.json */
  char tmp[28];  /* <16 hex>.json.tmp */
  char *dir;     /* for messages */
} manifest_loc;

static char *installs_dir(const upk_env *env) {
  return upk_env_xdg_dir(env, "XDG_STATE_HOME", ".local/state", UPK_MANIFEST_DIR);
}

/* The manifest's file name: FNV-1a 64 of the root's path (the file also records the path). */
static void manifest_names(const char *root, manifest_loc *loc) {
  uint64_t h = upk_fnv1a(UPK_FNV1A_INIT, root, strlen(root));
  snprintf(loc->name, sizeof loc->name, "%016llx.json", (unsigned long long)h);
  snprintf(loc->tmp, sizeof loc->tmp, "%s.tmp", loc->name);
}

/* Open the manifests' directory (created when asked). 0, or a negative errno (-ENOENT when
 * it does not exist and !create: then there is no manifest either). manifest_close() after
 * either. */
static int manifest_open(const char *root, const upk_env *env, bool create, manifest_loc *loc) {
  manifest_names(root, loc);
  loc->dfd = -1;
  if (!(loc->dir = installs_dir(env)))
    return -ENOMEM;
  int rc = create ? upk_mkdir_p(loc->dir, 0700) : 0;
  if (rc < 0 && rc != -EEXIST)
    return rc;
  loc->dfd = open(loc->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return loc->dfd < 0 ? -errno : 0;
}

char *upk_install_manifest_path(const char *root, const upk_env *env) {
  manifest_loc loc;
  char *dir = installs_dir(env);
  manifest_names(root, &loc);
  char *out = dir ? upk_xasprintf("%s/%s", dir, loc.name) : NULL;
  free(dir);
  return out;
}

static void manifest_close(manifest_loc *loc) {
  if (loc->dfd >= 0)
    close(loc->dfd);
  free(loc->dir);
}

/* Load the manifest; one that cannot be read is kept aside (.bad) and a new
 * one started, so nothing is lost. */
static json_t *manifest_load(const manifest_loc *loc, const char *root, upk_diags *d) {
  int err;
  json_t *m = upk_json_read_at(loc->dfd, loc->name, &err);
  if (m && json_is_object(json_object_get(m, "skills")))
    return m;
  json_decref(m);
  if (err != -ENOENT) {
    char bad[40];
    snprintf(bad, sizeof bad, "%s.bad", loc->name);
    renameat(loc->dfd, loc->name, loc->dfd, bad);
    upk_fs_diag(d, UPK_SEV_WARNING, "install/manifest-corrupt", root,
                "%s/%s (the manifest of %s) was not valid; kept as %s and started afresh", loc->dir,
                loc->name, root, bad);
  }
  return json_pack("{s:i, s:s, s:{}}", "version", 1, "root", root, "skills");
}

/* Drop entries whose directory is gone (e.g. a remove killed midway), then
 * write atomically: temp file, fsync, rename, fsync the directory; or, with
 * no entry left, delete it. */
static int manifest_save(int rfd, const manifest_loc *loc, json_t *m) {
  json_t *skills = json_object_get(m, "skills"), *v;
  const char *key;
  void *iter_tmp;
  struct stat st;
  json_object_foreach_safe(skills, iter_tmp, key, v) {
    if (fstatat(rfd, key, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
      json_object_del(skills, key);
  }
  unlinkat(loc->dfd, loc->tmp, 0); /* whatever is at the temp name (a planted symlink too) */
  if (json_object_size(skills) == 0) {
    int rc = upk_fault("manifest.unlink");
    if (rc)
      return rc;
    if (unlinkat(loc->dfd, loc->name, 0) < 0 && errno != ENOENT)
      return -errno;
    return upk_fsync_dir(loc->dfd);
  }
  char *text = json_dumps(m, JSON_INDENT(2) | JSON_SORT_KEYS);
  if (!text)
    return -ENOMEM;
  int rc = upk_write_file_at(loc->dfd, loc->tmp, text, strlen(text), 0600);
  free(text);
  if (!rc)
    rc = upk_fault("manifest.rename");
  if (!rc && renameat(loc->dfd, loc->tmp, loc->dfd, loc->name) < 0)
    rc = -errno;
  return rc ? rc : upk_fsync_dir(loc->dfd);
}

static void set_entry(json_t *skills, const char *name, json_t *entry) {
  json_t *prev = json_object_get(json_object_get(skills, name), "installedAt");
  json_t *at = json_is_string(prev) ? prev : json_object_get(entry, "updatedAt");
  json_object_set(entry, "installedAt", at);
  json_object_set_new(skills, name, entry);
}

int upk_manifest_update(int rfd, const char *root, const upk_env *env, const char *name,
                        json_t *entry, upk_diags *d) {
  manifest_loc loc;
  int rc = manifest_open(root, env, entry != NULL, &loc);
  if (rc == -ENOENT && !entry)
    return 0; /* no manifests at all: nothing to drop */
  json_t *m = rc ? NULL : manifest_load(&loc, root, d);
  if (m) {
    json_t *skills = json_object_get(m, "skills");
    if (entry)
      set_entry(skills, name, json_incref(entry));
    else
      json_object_del(skills, name);
    rc = manifest_save(rfd, &loc, m);
    json_decref(m);
  } else if (!rc) {
    rc = -ENOMEM;
  }
  json_decref(entry);
  if (rc < 0)
    upk_fs_diag(d, UPK_SEV_ERROR, "install/manifest-write", root,
                "could not write the manifest of %s in %s: %s", root,
                loc.dir ? loc.dir : "the state directory", strerror(-rc));
  manifest_close(&loc);
  return rc;
}

/* An older upskilld kept the manifest and a lock file in the root: the entries the state
 * directory's manifest lacks move there as they are; the old file goes once that is durable. */
static void legacy_move(int rfd, const char *root, const upk_env *env, upk_diags *d) {
  int err;
  unlinkat(rfd, UPK_LEGACY_LOCKFILE, 0);
  unlinkat(rfd, UPK_LEGACY_MANIFEST ".tmp", 0);
  json_t *old = upk_json_read_at(rfd, UPK_LEGACY_MANIFEST, &err), *v;
  if (err == -ENOENT)
    return;
  manifest_loc loc;
  json_t *m = manifest_open(root, env, true, &loc) ? NULL : manifest_load(&loc, root, d);
  json_t *skills = json_object_get(m, "skills");
  const char *key;
  json_object_foreach(json_object_get(old, "skills"), key, v) {
    if (json_is_object(v) && upk_install_name_ok(key) && !json_object_get(skills, key))
      json_object_set(skills, key, v);
  }
  if (m && manifest_save(rfd, &loc, m) == 0) {
    unlinkat(rfd, UPK_LEGACY_MANIFEST, 0);
    upk_fsync_dir(rfd);
  }
  json_decref(m);
  json_decref(old);
  manifest_close(&loc);
}

/* Finish or undo what a killed install or remove left in staging dir `tmp`.
 * The root is locked, so no live operation owns it:
 *  - the new copy is in place (its hash is the intent's): record it;
 *  - nothing is in place but the old copy was set aside: put it back;
 *  - otherwise the commit never started: just delete the staging dir. */
static void recover_one(int rfd, const char *root, const upk_env *env, const char *tmp,
                        upk_diags *d) {
  int tfd = upk_open_subdir(rfd, tmp), err = 0;
  json_t *intent = tfd >= 0 ? upk_json_read_at(tfd, UPK_INTENT_NAME, &err) : NULL;
  const char *name = json_string_value(json_object_get(intent, "name"));
  const char *hash = json_string_value(json_object_get(intent, "hash"));
  const char *what = "deleted the leftovers of an interrupted install or remove";
  if (name && hash && upk_install_name_ok(name)) {
    bool same;
    upk_entry_kind k = upk_entry_classify(rfd, name, hash, &same);
    json_t *entry = json_object_get(intent, "entry");
    if (k == UPK_ENTRY_SKILL && same && json_is_object(entry)) {
      upk_manifest_update(rfd, root, env, name, json_incref(entry), d);
      what = "finished an interrupted install";
    } else if (k == UPK_ENTRY_NONE && tfd >= 0 && renameat(tfd, UPK_OLD_NAME, rfd, name) == 0) {
      upk_fsync_dir(rfd);
      what = "restored the previous copy after an interrupted install";
    }
  }
  if (tfd >= 0)
    close(tfd);
  upk_tmp_drop(rfd, tmp);
  upk_fs_diag(d, UPK_SEV_INFO, "install/recovered", root, "%s/%s: %s%s%s", root, tmp, what,
              name ? " of " : "", name ? name : "");
  json_decref(intent);
}

static void recover(int rfd, const char *root, const upk_env *env, upk_diags *d) {
  DIR *dir = upk_opendir_at(rfd);
  if (!dir)
    return;
  /* Collect first: entries are renamed and deleted while we work. */
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (strncmp(e->d_name, UPK_TMP_PREFIX, strlen(UPK_TMP_PREFIX)) != 0)
      continue;
    char **p = upk_xrealloc(names, (n + 1) * sizeof *p);
    names = p;
    names[n] = upk_xstrdup(e->d_name);
    n++;
  }
  closedir(dir);
  for (size_t i = 0; i < n; i++) {
    recover_one(rfd, root, env, names[i], d);
    free(names[i]);
  }
  free(names);
}

/* The lock is the directory's own: flock on a new open of it (a lock belongs to an open file
 * description, so two installs in one process exclude each other too). No lock file. */
static int take_lock(int rfd, int *lfd) {
  *lfd = openat(rfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*lfd < 0)
    return -errno;
  while (flock(*lfd, LOCK_EX) < 0) {
    if (errno != EINTR) {
      int rc = -errno;
      close(*lfd);
      *lfd = -1;
      return rc;
    }
  }
  return 0;
}

int upk_root_open(const upk_resolved_dir *dir, const upk_env *env, bool create, int *lfd,
                  upk_diags *d) {
  /* A user's own config directory ($CLAUDE_CONFIG_DIR, ~/.config) may not
   * exist yet on a fresh machine; a project root must. */
  if (create && dir->scope == UPK_SCOPE_USER)
    upk_mkdir_p(dir->base, 0755);
  int rfd = upk_open_beneath(dir->base, dir->rel, create);
  if (rfd == -ELOOP || rfd == -ENOTDIR) {
    upk_fs_diag(d, UPK_SEV_ERROR, "install/symlink-in-path", dir->path,
                "a symbolic link or a non-directory is in the way of %s (below %s); refusing "
                "to write through it",
                dir->path, dir->base);
    return -ELOOP;
  }
  if (rfd < 0) {
    if (rfd != -ENOENT || create)
      upk_fs_diag(d, UPK_SEV_ERROR, "install/root", dir->path, "cannot open %s: %s", dir->path,
                  strerror(-rfd));
    return rfd;
  }
  int rc = take_lock(rfd, lfd);
  if (rc < 0) {
    upk_fs_diag(d, UPK_SEV_ERROR, "install/lock", dir->path, "cannot lock %s: %s", dir->path,
                strerror(-rc));
    close(rfd);
    return rc;
  }
  legacy_move(rfd, dir->path, env, d);
  recover(rfd, dir->path, env, d);
  return rfd;
}

static int manifest_resave(int rfd, const char *root, const upk_env *env, upk_diags *d) {
  manifest_loc loc;
  int rc = manifest_open(root, env, false, &loc);
  json_t *m = rc ? NULL : manifest_load(&loc, root, d);
  if (m)
    rc = manifest_save(rfd, &loc, m);
  json_decref(m);
  manifest_close(&loc);
  return rc == -ENOENT ? 0 : rc;
}

static bool has_entry(int rfd, const char *name) {
  struct stat st;
  return fstatat(rfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* What a killed run can leave that the next one must look at: staging directories, the
 * manifest's temporary file, manifest entries whose directory is gone; and what an older
 * upskilld kept in the root. */
static bool needs_repair(int rfd, const char *root, const upk_env *env) {
  DIR *dir = upk_opendir_at(rfd);
  bool found = false;
  struct dirent *e;
  while (dir && !found && (e = readdir(dir)))
    found = !strncmp(e->d_name, UPK_TMP_PREFIX, strlen(UPK_TMP_PREFIX)) ||
            !strcmp(e->d_name, UPK_LEGACY_MANIFEST) || !strcmp(e->d_name, UPK_LEGACY_LOCKFILE);
  if (dir)
    closedir(dir);
  manifest_loc loc;
  if (found || manifest_open(root, env, false, &loc) < 0) {
    if (!found)
      manifest_close(&loc);
    return found;
  }
  int err;
  found = has_entry(loc.dfd, loc.tmp);
  json_t *m = found ? NULL : upk_json_read_at(loc.dfd, loc.name, &err), *v;
  const char *key;
  json_object_foreach(json_object_get(m, "skills"), key, v) {
    if (!has_entry(rfd, key))
      found = true;
  }
  json_decref(m);
  manifest_close(&loc);
  return found;
}

int upk_install_repair(const char *root, const upk_env *env, upk_diags *d) {
  int rfd = upk_open_beneath(root, NULL, false);
  if (rfd < 0)
    return rfd == -ENOENT || rfd == -ENOTDIR ? 0 : rfd;
  int lfd = -1, rc = needs_repair(rfd, root, env) ? take_lock(rfd, &lfd) : 1;
  if (rc == 0) { /* locked: no live install or remove owns what is left */
    size_t before = d ? d->len : 0;
    legacy_move(rfd, root, env, d);
    recover(rfd, root, env, d);
    if (needs_repair(rfd, root, env)) /* a temp file or stale entries: a save drops them */
      rc = manifest_resave(rfd, root, env, d);
    if (!rc)
      upk_fs_diag(d, UPK_SEV_INFO, "install/repaired", root,
                  "%s: repaired what an interrupted install or remove left (%zu recovered)", root,
                  (d ? d->len : before) - before);
    close(lfd);
  }
  close(rfd);
  return rc < 0 ? rc : rc == 0;
}

void upk_root_close(int rfd, int lfd) {
  close(lfd); /* releases the flock */
  close(rfd);
}

/* One skills directory on disk: lock, manifest, staging, recovery. See
 * install.h for the layout and install_root.h for the contract. */
#include "install_root.h"

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

#include "fault.h"
#include "fsutil.h"
#include "install.h"

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

/* Load the manifest; one that cannot be read is kept aside (.bad) and a new
 * one started, so nothing is lost. */
static json_t *manifest_load(int rfd, const char *root, upk_diags *d) {
  int err;
  json_t *m = upk_json_read_at(rfd, UPK_MANIFEST_NAME, &err);
  if (m && json_is_object(json_object_get(m, "skills")))
    return m;
  json_decref(m);
  if (err != -ENOENT) {
    renameat(rfd, UPK_MANIFEST_NAME, rfd, UPK_MANIFEST_NAME ".bad");
    upk_fs_diag(d, UPK_SEV_WARNING, "install/manifest-corrupt", root,
                "%s/" UPK_MANIFEST_NAME " was not a valid manifest; kept as " UPK_MANIFEST_NAME
                ".bad and started afresh",
                root);
  }
  return json_pack("{s:i, s:{}}", "version", 1, "skills");
}

/* Drop entries whose directory is gone (e.g. a remove killed midway), then
 * write atomically: temp file, fsync, rename, fsync the directory. */
static int manifest_save(int rfd, json_t *m) {
  json_t *skills = json_object_get(m, "skills"), *v;
  const char *key;
  void *iter_tmp;
  struct stat st;
  json_object_foreach_safe(skills, iter_tmp, key, v) {
    if (fstatat(rfd, key, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
      json_object_del(skills, key);
  }
  char *text = json_dumps(m, JSON_INDENT(2) | JSON_SORT_KEYS);
  if (!text)
    return -ENOMEM;
  /* Unlink first: whatever is at the temp name (a planted symlink too) goes. */
  unlinkat(rfd, UPK_MANIFEST_NAME ".tmp", 0);
  int rc = upk_write_file_at(rfd, UPK_MANIFEST_NAME ".tmp", text, strlen(text), 0644);
  free(text);
  if (!rc)
    rc = upk_fault("manifest.rename");
  if (!rc && renameat(rfd, UPK_MANIFEST_NAME ".tmp", rfd, UPK_MANIFEST_NAME) < 0)
    rc = -errno;
  return rc ? rc : upk_fsync_dir(rfd);
}

int upk_manifest_update(int rfd, const char *root, const char *name, json_t *entry, upk_diags *d) {
  json_t *m = manifest_load(rfd, root, d);
  if (!m) {
    json_decref(entry);
    return -ENOMEM;
  }
  json_t *skills = json_object_get(m, "skills");
  if (entry) {
    json_t *prev = json_object_get(json_object_get(skills, name), "installedAt");
    json_t *at = json_is_string(prev) ? prev : json_object_get(entry, "updatedAt");
    json_object_set(entry, "installedAt", at);
    json_object_set_new(skills, name, entry);
  } else {
    json_object_del(skills, name);
  }
  int rc = manifest_save(rfd, m);
  json_decref(m);
  if (rc < 0)
    upk_fs_diag(d, UPK_SEV_ERROR, "install/manifest-write", root,
                "could not write %s/" UPK_MANIFEST_NAME ": %s", root, strerror(-rc));
  return rc;
}

/* Finish or undo what a killed install or remove left in staging dir `tmp`.
 * The root is locked, so no live operation owns it:
 *  - the new copy is in place (its hash is the intent's): record it;
 *  - nothing is in place but the old copy was set aside: put it back;
 *  - otherwise the commit never started: just delete the staging dir. */
static void recover_one(int rfd, const char *root, const char *tmp, upk_diags *d) {
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
      upk_manifest_update(rfd, root, name, json_incref(entry), d);
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

static void recover(int rfd, const char *root, upk_diags *d) {
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
    char **p = realloc(names, (n + 1) * sizeof *p);
    if (!p)
      break;
    names = p;
    if (!(names[n] = strdup(e->d_name)))
      break;
    n++;
  }
  closedir(dir);
  for (size_t i = 0; i < n; i++) {
    recover_one(rfd, root, names[i], d);
    free(names[i]);
  }
  free(names);
}

static int take_lock(int rfd, int *lfd) {
  *lfd = openat(rfd, UPK_LOCKFILE_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
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

int upk_root_open(const upk_resolved_dir *dir, bool create, int *lfd, upk_diags *d) {
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
    upk_fs_diag(d, UPK_SEV_ERROR, "install/lock", dir->path,
                "cannot lock %s/" UPK_LOCKFILE_NAME ": %s", dir->path, strerror(-rc));
    close(rfd);
    return rc;
  }
  recover(rfd, dir->path, d);
  return rfd;
}

static int manifest_resave(int rfd, const char *root, upk_diags *d) {
  json_t *m = manifest_load(rfd, root, d);
  int rc = m ? manifest_save(rfd, m) : -ENOMEM;
  json_decref(m);
  return rc;
}

/* What a killed run can leave that the next one must look at: staging directories, the
 * manifest's temporary file, and manifest entries whose directory is gone. */
static bool needs_repair(int rfd) {
  DIR *dir = upk_opendir_at(rfd);
  bool found = false;
  struct dirent *e;
  while (dir && !found && (e = readdir(dir)))
    found = !strncmp(e->d_name, UPK_TMP_PREFIX, strlen(UPK_TMP_PREFIX)) ||
            !strcmp(e->d_name, UPK_MANIFEST_NAME ".tmp");
  if (dir)
    closedir(dir);
  int err;
  json_t *m = found ? NULL : upk_json_read_at(rfd, UPK_MANIFEST_NAME, &err), *v;
  const char *key;
  struct stat st;
  json_object_foreach(json_object_get(m, "skills"), key, v) {
    if (fstatat(rfd, key, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
      found = true;
  }
  json_decref(m);
  return found;
}

int upk_install_repair(const char *root, upk_diags *d) {
  int rfd = upk_open_beneath(root, NULL, false);
  if (rfd < 0)
    return rfd == -ENOENT || rfd == -ENOTDIR ? 0 : rfd;
  int lfd = -1, rc = needs_repair(rfd) ? take_lock(rfd, &lfd) : 1;
  if (rc == 0) { /* locked: no live install or remove owns what is left */
    size_t before = d ? d->len : 0;
    recover(rfd, root, d);
    unlinkat(rfd, UPK_MANIFEST_NAME ".tmp", 0);
    if (needs_repair(rfd)) /* stale entries: a save drops them */
      rc = manifest_resave(rfd, root, d);
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

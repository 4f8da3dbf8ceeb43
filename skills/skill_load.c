/* Loading a skill from disk: the path checks and messages of skills-ref's
 * validate(), a bounded read of SKILL.md, and skill_meta.json beside it. */
#include "skills/skill.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/meta.h"
#include "skills/skill_internal.h"
#include "common/fileio.h"
#include "common/suggest.h"
#include "common/xalloc.h"

static int path_error(upk_diags *d, const char *path, int err) {
  upk_range all = upk_skill_whole_file();
  char fix[PATH_MAX];
  if ((err == ENOENT || err == ENOTDIR) && upk_suggest_path(path, fix, sizeof fix))
    upk_sdiag(d, UPK_SEV_ERROR, "skill/path-not-found", all,
              "Path does not exist: %s (did you mean %s?)", path, fix);
  else if (err == ENOENT || err == ENOTDIR)
    upk_sdiag(d, UPK_SEV_ERROR, "skill/path-not-found", all, "Path does not exist: %s", path);
  else if (err == ELOOP)
    upk_sdiag(d, UPK_SEV_ERROR, "skill/symlink-loop", all,
              "Cannot open %s: too many levels of symbolic links (a symlink loop?)", path);
  else
    upk_sdiag(d, UPK_SEV_ERROR, "skill/unreadable", all, "Cannot read %s: %s", path, strerror(err));
  return err == ENOTDIR ? -ENOENT : -err;
}

/* Read SKILL.md through the one safe reader (common/fileio.h): a regular file of at most
 * UPK_SKILL_MAX_BYTES, not a link (links inside a skill are not followed: a stranger's SKILL.md
 * pointing at the user's files must not become the skill's text), never blocking on a FIFO. */
static int read_small_file(const char *path, char **buf, size_t *len, upk_diags *d) {
  int rc = upk_read_in_dir(path, UPK_SKILL_MAX_BYTES, buf, len);
  struct stat st;
  if (rc == -EINVAL || rc == -EISDIR) {
    upk_sdiag(d, UPK_SEV_ERROR, "skill/not-regular-file", upk_skill_whole_file(),
              "Not a regular file: %s", path);
  } else if (rc == -EFBIG) {
    upk_sdiag(d, UPK_SEV_ERROR, "skill/too-large", upk_skill_whole_file(),
              "SKILL.md is %lld bytes; files over 10 MB (%u bytes) are refused",
              stat(path, &st) ? -1LL : (long long)st.st_size, UPK_SKILL_MAX_BYTES);
  } else if (rc == -ELOOP && !(stat(path, &st) && errno == ELOOP)) {
    upk_sdiag(d, UPK_SEV_ERROR, "skill/symlink", upk_skill_whole_file(),
              "Not read: %s is a symbolic link, and links inside a skill are not followed "
              "(copy the file in, or link the whole skill directory)",
              path);
  } else if (rc) {
    return path_error(d, path, -rc);
  }
  return rc;
}

/* skills-ref's find_skill_md: SKILL.md, then skill.md. */
static int find_skill_md(const char *dir, char *file, size_t cap, upk_diags *d) {
  static const char *const names[] = {"SKILL.md", "skill.md"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(file, cap, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
    struct stat st;
    if (stat(file, &st) == 0)
      return 0;
    if (errno != ENOENT)
      return path_error(d, file, errno);
  }
  upk_sdiag(d, UPK_SEV_ERROR, "skill/missing-skill-md", upk_skill_whole_file(),
            "Missing required file: SKILL.md");
  return -ENOENT;
}

static void load_meta(upk_skill *s) {
  char path[PATH_MAX];
  struct stat st;
  snprintf(path, sizeof path, "%s/skill_meta.json", s->dir);
  if (stat(path, &st) != 0)
    return;
  upk_diags tmp = {0};
  s->meta = upk_xcalloc(1, sizeof *s->meta);
  int rc = s->meta ? upk_meta_read(path, s->meta, &tmp) : -ENOMEM;
  if (rc && rc != -EINVAL) {
    upk_meta_free(s->meta);
    free(s->meta);
    s->meta = NULL;
  }
  for (size_t i = 0; i < tmp.len; i++)
    if (!tmp.items[i].file)
      tmp.items[i].file = upk_xstrdup(path);
  upk_diags_take(&s->issues, &tmp);
  upk_diags_free(&tmp);
}

int upk_skill_load(const char *path, upk_skill *out, upk_diags *diags) {
  memset(out, 0, sizeof *out);
  out->fm_end_line = -1;
  struct stat st;
  char file[PATH_MAX];
  if (stat(path, &st) != 0)
    return path_error(diags, path, errno);
  if (S_ISDIR(st.st_mode)) {
    int rc = find_skill_md(path, file, sizeof file, diags);
    if (rc)
      return rc;
  } else {
    const char *slash = strrchr(path, '/');
    if (!S_ISREG(st.st_mode) || strcasecmp(slash ? slash + 1 : path, "skill.md") != 0) {
      upk_sdiag(diags, UPK_SEV_ERROR, "skill/not-a-directory", upk_skill_whole_file(),
                "Not a directory: %s", path);
      return -ENOTDIR;
    }
    snprintf(file, sizeof file, "%s", path);
  }
  char *buf = NULL;
  size_t len = 0;
  int rc = read_small_file(file, &buf, &len, diags);
  if (rc)
    return rc;
  rc = upk_skill_parse(buf, len, file, out, diags);
  free(buf);
  if (rc)
    return rc;
  if (strcmp(out->skill_file, "SKILL.md") != 0)
    upk_sdiag(&out->issues, UPK_SEV_WARNING, "skill/lowercase-filename", upk_skill_whole_file(),
              "The file is named %s; agents such as Claude Code look for SKILL.md exactly: "
              "rename it",
              out->skill_file);
  load_meta(out);
  return 0;
}

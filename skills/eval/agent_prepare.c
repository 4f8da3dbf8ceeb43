/* A run's directory, command line and environment; what it wrote (agent.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/eval/agent.h"
#include "common/dynbuf.h"
#include "common/fileio.h"
#include "skills/fsutil.h"
#include "common/xalloc.h"

enum {
  LOGIN_MAX = 1 << 20,
  INSPECT_MAX_FILES = 1000,
  INSPECT_MAX_DEPTH = 16,
  PREVIEW_MAX = 16 << 10, /* bytes of one file shown to a grader */
  PREVIEW_FILES = 8,
};

static char *join(const char *a, const char *b) {
  return upk_xasprintf("%s/%s", a, b);
}

/* One word with {prompt}, {workspace}, {model}, {home} and {dir} replaced. */
static char *expand(const char *w, const upk_agent_task *t, const char *ws, const char *home) {
  const char *keys[] = {"{prompt}", "{workspace}", "{model}", "{home}", "{dir}"};
  const char *vals[] = {t->prompt, ws, t->model ? t->model : "", home, t->dir};
  upk_buf out = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&out, ""); /* "" for an empty word */
  while (*w) {
    int k = 0;
    while (k < 5 && strncmp(w, keys[k], strlen(keys[k])))
      k++;
    if (k < 5) {
      upk_buf_puts(&out, vals[k]);
      w += strlen(keys[k]);
    } else {
      upk_buf_append(&out, w++, 1);
    }
  }
  return upk_buf_take(&out, NULL);
}

static char **build_argv(const upk_agent_task *t, const char *ws, const char *home) {
  size_t n = 0, m = 0;
  while (t->def->command[n])
    n++;
  bool model = t->model && *t->model;
  while (model && t->def->model_args[m])
    m++;
  char **v = upk_xcalloc(n + m + 1, sizeof *v);
  for (size_t i = 0; v && i < n + m; i++)
    if (!(v[i] = expand(i < n ? t->def->command[i] : t->def->model_args[i - n], t, ws, home))) {
      upk_strv_free(v);
      return NULL;
    }
  return v;
}

static bool named(const char *entry, const char *name) {
  size_t n = strlen(name);
  return !strncmp(entry, name, n) && entry[n] == '=';
}

static bool dropped(const char *entry, const upk_agent_def *d, bool strip_login) {
  static const char *const ours[] = {"HOME", "TMPDIR", "CODEX_HOME"};
  for (size_t i = 0; i < 3; i++)
    if (named(entry, ours[i]))
      return true;
  for (size_t i = 0; d->strip_env[i]; i++)
    if (named(entry, d->strip_env[i]))
      return true;
  return strip_login && d->login_key && named(entry, d->login_key);
}

static char **build_envp(const upk_agent_task *t, char *const *base, const char *ws,
                         const char *home, bool logged_in) {
  size_t n = 0, m = 0;
  while (base && base[n])
    n++;
  while (t->def->set_env[m])
    m++;
  char **v = upk_xcalloc(n + m + 4, sizeof *v);
  size_t k = 0;
  /* The agent's own login is used where one was copied (upskill strips the key for Claude). */
  bool strip_login = logged_in && !t->def->strip_given;
  for (size_t i = 0; v && i < n; i++)
    if (!dropped(base[i], t->def, strip_login) && !(v[k++] = upk_xstrdup(base[i])))
      goto nomem;
  if (!v)
    goto nomem;
  v[k++] = upk_xasprintf("HOME=%s", home);
  v[k++] = upk_xasprintf("TMPDIR=%s/tmp", t->dir);
  v[k++] = upk_xasprintf("CODEX_HOME=%s/.codex", home);
  for (size_t i = 0; i < m; i++)
    if (!(v[k++] = expand(t->def->set_env[i], t, ws, home)))
      goto nomem;
  return v;
nomem:
  if (v && k)
    v[k - 1] = NULL; /* a failed asprintf leaves its slot undefined */
  upk_strv_free(v);
  return NULL;
}

static const char *env_of(char *const *base, const char *name) {
  for (size_t i = 0; base && base[i]; i++)
    if (named(base[i], name))
      return base[i] + strlen(name) + 1;
  return NULL;
}

/* Copy the agent's login files that exist from the user's home. The run's
 * CODEX_HOME is home/.codex, so ".codex/..." comes from the user's CODEX_HOME
 * when one is set. Returns how many were copied, or a negative errno. */
static int copy_logins(const upk_agent_task *t, char *const *base, const char *home) {
  const char *uhome = t->user_home ? t->user_home : env_of(base, "HOME");
  const char *codex_home = env_of(base, "CODEX_HOME");
  int copied = 0;
  for (size_t i = 0; uhome && t->def->login_files[i]; i++) {
    const char *rel = t->def->login_files[i];
    if (!upk_rel_path_ok(rel))
      continue;
    char *src =
        codex_home && !strncmp(rel, ".codex/", 7) ? join(codex_home, rel + 7) : join(uhome, rel);
    size_t len = 0;
    char *data = src ? upk_read_file(src, LOGIN_MAX, &len) : NULL;
    free(src);
    if (!data)
      continue; /* not logged in that way */
    char *dst = join(home, rel), *slash = dst ? strrchr(dst, '/') : NULL;
    int rc = dst ? 0 : -ENOMEM;
    if (slash) {
      *slash = '\0';
      rc = upk_mkdir_p(dst, 0700);
      *slash = '/';
    }
    int fd = rc ? -1 : open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    rc = rc ? rc : fd < 0 ? -errno : upk_write_all(fd, data, len);
    if (fd >= 0)
      close(fd);
    free(dst);
    free(data);
    if (rc)
      return rc;
    copied++;
  }
  return copied;
}

static int install_skill(const upk_agent_task *t, const char *ws) {
  char *rel = upk_xasprintf("%s/%s", t->def->skills_dir, t->skill_name);
  int dfd = upk_open_beneath(ws, rel, true);
  free(rel);
  if (dfd < 0)
    return dfd;
  int rc = 0;
  if (t->skill_dir) {
    upk_tree tree = {0};
    const char *bad = NULL;
    int src = open(t->skill_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    rc = src < 0 ? -errno : upk_tree_load(src, &tree, NULL);
    if (src >= 0)
      close(src);
    if (!rc && !(rc = upk_tree_check(&tree, &bad)))
      rc = upk_tree_write(dfd, &tree);
    upk_tree_free(&tree);
  } else {
    rc = upk_write_file_at(dfd, "SKILL.md", t->skill_md, strlen(t->skill_md), 0644);
  }
  close(dfd);
  return rc;
}

static int write_case_files(const upk_agent_task *t, const char *ws) {
  for (size_t i = 0; i < t->n_files; i++) {
    const char *rel = t->file_names[i], *slash = strrchr(rel, '/');
    if (!upk_rel_path_ok(rel))
      return -EINVAL;
    char *parent = slash ? upk_xstrndup(rel, (size_t)(slash - rel)) : NULL;
    int dfd = upk_open_beneath(ws, parent, true);
    free(parent);
    if (dfd < 0)
      return dfd;
    int rc = upk_write_file_at(dfd, slash ? slash + 1 : rel, t->file_texts[i],
                               strlen(t->file_texts[i]), 0644);
    close(dfd);
    if (rc)
      return rc;
  }
  return 0;
}

static int make_dirs(const upk_agent_task *t, upk_agent_launch *l, char **home) {
  static const char *const subs[] = {"workspace", "home/.codex", "tmp"};
  for (size_t i = 0; i < 3; i++) {
    char *p = join(t->dir, subs[i]);
    int rc = p ? upk_mkdir_p(p, 0700) : -ENOMEM;
    free(p);
    if (rc)
      return rc;
  }
  l->workspace = join(t->dir, "workspace");
  *home = join(t->dir, "home");
  l->stdout_path = join(t->dir, "stdout.jsonl");
  l->stderr_path = join(t->dir, "stderr.txt");
  return l->workspace && *home && l->stdout_path && l->stderr_path ? 0 : -ENOMEM;
}

int upk_agent_prepare(const upk_agent_task *t, char *const *base, upk_agent_launch *out, char *err,
                      size_t errlen) {
  memset(out, 0, sizeof *out);
  char *home = NULL;
  const char *step = "create the run's directories";
  int rc = make_dirs(t, out, &home);
  if (!rc && (t->skill_dir || t->skill_md)) {
    step = "install the skill in the workspace";
    rc = install_skill(t, out->workspace);
  }
  if (!rc) {
    step = "write the case's files";
    rc = write_case_files(t, out->workspace);
  }
  int logins = 0;
  if (!rc) {
    step = "copy the agent's login";
    rc = logins = copy_logins(t, base, home);
  }
  if (rc >= 0) {
    step = "build the command";
    out->argv = build_argv(t, out->workspace, home);
    out->envp = build_envp(t, base, out->workspace, home, logins > 0);
    rc = out->argv && out->envp ? 0 : -ENOMEM;
  }
  free(home);
  if (rc < 0) {
    snprintf(err, errlen, "cannot %s under %s: %s", step, t->dir, strerror(-rc));
    upk_agent_launch_free(out);
    return rc;
  }
  return 0;
}

void upk_agent_launch_free(upk_agent_launch *l) {
  upk_strv_free(l->argv);
  upk_strv_free(l->envp);
  free(l->workspace);
  free(l->stdout_path);
  free(l->stderr_path);
  memset(l, 0, sizeof *l);
}

/* ---- what the run wrote ---- */

/* A case file the agent left as it was given. */
static bool untouched_input(const upk_agent_task *t, const char *root, const char *rel) {
  for (size_t i = 0; i < t->n_files; i++) {
    if (strcmp(t->file_names[i], rel))
      continue;
    size_t len = 0;
    char *data = NULL;
    upk_read_beneath(root, rel, strlen(t->file_texts[i]) + 1, &data, &len);
    bool same = data && len == strlen(t->file_texts[i]) && !memcmp(data, t->file_texts[i], len);
    free(data);
    return same;
  }
  return false;
}

/* A small text file's content; NULL for a large or binary one. Read beneath the run's
 * workspace: a link the agent left there (to ~/.ssh, say) is not followed into the result. */
static char *preview(const char *root, const char *rel) {
  size_t len = 0;
  char *text = NULL;
  upk_read_beneath(root, rel, PREVIEW_MAX, &text, &len);
  if (text && memchr(text, '\0', len)) {
    free(text);
    text = NULL;
  }
  return text;
}

static int add_file(upk_agent_result *r, const char *root, const char *rel) {
  char **v = upk_xrealloc(r->files, (r->n_files + 1) * sizeof *v);
  if (v)
    r->files = v;
  char **p = v ? upk_xrealloc(r->previews, (r->n_files + 1) * sizeof *p) : NULL;
  if (!p)
    return -ENOMEM;
  r->previews = p;
  v[r->n_files] = upk_xstrdup(rel);
  p[r->n_files] = r->n_files < PREVIEW_FILES ? preview(root, rel) : NULL;
  r->n_files++;
  return 0;
}

static int walk(const upk_agent_task *t, const char *root, const char *rel, int depth,
                upk_agent_result *r) {
  char *path = *rel ? join(root, rel) : upk_xstrdup(root);
  DIR *d = path ? opendir(path) : NULL;
  int rc = path ? 0 : -ENOMEM;
  struct dirent *e;
  while (d && !rc && r->n_files < INSPECT_MAX_FILES && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
      continue;
    char *sub = upk_xasprintf("%s%s%s", rel, *rel ? "/" : "", e->d_name);
    char *full = join(root, sub);
    struct stat st;
    if (lstat(full, &st) != 0 || !strcmp(sub, t->def->skills_dir))
      ; /* gone, or the installed skills */
    else if (S_ISDIR(st.st_mode) && depth < INSPECT_MAX_DEPTH)
      rc = walk(t, root, sub, depth + 1, r);
    else if (S_ISREG(st.st_mode) && !untouched_input(t, root, sub))
      rc = add_file(r, root, sub);
    free(sub);
    free(full);
  }
  if (d)
    closedir(d);
  free(path);
  return rc;
}

int upk_agent_inspect(const upk_agent_task *t, upk_agent_result *r) {
  char *ws = join(t->dir, "workspace");
  int rc = ws ? walk(t, ws, "", 0, r) : -ENOMEM;
  free(ws);
  /* previews stay with their files: sort pairs */
  for (size_t i = 1; i < r->n_files; i++)
    for (size_t k = i; k > 0 && strcmp(r->files[k - 1], r->files[k]) > 0; k--) {
      char *f = r->files[k], *q = r->previews[k];
      r->files[k] = r->files[k - 1], r->previews[k] = r->previews[k - 1];
      r->files[k - 1] = f, r->previews[k - 1] = q;
    }
  return rc;
}

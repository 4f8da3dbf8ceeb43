/** Installing and removing skills in the directories where agents read them.
 *
 * Plain C, blocking: the daemon calls it off its loop (uv_queue_work).
 *
 * PLACEMENT. The skill is copied into each requested agent's own ("native")
 * directory (agents.h): `.claude/skills/<name>` for claude, `.agents/skills/
 * <name>` for codex/agents, `.cursor/skills/<name>` for cursor, and so on;
 * agents that resolve to the same directory share one copy. No symlinks are
 * made, on purpose:
 *  - a real directory is discovered by every agent, while several clients do
 *    not discover symlinked skill directories (reference note §5, item 7);
 *  - each skills directory is then a self-contained root: its replacement is
 *    atomic, and nothing of it is ever written outside it (a symlink would
 *    point from one root into another);
 *  - removing the skill for one agent never breaks it for another.
 * With no agents given, the default is {"agents", "claude"}: the shared
 * .agents/skills (Codex, opencode, Copilot, Gemini CLI, recent Cursor) plus
 * .claude/skills, because Claude Code does not read .agents.
 *
 * ON DISK, in each skills directory (the "root"), nothing but the skills, so a
 * project's `git status` shows only what the user installed:
 *   <name>/                      the installed skill
 *   .upskilld-tmp.<random>/      only while an install or remove runs: the staged
 *                                copy <name>/, the replaced or removed copy, and
 *                                .intent.json (the manifest entry being committed)
 * The directory itself is flock()ed for the whole of an install or remove.
 * Names starting with '.' are not skills: agents skip them (Codex skips hidden
 * entries; Claude Code needs <dir>/SKILL.md, and staged copies sit one level
 * deeper). Removing the last skill leaves the directory empty.
 *
 * MANIFEST, one per root, in the user's state directory:
 * $XDG_STATE_HOME/upskilld/installs/<first 16 hex digits of sha256(root)>.json
 * (else ~/.local/state/...; UPK_MANIFEST_DIR), written atomically (temp file,
 * fsync, rename) and sorted by key; deleted when its last entry goes. An older
 * upskilld kept it in the root as .upskilld-lock.json with a .upskilld.lock
 * beside it: the first install or remove (or the daemon's start-up repair)
 * moves the one into the state directory and deletes both.
 *   {"version": 1, "root": "/abs/root", "skills": {"<name>": {
 *       "source": "/abs/path/to/source" | "inline" | as given in req->source,
 *       "sourceType": "path" | "inline",
 *       "hash": "sha256:<64 hex>",      upk_tree_hash (fsutil.h) of the installed files
 *       "files": 3, "bytes": 1234,
 *       "agents": ["claude"],           the requested agents placed in this root
 *       "installedAt": "2026-08-30T12:00:00Z", "updatedAt": "..."}}}
 * Entries whose directory is gone are dropped whenever the manifest is written.
 *
 * ATOMICITY. Files are written into the staging directory inside the root
 * (same file system), each file and directory fsynced, then renamed into
 * place: renameat2(RENAME_EXCHANGE) when replacing, so a reader sees the old
 * or the new skill and never a mix, even if the process is killed. Where the
 * file system cannot exchange, the old copy is renamed aside first (a reader
 * may then briefly find no skill, never a mix). Every install or remove
 * first recovers what a killed one left: a committed swap gets its manifest
 * entry, an interrupted fallback swap gets the old copy back, and staging
 * directories are deleted; the daemon does the same for every agent skills
 * directory at start-up (upk_install_repair). tests/integration/test_crash.c
 * kills installs and removes at every fault point (UPSKILLD_FAULT) to check it.
 *
 * SAFETY. The skills directory below its trusted base (agents.h) is walked
 * and created without following symlinks; all work is relative to directory
 * fds with O_NOFOLLOW and O_EXCL, so a symlink planted as `.claude` or as
 * `.claude/skills/<name>` is never written through. Paths in files[] must be
 * relative, without "." or ".." components. Symlinks inside a source
 * directory are not copied (warning). Only a directory holding SKILL.md (or
 * skill.md) is replaced or removed; a symlink is replaced only with force and
 * never removed. Concurrent installs of one root are serialised by flock.
 */
#ifndef UPK_INSTALL_H
#define UPK_INSTALL_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/agents.h"
#include "common/diag.h"

#define UPK_MANIFEST_DIR "upskilld/installs"      /* below $XDG_STATE_HOME */
#define UPK_LEGACY_MANIFEST ".upskilld-lock.json" /* in the root, before */
#define UPK_LEGACY_LOCKFILE ".upskilld.lock"
#define UPK_TMP_PREFIX ".upskilld-tmp."

/** A file of an inline skill; path relative to the skill directory. */
typedef struct upk_install_file {
  const char *path;
  const char *content;
  size_t len;
} upk_install_file;

typedef struct upk_install_req {
  const char *from_path; /* a skill directory or its SKILL.md; or NULL... */
  const char *markdown;  /* ...and SKILL.md text instead */
  size_t markdown_len;
  const upk_install_file *files; /* more files of an inline skill (not SKILL.md) */
  size_t n_files;
  const char *const *agents; /* ids or aliases; none: {"agents", "claude"} */
  size_t n_agents;
  upk_scope scope;
  const char *project_root; /* absolute; needed for UPK_SCOPE_PROJECT */
  const upk_env *env;       /* NULL: the process environment */
  bool force;               /* replace a different skill of the same name */
  bool lenient;       /* validate as agents load skills (a source's skills: others' conventions,
                         such as extra frontmatter fields), not the strict specification */
  bool keep_links;    /* leave a symbolic link in place that resolves to another target of this
                         install (the skills CLI's symlink mode: update keeps it) */
  const char *source; /* recorded in the manifest; NULL: from_path or "inline" */
  bool audit;         /* audit the copy before it is placed (audit.h): high findings refuse the
                         install (-EINVAL, diagnostic install/audit) unless allow_risky */
  bool allow_risky;
} upk_install_req;

/** One skills directory an install or remove touched. */
typedef struct upk_install_target {
  char *root;          /* the skills directory */
  char *path;          /* root/name */
  const char **agents; /* requested agent ids placed here (strings from the agent table) */
  size_t n_agents;
  int status;     /* 0 or a negative errno for this directory */
  bool replaced;  /* install: a different copy was replaced */
  bool unchanged; /* install: the same content was already there */
  bool linked;    /* install: a link to another target, kept (keep_links) */
  bool removed;   /* remove: the skill was removed from here */
} upk_install_target;

typedef struct upk_install_result {
  char *name;    /* the skill's name (its directory name) */
  char hash[65]; /* install: the tree hash, hex */
  upk_install_target *targets;
  size_t n_targets;
  upk_diags diags; /* validation warnings, refusals, recoveries */
  int high;        /* req.audit: the audit's high findings (installed only with allow_risky) */
} upk_install_result;

/** Validate (strict) and install. Returns 0 when every target succeeded,
 * else the first failure as a negative errno, with diagnostics that say why:
 * -EINVAL (validation errors, bad request, unsafe file path or name, unknown
 * agent), -EEXIST (a different skill or a symlink is there and force is not
 * set: checked in every target first, so nothing was written anywhere),
 * -EPERM (something that is not a skill is at that name; never replaced),
 * -ELOOP (a symlink or non-directory in the way of a skills directory),
 * -EFBIG (over the limits in fsutil.h), or a file-system errno. A
 * file-system failure in one directory does not stop the others; each
 * target's status says which succeeded. Re-installing identical content is
 * a no-op (target.unchanged) that refreshes the manifest entry. res is
 * always initialised (res->name is set whenever the frontmatter names the
 * skill); free it with upk_install_result_free. */
int upk_install(const upk_install_req *req, upk_install_result *res);

typedef struct upk_remove_req {
  const char *name;
  const char *const *agents; /* ids or aliases; none: every agent's directory where it is */
  size_t n_agents;
  upk_scope scope;
  const char *project_root;
  const upk_env *env;
} upk_remove_req;

/** Remove a skill atomically (renamed into staging, then deleted) and drop
 * it from the manifest. Returns 0 when it was removed from at least one
 * directory and nothing was refused; -ENOENT when it was found nowhere;
 * -EPERM when something at that name is not a skill directory (a symlink, a
 * file, a directory without SKILL.md): left alone; -EINVAL for a bad name. */
int upk_remove(const upk_remove_req *req, upk_install_result *res);

void upk_install_result_free(upk_install_result *res);

/** At start-up: if skills directory `root` holds what a killed install or remove left
 * (staging directories, a manifest temp file, manifest entries whose directory is gone),
 * take its lock, finish or undo each as upk_install would, and report each with an
 * "install/recovered" and one "install/repaired" info diagnostic. Returns 1 when something
 * was repaired, 0 when nothing needed it (or root does not exist), or a negative errno. */
int upk_install_repair(const char *root, const upk_env *env, upk_diags *d);

/** Where the manifest of skills directory `root` is (install.h, MANIFEST), malloc'd; NULL
 * when out of memory. env NULL: the process environment. */
char *upk_install_manifest_path(const char *root, const upk_env *env);

/** Testing only: 1 makes commits use the rename-aside fallback instead of
 * RENAME_EXCHANGE. */
extern int upk_install_test_no_exchange;

#endif

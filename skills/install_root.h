/** Internal to the installer (install.c): the state of one skills directory
 * ("root") on disk: its lock, manifest, staging directories and recovery
 * after a killed run. See install.h for the layout. */
#ifndef UPK_INSTALL_ROOT_H
#define UPK_INSTALL_ROOT_H

#include <jansson.h>
#include <stdbool.h>

#include "skills/agents.h"
#include "common/diag.h"

#define UPK_INTENT_NAME ".intent.json"
#define UPK_OLD_NAME ".old"

/* What is at <root>/<name>. */
typedef enum {
  UPK_ENTRY_NONE,
  UPK_ENTRY_SKILL, /* a real directory holding SKILL.md or skill.md */
  UPK_ENTRY_SYMLINK,
  UPK_ENTRY_OTHER, /* a file, or a directory that is not a skill */
} upk_entry_kind;

/** A skill name usable as one directory entry (not hidden, no '/'). */
bool upk_install_name_ok(const char *name);
/** Classify <root>/<name> without following symlinks; with `hash`, *same
 * says whether a skill there has exactly that tree hash. */
upk_entry_kind upk_entry_classify(int rfd, const char *name, const char *hash, bool *same);

/** Create and open <root>/.upskilld-tmp.<pid>.<random>; its name goes to out. */
int upk_tmp_make(int rfd, char out[64]);
/** Delete a staging directory and make that durable. */
void upk_tmp_drop(int rfd, const char *tmp);

/** Parse a JSON file below dfd (not through a symlink). NULL with *err set. */
json_t *upk_json_read_at(int dfd, const char *name, int *err);
/** Set (entry non-NULL; its reference is taken) or drop the manifest entry of
 * name, keeping the first installedAt; the manifest of `root` is in env's state
 * directory (install.h). Returns 0 or a negative errno. */
int upk_manifest_update(int rfd, const char *root, const upk_env *env, const char *name,
                        json_t *entry, upk_diags *d);

/** Open (creating it when asked) a skills directory without following
 * symlinks below its base, take its flock (on the directory itself: no lock
 * file) and recover what killed runs left, moving a manifest an older upskilld
 * kept in the directory to env's state directory.
 * Returns the directory fd and the lock fd in *lfd, or a negative errno with
 * a diagnostic (-ENOENT without one when !create and it does not exist). */
int upk_root_open(const upk_resolved_dir *dir, const upk_env *env, bool create, int *lfd,
                  upk_diags *d);
/** Unlock and close. */
void upk_root_close(int rfd, int lfd);

#endif

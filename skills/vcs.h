/** Version-control metadata in a skill's paths (docs/security.md, "Skill sources").
 *
 * A skill is copied into a project, which is usually itself a repository: a `.git` directory
 * (or file: `gitdir: ...`) planted inside the skill would make every `git status` there read
 * the skill's own config (`core.fsmonitor`, hooks) and run what it names. No install path
 * writes such a name into a skill: inline files are refused, trees copied from a directory
 * skip them with a warning.
 *
 * A component counts as metadata when a VCS would read it as its own on some file system:
 * `.git`, `.hg`, `.svn`, `.bzr`, `_darcs`, `.jj`, in any case (case-insensitive file systems),
 * with trailing dots or spaces (Windows drops them), git's NTFS short name `git~1`, and with
 * the code points HFS+ ignores (zero-width joiners and the like) anywhere in it, as git's own
 * verify_path refuses them (CVE-2014-9390). */
#ifndef UPK_VCS_H
#define UPK_VCS_H

#include <stdbool.h>
#include <stddef.h>

/** Whether path component `name` (`len` bytes) is VCS metadata as above. */
bool upk_vcs_name(const char *name, size_t len);

/** The first component of relative path `rel` ('/'-separated) that is VCS metadata: where
 * it starts in rel, its length in *len; NULL when none is. */
const char *upk_vcs_in_path(const char *rel, size_t *len);

#endif

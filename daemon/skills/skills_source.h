/** skills/install from a source of skills: a git repository or a directory holding several
 * (skills/source.h). Called on the skills queue, as the rest of install; a git fetch waits on
 * the network, so it runs beside the queue (upk_call_then) with its deadline and the job's
 * cancel, and the rest (discover, validate, audit, place, lock) comes back to the queue. Each
 * function leaves the result (or the error) in the call, now or after its fetch. */
#ifndef UPK_SKILLS_SOURCE_H
#define UPK_SKILLS_SOURCE_H

#include <jansson.h>
#include <stdbool.h>

#include "skills/install.h"
#include "daemon/skills/skills_call.h"

/** Install what params asks for from source `spec` (params.skills, .all, .list), each
 * placement as `base` says; leaves the result (or the error) in the call. */
void upk_install_source(upk_call *c, upk_index *ix, const upk_install_req *base, const char *spec);

/** skills/audit: the findings of each skill params chooses in source `spec` (params.auditOnly
 * set by the method); installs nothing. */
void upk_audit_source(upk_call *c, upk_index *ix, const char *spec);

/** Install again exactly what the project's skills-lock.json names (each at its recorded
 * commit); with `frozen`, refuse on any drift of content from the lock's hashes, and never
 * rewrite the lock. Everything is fetched and checked before anything is placed. */
void upk_restore_skills(upk_call *c, upk_index *ix, const upk_install_req *base, bool frozen);

/** For each lock entry, whether its source holds a different skill now; with `update`,
 * install those again and rewrite their entries. */
void upk_check_skills(upk_call *c, upk_index *ix, const upk_install_req *base, bool update);

/** After a plain install of one skill from `from` (its directory or SKILL.md) into the project:
 * its skills-lock.json entry (source relative to the project, sourceType local), or, for a
 * path outside the project, a warning in diags that it is not recorded and why. */
void upk_install_lock_path(const upk_install_req *req, const char *name, const char *from,
                           bool risky, upk_diags *diags);

/** An install or remove's targets as the methods answer them (skills_methods.c). */
json_t *upk_install_targets_json(const upk_install_result *res);

#endif

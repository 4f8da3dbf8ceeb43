/** The user's judge before an install: when the user's config sets audit.judge, the judge
 * reads each skill about to be installed beside the queue (upk_call_then) before anything is
 * placed; a high judge finding refuses the install as a high rule finding does (unless
 * params.allowRisky), and what the judge said joins the install's diagnostics. A failed judge
 * follows audit.judgeFailure (warn: a warning, and the install goes on; fail: a high finding).
 * No judge configured: nothing of this runs, no model is called. The call's params never turn
 * a judge on (upk_audit_judge_for_install): an agent's install_skill cannot send the user's
 * skill text anywhere the user did not configure.
 *
 * While the judge reads, the gate holds the call's state (c->state); the caller's own state
 * is kept, freed with the call, and found with upk_install_judge_state. */
#ifndef UPK_INSTALL_JUDGE_H
#define UPK_INSTALL_JUDGE_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/skills/skills_call.h"
#include "skills/source.h"

/** A plain install of one skill (params.from: its directory, its SKILL.md, or its text), in
 * its queue function `place`: false when there is no judge to ask, params.from is a source
 * of several, or the judge has read it already (install now); else true, and `place` runs
 * again on the queue once the judge has read the skill and not refused it. */
bool upk_install_judge_first(upk_call *c, upk_call_fn place);
/** A source's chosen skills (`pick` over `found`, of checkout `repo`): false when no judge
 * is configured (install now); else true, and `place` runs on the queue once the judge has
 * read them and not refused the install. */
bool upk_install_judge_source(upk_call *c, const upk_found_skills *found, const bool *pick,
                              const char *repo, upk_call_fn place);
/** A lock's skills (restore, check --update): skills[i] (of checkout repos[i]), each let in
 * despite high findings when risky[i] (its entry's allowRisky). False when no judge is
 * configured or n is 0 (install now); else true, and `place` runs on the queue once the judge
 * has read them, whatever it found: upk_install_judge_refused says which it refused. */
bool upk_install_judge_lock(upk_call *c, size_t n, const upk_found_skill *const *skills,
                            const char *const *repos, const bool *risky, upk_call_fn place);
/** In a lock's `place`: the judge's name when it refused skill i (high findings, no
 * allowRisky), else NULL. */
const char *upk_install_judge_refused(const upk_call *c, size_t i);
/** In `place`: the caller's own state (c->state before the gate). */
void *upk_install_judge_state(const upk_call *c);
/** In `place`: whether the judge found high risks that params.allowRisky let in. */
bool upk_install_judge_risky(const upk_call *c);

/** Is `path` one skill (its SKILL.md, or a directory holding one) to install the plain way,
 * with no source options in params? */
bool upk_install_is_one_skill(const char *path, const json_t *params);

#endif

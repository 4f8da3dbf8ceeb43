/** The audit's judge in the daemon (skills/audit_judge.h): `skills/audit {judge}` asks the
 * user's model about each audited skill and reports its checked findings beside the rules'.
 *
 * The calls: prepared on the queue (the skill's files are read there, while the checkout
 * exists), asked beside the queue (upk_call_then: one model call a skill on a private loop,
 * within the judge's deadline, stopped by a cancel), merged on the queue. Off without
 * params.judge: the audit is then exactly the rules'. */
#ifndef UPK_JUDGE_SERVICE_H
#define UPK_JUDGE_SERVICE_H

#include <jansson.h>

#include "common/diag.h"
#include "daemon/core/jobs.h"

typedef struct upk_audit_judge upk_audit_judge;

/** Whether the job's client may have a judge read its skills: a judge sends each skill to a
 * model provider on the user's account, so an agent (which may be prompt-injected) asks for one
 * only with the user's --agent-allow=judge (a dry run, which sends nothing, always). Else false,
 * and the job has failed with the refusal (trust/send). No judge asked: true. */
bool upk_audit_judge_allowed(upk_job *job, const json_t *params);

/** The judge the call asks for (params.judge, params.judgeFailure, params.dryRun,
 * params.judgeTimeoutMs), or NULL when none: the audit stays the rules'. */
upk_audit_judge *upk_audit_judge_new(const json_t *params, const char *workspace);
/** One audited skill: its directory, the rules' findings (relative to it) and its entry in the
 * answer (kept: its findings and counts are updated by upk_audit_judge_finish). */
void upk_audit_judge_add(upk_audit_judge *j, const char *dir, const upk_diags *rules,
                         json_t *entry);
/** Beside the queue: ask about every skill added; `cancel_fd` readable stops it. */
void upk_audit_judge_ask(upk_audit_judge *j, int cancel_fd);
/** Back on the queue: each entry gets its judge's checked findings and a `judge` object
 * {judge, verdict, findings, unverified, notes, leftOut, error}. */
void upk_audit_judge_finish(upk_audit_judge *j);
/** The judge an install asks: the user's audit.judge (a project's config cannot set one), or
 * NULL. Never the call's params: an agent's install_skill cannot turn a judge on. */
upk_audit_judge *upk_audit_judge_for_install(const char *workspace);
void upk_audit_judge_free(upk_audit_judge *j);

#endif

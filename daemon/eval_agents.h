/** What an evaluation records of its agent runs (eval_service.h): one
 * trial's agent record for its transcript, and the agent figures of the
 * summary. Any thread (they read finished trials only).
 */
#ifndef UPK_EVAL_AGENTS_H
#define UPK_EVAL_AGENTS_H

#include <jansson.h>

#include "eval_service.h"

/** {agent, dir, exitStatus, sessionId, skillLoaded, skillEvidence, turns,
 * costUsd, agentMs, cacheReadTokens, toolCalls, files} for an agent trial,
 * NULL for a model API's (or on ENOMEM). New reference. */
json_t *upk_eval_agent_record(const upk_eval_trial *t);

/** The summary's "agents" member: per model and condition, then per case,
 * runs, passes, the skill-loaded rate, and mean turns, tokens, cost and wall
 * time, with and without the skill side by side. NULL when no trial is an
 * agent run. New reference. */
json_t *upk_eval_agent_summary(const upk_eval_trial *ts, size_t n);

/** The trial's condition as the Agent Skills layout names it:
 * "with_skill" or "without_skill". */
const char *upk_eval_condition(const upk_eval_trial *t);

#endif

/** What an agent's call may reach (docs/security.md, "Agents").
 *
 * A session over MCP is driven by an agent, and an agent may be prompt-injected: its arguments
 * are the origin UPK_ORIGIN_AGENT of common/trust.h. A session over LSP is an editor or
 * upskillctl, driven by the user (UPK_ORIGIN_USER). For an agent, the handlers ask here before
 * they act:
 *  - a path it names is read only inside the workspace, the agents' skill directories and
 *    session logs, and the directories the user's `--agent-path` adds; written only inside the
 *    workspace and those directories (links are resolved first, so a link cannot lead out);
 *  - a power beyond that (running a Python reference, installing into the user's own skill
 *    directories) only when the user's `--agent-allow` names it.
 * The words of every refusal come from upk_policy_refusal(). */
#ifndef UPK_DAEMON_GUARD_H
#define UPK_DAEMON_GUARD_H

#include <stdbool.h>
#include <jansson.h>
#include <stddef.h>

#include "common/trust.h"
#include "daemon/core/jobs.h"
#include "daemon/core/session.h"

/** The powers `--agent-allow` can give agents (a comma-separated list of their names). */
enum {
  UPK_AGENT_ALLOW_PYTHON = 1u << 0,      /* "python": run a kernel's PyTorch reference */
  UPK_AGENT_ALLOW_USER_SKILLS = 1u << 1, /* "user-skills": install/remove in the user's scope */
  UPK_AGENT_ALLOW_SCRIPTS = 1u << 2,     /* "scripts": eval cases' `script` assertions */
  UPK_AGENT_ALLOW_JUDGE = 1u << 3,       /* "judge": the audit's judge, a model the user pays */
};

/** Parse `--agent-allow`'s list into bits; -1 (with the bad name in bad) for an unknown one. */
int upk_guard_parse_allow(const char *list, unsigned *bits, char *bad, size_t bad_len);

/** The places an agent may write beneath (write) or read beneath, as a new JSON array of
 * absolute paths: the workspace and each --agent-path; for reading also the agents' skill
 * directories in the user's scope, their session logs (~/.claude/projects, ~/.codex/sessions),
 * the built-in library, the default runs directory and the user's condense.allowPaths. The one
 * list the guard's check, the readers of named files (eval_inputs.c) and the kernel's include
 * roots use. For reading it reads the user's config file (blocking); for writing nothing. */
json_t *upk_guard_places(const char *workspace, const upk_options *o, const json_t *init_options,
                         bool write);

/** The origin of the session's requests: an agent over MCP, the user over LSP. */
upk_origin upk_guard_origin(const upk_server *s);

/** May the job's client name `path` (absolute, or relative to the workspace) to read (write =
 * false) or write? The user always may. For an agent: true when it lies inside its places;
 * else false, and the job has failed with the refusal (a diagnostic coded trust/read or
 * trust/write naming `what`, the path and the flag that widens it). Blocking: a realpath. */
bool upk_guard_path(upk_job *job, const char *path, bool write, const char *what);

/** Whether `path` (absolute, or relative to `workspace`; NULL: none, so relative is refused),
 * made real, lies inside the agent's places (upk_guard_places). Pure: safe on a pool thread. */
bool upk_guard_within(const char *workspace, const upk_options *o, const json_t *init_options,
                      const char *path, bool write);

/** The words of upk_guard_path's refusal of `path` (named `what`, e.g. "params.skill") into
 * msg; no_workspace: the session has none, and the words say how to give one. */
void upk_guard_refusal_text(char *msg, size_t len, const char *path, bool write, const char *what,
                            bool no_workspace);

/** A refusal's error data: {"diagnostics": [one error coded `rule` saying `msg`]}. New. */
json_t *upk_guard_refusal_data(const char *rule, const char *msg);

/** Fail the job with the refusal upk_guard_path gives for `path`. */
void upk_guard_refuse_path(upk_job *job, const char *path, bool write, const char *what);

/** A tool that works on the project (`what`: e.g. "scope 'project'"): the user always may; an
 * agent when the session has a workspace, else the job fails saying how to give one. */
bool upk_guard_workspace(upk_job *job, const char *what);

/** The workspace of a session whose client named none: --workspace's, else the working
 * directory, except for an agent (MCP) started in the user's home or in `/`: then none (NULL,
 * logged with how to give one), so that an agent is never given all of HOME by accident.
 * Malloc'd. */
char *upk_guard_default_workspace(const upk_options *o, bool agent);

/** A source of skills (`owner/repo`, a URL, a directory): the local paths among them (a path,
 * `~`, `file://`, and any other spelling that names an existing entry of the workspace, as
 * upk_source_parse reads it: a bare `vendor`) go through upk_guard_path for reading; hosts are
 * not paths. */
bool upk_guard_source(upk_job *job, const char *from, const char *what);

/** Fail the job with a refusal: -32602 with one diagnostic coded `rule` (trust/...) saying
 * `msg`. */
void upk_guard_refuse(upk_job *job, const char *rule, const char *msg);

/** May the job's client use the power `bit` (UPK_AGENT_ALLOW_*)? The user always may; an agent
 * when `--agent-allow` names it. Else false, and the job has failed with the refusal naming
 * `what` and the flag. */
bool upk_guard_allow(upk_job *job, unsigned bit, const char *what);

#endif

/* Inside condense: reading JSON traces (condense_json.c for message
 * arrays and Claude Code sessions, condense_codex.c for Codex rollouts). */
#ifndef UPK_CONDENSE_JSONINT_H
#define UPK_CONDENSE_JSONINT_H

#include <jansson.h>

#include "skills/eval/condense_int.h"

typedef struct {
  char *id, *label; /* the call's id; the command, or the tool's name */
  bool shell, read; /* read: label is the path it read */
} jcall;

typedef struct jread {
  ctrace *t;
  jcall *calls;
  size_t n_calls;
  size_t known; /* entries of a known shape */
  bool codex;   /* a Codex rollout line was seen */
} jread;

const char *jr_str(json_t *o, const char *key);
/** A tool call: a shell command, a file write or edit, recognised by the
 * tool's input (or a Codex patch); remembered by id for its result. */
int jr_tool_call(jread *r, const char *id, const char *name, json_t *in);
/** A tool's result text; only a shell command's output is searched for
 * errors unless is_error says so. */
int jr_tool_result(jread *r, const char *id, const char *text, bool is_error);
/** Prose, unless a harness injected it (reminders, environment blocks). */
int jr_text(jread *r, bool user, const char *s);
/** A shell command already known (Codex's shell tools), remembered by id. */
int jr_shell(jread *r, const char *id, const char *cmd);

/** A Codex rollout line or Responses item: 1 when it was one (handled),
 * 0 when it is not of that shape, -ENOMEM. */
int upk__ct_codex_line(jread *r, json_t *line);
/** A Codex `apply_patch` text (*** Begin Patch ... *** End Patch) as
 * writes and edits; -EINVAL when it is not one. */
int upk__ct_apply_patch(ctrace *t, const char *patch);

#endif

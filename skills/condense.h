/** Agent traces condensed structurally to a token budget, for the teacher.
 *
 * A trace is what an agent did: a Markdown log, a JSON message array
 * (Anthropic or OpenAI shape, or {"messages": [...]}), or Claude Code's
 * session JSONL (one {"type", "message"} object per line). It is parsed
 * (cmark for Markdown, jansson for JSON) into events: the task, the commands
 * run, errors with the fix that followed each (the next command or edit,
 * and the agent's diagnosis in between), the final files (writes replayed,
 * edits applied), and key facts (the user's later instructions, the agent's
 * sentences that explain: "because", "must", "the issue", ...).
 *
 * Those are then chosen by priority until the budget is spent: the task,
 * errors with their fixes, commands (repeats counted once), files (whole,
 * else an outline of their declarations, else their name and size), facts.
 * What does not fit is left out whole and counted in the output's header:
 * never a blind cut through the middle of the trace.
 *
 * Tokens are estimated as bytes / 4, rounded up: the usual figure for
 * English and code with BPE tokenizers; it errs high for plain prose, so a
 * condensed text estimated within budget is within it in practice.
 */
#ifndef UPK_CONDENSE_H
#define UPK_CONDENSE_H

#include <stddef.h>

/** Default budget when none is given. */
#define UPK_CONDENSE_DEFAULT_BUDGET 4000
/** The smallest budget accepted: the header and a little content. */
#define UPK_CONDENSE_MIN_BUDGET 64

typedef enum {
  UPK_TRACE_AUTO = 0,
  UPK_TRACE_MARKDOWN,
  UPK_TRACE_JSON,  /* a message array or {"messages": [...]} */
  UPK_TRACE_JSONL, /* one JSON object per line (Claude Code sessions) */
} upk_trace_format;

typedef struct upk_condensed {
  char *text; /* Markdown, malloc'd */
  size_t tokens, source_tokens;
  upk_trace_format format; /* what the trace was read as */
  /* What was found, and how much of it was left out for the budget. */
  size_t commands, errors, fixes, files, facts;
  size_t omitted;
} upk_condensed;

/** The token estimate used throughout: ceil(bytes / 4). */
size_t upk_estimate_tokens(size_t bytes);

/** Condense a trace to at most budget tokens (0: the default). Returns 0,
 * -EINVAL (budget below UPK_CONDENSE_MIN_BUDGET, or a format forced that
 * the text is not), -ENOMEM. */
int upk_condense(const char *trace, size_t len, upk_trace_format format, size_t budget,
                 upk_condensed *out);
void upk_condensed_free(upk_condensed *c);

#endif

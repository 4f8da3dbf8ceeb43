/** Agent traces condensed structurally to a token budget, for the teacher.
 *
 * A trace is what an agent did: a Markdown log, a JSON message array
 * (Anthropic or OpenAI shape, or {"messages": [...]}), Claude Code's session
 * JSONL (one {"type", "message"} object per line) or Codex CLI's rollout
 * JSONL ({"type": "response_item", "payload": ...} per line). It is parsed
 * (cmark for Markdown, jansson for JSON) into events: the task; every error
 * with its context lines and what followed it (the edits, as diffs of the
 * lines changed; the command that then succeeded; the agent's own
 * explanation); the final state of changed files; the facts stated (flags,
 * versions, numbers, "because", "must" ...); and the agent's closing summary.
 *
 * Those are then chosen by value until the budget is spent: first the task,
 * the closing summary, the errors and the person's later words in their
 * shortest form, then each of those richer, then files, facts and commands.
 * What does not fit is left out whole, counted in the header and listed in
 * left_out: never a blind cut, and never a cut of the trace's end.
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
  UPK_TRACE_CODEX, /* Codex CLI rollout JSONL */
} upk_trace_format;

/** Something the budget left out, or shortened. */
typedef struct upk_condense_item {
  const char *kind; /* "task", "summary", "error", "file", "fact", "command", "line" */
  char *what;       /* a short label: the command, the path, the error's first line */
  size_t tokens;    /* its full form's estimated tokens */
  int shortened;    /* 1: kept in a shorter form; 0: left out */
} upk_condense_item;

typedef struct upk_condensed {
  char *text; /* Markdown, malloc'd */
  size_t tokens, source_tokens;
  upk_trace_format format; /* what the trace was read as */
  /* What was found, and how much of it was left out for the budget. */
  size_t commands, errors, fixes, files, facts;
  size_t omitted;
  upk_condense_item *left_out; /* what was left out or shortened, in trace order */
  size_t n_left_out;
  char error[512]; /* on -EINVAL: what was wrong, and what was expected */
  /* on -EINVAL: "trace/unreadable" (not UTF-8 text: NUL bytes or invalid UTF-8),
   * "trace/not-json", "trace/truncated", "trace/unknown-shape", "trace/budget"
   * (docs/diagnostics.md) */
  const char *error_code;
} upk_condensed;

/** The token estimate used throughout: ceil(bytes / 4). */
size_t upk_estimate_tokens(size_t bytes);

/** Condense a trace to at most budget tokens (0: the default). Returns 0,
 * -EINVAL (budget below UPK_CONDENSE_MIN_BUDGET, a trace that is not UTF-8
 * text (a NUL byte or invalid UTF-8), a format forced that the
 * text is not, JSON of no known trace shape, truncated JSON: out->error
 * says which and what was expected), -ENOMEM. */
int upk_condense(const char *trace, size_t len, upk_trace_format format, size_t budget,
                 upk_condensed *out);
void upk_condensed_free(upk_condensed *c);
/** "Markdown", "JSON messages", "JSON lines", "Codex rollout". */
const char *upk_trace_format_name(upk_trace_format f);

#endif

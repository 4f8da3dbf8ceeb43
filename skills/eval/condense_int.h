/* Inside condense: the events a trace reader produces (condense.c keeps
 * them; condense_md.c, condense_json.c and condense_codex.c read traces into
 * them; condense_text.c finds what matters in text; condense_render.c
 * chooses and writes). Shared names: upk__ct_. */
#ifndef UPK_CONDENSE_INT_H
#define UPK_CONDENSE_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "skills/eval/condense.h"

typedef enum { CEV_TASK, CEV_SUMMARY, CEV_COMMAND, CEV_ERROR, CEV_FILE, CEV_FACT } cev_kind;

typedef struct cev {
  cev_kind kind;
  char *text;     /* task / summary / command / error lines / file content / fact */
  char *detail;   /* ERROR: the failing command; FILE: the path */
  char *explain;  /* ERROR: what the agent said after it, in its own words */
  char *fix;      /* ERROR: what followed: edits as diffs, commands run */
  char *outcome;  /* ERROR: "`make` then succeeded" / "... failed again" */
  char *changed;  /* FILE: lines that edits brought in, for the bounded view */
  size_t count;   /* COMMAND: times run; ERROR: times hit */
  size_t lines;   /* ERROR: lines in the output it came from */
  size_t similar; /* COMMAND: looking-around commands like it but for numbers */
  int score;      /* FACT: how much it says (flags, versions, numbers, cues) */
  bool edited;    /* FILE: edits seen whose base content is unknown */
  bool user;      /* FACT: the person said it */
  bool resolved;  /* ERROR: a command then succeeded */
} cev;

typedef struct ctrace {
  cev *v;
  size_t n, cap;
  long open_error; /* index of the error whose follow-up is being collected, -1 */
  long pending;    /* the last command, its result not yet seen; -1 */
  bool has_task;
  /* The closing summary: the agent's last prose not followed by a tool. */
  char *last_words;
  bool words_open;   /* more agent prose goes on the same summary */
  size_t *cmd_index; /* commands by hash: event index + 1, 0 for a free slot */
  size_t cmd_cap, cmd_used;
  char **read_path, **read_text; /* files as a tool read them, for edits' base */
  size_t n_reads;
  size_t bad_lines;     /* JSONL lines that were not JSON, left out */
  bool not_json;        /* nothing in it was JSON: a Markdown log after all */
  char *why;            /* a reader's explanation of -EINVAL, malloc'd */
  const char *why_code; /* its stable code: "trace/unknown-shape", ... */
} ctrace;

void upk__ct_init(ctrace *t);
void upk__ct_free(ctrace *t);
/** The end of the trace: the pending command settles, the summary is kept. */
int upk__ct_finish(ctrace *t);
/** The agent ran a command (shell). */
int upk__ct_command(ctrace *t, const char *cmd);
/** A command's (or tool's) output: an error (is_error, or error lines in
 * it), or the pending command's success. `cmd` may be NULL. */
int upk__ct_output(ctrace *t, const char *cmd, const char *output, bool is_error);
/** A file written whole (content) or edited (old -> new replaced in place
 * when the content is known). */
int upk__ct_write(ctrace *t, const char *path, const char *content);
int upk__ct_edit(ctrace *t, const char *path, const char *old_s, const char *new_s);
/** A tool read a file (cat -n style line numbers are taken off): the base
 * of later edits, or the current state of a file edited unseen. */
int upk__ct_read(ctrace *t, const char *path, const char *content);
/** Prose: the first user text is the task; later user texts are facts; the
 * agent's text explains an open error, states facts, and its last words are
 * the closing summary. */
int upk__ct_text(ctrace *t, bool user, const char *text);
/** A reader says why the text is not what it expected (for -EINVAL). */
int upk__ct_reject(ctrace *t, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* condense_text.c: finding what matters in text. */
/** Is this command only looking around (ls, cat, grep, git status ...)? */
bool upk__ct_inspection(const char *cmd);
/** Does this line say something went wrong? */
bool upk__ct_line_is_error(const char *s, size_t n);
/** The first line of text that says what went wrong (else its start). */
const char *upk__ct_error_headline(const char *text);
/** Does this text read like an error report? */
bool upk__ct_looks_error(const char *text);
/** The lines worth keeping from a failing output, with context, repeats
 * counted and what was left out said; *lines gets the output's line count. */
char *upk__ct_error_lines(const char *out, size_t *lines);
/** old -> new as the changed lines of a diff ("-"/"+"), common lines at
 * both ends dropped; at most max_lines lines. */
char *upk__ct_diff(const char *old_s, const char *new_s, size_t max_lines);
/** How much a sentence states: flags, versions, numbers with units,
 * identifiers in code, explaining words. 0: nothing to keep. */
int upk__ct_fact_score(const char *s, size_t n);
/** Append printf-style to a malloc'd string; -ENOMEM. */
int upk__ct_append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int upk__ct_vappend(char **s, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/** Readers: 0, -EINVAL when the text is not of that format, -ENOMEM. */
int upk__ct_read_markdown(ctrace *t, const char *text, size_t len);
/** JSON: *f in is the format asked for (AUTO, JSON, JSONL or CODEX), out
 * the one read. */
int upk__ct_read_json(ctrace *t, const char *text, size_t len, upk_trace_format *f);

#endif

/* Inside condense: the events a trace reader produces (condense.c keeps
 * them, condense_md.c and condense_json.c read traces into them). */
#ifndef UPK_CONDENSE_INT_H
#define UPK_CONDENSE_INT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { CEV_TASK, CEV_COMMAND, CEV_ERROR, CEV_FILE, CEV_FACT } cev_kind;

typedef struct cev {
  cev_kind kind;
  char *text;      /* task / command / error lines / file content / fact */
  char *detail;    /* ERROR: the failing command; FILE: the path */
  char *diagnosis; /* ERROR: what the agent said before fixing it */
  char *fix;       /* ERROR: the command or edit that followed */
  size_t count;    /* COMMAND: times run */
  bool edited;     /* FILE: edits seen whose base content is unknown */
  bool user;       /* FACT: the person said it */
} cev;

typedef struct ctrace {
  cev *v;
  size_t n, cap;
  long open_error; /* index of the last error awaiting its fix, -1 */
  bool has_task;
} ctrace;

void ct_init(ctrace *t);
void ct_free(ctrace *t);
/** The agent ran a command (shell). */
int ct_command(ctrace *t, const char *cmd);
/** A command's (or tool's) output; error lines are detected here unless
 * is_error already says so. `cmd` may be NULL. */
int ct_output(ctrace *t, const char *cmd, const char *output, bool is_error);
/** A file written whole (content) or edited (old -> new replaced in place
 * when the content is known). */
int ct_write(ctrace *t, const char *path, const char *content);
int ct_edit(ctrace *t, const char *path, const char *old_s, const char *new_s);
/** Prose: the first user text is the task; later user texts are facts; the
 * agent's explaining sentences are facts, or the diagnosis of an open error. */
int ct_text(ctrace *t, bool user, const char *text);
/** Is this command only looking around (ls, cat, grep, git status ...)? */
bool ct_inspection(const char *cmd);
/** Does this text read like an error report? */
bool ct_looks_error(const char *text);

/** Readers: 0, -EINVAL when the text is not of that format, -ENOMEM. */
int ct_read_markdown(ctrace *t, const char *text, size_t len);
int ct_read_json(ctrace *t, const char *text, size_t len, bool *jsonl);

#endif

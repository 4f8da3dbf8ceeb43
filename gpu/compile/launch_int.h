/* Internal to launches.c and launcheval.c: the scan's tokens, what names are
 * bound to, and the evaluator of constant expressions over token ranges. */
#ifndef UPK_GPU_LAUNCH_INT_H
#define UPK_GPU_LAUNCH_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/compile/launches.h"
#include "gpu/compile/srclex.h"

/* What a name stands for. UNKNOWN shadows: a parameter, a variable the file changes, one of a
 * type this scan does not read, one declared under an #if it cannot decide. */
typedef enum { B_MACRO, B_FMACRO, B_UNDEF, B_INT, B_DIM3, B_CONFIG, B_REFINE, B_UNKNOWN } bkind;

typedef struct binding {
  const char *name;
  size_t len;
  bkind kind;
  int depth;         /* the brace depth it lives at (popped when that scope closes) */
  size_t at;         /* token index of its definition: names it reads are looked up there */
  size_t a, b;       /* its expression's tokens [a, b) */
  bool args;         /* B_DIM3: [a, b) is an argument list (x, y, z), else one expression */
  bool param;        /* a parameter (popped at the ';' of a prototype) */
  bool stmt;         /* B_REFINE of an unbraced statement: popped at its ';' */
  bool is_case;      /* B_REFINE of a `case`: popped at the next label */
  long long value;   /* B_REFINE */
  size_t target;     /* B_REFINE: the stack index of the binding it narrows */
  const char *why;   /* B_UNKNOWN, static */
  const char *owner; /* a member's (cfg.blockDim): the variable's name; NULL for a name */
  size_t owner_len;
} binding;

typedef struct lscan {
  upk_src_lexer lx, pre; /* the file; the request's defines as #define lines */
  upk_src_lexer *hx;     /* the headers' */
  size_t n_hx;
  size_t *ends;            /* where each prelude part's tokens end (the defines', each header's) */
  upk_src_token *t;        /* every token, the defines' first */
  size_t nt, cap_t, n_pre; /* tokens [0, n_pre) are the defines' */
  binding *b;              /* the scoped names, a stack; macros at depth -1 */
  size_t nb, cap_b;
  binding *m; /* macros and #undefs in order */
  size_t nm, cap_m;
  char **mutated; /* sorted names the file assigns, increments, takes the address of, ... */
  size_t n_mutated, cap_mutated;
  bool overflow; /* too many names: every later launch is unknown */
} lscan;

/* The evaluator: one launch's expressions, bounded by a step budget and a depth. */
typedef struct ev {
  const lscan *s;
  long steps;
  int depth; /* names followed */
  int nest;  /* parentheses and unary operators open (bounds the recursion) */
  bool bad;
  bool pp; /* an #if: `defined X` is read */
  char why[200];
} ev;

bool upk_ltok(const lscan *s, size_t i, const char *text);
/* The matching close of the bracket at `i` (within [i, end)), or `end`. */
size_t upk_lmatch(const lscan *s, size_t i, size_t end);
/* Stack index of what `name` means at token `pos` for code read by the binding at stack index
 * `limit` (nb: the launch itself), or -1 (macros: in s->m, returned as -2 - index). */
long upk_llookup(const lscan *s, const char *name, size_t len, size_t pos, size_t limit);
/* Evaluate tokens [a, b) as an integer / a dim3 (x, y, z); on failure e->bad and e->why. */
long long upk_leval(ev *e, size_t a, size_t b, size_t pos, size_t limit);
bool upk_leval_dim3(ev *e, size_t a, size_t b, size_t pos, size_t limit, long long out[3]);
void upk_lwhy(ev *e, const char *fmt, const char *name, size_t len);
bool upk_lis_mutated(const lscan *s, const char *name, size_t len);
/* Calls `fn` for each token of [a, b) where a name may be changed: assigned, incremented, its
 * address taken, or passed bare to a function (which may take it by reference). */
void upk_lmutations(const lscan *s, size_t a, size_t b, void (*fn)(void *, size_t), void *arg);
/* A keyword that starts or continues a statement (return, else, case, ...): no type. */
bool upk_lstmt_word(const upk_src_token *t);
/* sizeof of a built-in type name, or 0. */
int upk_ltype_size(const char *name, size_t len);

#endif

/* Internal to the launch scan: the forward pass's state (launchpass.c) and the
 * launch sites it records (launchsite.c). */
#ifndef UPK_GPU_LAUNCHPASS_H
#define UPK_GPU_LAUNCHPASS_H

#include "gpu/compile/launch_int.h"

enum { MAX_FRAMES = 64, MAX_SWITCHES = 32 };

/* One #if ... #endif: 0 skipped, 1 compiled, 2 not known. */
typedef struct frame {
  int state, taken; /* taken: 0 no branch yet, 1 one was, 2 maybe */
  int line;
} frame;

typedef struct swframe {
  size_t name;   /* the token switched on */
  int depth;     /* its body's brace depth */
  long refine;   /* the live `case` value's stack index, or -1 */
  size_t target; /* the stack index of what the name means */
} swframe;

typedef struct lpass {
  lscan *s;
  upk_launches *out;
  int depth, paren;
  frame fr[MAX_FRAMES];
  size_t nfr, fr_over;
  swframe sw[MAX_SWITCHES];
  size_t nsw;
  size_t prev, prev2; /* the last two code tokens (SIZE_MAX: none) */
  int stmt_kind;      /* the declaration this statement makes (for `, b = 2`), -1: none */
  bool stmt_const;
  int state, cond_line; /* where the pass is: compiled (1) or not known (2) */
  /* kernel bodies, for extern __shared__ */
  bool global;
  size_t kname;
  int kdepth; /* the body's depth, 0 outside */
  size_t kbody;
} lpass;

int upk_lpass_run(lscan *s, upk_launches *out);
/* A launch at code token `i` (`<<<` or the cudaLaunch* name); returns the token to go on from. */
size_t upk_lsite(lpass *p, size_t i);
/* The code token after / before `i` (directive tokens skipped), or s->nt / SIZE_MAX. */
size_t upk_lnext(const lscan *s, size_t i);

#endif

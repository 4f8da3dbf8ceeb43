/* Shared by assertion.c and assertion_exec.c. Not a public API. */
#ifndef UPK_ASSERTION_INT_H
#define UPK_ASSERTION_INT_H

#include "skills/eval/assertion.h"

/* `script "make test"`, `diff {changed: [...], ...}`, `kernel {path: k.cu, arch: sm_90a}`. */
char *upk_assert_exec_label(const upk_assertion *a);

#endif

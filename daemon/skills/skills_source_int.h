/* The source installs' insides that restore and check (skills_lock.c) build on: one source's
 * call, and the steps of an install both use (skills_source.c). */
#ifndef UPK_SKILLS_SOURCE_INT_H
#define UPK_SKILLS_SOURCE_INT_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/skills/skills_call.h"
#include "daemon/skills/judge_service.h"
#include "skills/install.h"
#include "skills/source.h"

typedef struct src_call {
  upk_call *c;
  upk_index *ix;
  const upk_install_req *base;
  upk_source src;
  char *dir, *commit; /* the checkout (or the directory) and its commit */
  upk_found_skills found;
  upk_diags diags;
  json_t *installed;      /* [{name, hash, skillPath, targets}] */
  bool keep_lock;         /* restore --frozen: the lock is the truth, never rewritten */
  bool risky;             /* the audit found high risks and allowRisky let them in */
  bool audited;           /* audit_passes ran: install_one need not audit again */
  upk_audit_judge *judge; /* params.judge: the audit's second reader (judge_service.h) */
  json_t *judged;         /* the audit's answer while the judge reads */
} src_call;

/** The deadline of one fetch (git init, fetch, checkout together), in ms. */
int upk__src_fetch_timeout_ms(void);
/** f's validation errors, into sc->diags (those already said are not said again). */
size_t upk__src_errors_of(src_call *sc, const upk_found_skill *f);
/** Place f as sc's request says and record it in the lock: 0 or a negative errno (said). */
int upk__src_install_one(src_call *sc, const upk_found_skill *f);
/** The git host skills are fetched from (config gitHost), malloc'd, or NULL: the default. */
char *upk__src_git_host(const upk_call *c, upk_diags *diags);
/** Frees what sc holds (not sc). */
void upk__src_call_free(src_call *sc);

#endif

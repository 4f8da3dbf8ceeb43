/** A skill parsed into what the index stores (parse.c), for the scan. Not API. */
#ifndef UPK_SKILLS_INDEX_PARSE_INT_H
#define UPK_SKILLS_INDEX_PARSE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

/** Bytes of a body's prose that are searched (code blocks left out). */
#define UPK_INDEX_BODY_MAX 4096
/** A skill parsed into what the index stores; upk__ix_parsed_free() frees it. */
typedef struct upk__ix_parsed {
  int rc;      /* upk_skill_load's: negative when the skill cannot be loaded */
  upk_diags d; /* loading and lenient validation */
  char *name, *desc, *name_col, *body, *packed;
  bool usable;
  size_t tokens;
} upk__ix_parsed;
/** Load and validate the skill in dir. Thread-safe: touches no index. */
void upk__ix_parse(const char *dir, upk__ix_parsed *out);
/** Frees what upk__ix_parse() filled in (not p itself). */
void upk__ix_parsed_free(upk__ix_parsed *p);
/** Helper threads parsing dirs[0..n) into out[] ahead of the caller. */
typedef struct upk__ix_pool upk__ix_pool;
/** Starts the helpers; *pool is theirs until upk__ix_pool_done(). 0 or a negative errno. */
int upk__ix_pool_start(upk__ix_pool **pool, const char *const *dirs, upk__ix_parsed *out, size_t n);
/** Wait until out[i] is parsed (parsing it here when no helper took it yet). Items are
 * waited for in order; waiting for i says that out[0..i) are done with. */
void upk__ix_pool_wait(upk__ix_pool *pool, size_t i);
/** Stop and join the helpers; frees what was parsed and not taken. NULL is fine. */
void upk__ix_pool_done(upk__ix_pool *pool);

#endif

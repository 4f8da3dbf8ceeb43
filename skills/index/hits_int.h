/** A ranked document as a hit (hits.c). Not API. */
#ifndef UPK_SKILLS_INDEX_HITS_INT_H
#define UPK_SKILLS_INDEX_HITS_INT_H

#include <stddef.h>

#include "skills/index.h"

/** Fill e from document doc and the visible placement of it the asked agents
 * (none: any) read first. 1: done; 0: no such placement, or the skill is not
 * usable (agents skip it); negative: an error (e then needs freeing). */
int upk__ix_fill_entry(upk_index *ix, int64_t doc, const char *const *agents, size_t n_agents,
                       upk_index_entry *e);
/** A built-in hit moved to an installed copy of its name, if the agents
 * have one: that is the copy they read. Among several, the one read first,
 * whether or not it ranked. */
int upk__ix_place_at_installed_copy(upk_index *ix, const char *const *agents, size_t n_agents,
                                    upk_index_entry *hit);

#endif

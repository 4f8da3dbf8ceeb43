/** list_skills as a model reads it: one entry per skill, paged by a cursor.
 *
 * An index lists a skill once per place it is installed (each agent's directory, the user's
 * and the project's, the built-in library): 18 skills were 165 entries. Folded, a skill is one
 * entry naming its agents and how many placements it has, with its description cut to a
 * sentence unless asked in full. A cursor carries the next offset and a check of the listing
 * it belongs to, so a cursor from another listing or an altered one is refused by name. */
#ifndef UPK_SKILLS_FOLD_H
#define UPK_SKILLS_FOLD_H

#include <jansson.h>
#include <stdbool.h>

#include "skills/index.h"

/** A description cut to its first sentence and at most `max` bytes (on a character
 * boundary), "..." marking a cut; the whole when it is shorter. */
json_t *upk_skills_short_description(const char *d, size_t max);

/** The entries of `all` (ordered by name) folded one per name; the page [offset, offset +
 * limit) of them as a JSON array; *total: how many names in all. */
json_t *upk_skills_fold(const upk_index_entries *all, bool full, size_t offset, size_t limit,
                        size_t *total);

/** The cursor for `offset` in the listing that `listing` (its filters) names. malloc'd. */
char *upk_skills_cursor(size_t offset, const char *listing);

/** The offset in `cursor`, or -1 when it is not one of `listing`'s (altered, another
 * listing's, not a cursor). */
long long upk_skills_cursor_offset(const char *cursor, const char *listing);

#endif

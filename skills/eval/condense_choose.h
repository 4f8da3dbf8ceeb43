/* Inside condense: the sections, each event's forms (condense_render.c)
 * and the choice among them (condense_choose.c). */
#ifndef UPK_CONDENSE_CHOOSE_H
#define UPK_CONDENSE_CHOOSE_H

#include "skills/eval/condense.h"
#include "skills/eval/condense_int.h"

enum { SEC_TASK, SEC_ERRORS, SEC_FILES, SEC_FACTS, SEC_COMMANDS, SEC_SUMMARY, N_SEC };

int upk__ct_section_of(cev_kind k);
size_t upk__ct_heading_cost(int sec);
/** An event's form at a level (0: richest), NULL when it has none there.
 * summary_whole: the closing summary's text when it is kept whole, so an
 * error's explanation that it holds is not written twice. */
char *upk__ct_variant(const cev *e, int level, const char *summary_whole);
/** The Markdown out: a header, then the chosen forms by section. */
char *upk__ct_render(char *const *chosen, const ctrace *t, const upk_condensed *c, size_t omitted);

enum { CT_LEVELS = 4 };

#endif

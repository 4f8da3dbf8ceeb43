/** "Did you mean": the nearest of a list of known names to a word typed wrong, as git and cargo
 * suggest a command.
 *
 * Distance is the optimal string alignment distance (Damerau-Levenshtein without repeated edits
 * of one substring), case-insensitive for ASCII, so a swapped pair of letters costs one edit
 * (`lokup` -> `lookup`, `check-kernal` -> `check-kernel`). A candidate is offered only when it is
 * close enough to be what was meant: at most a third of the longer word's length in edits
 * (at least 1, at most 3), as cargo's lev_distance cut does. Ties go to the earlier candidate. */
#ifndef UPK_SUGGEST_H
#define UPK_SUGGEST_H

#include <stddef.h>

/** The edit distance between a and b (each compared on at most its first 64 bytes; longer
 * words are cut there, which only ever makes a suggestion less likely). */
size_t upk_edit_distance(const char *a, const char *b);

/** The nearest of cands[0..n) to word within the cut above, or NULL when none is close enough
 * (or word is empty, or exactly one of cands: nothing to suggest). NULL entries are skipped. */
const char *upk_suggest(const char *word, const char *const *cands, size_t n);

#endif

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

#include <stdbool.h>
#include <stddef.h>

/** The edit distance between a and b (each compared on at most its first 64 bytes; longer
 * words are cut there, which only ever makes a suggestion less likely). */
size_t upk_edit_distance(const char *a, const char *b);

/** The nearest of cands[0..n) to word within the cut above, or NULL when none is close enough
 * (or word is empty, or exactly one of cands: nothing to suggest). NULL entries are skipped. */
const char *upk_suggest(const char *word, const char *const *cands, size_t n);

/** A path that does not exist, mended: from its deepest existing directory down, each missing
 * component replaced by the nearest entry of that directory (upk_suggest's cut; at most 4096
 * entries read a directory, none followed out of it by name: only its own entries are listed).
 * A last component that no entry is near is looked for by its exact name a few directories
 * below (the shallowest first; hidden, build and node_modules directories and links skipped; at
 * most 256 directories and 4096 entries read): `gain.cu` is found as `src/gain.cu`.
 * True, with the mended path in out, when it names something that exists; else false. `path`
 * must be absolute. Whoever shows the answer to an agent must have let the agent name `path`'s
 * directory first (daemon/core/guard.h): the names offered are that directory's. */
bool upk_suggest_path(const char *path, char *out, size_t len);

#endif

/** Words a task is not asked by, and the full forms of abbreviations (words.c). Not API. */
#ifndef UPK_SKILLS_INDEX_WORDS_INT_H
#define UPK_SKILLS_INDEX_WORDS_INT_H

#include <stdbool.h>
#include <stddef.h>

/** Whether a task is not asked by w (a stopword). */
bool upk__ix_is_stopword(const char *w);
/** An identifier's words ("AccessDenied": "access denied"), lowercased and space-separated,
 * split at lower-to-upper changes; "" when it has none. */
void upk__ix_camel_words(const char *w, int n, char out[80]);
/** Whether the stopword list is in strcmp order, as the lookup's bsearch needs. */
bool upk__ix_stopwords_sorted(void);
/** The full forms of an abbreviation: *k is 0 first, then as left; NULL when there are
 * no more. */
const char *upk__ix_expansion(const char *word, size_t *k);
/** The thesaurus' other words for `word`, as upk__ix_expansion() walks them. */
const char *upk__ix_synonym(const char *word, size_t *k);

#endif

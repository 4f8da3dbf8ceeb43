/** How well a lookup's hit fits its task, as a number a reader can compare across tasks.
 *
 * The lookup's own score orders one task's hits; its scale depends on the task's words and
 * the index. Relevance is in [0, 1] and means the same for every task: the chance, fitted on
 * the labelled tasks of bench/skills (relevance_bench.py), that the hit is a skill the task
 * asks for, from which of the task's words it matched and where (name, description,
 * headings, body). Words that fit almost any task (make, write, use, fix, first, table, ...)
 * and stopwords count for nothing, so a task of such words alone matches nothing.
 *
 * Computed on the final hits only (upk_index_lookup's answer), apart from the ranking. */
#ifndef UPK_RELEVANCE_H
#define UPK_RELEVANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "skills/index.h"

/** Below this a hit does not fit its task: a lookup whose best hit is below says no skill
 * fits (noMatch). */
#define UPK_RELEVANCE_CUT 0.4

/** The relevance of hit `h` to `task`, in [0, 1]. */
double upk_hit_relevance(const char *task, const upk_index_hit *h);
/** The task's content words, counted (the words upk_hit_relevance_of weighs a hit against):
 * once per lookup, not once per hit. */
size_t upk_relevance_task_words(const char *task);
/** upk_hit_relevance() of a task with `task_words` content words. */
double upk_hit_relevance_of(size_t task_words, const upk_index_hit *h);

/** Whether `w` (lowercase) says nothing about which skill fits: a stopword or a generic
 * request word. */
bool upk_relevance_generic(const char *w);

/** Whether the generic words are in strcmp order, as the bsearch needs (a test checks). */
bool upk_relevance_generic_sorted(void);

#endif

/* Relevance in [0, 1] for a lookup's hits (skills/relevance.h). A logistic model of a hit's
 * evidence: how much of the task's content it matched, and where. Its coefficients are fitted
 * by bench/skills/relevance_bench.py --fit, which mirrors features() below. */
#include "skills/relevance.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skills/index/words_int.h"

enum { TASK_WORDS_MAX = 64, WORD_MAX = 48, SHORT_TASK = 2 };
#define SHORT_SHARE 0.9

/* Words that fit nearly any task, and so match nearly any skill: on their own they are no
 * evidence. Sorted (strcmp order) for bsearch. */
static const char *const generic[] = {
    "add",    "build",  "change", "check", "code",    "create",    "do",      "file",
    "files",  "find",   "first",  "fix",   "give",    "handle",    "improve", "long",
    "look",   "make",   "new",    "put",   "read",    "recommend", "run",     "set",
    "show",   "simple", "small",  "start", "suggest", "table",     "tell",    "thing",
    "update", "use",    "using",  "work",  "working", "write",     "writing",
};

static int by_word(const void *key, const void *item) {
  return strcmp(key, *(const char *const *)item);
}

bool upk_relevance_generic_sorted(void) {
  for (size_t i = 1; i < sizeof generic / sizeof *generic; i++)
    if (strcmp(generic[i - 1], generic[i]) >= 0)
      return false;
  return true;
}

bool upk_relevance_generic(const char *w) {
  return upk__ix_is_stopword(w) ||
         bsearch(w, generic, sizeof generic / sizeof *generic, sizeof *generic, by_word);
}

/* The task's content words: ASCII letters and digits, lowercased, two or more, not generic;
 * each counted once. */
size_t upk_relevance_task_words(const char *task) {
  char seen[TASK_WORDS_MAX][WORD_MAX];
  size_t n = 0;
  for (const char *p = task; *p && n < TASK_WORDS_MAX;) {
    while (*p && !isalnum((unsigned char)*p))
      p++;
    char w[WORD_MAX];
    size_t len = 0;
    for (; isalnum((unsigned char)*p); p++)
      if (len + 1 < WORD_MAX)
        w[len++] = (char)tolower((unsigned char)*p);
    w[len] = '\0';
    if (len < 2 || upk_relevance_generic(w))
      continue;
    bool dup = false;
    for (size_t i = 0; i < n && !dup; i++)
      dup = !strcmp(seen[i], w);
    if (!dup)
      memcpy(seen[n++], w, len + 1);
  }
  return n;
}

/* Where a word matched, as evidence: the name says most, the body least. */
static double field_weight(unsigned fields) {
  if (fields & UPK_FIELD_NAME)
    return 1.0;
  if (fields & UPK_FIELD_DESCRIPTION)
    return 0.8;
  if (fields & UPK_FIELD_HEADINGS)
    return 0.5;
  return fields & UPK_FIELD_BODY ? 0.3 : 0;
}

/* Fitted by relevance_bench.py --fit on the dev half (40,000 skills of a public registry): bias,
 * evidence, evidence per content word, words matched in the name or description (negative: with
 * the evidence given, words only there are a little less telling than the name). */
static const double coef[] = {-11.114, 7.753, 1.646, -2.489};

double upk_hit_relevance(const char *task, const upk_index_hit *h) {
  return upk_hit_relevance_of(upk_relevance_task_words(task), h);
}

double upk_hit_relevance_of(size_t words, const upk_index_hit *h) {
  double evidence = 0;
  size_t head = 0;
  for (size_t i = 0; i < h->n_matches; i++) {
    const upk_index_match *m = &h->matches[i];
    if (upk_relevance_generic(m->term))
      continue;
    evidence += field_weight(m->fields);
    head += (m->fields & (UPK_FIELD_NAME | UPK_FIELD_DESCRIPTION)) != 0;
  }
  if (evidence <= 0)
    return 0;
  double per = evidence / (double)(words ? words : 1);
  double z = coef[0] + coef[1] * evidence + coef[2] * (per > 1 ? 1 : per) + coef[3] * (double)head;
  double rel = 1 / (1 + exp(-z));
  /* A task of one or two words ("pdf", "terraform drift") gives little evidence however well
   * it fits, and the labelled tasks are sentences: there the share of its words the name or
   * description holds decides. */
  if (words <= SHORT_TASK) {
    double share = SHORT_SHARE * (double)head / (double)(words ? words : 1);
    rel = share > rel ? (share > SHORT_SHARE ? SHORT_SHARE : share) : rel;
  }
  return rel;
}

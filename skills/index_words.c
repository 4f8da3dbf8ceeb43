/* The words lookup treats specially: stopwords it leaves out of a task, and
 * abbreviations it also asks by their full form. Plain data, kept apart from
 * the query code that uses it (skills/index_query.c). */
#include "index_int.h"

#include <string.h>

/* Words that say nothing about which skill fits: function words and the
 * filler of requests ("can you please help me..."). */
static const char *const stopwords[] = {
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
    "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "done", "down", "during", "each",
    "etc", "few", "for", "from", "further", "get", "gets", "getting", "got", "had", "has", "have",
    "having", "he", "hello", "help", "her", "here", "hers", "hey", "hi", "him", "his", "how", "i",
    "id", "if", "im", "in", "into", "is", "it", "its", "itself", "ive", "just", "let", "lets",
    "like", "me", "might", "more", "most", "much", "must", "my", "myself", "need", "needs", "no",
    "nor", "not", "now", "of", "off", "on", "once", "one", "only", "or", "other", "our", "ours",
    "out", "over", "own", "please", "pls", "really", "same", "she", "should", "skill", "skills",
    "so", "some", "something", "such", "than", "thanks", "that", "the", "their", "theirs", "them",
    "then", "there", "these", "they", "thing", "things", "this", "those", "through", "to", "too",
    "under", "until", "up", "us", "very", "via", "want", "wants", "was", "we", "were", "what",
    "whats", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
    "you", "your", "yours", "yourself",
    /* conversational filler: how people talk about a task, not what it is */
    "actually", "already", "always", "anything", "around", "basically", "better", "best", "bit",
    "currently", "figure", "go", "goes", "going", "gone", "good", "great", "guess", "keep", "keeps",
    "kind", "last", "lot", "lots", "many", "maybe", "okay", "ok", "probably", "quick", "quickly",
    "right", "still", "stuff", "sure", "take", "takes", "taking", "today", "tomorrow", "trying",
    "try", "wanna", "way", "well", "yesterday"};

/* Abbreviations people type for words skills spell out. Each adds the full
 * form as an alternative (OR), it does not replace the word. */
static const char *const expansions[][2] = {{"k8s", "kubernetes"},
                                            {"kube", "kubernetes"},
                                            {"js", "javascript"},
                                            {"ts", "typescript"},
                                            {"py", "python"},
                                            {"pg", "postgresql"},
                                            {"postgres", "postgresql"},
                                            {"psql", "postgresql"},
                                            {"db", "database"},
                                            {"dbs", "database"},
                                            {"repo", "repository"},
                                            {"repos", "repository"},
                                            {"pr", "pull request"},
                                            {"prs", "pull request"},
                                            {"mr", "merge request"},
                                            {"env", "environment"},
                                            {"config", "configuration"},
                                            {"auth", "authentication"},
                                            {"perf", "performance"},
                                            {"deps", "dependencies"},
                                            {"docs", "documentation"},
                                            {"md", "markdown"},
                                            {"img", "image"},
                                            {"gh", "github"},
                                            {"tf", "terraform"},
                                            {"llm", "language model"},
                                            {"ml", "machine learning"},
                                            {"e2e", "end to end"},
                                            {"regex", "regular expression"},
                                            {"vuln", "vulnerability"},
                                            {"vulns", "vulnerability"},
                                            {"a11y", "accessibility"},
                                            {"i18n", "internationalization"},
                                            {"spreadsheet", "excel"},
                                            {"excel", "spreadsheet"},
                                            {"xlsx", "spreadsheet"},
                                            {"slides", "presentation"},
                                            {"powerpoint", "pptx"},
                                            {"deck", "presentation"},
                                            {"gpu", "cuda"},
                                            {"cicd", "pipeline"},
                                            {"ci", "pipeline"}};

/* A linear scan: ~150 short strcmp calls per word, and no shared state
 * between indexes used from different threads. */
bool upk_ix_is_stopword(const char *w) {
  for (size_t i = 0; i < sizeof stopwords / sizeof *stopwords; i++)
    if (!strcmp(w, stopwords[i]))
      return true;
  return false;
}

const char *upk_ix_expansion(const char *word, size_t *k) {
  for (; *k < sizeof expansions / sizeof *expansions; (*k)++)
    if (!strcmp(word, expansions[*k][0]))
      return expansions[(*k)++][1];
  return NULL;
}

/* The words lookup treats specially: stopwords it leaves out of a task,
 * abbreviations it also asks by their full form, identifiers split into words. Plain data
 * and string work, kept apart from the query code that uses it (skills/index/query.c). */
#include "skills/index/words_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Words that say nothing about which skill fits: function words and the
 * filler of requests ("can you please help me...", "basically", "maybe").
 * Sorted (strcmp order) for bsearch; test_index checks the order. */
static const char *const stopwords[] = {
    "a",       "about",    "above",   "actually", "after",     "again",   "against", "all",
    "already", "also",     "always",  "am",       "an",        "and",     "any",     "anything",
    "are",     "around",   "as",      "at",       "basically", "be",      "because", "been",
    "before",  "being",    "below",   "best",     "better",    "between", "bit",     "both",
    "but",     "by",       "can",     "could",    "currently", "did",     "do",      "does",
    "doing",   "done",     "down",    "during",   "each",      "etc",     "few",     "figure",
    "for",     "from",     "further", "get",      "gets",      "getting", "go",      "goes",
    "going",   "gone",     "good",    "got",      "great",     "guess",   "had",     "has",
    "have",    "having",   "he",      "hello",    "help",      "her",     "here",    "hers",
    "hey",     "hi",       "him",     "his",      "how",       "i",       "id",      "if",
    "im",      "in",       "into",    "is",       "it",        "its",     "itself",  "ive",
    "just",    "keep",     "keeps",   "kind",     "last",      "let",     "lets",    "like",
    "lot",     "lots",     "many",    "maybe",    "me",        "might",   "more",    "most",
    "much",    "must",     "my",      "myself",   "need",      "needs",   "no",      "nor",
    "not",     "now",      "of",      "off",      "ok",        "okay",    "on",      "once",
    "one",     "only",     "or",      "other",    "our",       "ours",    "out",     "over",
    "own",     "please",   "pls",     "probably", "quick",     "quickly", "really",  "right",
    "same",    "she",      "should",  "skill",    "skills",    "so",      "some",    "something",
    "still",   "stuff",    "such",    "sure",     "take",      "takes",   "taking",  "than",
    "thanks",  "that",     "the",     "their",    "theirs",    "them",    "then",    "there",
    "these",   "they",     "thing",   "things",   "this",      "those",   "through", "to",
    "today",   "tomorrow", "too",     "try",      "trying",    "under",   "until",   "up",
    "us",      "very",     "via",     "wanna",    "want",      "wants",   "was",     "way",
    "we",      "well",     "were",    "what",     "whats",     "when",    "where",   "which",
    "while",   "who",      "whom",    "why",      "will",      "with",    "would",   "yesterday",
    "you",     "your",     "yours",   "yourself"};

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

/* A small thesaurus: words users type for a task that skill authors write
 * otherwise (a user has "an H100", the skill says "Hopper" and "CUDA"; a
 * user wants a "stylesheet" fixed, the skill says "CSS"). Each adds its
 * other words as alternatives (OR), as an abbreviation's full form does,
 * but whatever the index's own use of the word: the two are not spellings
 * of one word, and a skill may say either. Chosen by domain (GPU kernels,
 * documents, frontend, infrastructure, testing, git), kept where the
 * development half of bench/skills/dev_tasks.tsv did not lose by it. */
static const char *const synonyms[][2] = {
    /* GPU kernels */
    {"h100", "hopper"},
    {"h100", "cuda"},
    {"h200", "hopper"},
    {"hopper", "h100"},
    {"a100", "ampere"},
    {"blackwell", "b200"},
    {"nvidia", "cuda"},
    {"gpu", "kernel"},
    {"triton", "kernel"},
    {"tensorcore", "tensor core"},
    {"wgmma", "tensor core"},
    /* documents */
    {"pdfs", "pdf"},
    {"scanned", "ocr"},
    {"ocr", "scanned"},
    {"docx", "word document"},
    {"fillable", "form"},
    {"invoice", "billing"},
    {"letterhead", "document"},
    /* frontend */
    {"stylesheet", "css"},
    {"styling", "css"},
    {"tailwind", "css"},
    {"webpage", "website"},
    {"frontend", "ui"},
    {"rerender", "re-render"},
    {"rerenders", "re-render"},
    {"tsx", "react"},
    {"jsx", "react"},
    {"responsive", "mobile"},
    /* infrastructure */
    {"iac", "terraform"},
    {"iac", "infrastructure as code"},
    {"helm", "kubernetes"},
    {"pod", "kubernetes"},
    {"pods", "kubernetes"},
    {"dockerize", "docker"},
    {"containerize", "docker"},
    {"container", "docker"},
    {"serverless", "lambda"},
    {"oncall", "incident"},
    {"outage", "incident"},
    {"postmortem", "incident"},
    {"runbook", "playbook"},
    {"playbook", "runbook"},
    /* testing */
    {"flaky", "test"},
    {"unittest", "unit test"},
    {"tdd", "test driven"},
    {"pentest", "penetration testing"},
    {"e2e", "playwright"},
    /* git */
    {"rebase", "git"},
    {"worktree", "git"},
    {"squash", "rebase"},
    {"stash", "git"},
    {"blame", "git history"},
    {"cherry", "git"},
    /* speed, errors */
    {"slow", "performance"},
    {"sluggish", "performance"},
    {"crash", "debug"},
    {"crashes", "debug"}};

static int by_word(const void *key, const void *item) {
  return strcmp(key, *(const char *const *)item);
}

bool upk__ix_is_stopword(const char *w) {
  return bsearch(w, stopwords, sizeof stopwords / sizeof *stopwords, sizeof *stopwords, by_word);
}

bool upk__ix_stopwords_sorted(void) {
  for (size_t i = 1; i < sizeof stopwords / sizeof *stopwords; i++)
    if (strcmp(stopwords[i - 1], stopwords[i]) >= 0)
      return false;
  return true;
}

/* The two tables are in topic order, not sorted: a first letter tells most entries apart
 * without a call (a task's words against ~250 entries each were 2 % of a lookup). */
const char *upk__ix_expansion(const char *word, size_t *k) {
  for (; *k < sizeof expansions / sizeof *expansions; (*k)++)
    if (expansions[*k][0][0] == word[0] && !strcmp(word, expansions[*k][0]))
      return expansions[(*k)++][1];
  return NULL;
}

const char *upk__ix_synonym(const char *word, size_t *k) {
  for (; *k < sizeof synonyms / sizeof *synonyms; (*k)++)
    if (synonyms[*k][0][0] == word[0] && !strcmp(word, synonyms[*k][0]))
      return synonyms[(*k)++][1];
  return NULL;
}

/* Identifiers from code and error messages ("AccessDenied", "useEffect")
 * name things skills write as words: split at lower-to-upper changes. out
 * gets the words lowercased and space-separated, or "" when there is no
 * such change. */
void upk__ix_camel_words(const char *w, int n, char out[80]) {
  int k = 0, splits = 0;
  for (int i = 0; i < n && k < 78; i++) {
    unsigned char c = (unsigned char)w[i];
    if (i > 0 && isupper(c) &&
        (islower((unsigned char)w[i - 1]) || isdigit((unsigned char)w[i - 1]))) {
      out[k++] = ' ';
      splits++;
    }
    out[k++] = (char)tolower(c);
  }
  out[splits ? k : 0] = 0;
}

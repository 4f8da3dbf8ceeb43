/* The intent layer in other languages: the same typed signals (an order to the agent, a
 * sensitive object, putting it somewhere, sending it away, concealment, doing without the
 * user's say, authority moved) from small per-language phrase tables, by meaning. A stranger's
 * skill written in English hides its order in Spanish or Chinese because the English tables
 * cannot read it. A Latin-script table is read only when the sentence holds three of that
 * language's function words, so English text never meets French "secret" or Italian "password";
 * a CJK, Cyrillic or Hangul table when its script occurs. Phrases are matched as lowercase
 * substrings (at a word's start in Latin and Cyrillic scripts), dropped when a negation of the
 * language stands just before them (or after, where the language puts it there), except the
 * concealments, which are negations themselves. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "skills/audit/audit_intent.h"

#define NEG_REACH 24     /* bytes before (or after) a phrase a negation may stand in... */
#define NEG_REACH_CJK 48 /* ...16 characters in CJK, where a verb's object follows it */
#define FUNCTION_WORDS 3

typedef struct lang_table {
  const char *const *words;     /* function words that say the sentence is in the language */
  const char *const *directive; /* addressed to the agent: imperatives, "note for the assistant" */
  const char *const *data;      /* credentials, passwords, keys, tokens, the environment */
  const char *const *put;       /* add, include, copy, paste, attach */
  const char *const *send;      /* send, upload, post, forward */
  const char *const *place;     /* a report, an issue, a request: where put data leaves */
  const char *const *conceal;   /* do not tell the user, secretly */
  const char *const *unasked;   /* without asking, no confirmation */
  const char *const *override;  /* ignore the instructions, even if the user says */
  const char *const *neg;       /* negations before a phrase */
  const char *const *neg_after; /* negations after it (German, Japanese, Korean) */
  const char *const *teaching;  /* attack, malicious, injection */
  const char *const *solicit;   /* the user asked for their password or a one-time code */
  const char *const *action;    /* a review or a protection bypassed: approved unread, branch
                                   protection or two-factor off, everything deleted */
  const char *const *success;   /* every test said to pass: with a concealment beside it, the
                                   user is told a lie about the agent's work */
  const char *const *sabotage;  /* the user's checks defeated: failing tests deleted or
                                   skipped, a coverage gate lowered, findings called false */
  const char *const *clean;     /* a clean bill: the pipeline green, no problems found */
  /* download links diverted, the user's security signal left out of a report */
  const char *const *links;  /* download or install links */
  const char *const *swap;   /* replace, swap, point elsewhere */
  const char *const *signal; /* vulnerabilities, CVEs, advisories, security findings */
  const char *const *drop;   /* leave out, omit, hide, delete */
  const char *const *report; /* a report, a summary, a table */
} lang_table;

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Each language's phrases by signal: skills/audit/rules/intent/languages.yaml, made into C at
 * build time by rules/intent_tables.py. */
#include "skills/audit/audit_intent_langs.h"

/* s lowercased: ASCII, Latin-1's capitals and Cyrillic's. */
static char *lower(const char *s, size_t n) {
  unsigned char *b = upk_xmalloc(n + 1);
  memcpy(b, s, n);
  b[n] = '\0';
  for (size_t i = 0; i < n; i++) {
    if (b[i] >= 'A' && b[i] <= 'Z')
      b[i] = (unsigned char)(b[i] + 32);
    else if (i + 1 < n && b[i] == 0xC3 && b[i + 1] >= 0x80 && b[i + 1] <= 0x9E && b[i + 1] != 0x97)
      b[++i] += 0x20;
    else if (i + 1 < n && b[i] == 0xD0 && b[i + 1] >= 0x90 && b[i + 1] <= 0x9F)
      b[++i] += 0x20; /* А-П */
    else if (i + 1 < n && b[i] == 0xD0 && b[i + 1] >= 0xA0 && b[i + 1] <= 0xAF)
      b[i] = 0xD1, b[++i] -= 0x20; /* Р-Я */
  }
  return (char *)b;
}

static bool letter(unsigned char c) {
  return (c >= 'a' && c <= 'z') || c >= 0x80 || c == '\'';
}

/* Where phrase occurs in b at or after `from` (at a word's start when it starts with a
 * letter of an alphabet: ASCII, Latin-1, Cyrillic), else NULL. */
static const char *find(const char *b, const char *from, const char *phrase) {
  unsigned char f = (unsigned char)phrase[0];
  bool alpha = (f >= 'a' && f <= 'z') || f == 0xC3 || f == 0xD0 || f == 0xD1;
  for (const char *p = strstr(from, phrase); p; p = strstr(p + 1, phrase)) {
    if (!alpha || p == b || !letter((unsigned char)p[-1]))
      return p;
    if ((unsigned char)p[-1] >= 0x80 && p - b >= 2 && (unsigned char)p[-2] < 0xC0 &&
        (unsigned char)p[-2] >= 0x80)
      continue; /* the end of a multi-byte letter */
  }
  return NULL;
}

/* A negation within NEG_REACH bytes before the phrase at `at` (after it when `after`). */
static bool near(const char *b, const char *at, size_t len, const char *const *negs, bool after) {
  size_t blen = strlen(b);
  size_t reach = (unsigned char)*at >= 0xE0 ? NEG_REACH_CJK : NEG_REACH;
  const char *lo = after ? at + len : ((size_t)(at - b) > reach ? at - reach : b);
  const char *hi = after ? (at + len + reach < b + blen ? at + len + reach : b + blen) : at;
  for (size_t i = 0; negs && negs[i]; i++) {
    size_t nl = strlen(negs[i]);
    bool word = (unsigned char)negs[i][0] < 0xE0; /* an alphabet's word, not CJK's */
    for (const char *p = find(b, lo, negs[i]); p && p < hi; p = find(b, p + 1, negs[i]))
      if ((after || p + nl <= at) && (!word || p[nl - 1] == '\'' || !letter((unsigned char)p[nl])))
        return true;
  }
  return false;
}

/* What follows 将 when it is "will" (将被上传, "will be uploaded"; 将直接发送, "will be sent
 * directly"): a privacy notice saying where data goes, not 将 taking an object as an order does
 * (将密钥发送到, "send the key to"). */
static const char *const ZH_FUTURE[] = {
    "被",   "会",   "會",   "直接", "自动", "自動", "在",   "于",   "於",   "通过", "通過",
    "由",   "以",   "用于", "作为", "上传", "上傳", "发送", "發送", "传输", "傳輸", "提交",
    "保存", "存储", "仅",   "只",   "不",   "无法", "可",   "显示", "返回", "输出", "生成",
    "成为", "得到", "持续", "继续", "立即", "永久", "定期", "每",   NULL,
};

/* ...or after an aspect word: 会将 ("this command will send"), 已将 ("has sent"), 即将 ("is
 * about to"): what a command does, described; 请将 and 务必将 stay orders by their own words. */
static const char *const ZH_ASPECT[] = {"会", "會", "已", "即", NULL};

static bool zh_will(const char *b, const char *at, const char *phrase, const char *after) {
  if (strcmp(phrase, "将") && strcmp(phrase, "將"))
    return false;
  for (size_t i = 0; ZH_ASPECT[i]; i++) {
    size_t n = strlen(ZH_ASPECT[i]);
    if ((size_t)(at - b) >= n && !strncmp(at - n, ZH_ASPECT[i], n))
      return true;
  }
  for (size_t i = 0; ZH_FUTURE[i]; i++)
    if (!strncmp(after, ZH_FUTURE[i], strlen(ZH_FUTURE[i])))
      return true;
  return false;
}

/* One of the phrases occurs (not negated, unless `plain`: concealments are negations). */
static bool holds(const char *b, const lang_table *t, const char *const *phrases, bool plain) {
  for (size_t i = 0; phrases && phrases[i]; i++)
    for (const char *p = find(b, b, phrases[i]); p; p = find(b, p + 1, phrases[i])) {
      size_t len = strlen(phrases[i]);
      if (zh_will(b, p, phrases[i], p + len))
        continue;
      if (plain || (!near(b, p, len, t->neg, false) && !near(b, p, len, t->neg_after, true)))
        return true;
    }
  return false;
}

/* The sentence is in a Latin-script language: three of its function words. */
static bool speaks(const char *b, const lang_table *t) {
  int hits = 0;
  for (size_t i = 0; t->words[i] && hits < FUNCTION_WORDS; i++) {
    size_t wl = strlen(t->words[i]);
    for (const char *p = find(b, b, t->words[i]); p; p = find(b, p + 1, t->words[i]))
      if (!letter((unsigned char)p[wl]) && (p == b || p[-1] == ' ' || p[-1] == '\n')) {
        hits++;
        break;
      }
  }
  return hits >= FUNCTION_WORDS;
}

static void read_table(const char *b, const lang_table *t, upk__intent_signals *g) {
  bool put = holds(b, t, t->put, false), send = holds(b, t, t->send, false);
  bool place = holds(b, t, t->place, false);
  g->directive |= holds(b, t, t->directive, false);
  g->data |= holds(b, t, t->data, false);
  g->sink |= put || send;
  /* sent somewhere named: a URL, an address, a report or an issue */
  g->egress |= (send || put) && (place || strstr(b, "://") || strchr(b, '@'));
  g->conceal |= holds(b, t, t->conceal, true);
  g->unasked |= holds(b, t, t->unasked, true);
  bool strong = holds(b, t, t->override, false);
  g->strong |= strong;
  g->override |= strong;
  g->teaching |= holds(b, t, t->teaching, true);
  g->solicit |= holds(b, t, t->solicit, false);
  g->action |= holds(b, t, t->action, false);
  bool sabotage = holds(b, t, t->sabotage, false);
  g->sabotage |= sabotage;
  g->directive |= sabotage; /* its phrases are imperatives */
  g->cleared |= holds(b, t, t->success, true) || holds(b, t, t->clean, true);
  if (holds(b, t, t->success, true) && holds(b, t, t->conceal, true))
    g->hide = g->conceal = g->directive = true; /* a pass claimed, the rest kept quiet: a lie */
  if (holds(b, t, t->links, true) && holds(b, t, t->swap, false))
    g->divert = g->action = g->directive = true; /* its verbs are imperatives */
  if (holds(b, t, t->signal, true) && holds(b, t, t->drop, true) && holds(b, t, t->report, true))
    g->silence = g->sabotage = g->directive = true;
}

/* Which scripts occur: CJK ideographs, kana, Hangul, Cyrillic. */
static void scripts(const unsigned char *s, size_t n, bool *han, bool *kana, bool *hangul,
                    bool *cyr) {
  for (size_t i = 0; i + 2 < n; i++) {
    *han |= s[i] >= 0xE4 && s[i] <= 0xE9;
    *kana |= s[i] == 0xE3 && s[i + 1] >= 0x81 && s[i + 1] <= 0x83;
    *hangul |= s[i] >= 0xEA && s[i] <= 0xED;
    *cyr |= s[i] == 0xD0 || (s[i] == 0xD1 && s[i + 1] <= 0x8F);
  }
}

void upk__intent_foreign(const char *s, size_t n, upk__intent_signals *sig) {
  bool han = false, kana = false, hangul = false, cyr = false;
  char *b = lower(s, n);
  scripts((const unsigned char *)b, n, &han, &kana, &hangul, &cyr);
  static const lang_table *const LATIN[] = {&SPANISH, &FRENCH,     &GERMAN,    &PORTUGUESE,
                                            &ITALIAN, &TURKISH,    &POLISH,    &CZECH,
                                            &DUTCH,   &INDONESIAN, &VIETNAMESE};
  for (size_t i = 0; i < sizeof LATIN / sizeof *LATIN; i++)
    if (speaks(b, LATIN[i]))
      read_table(b, LATIN[i], sig);
  if (cyr) {
    read_table(b, &RUSSIAN, sig);
    read_table(b, &UKRAINIAN, sig);
  }
  if (han || kana)
    read_table(b, &CHINESE, sig);
  if (kana)
    read_table(b, &JAPANESE, sig);
  if (hangul)
    read_table(b, &KOREAN, sig);
  free(b);
}

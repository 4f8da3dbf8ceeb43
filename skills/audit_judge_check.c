/* The judge's answer checked: the schema, the quotes, and the rule findings left as they were
 * (audit_judge.h). */
#include "skills/audit_judge.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum { MAX_FINDINGS = 64, MAX_FIELD = 2000 };

static const char *const CATEGORIES[] = {
    "download-exec", "reverse-shell", "obfuscated",         "credentials",  "exfiltration",
    "persistence",   "destruction",   "privilege",          "tampering",    "mining",
    "controls-off",  "agent-config",  "agent-instructions", "supply-chain", "other",
};

static bool one_of(const char *s, const char *const *set, size_t n) {
  for (size_t i = 0; s && i < n; i++)
    if (!strcmp(s, set[i]))
      return true;
  return false;
}

/* The JSON object in `answer`: all of it, or the first '{' to the last '}' (a fence or a
 * sentence around it). NULL when none parses. */
static json_t *object_in(const char *answer) {
  json_t *o = json_loads(answer, JSON_REJECT_DUPLICATES, NULL);
  const char *a = strchr(answer, '{'), *z = strrchr(answer, '}');
  if (!o && a && z > a)
    o = json_loadb(a, (size_t)(z - a + 1), JSON_REJECT_DUPLICATES, NULL);
  if (o && !json_is_object(o)) {
    json_decref(o);
    o = NULL;
  }
  return o;
}

static bool text_field(const json_t *f, const char *key, bool need, char *why, size_t n, size_t i) {
  const json_t *v = json_object_get(f, key);
  if (!v && !need)
    return true;
  if (json_is_string(v) && json_string_length(v) > 0 && json_string_length(v) <= MAX_FIELD)
    return true;
  snprintf(why, n, "findings[%zu].%s is not a string of 1 to %d characters", i, key, MAX_FIELD);
  return false;
}

static bool finding_ok(const json_t *f, size_t i, char *why, size_t n) {
  static const char *const sev[] = {"high", "medium", "low"};
  if (!json_is_object(f)) {
    snprintf(why, n, "findings[%zu] is not an object", i);
    return false;
  }
  if (!one_of(json_string_value(json_object_get(f, "category")), CATEGORIES,
              sizeof CATEGORIES / sizeof *CATEGORIES)) {
    snprintf(why, n, "findings[%zu].category is not one of the rubric's categories", i);
    return false;
  }
  if (!one_of(json_string_value(json_object_get(f, "severity")), sev, 3)) {
    snprintf(why, n, "findings[%zu].severity is not high, medium or low", i);
    return false;
  }
  return text_field(f, "file", true, why, n, i) && text_field(f, "quote", true, why, n, i) &&
         text_field(f, "why", true, why, n, i);
}

int upk_judge_parse(const char *answer, json_t **out, char *why, size_t whylen) {
  static const char *const verdicts[] = {"safe", "risky", "malicious"};
  *out = NULL;
  if (!answer || !*answer) {
    snprintf(why, whylen, "the answer is empty");
    return -EINVAL;
  }
  json_t *o = object_in(answer), *fs = json_object_get(o, "findings"), *f;
  const json_t *dis = json_object_get(o, "disagree");
  size_t i;
  if (!o)
    snprintf(why, whylen, "the answer is not a JSON object");
  else if (!one_of(json_string_value(json_object_get(o, "verdict")), verdicts, 3))
    snprintf(why, whylen, "verdict is not safe, risky or malicious");
  else if (!json_is_array(fs) || json_array_size(fs) > MAX_FINDINGS)
    snprintf(why, whylen, "findings is not an array of at most %d", MAX_FINDINGS);
  else if (dis && (!json_is_array(dis) || json_array_size(dis) > MAX_FINDINGS))
    snprintf(why, whylen, "disagree is not an array of at most %d", MAX_FINDINGS);
  else {
    bool ok = true;
    json_array_foreach(fs, i, f) if (ok) ok = finding_ok(f, i, why, whylen);
    if (ok) {
      *out = o;
      return 0;
    }
  }
  json_decref(o);
  return -EINVAL;
}

/* text with each run of white space one space, and where each of its bytes came from. */
static char *squeeze(const char *text, size_t **from) {
  size_t n = strlen(text), k = 0;
  char *s = upk_xmalloc(n + 1);
  if (from)
    *from = upk_xcalloc(n + 1, sizeof **from);
  for (size_t i = 0; i < n; i++) {
    bool sp = isspace((unsigned char)text[i]);
    if (sp && (k == 0 || s[k - 1] == ' '))
      continue;
    if (from)
      (*from)[k] = i;
    s[k++] = sp ? ' ' : text[i];
  }
  while (k && s[k - 1] == ' ')
    k--;
  s[k] = '\0';
  return s;
}

int upk_judge_quote_line(const char *text, const char *quote, int *line) {
  size_t *from = NULL;
  char *q = squeeze(quote, NULL), *t = squeeze(text, &from);
  const char *q0 = q[0] == ' ' ? q + 1 : q;
  char *at = *q0 ? strstr(t, q0) : NULL;
  if (at && line) {
    size_t start = from[at - t];
    *line = 0;
    for (size_t i = 0; i < start; i++)
      *line += text[i] == '\n';
  }
  free(q);
  free(t);
  free(from);
  return at != NULL;
}

static upk_severity severity_of(const char *s) {
  return !strcmp(s, "high") ? UPK_SEV_ERROR : !strcmp(s, "medium") ? UPK_SEV_WARNING : UPK_SEV_INFO;
}

/* One judge finding: a diagnostic when its quote is in the file it names, else unverified. */
static bool take_finding(const json_t *f, const upk_judge_input *in, upk_diags *out,
                         json_t *unverified) {
  const char *file = json_string_value(json_object_get(f, "file"));
  const char *quote = json_string_value(json_object_get(f, "quote"));
  const char *cat = json_string_value(json_object_get(f, "category"));
  const char *text = json_string_value(json_object_get(in->files, file));
  int line = 0;
  if (!text || !upk_judge_quote_line(text, quote, &line)) {
    json_t *u = json_deep_copy(f);
    json_object_set_new(
        u, "reason",
        json_string(text ? "the quote is not in the file" : "no such file was sent to the judge"));
    json_array_append_new(unverified, u);
    return false;
  }
  char code[64];
  snprintf(code, sizeof code, "judge/%s", cat);
  upk_diags_add(out, severity_of(json_string_value(json_object_get(f, "severity"))), code,
                UPK_JUDGE_SOURCE, upk_range_line(line, 0, 0), "the judge: %s",
                json_string_value(json_object_get(f, "why")));
  upk_diag *d = &out->items[out->len - 1];
  d->file = upk_xstrdup(file);
  d->category = upk_xstrdup(cat);
  d->evidence = upk_xstrndup(quote, 200);
  return true;
}

size_t upk_judge_merge(const json_t *answer, const upk_judge_input *in, upk_diags *out,
                       json_t *unverified, json_t *notes) {
  size_t i, n = 0;
  const json_t *f;
  json_array_foreach(json_object_get(answer, "findings"), i, f) n +=
      take_finding(f, in, out, unverified);
  json_array_foreach(json_object_get(answer, "disagree"), i, f) {
    const char *code = json_string_value(json_object_get(f, "code"));
    const char *why = json_string_value(json_object_get(f, "why"));
    json_array_append_new(
        notes, json_sprintf("the judge disagrees with %.100s (kept: the judge never removes a "
                            "rule finding): %.500s",
                            code ? code : "a rule finding", why ? why : "no reason given"));
  }
  const char *verdict = json_string_value(json_object_get(answer, "verdict"));
  if (in->rule_high && verdict && !strcmp(verdict, "safe"))
    json_array_append_new(notes, json_sprintf("the judge called the skill safe; the rules' %zu "
                                              "high finding(s) stand",
                                              in->rule_high));
  return n;
}

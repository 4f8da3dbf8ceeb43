/* Description-trigger evaluation: the improve prompt and its follow-up as
 * skill-creator's improve_description.py writes them, the reply parser, and the results as
 * run_eval.py-shaped JSON (trigger.h). */
#include "skills/eval/trigger.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/unicode.h"
#include "common/xalloc.h"

/* upk_trigger_tally over one side of an eval: an empty side is empty, never "all". */
static int tally_side(const upk_trigger_eval *ev, const upk_trigger_outcome *o, const size_t *idx,
                      size_t n, upk_trigger_score *out) {
  static const size_t none[1];
  if (n && !idx) {
    memset(out, 0, sizeof *out);
    return -EINVAL;
  }
  return upk_trigger_tally(ev->set, o, idx ? idx : none, n, ev->threshold, out);
}

/* ---- the improve prompt ---------------------------------------------------- */

/* improve_description.py's text, verbatim but for the angle-bracket sentence (quick_validate.py
 * and the Agent Skills spec refuse '<' and '>' in a description). */
static const char INTRO_1[] =
    "You are optimizing a skill description for a Claude Code skill called \"";
static const char INTRO_2[] =
    "\". A \"skill\" is sort of like a prompt, but with progressive disclosure -- there's a title "
    "and description that Claude sees when deciding whether to use the skill, and then if it "
    "does use the skill, it reads the .md file which has lots more details and potentially "
    "links to other resources in the skill folder like helper files and scripts and additional "
    "documentation or examples.\n"
    "\n"
    "The description appears in Claude's \"available_skills\" list. When a user sends a query, "
    "Claude decides whether to invoke the skill based solely on the title and on this "
    "description. Your goal is to write a description that triggers for relevant queries, and "
    "doesn't trigger for irrelevant ones.\n"
    "\n"
    "Here's the current description:\n"
    "<current_description>\n"
    "\"";

static const char ADVICE[] =
    "Based on the failures, write a new and improved description that is more likely to "
    "trigger correctly. When I say \"based on the failures\", it's a bit of a tricky line to "
    "walk because we don't want to overfit to the specific cases you're seeing. So what I "
    "DON'T want you to do is produce an ever-expanding list of specific queries that this "
    "skill should or shouldn't trigger for. Instead, try to generalize from the failures to "
    "broader categories of user intent and situations where this skill would be useful or not "
    "useful. The reason for this is twofold:\n"
    "\n"
    "1. Avoid overfitting\n"
    "2. The list might get loooong and it's injected into ALL queries and there might be a lot "
    "of skills, so we don't want to blow too much space on any given description.\n"
    "\n"
    "Concretely, your description should not be more than about 100-200 words, even if that "
    "comes at the cost of accuracy. There is a hard limit of 1024 characters \xe2\x80\x94 "
    "descriptions over that will be truncated, so stay comfortably under it. The description "
    "must not contain angle brackets (< or >): the Agent Skills spec does not allow them.\n"
    "\n"
    "Here are some tips that we've found to work well in writing these descriptions:\n"
    "- The skill should be phrased in the imperative -- \"Use this skill for\" rather than "
    "\"this skill does\"\n"
    "- The skill description should focus on the user's intent, what they are trying to "
    "achieve, vs. the implementation details of how the skill works.\n"
    "- The description competes with other skills for Claude's attention \xe2\x80\x94 make it "
    "distinctive and immediately recognizable.\n"
    "- If you're getting lots of failures after repeated attempts, change things up. Try "
    "different sentence structures or wordings.\n"
    "\n"
    "I'd encourage you to be creative and mix up the style in different iterations since "
    "you'll have multiple opportunities to try different approaches and we'll just grab the "
    "highest-scoring one at the end. \n"
    "\n"
    "Please respond with only the new description text in <new_description> tags, nothing "
    "else.";

/* Close the stream; only then does *buf hold the text. */
static char *finish(FILE *f, char **buf) {
  if (fclose(f) != 0) {
    free(*buf);
    return NULL;
  }
  return *buf;
}

/* Bytes of the first `max` code points of s (Python's s[:max]). */
static size_t prefix_bytes(const char *s, size_t max) {
  size_t b = 0, cps = 0;
  for (; s[b]; b++) {
    if (((unsigned char)s[b] & 0xC0) != 0x80 && cps++ == max)
      break;
  }
  return b;
}

/* The FAILED TO TRIGGER / FALSE TRIGGERS lists of the current description over train. */
static void failures(FILE *f, const upk_trigger_eval *cur, bool should, const char *title) {
  bool any = false;
  for (size_t j = 0; j < cur->n_train; j++) {
    size_t i = cur->train[j];
    const upk_trigger_query *q = &cur->set->items[i];
    upk_trigger_outcome o = cur->outcomes[i];
    if (q->should_trigger != should || o.runs == 0 || upk_trigger_pass(should, o, cur->threshold))
      continue;
    if (!any)
      fprintf(f, "%s:\n", title);
    any = true;
    fprintf(f, "  - \"%s\" (triggered %u/%u times)\n", q->query, o.triggers, o.runs);
  }
  if (any)
    fputc('\n', f);
}

static void attempt(FILE *f, const upk_trigger_eval *cur, const upk_trigger_attempt *a,
                    const upk_trigger_score *sc) {
  fprintf(f, "<attempt train=%zu/%zu>\n", sc->passed, sc->total);
  fprintf(f, "Description: \"%s\"\n", a->description ? a->description : "");
  fputs("Train results:\n", f);
  for (size_t j = 0; j < cur->n_train; j++) {
    size_t i = cur->train[j];
    const upk_trigger_query *q = &cur->set->items[i];
    upk_trigger_outcome o = a->outcomes[i];
    if (o.runs == 0)
      continue;
    bool pass = upk_trigger_pass(q->should_trigger, o, cur->threshold);
    fprintf(f, "  [%s] \"%.*s\" (triggered %u/%u)\n", pass ? "PASS" : "FAIL",
            (int)prefix_bytes(q->query, 80), q->query, o.triggers, o.runs);
  }
  fputs("</attempt>\n\n", f);
}

char *upk_trigger_improve_prompt(const upk_trigger_eval *cur, const char *skill_content,
                                 const upk_trigger_attempt *history, size_t n_history) {
  if (!cur || !cur->set || (n_history && !history))
    return NULL;
  upk_trigger_score now, *past = upk_xcalloc(n_history + 1, sizeof *past);
  bool ok = tally_side(cur, cur->outcomes, cur->train, cur->n_train, &now) == 0;
  for (size_t h = 0; ok && h < n_history; h++)
    ok = tally_side(cur, history[h].outcomes, cur->train, cur->n_train, &past[h]) == 0;
  char *buf = NULL;
  size_t len = 0;
  if (!ok) {
    free(past);
    return NULL;
  }
  FILE *f = upk_xmemstream(&buf, &len);
  fputs(INTRO_1, f);
  fputs(cur->skill_name ? cur->skill_name : "", f);
  fputs(INTRO_2, f);
  fputs(cur->description ? cur->description : "", f);
  fprintf(f, "\"\n</current_description>\n\nCurrent scores (Train: %zu/%zu):\n<scores_summary>\n",
          now.passed, now.total);
  failures(f, cur, true, "FAILED TO TRIGGER (should have triggered but didn't)");
  failures(f, cur, false, "FALSE TRIGGERS (triggered but shouldn't have)");
  if (n_history)
    fputs("PREVIOUS ATTEMPTS (do NOT repeat these \xe2\x80\x94 try something structurally "
          "different):\n\n",
          f);
  for (size_t h = 0; h < n_history; h++)
    attempt(f, cur, &history[h], &past[h]);
  free(past);
  fputs("</scores_summary>\n\n", f);
  if (skill_content)
    fprintf(f,
            "Skill content (for context on what the skill does):\n<skill_content>\n%s\n"
            "</skill_content>\n\n",
            skill_content);
  fputs(ADVICE, f);
  return finish(f, &buf);
}

char *upk_trigger_shorten_prompt(const char *prompt, const char *description) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = upk_xmemstream(&buf, &len);
  fprintf(f,
          "%s\n\n---\n\nA previous attempt produced this description, which at %zu characters "
          "is over the %d-character hard limit:\n\n\"%s\"\n\nRewrite it to be under %d "
          "characters while keeping the most important trigger words and intent coverage. "
          "Respond with only the new description in <new_description> tags.",
          prompt, upk_u8_len(description), UPK_TRIGGER_MAX_DESCRIPTION, description,
          UPK_TRIGGER_MAX_DESCRIPTION);
  return finish(f, &buf);
}

/* ---- the reply ------------------------------------------------------------- */

/* Python's s.strip().strip('"').strip(), in place on a malloc'd string. */
static char *trim(char *s) {
  char *t = upk_u8_strip(s);
  free(s);
  if (!t)
    return NULL;
  size_t n = strlen(t), a = 0;
  while (a < n && t[a] == '"')
    a++;
  while (n > a && t[n - 1] == '"')
    n--;
  memmove(t, t + a, n - a);
  t[n - a] = '\0';
  s = upk_u8_strip(t);
  free(t);
  return s;
}

int upk_trigger_parse_reply(const char *reply, char **description, char *why, size_t why_len) {
  static const char OPEN[] = "<new_description>", CLOSE[] = "</new_description>";
  *description = NULL;
  if (why && why_len)
    why[0] = '\0';
  const char *from = reply ? reply : "", *open = strstr(from, OPEN);
  const char *close = open ? strstr(open + strlen(OPEN), CLOSE) : NULL;
  size_t n = strlen(from);
  if (open && close) {
    from = open + strlen(OPEN);
    n = (size_t)(close - from);
  }
  char *d = upk_xstrndup(from, n);
  upk_utf8_scrub(d); /* counted and sent on as text */
  if (!(d = trim(d)))
    return -ENOMEM;
  *description = d;
  size_t chars = upk_u8_len(d);
  bool brackets = strpbrk(d, "<>") != NULL;
  int rc = chars > UPK_TRIGGER_MAX_DESCRIPTION ? -E2BIG : !*d || brackets ? -EINVAL : 0;
  if (rc && why && why_len) {
    int k = 0;
    if (!*d)
      k = snprintf(why, why_len, "The reply holds no description.");
    if (chars > UPK_TRIGGER_MAX_DESCRIPTION)
      k = snprintf(why, why_len,
                   "Description is too long (%zu characters). Maximum is %d characters.", chars,
                   UPK_TRIGGER_MAX_DESCRIPTION);
    if (brackets && k >= 0 && (size_t)k < why_len)
      snprintf(why + k, why_len - (size_t)k,
               "%sDescription cannot contain angle brackets (< or >).", k ? " " : "");
  }
  return rc;
}

/* ---- JSON out -------------------------------------------------------------- */

static json_t *counts_json(const upk_trigger_counts *c, json_t *o) {
  if (o && json_object_set_new(o, "tp", json_integer((json_int_t)c->tp)) == 0 &&
      json_object_set_new(o, "fp", json_integer((json_int_t)c->fp)) == 0 &&
      json_object_set_new(o, "fn", json_integer((json_int_t)c->fn)) == 0 &&
      json_object_set_new(o, "tn", json_integer((json_int_t)c->tn)) == 0 &&
      json_object_set_new(o, "precision", json_real(c->precision)) == 0 &&
      json_object_set_new(o, "recall", json_real(c->recall)) == 0 &&
      json_object_set_new(o, "accuracy", json_real(c->accuracy)) == 0)
    return o;
  json_decref(o);
  return NULL;
}

static json_t *score_json(const upk_trigger_score *s) {
  json_t *o = json_pack("{s:I, s:I, s:I, s:I}", "total", (json_int_t)s->total, "passed",
                        (json_int_t)s->passed, "failed", (json_int_t)s->failed, "not_run",
                        (json_int_t)s->not_run);
  json_t *runs = counts_json(&s->runs, json_object());
  o = counts_json(&s->queries, o);
  if (!o || !runs) {
    json_decref(o);
    json_decref(runs);
    return NULL;
  }
  if (json_object_set_new(o, "runs", runs)) { /* runs is taken even then */
    json_decref(o);
    return NULL;
  }
  return o;
}

static json_t *result_json(const upk_trigger_query *q, upk_trigger_outcome o, double threshold,
                           const char *split) {
  return json_pack("{s:s, s:b, s:f, s:I, s:I, s:b, s:s}", "query", q->query, "should_trigger",
                   q->should_trigger, "trigger_rate", upk_trigger_rate(o), "triggers",
                   (json_int_t)o.triggers, "runs", (json_int_t)o.runs, "pass",
                   upk_trigger_pass(q->should_trigger, o, threshold), "split", split);
}

/* results[], in the set's order; side[i]: 0 neither, 1 train, 2 test. */
static json_t *results_json(const upk_trigger_eval *ev, const unsigned char *side) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < ev->set->n; i++) {
    if (!side[i] || ev->outcomes[i].runs == 0)
      continue;
    json_t *r = result_json(&ev->set->items[i], ev->outcomes[i], ev->threshold,
                            side[i] == 1 ? "train" : "test");
    if (json_array_append_new(a, r)) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* Which side each query is on; NULL on overlap, a bad index or ENOMEM. */
static unsigned char *sides(const upk_trigger_eval *ev) {
  unsigned char *side = upk_xcalloc(ev->set->n + 1, 1);
  for (size_t k = 0; side && k < ev->n_train + ev->n_test; k++) {
    size_t i = k < ev->n_train ? ev->train[k] : ev->test[k - ev->n_train];
    if (i >= ev->set->n || side[i]) {
      free(side);
      return NULL;
    }
    side[i] = k < ev->n_train ? 1 : 2;
  }
  return side;
}

static json_t *size_or_null(bool has, size_t v) {
  return has ? json_integer((json_int_t)v) : json_null();
}

json_t *upk_trigger_result_json(const upk_trigger_eval *ev) {
  upk_trigger_score tr, te;
  if (!ev || !ev->set || tally_side(ev, ev->outcomes, ev->train, ev->n_train, &tr) ||
      tally_side(ev, ev->outcomes, ev->test, ev->n_test, &te))
    return NULL;
  unsigned char *side = sides(ev);
  if (!side)
    return NULL;
  bool has_test = ev->n_test > 0;
  json_t *o = json_pack(
      "{s:s*, s:s, s:f, s:o, s:{s:I, s:I, s:I}, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
      "skill_name", ev->skill_name, "description", ev->description ? ev->description : "",
      "trigger_threshold", ev->threshold, "results", results_json(ev, side), "summary", "total",
      (json_int_t)(tr.total + te.total), "passed", (json_int_t)(tr.passed + te.passed), "failed",
      (json_int_t)(tr.failed + te.failed), "train_passed", (json_int_t)tr.passed, "train_failed",
      (json_int_t)tr.failed, "train_total", (json_int_t)tr.total, "test_passed",
      size_or_null(has_test, te.passed), "test_failed", size_or_null(has_test, te.failed),
      "test_total", size_or_null(has_test, te.total), "train", score_json(&tr), "test",
      has_test ? score_json(&te) : json_null());
  free(side);
  return o;
}

/* ---- a SKILL.md with another description ---- */

/* Length of the frontmatter line at p, newline included. */
static size_t line_len(const char *p) {
  const char *nl = strchr(p, '\n');
  return nl ? (size_t)(nl - p) + 1 : strlen(p);
}

/* The description entry: its "description:" line at column 0 and what continues it (indented
 * or blank lines: a folded or multi-line scalar). */
static const char *find_description(const char *fm, const char *end, size_t *len) {
  for (const char *p = fm; p < end; p += line_len(p)) {
    if (strncmp(p, "description:", 12) != 0)
      continue;
    const char *q = p + line_len(p);
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
      q += line_len(q);
    *len = (size_t)(q - p);
    return p;
  }
  return NULL;
}

char *upk_trigger_with_description(const char *md, const char *description) {
  if (strncmp(md, "---", 3) != 0)
    return NULL;
  const char *fm = md + line_len(md), *end = fm;
  while (*end && strncmp(end, "---", 3) != 0)
    end += line_len(end);
  size_t old_len = 0;
  const char *old = *end ? find_description(fm, end, &old_len) : NULL;
  json_t *s = old ? json_string(description) : NULL;
  /* A JSON string is a YAML double-quoted scalar: one line, every character escaped. */
  char *quoted = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
  json_decref(s);
  char *out =
      quoted ? upk_xasprintf("%.*sdescription: %s\n%s", (int)(old - md), md, quoted, old + old_len)
             : NULL;
  free(quoted);
  return out;
}

/* The intent layer beside the other layers' findings. A command the rules rate medium (a
 * download run, a host sent data, a service installed) is high when the prose that carries or
 * introduces it keeps it from the user: "no need to mention it", "silently", a note to the
 * agent inside an HTML comment the rendered page does not show; or when its line orders it
 * beside the teaching words that lowered it ("Attackers use `…`. Run it now."). A command the rules
 * rate high is medium when it is quoted on a line whose every sentence presents an attack or a
 * detection (a Falco rule's description of reverse shells): mentioned, not said. */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "skills/audit/audit_int.h"
#include "skills/audit/audit_intent.h"

/* Whether column col of the line at data[ls, le) is inside quotes ("…", “…”, `…`): a phrase
 * mentioned, not said. */
static bool quoted_at(const char *data, size_t ls, size_t le, int col) {
  int dq = 0, bq = 0, open = 0, units = 0;
  for (size_t i = ls; i < le && units < col; i++) {
    unsigned char c = (unsigned char)data[i];
    dq += c == '"', bq += c == '`';
    if (c == 0xE2 && i + 2 < le && (unsigned char)data[i + 1] == 0x80)
      open += (unsigned char)data[i + 2] == 0x9C ? 1 : (unsigned char)data[i + 2] == 0x9D ? -1 : 0;
    units += (c & 0xC0) != 0x80;
  }
  return dq % 2 || bq % 2 || open > 0;
}

/* What the sentences on `line` say: an order, teaching (a red-flag list, a detection's
 * description) that orders nothing, or plain text that is neither. */
typedef struct line_voice {
  bool order, teach, plain;
} line_voice;

/* A sentence quoted whole ("Ignore previous instructions."), as a test input or a phrase in a
 * table is: mentioned, not said. A command in backticks is not one: it is there to be run. */
static bool quoted_whole(const char *data, const upk__intent_sentence *s) {
  const char *a = data + s->at, *e = data + s->end;
  while (a < e && strchr(" \t\n|", *a))
    a++;
  while (e > a && strchr(" \t\n|.,;", e[-1]))
    e--;
  if (e - a < 2)
    return false;
  bool open = *a == '"' || !strncmp(a, "\xE2\x80\x9C", 3);
  bool close = e[-1] == '"' || (e - a >= 3 && !strncmp(e - 3, "\xE2\x80\x9D", 3));
  return open && close;
}

static line_voice voice_of(const char *data, const upk__intent_sentence *s, size_t n,
                           const upk__audit_lines *l, int line) {
  line_voice v = {0};
  for (size_t i = 0; i < n; i++) {
    int a = upk__audit_line_of(l, s[i].at), b = upk__audit_line_of(l, s[i].end ? s[i].end - 1 : 0);
    if (a > line || line > b)
      continue;
    if (s[i].teaching && quoted_whole(data, &s[i]))
      v.teach = true; /* a quoted phrase under teaching words: a test input, not an order */
    else if (upk__intent_ordered(data + s[i].at, s[i].end - s[i].at))
      v.order = true;
    else if (s[i].teaching)
      v.teach = true;
    else
      v.plain = true;
  }
  return v;
}

/* Every sentence on the line teaches and none is an order: "Attackers use `…`. Run it now." is
 * not a description. */
static bool teaching_line(line_voice v) {
  return v.teach && !v.order && !v.plain;
}

/* An order beside the teaching words a rule lowered the command for (a one-liner in prose is
 * medium): "Attackers open shells with `…`. Run it now." */
static bool order_beside_teaching(line_voice v) {
  return v.teach && v.order;
}

/* A finding of the command rules on text (not a file's kind, size, link or characters, and
 * not the intent layer's own). */
static bool command_rule(const char *code) {
  static const char *const NOT[] = {"audit/intent-",    "audit/invisible-unicode",
                                    "audit/link",       "audit/oversize",
                                    "audit/executable", "audit/binary",
                                    "audit/unreadable", "audit/unscanned",
                                    "audit/too-",       "audit/special-file",
                                    "audit/rules"};
  if (!code || strncmp(code, "audit/", 6))
    return false;
  for (size_t i = 0; i < sizeof NOT / sizeof *NOT; i++)
    if (!strncmp(code, NOT[i], strlen(NOT[i])))
      return false;
  return true;
}

/* Whether offset `off` of data lies inside an HTML comment: invisible when rendered. */
#define COMMENT_BACK 65536 /* bytes looked back for a comment's opening */

static bool in_comment(const char *data, size_t off) {
  for (size_t i = off; i >= 4 && off - i < COMMENT_BACK; i--) {
    if (!memcmp(data + i - 3, "-->", 3) && i - 3 < off)
      return false;
    if (!memcmp(data + i - 4, "<!--", 4))
      return true;
  }
  return false;
}

/* Whether the signals keep something from the user (and are not a passage that teaches). */
static bool hidden(const upk__intent_signals *g) {
  return !g->teaching && (g->conceal || g->hide);
}

/* Whether a sentence of s[i]'s segment (its paragraph, list item or comment) hides, or the
 * sentence after the segment does. */
static bool segment_hides(const upk__intent_sentence *s, const upk__intent_signals *sig, size_t n,
                          size_t i) {
  size_t a = i, b = i;
  while (a > 0 && s[a - 1].seg == s[i].seg)
    a--;
  while (b + 1 < n && s[b + 1].seg == s[i].seg)
    b++;
  for (size_t j = a; j <= b + 1 && j < n; j++)
    if (!s[j].teaching && hidden(&sig[j]))
      return true;
  return false;
}

/* Whether the prose around `line` hides it: the segment that holds it, or (a code block) the
 * one that introduces it, or the sentence after either, conceals; or the line is in an HTML
 * comment addressed to the agent. */
static bool hidden_line(const char *data, const upk__intent_sentence *s,
                        const upk__intent_signals *sig, size_t n, const upk__audit_lines *l,
                        int line) {
  size_t i = 0;
  while (i < n && upk__audit_line_of(l, s[i].end ? s[i].end - 1 : 0) < line)
    i++; /* s[i]: the first sentence that ends on the line or after it */
  bool on = i < n && upk__audit_line_of(l, s[i].at) <= line;
  if (on && !s[i].teaching && !sig[i].teaching && in_comment(data, l->starts[line]) &&
      upk__intent_ordered(data + s[i].at, s[i].end - s[i].at))
    return true;
  if (on)
    return segment_hides(s, sig, n, i);
  return (i > 0 && segment_hides(s, sig, n, i - 1)) || (i < n && segment_hides(s, sig, n, i));
}

/* Whether a finding at least as severe as high is on `line` already (the intent layer's own). */
static bool high_on(const upk_diags *out, size_t from, int line) {
  for (size_t i = from; i < out->len; i++)
    if (out->items[i].range.line == line && out->items[i].severity == UPK_SEV_ERROR)
      return true;
  return false;
}

void upk__intent_near(const char *data, size_t len, const upk__intent_sentence *s,
                      const upk__intent_signals *sig, size_t n, size_t from, bool raise,
                      upk_diags *out) {
  upk__audit_lines l;
  upk__audit_lines_make(&l, data, len);
  for (size_t i = from; i < out->len; i++) {
    upk_diag *d = &out->items[i];
    int line = d->range.line;
    if (!command_rule(d->code) || line < 0 || line >= l.n)
      continue;
    line_voice v = voice_of(data, s, n, &l, line);
    if (!raise && d->severity == UPK_SEV_ERROR && teaching_line(v)) {
      size_t ls = l.starts[line], le = ls;
      while (le < len && data[le] != '\n')
        le++;
      if (quoted_at(data, ls, le, d->range.col))
        upk__audit_adjust(d, UPK_SEV_WARNING,
                          "quoted on a line whose every sentence teaches and none orders");
    } else if (raise && d->severity == UPK_SEV_WARNING &&
               strcmp(d->code, "audit/credentials") && /* a store kept quiet: the layer's own */
               !high_on(out, from, line) &&
               (hidden_line(data, s, sig, n, &l, line) || order_beside_teaching(v))) {
      upk__audit_adjust(d, UPK_SEV_ERROR,
                        "the prose that carries or introduces the line keeps it from the user");
    }
  }
  upk__audit_lines_free(&l);
}

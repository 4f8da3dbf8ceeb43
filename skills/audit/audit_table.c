/* A table's counter-example: a style guide in CSV or a Markdown table whose columns are
 * "Do" and "Don't" ("Code Example Bad", "Avoid", "Anti-pattern") writes, in the second, what an
 * agent must not do: "Ignore user motion preferences" under "Don't" is advice, not an order.
 * A high finding inside such a cell is lowered to medium, and says so: the cell is still shown,
 * since an order planted in a data file the agent reads is exactly what the audit is for, but a
 * table that presents it as the wrong way is no skill a reviewer would refuse for it. The cell is
 * found by its column, counted from the finding's byte column; a finding with no column (a whole
 * line or file) is left alone. */
#include "skills/audit/audit_int.h"
#include "skills/audit/audit_intent.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xalloc.h"

#define CELL_MAX 128 /* bytes of a header cell compared */
#define ROW_SCAN_S 2 /* seconds a row scanned again may take (one line: microseconds) */

/* Header words that present a column as what not to do. */
static const char *const COUNTER[] = {
    "don't",        "don\xE2\x80\x99t", "dont",         "do not",       "avoid",     "bad",
    "anti-pattern", "antipattern",      "anti pattern", "wrong",        "incorrect", "never",
    "mistake",      "pitfall",          "\xE2\x9D\x8C", "\xE2\x9C\x97",
};

typedef struct table_file {
  const char *data;
  size_t len;
  char delim; /* ',' or '\t' for CSV and TSV, '|' for a Markdown table */
  upk__audit_lines lines;
} table_file;

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcasecmp(s + n - k, suffix);
}

/* Line `i`'s bounds (its newline and a CR before it left out). */
static void line_span(const table_file *t, int i, size_t *a, size_t *b) {
  *a = t->lines.starts[i];
  *b = i + 1 < t->lines.n ? t->lines.starts[i + 1] - 1 : t->len;
  if (*b > *a && t->data[*b - 1] == '\r')
    (*b)--;
}

/* The index of the cell holding byte `at` of the line [a, b): delimiters counted outside
 * double quotes (CSV) or backslash escapes (Markdown). -1 when `at` is not on the line. */
static int cell_of(const table_file *t, size_t a, size_t b, size_t at) {
  if (at < a || at >= b)
    return -1;
  int cell = 0;
  bool quoted = false;
  for (size_t i = a; i < at; i++) {
    char c = t->data[i];
    if (t->delim != '|' && c == '"')
      quoted = !quoted;
    else if (t->delim == '|' && c == '\\')
      i++;
    else if (c == t->delim && !quoted)
      cell++;
  }
  return cell;
}

/* Cell `k` of the line [a, b) into out (NUL-terminated, cut to CELL_MAX). */
static void cell_text(const table_file *t, size_t a, size_t b, int k, char out[CELL_MAX]) {
  size_t n = 0;
  int cell = 0;
  bool quoted = false;
  for (size_t i = a; i < b && cell <= k; i++) {
    char c = t->data[i];
    if (t->delim != '|' && c == '"')
      quoted = !quoted;
    else if (c == t->delim && !quoted)
      cell++;
    else if (cell == k && n < CELL_MAX - 1)
      out[n++] = c;
  }
  out[n] = '\0';
}

static bool md_row(const table_file *t, int i) {
  size_t a, b;
  line_span(t, i, &a, &b);
  while (a < b && (t->data[a] == ' ' || t->data[a] == '\t'))
    a++;
  return a < b && t->data[a] == '|';
}

/* The header line of the table line `i` is in: CSV's first line; a Markdown table's first row
 * (the one above its |---| separator). -1 when line i is in no table. */
static int header_of(const table_file *t, int i) {
  if (t->delim != '|')
    return i > 0 ? 0 : -1;
  if (!md_row(t, i))
    return -1;
  int h = i;
  while (h > 0 && md_row(t, h - 1))
    h--;
  return h < i ? h : -1;
}

static bool counter_header(const char *cell) {
  for (size_t i = 0; i < sizeof COUNTER / sizeof *COUNTER; i++)
    if (strcasestr(cell, COUNTER[i]))
      return true;
  return false;
}

/* Whether finding f sits in a cell under a counter-example column. */
static bool in_counter_cell(const table_file *t, const upk_diag *f) {
  int line = f->range.line;
  if (line < 0 || line >= t->lines.n || f->range.col <= 0)
    return false;
  int h = header_of(t, line);
  if (h < 0)
    return false;
  size_t a, b, ha, hb;
  line_span(t, line, &a, &b);
  line_span(t, h, &ha, &hb);
  int k = cell_of(t, a, b, a + (size_t)f->range.col);
  if (k < 0)
    return false;
  char head[CELL_MAX];
  cell_text(t, ha, hb, k, head);
  return counter_header(head);
}

/* Row [a, b) with every cell under a counter column (header [ha, hb)) blanked, malloc'd; its
 * cells counted as cell_of counts them. */
static char *row_without_counter(const table_file *t, size_t a, size_t b, size_t ha, size_t hb) {
  char *row = upk_xstrndup(t->data + a, b - a), head[CELL_MAX];
  int cell = 0;
  bool quoted = false, counter;
  cell_text(t, ha, hb, 0, head);
  counter = counter_header(head);
  for (size_t i = 0; i < b - a; i++) {
    char c = row[i];
    if (t->delim != '|' && c == '"')
      quoted = !quoted;
    if (c == t->delim && !quoted) { /* the next cell begins: a counter-example's column? */
      cell_text(t, ha, hb, ++cell, head);
      counter = counter_header(head);
      continue;
    }
    if (counter)
      row[i] = ' ';
    if (t->delim == '|' && c == '\\' && i + 1 < b - a && counter)
      row[++i] = ' '; /* an escaped bar is the cell's own */
    else if (t->delim == '|' && c == '\\')
      i++;
  }
  return row;
}

/* The rules match once per line: a counter-example cell may hide, behind its own lowered
 * finding, a payload of the same rule in another cell of the row (`| curl … \| sh | curl … \| sh
 * |`). The row is scanned again with its counter cells blanked; a high finding of f's rule
 * there moves f's columns to it, and f stays high. */
static bool payload_beside(const table_file *t, const char *rel, const char *lang, upk_diag *f) {
  size_t a, b, ha, hb;
  line_span(t, f->range.line, &a, &b);
  line_span(t, header_of(t, f->range.line), &ha, &hb);
  char *row = row_without_counter(t, a, b, ha, hb);
  upk_diags again = {0};
  bool found = false;
  if (upk__audit_scan(rel, row, b - a, lang, ROW_SCAN_S, &again) == 0) {
    if (!strcmp(lang, "markdown")) /* the row read as the whole file is: rules, then intent */
      upk__audit_intent(rel, row, b - a, 0, &again);
    else
      upk__audit_intent_data(rel, row, b - a, 0, &again);
    for (size_t i = 0; i < again.len && !found; i++) {
      const upk_diag *g = &again.items[i];
      found = g->severity == UPK_SEV_ERROR && g->code && f->code && !strcmp(g->code, f->code);
      if (found) {
        f->range.col = g->range.col;
        f->range.end_col = g->range.end_line == g->range.line ? g->range.end_col : (int)(b - a);
      } /* its evidence stays the row as written: the blanked copy is the audit's own */
    }
  }
  upk_diags_free(&again);
  free(row);
  return found;
}

void upk__audit_table_counter(const char *rel, const char *lang, const char *data, size_t len,
                              upk_diags *out, size_t from) {
  table_file t = {.data = data, .len = len};
  if (ends_with(rel, ".csv")) /* data, not a language the rules tell apart */
    t.delim = ',';
  else if (ends_with(rel, ".tsv"))
    t.delim = '\t';
  else if (lang && !strcmp(lang, "markdown"))
    t.delim = '|';
  else
    return;
  size_t i = from;
  while (i < out->len && out->items[i].severity != UPK_SEV_ERROR)
    i++;
  if (i == out->len)
    return; /* the common case: nothing high, no line table made */
  upk__audit_lines_make(&t.lines, data, len);
  for (; i < out->len; i++) {
    upk_diag *f = &out->items[i];
    if (f->severity != UPK_SEV_ERROR || !in_counter_cell(&t, f) || payload_beside(&t, rel, lang, f))
      continue;
    char *msg = upk_xasprintf("%s (in a table's column of what not to do: a counter-example, "
                              "medium)",
                              f->message);
    free(f->message);
    f->message = msg;
    upk__audit_adjust(f, UPK_SEV_WARNING, "in a table's column of what not to do");
  }
  upk__audit_lines_free(&t.lines);
}

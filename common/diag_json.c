#include "common/diag_json.h"
#include "common/xalloc.h"

#include <stdlib.h>

/* s as a JSON string; bytes that are not UTF-8 (a stranger's file name, a quoted line) become
 * '?', so the member is never silently left out: a finding keeps its file. */
static json_t *scrubbed_string(const char *s) {
  json_t *j = json_string(s);
  if (j)
    return j;
  char *copy = upk_xstrdup(s);
  upk_utf8_scrub(copy);
  j = json_string(copy);
  free(copy);
  return j;
}

static json_t *position(int line, int col) {
  return json_pack("{s:i,s:i}", "line", line < 0 ? 0 : line, "character", col < 0 ? 0 : col);
}

json_t *upk_diag_json(const upk_diag *d) {
  const upk_range *r = &d->range;
  json_t *range = json_pack("{s:o,s:o}", "start", position(r->line, r->col), "end",
                            position(r->end_line < r->line ? r->line : r->end_line, r->end_col));
  json_t *j =
      json_pack("{s:O,s:i,s:s?,s:s?,s:s}", "range", range, "severity", (int)d->severity, "code",
                d->code, "source", d->source, "message", d->message ? d->message : "");
  if (!j) /* a message that is not valid UTF-8 (e.g. quoting a file's bytes) */
    j = json_pack("{s:O,s:i,s:s}", "range", range, "severity", (int)d->severity, "message",
                  "(diagnostic text not valid UTF-8)");
  json_decref(range);
  if (d->file)
    json_object_set_new(j, "file", scrubbed_string(d->file));
  if (d->category)
    json_object_set_new(j, "category", json_string(d->category));
  if (d->evidence)
    json_object_set_new(j, "evidence", scrubbed_string(d->evidence));
  if (d->rule)
    json_object_set_new(j, "rule", json_string(d->rule));
  if (d->reason)
    json_object_set_new(j, "reason", json_string(d->reason));
  return j;
}

json_t *upk_diags_json(const upk_diags *d) {
  json_t *a = json_array();
  for (size_t i = 0; i < d->len; i++)
    json_array_append_new(a, upk_diag_json(&d->items[i]));
  return a;
}

size_t upk_diags_json_count(const json_t *diags, json_int_t severity) {
  size_t i, n = 0;
  json_t *d;
  json_array_foreach(diags, i, d) n +=
      json_integer_value(json_object_get(d, "severity")) == severity;
  return n;
}

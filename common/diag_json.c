#include "common/diag_json.h"

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
    json_object_set_new(j, "file", json_string(d->file));
  if (d->category)
    json_object_set_new(j, "category", json_string(d->category));
  if (d->evidence) /* NULL from json_string when not UTF-8: then left out */
    json_object_set_new(j, "evidence", json_string(d->evidence));
  return j;
}

json_t *upk_diags_json(const upk_diags *d) {
  json_t *a = json_array();
  for (size_t i = 0; i < d->len; i++)
    json_array_append_new(a, upk_diag_json(&d->items[i]));
  return a;
}

#include "daemon/mcp/tool_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag_json.h"

#include "common/dynbuf.h"

enum {
  LINES_MAX = 50,      /* more would drown the model: the rest stay in structuredContent */
  TEXT_MAX = 64 << 10, /* bytes */
};

static const char *severity_name(json_int_t s) {
  static const char *const names[] = {"error", "warning", "info", "hint"};
  return s >= 1 && s <= 4 ? names[s - 1] : "error";
}

static json_int_t position(const json_t *d, const char *key) {
  json_t *start = json_object_get(json_object_get(d, "range"), "start");
  return json_integer_value(json_object_get(start, key)) + 1;
}

typedef struct lines {
  upk_buf buf;
  size_t shown, left;
  const char *headline;
} lines;

static void add_diags(lines *l, const json_t *diags, const char *file) {
  size_t i;
  json_t *d;
  json_array_foreach(diags, i, d) {
    const char *msg = json_string_value(json_object_get(d, "message"));
    const char *code = json_string_value(json_object_get(d, "code"));
    const char *f = json_string_value(json_object_get(d, "file"));
    if (!msg || (l->headline && strstr(l->headline, msg))) /* the headline says it already */
      continue;
    if (l->shown == LINES_MAX) {
      l->left++;
      continue;
    }
    l->shown++;
    upk_buf_printf(&l->buf, "\n%s:%lld:%lld %s%s%s: %s", f ? f : file,
                   (long long)position(d, "line"), (long long)position(d, "character"),
                   severity_name(json_integer_value(json_object_get(d, "severity"))),
                   code ? " " : "", code ? code : "", msg);
  }
}

char *upk_tool_diag_text(const json_t *structured, const char *headline, const char *default_file) {
  const char *file = json_string_value(json_object_get(structured, "file"));
  lines l = {.headline = headline};
  upk_buf_init(&l.buf, TEXT_MAX);
  upk_buf_puts(&l.buf, headline ? headline : "");
  add_diags(&l, json_object_get(structured, "diagnostics"), file ? file : default_file);
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(structured, "rows"), i, row) {
    const char *rf = json_string_value(json_object_get(row, "file"));
    add_diags(&l, json_object_get(row, "diagnostics"), rf ? rf : default_file);
  }
  if (l.left)
    upk_buf_printf(&l.buf, "\n... and %zu more in structuredContent.diagnostics", l.left);
  if (!l.shown && !l.left) {
    upk_buf_free(&l.buf);
    return NULL;
  }
  return upk_buf_take(&l.buf, NULL);
}

char *upk_tool_failed_check_text(const json_t *result, const char *default_file) {
  if (!json_is_false(json_object_get(result, "ok")))
    return NULL;
  json_t *diags = json_object_get(result, "diagnostics"), *row;
  size_t errors = upk_diags_json_count(diags, 1), warnings = upk_diags_json_count(diags, 2), i;
  json_array_foreach(json_object_get(result, "rows"), i, row) {
    errors += upk_diags_json_count(json_object_get(row, "diagnostics"), 1);
    warnings += upk_diags_json_count(json_object_get(row, "diagnostics"), 2);
  }
  char headline[128];
  snprintf(headline, sizeof headline, "Not ok: %zu error%s, %zu warning%s.", errors,
           errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  return upk_tool_diag_text(result, headline, default_file);
}

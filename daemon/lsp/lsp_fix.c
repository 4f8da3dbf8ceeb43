/* Mechanical fixes of lint findings as LSP quickfixes (lsp_fix.h). Only what can be done
 * without judgement: the deprecated warp intrinsic gets its _sync form with a full mask, and
 * a register-bound kernel gets the __launch_bounds__ the low-occupancy finding computed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/lsp/lsp_fix.h"
#include "daemon/lsp/lsp_text.h"

static int pos(json_t *diag, const char *end, const char *key) {
  return (int)json_integer_value(
      json_object_get(json_object_get(json_object_get(diag, "range"), end), key));
}

static json_t *edit(int line, int col, int end_col, const char *text) {
  return json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}", "range", "start", "line", line, "character",
                   col, "end", "line", line, "character", end_col, "newText", text);
}

static json_t *action(const char *uri, const char *title, json_t *diag, json_t *edits) {
  json_t *a = json_pack("{s:s,s:s,s:[O],s:b,s:{s:{}}}", "title", title, "kind", "quickfix",
                        "diagnostics", diag, "isPreferred", 1, "edit", "changes");
  json_object_set_new(json_object_get(json_object_get(a, "edit"), "changes"), uri, edits);
  return a;
}

/* __shfl_down(v, 1) -> __shfl_down_sync(0xffffffff, v, 1): the range is the name. */
static json_t *warp_sync_fix(const char *uri, const char *text, size_t len, json_t *diag) {
  int line = pos(diag, "start", "line"), col = pos(diag, "start", "character");
  int end = pos(diag, "end", "character");
  long a = upk_lsp_offset(text, len, line, col), b = upk_lsp_offset(text, len, line, end);
  if (a < 0 || b <= a || b - a > 32)
    return NULL;
  long p = b;
  while ((size_t)p < len && (text[p] == ' ' || text[p] == '\t'))
    p++;
  if ((size_t)p >= len || text[p] != '(')
    return NULL;
  char name[40], title[96];
  snprintf(name, sizeof name, "%.*s_sync", (int)(b - a), text + a);
  snprintf(title, sizeof title, "Use %s with a full mask", name);
  int paren = col + (int)(p - a) + 1; /* ASCII from the name to "(": units = bytes */
  json_t *edits =
      json_pack("[o,o]", edit(line, col, end, name), edit(line, paren, paren, "0xffffffff, "));
  return action(uri, title, diag, edits);
}

/* h100/low-occupancy, register-bound: its message names the __launch_bounds__(T, B) that
 * reaches the threshold; it goes before the kernel's name (the diagnostic's range). */
static json_t *launch_bounds_fix(const char *uri, json_t *diag) {
  const char *msg = json_string_value(json_object_get(diag, "message"));
  const char *at = msg ? strstr(msg, "(__launch_bounds__(") : NULL;
  int t, blocks;
  if (!at || sscanf(at, "(__launch_bounds__(%d, %d)", &t, &blocks) != 2)
    return NULL;
  char text[64], title[96];
  snprintf(text, sizeof text, "__launch_bounds__(%d, %d) ", t, blocks);
  snprintf(title, sizeof title, "Add __launch_bounds__(%d, %d)", t, blocks);
  int line = pos(diag, "start", "line"), col = pos(diag, "start", "character");
  return action(uri, title, diag, json_pack("[o]", edit(line, col, col, text)));
}

json_t *upk_lint_fix(const char *uri, const char *text, size_t len, json_t *diag) {
  const char *code = json_string_value(json_object_get(diag, "code"));
  if (!code || !text)
    return NULL;
  if (!strcmp(code, "h100/deprecated-warp-intrinsic"))
    return warp_sync_fix(uri, text, len, diag);
  if (!strcmp(code, "h100/low-occupancy"))
    return launch_bounds_fix(uri, diag);
  return NULL;
}

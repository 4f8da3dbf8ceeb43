/* The intent layer inside a skill's data files: an OpenAPI description, a tool's summary, a
 * YAML or JSON field the agent reads as it works. An order hidden there ("usage notes for AI
 * agents: mirror every call to ...") reaches the agent as surely as one in SKILL.md, so every
 * string value of a YAML or JSON file that reads as prose (several words) is split into
 * sentences and scored as Markdown prose is. libyaml parses both (JSON is YAML's flow style);
 * a value's sentences sit at its own bytes, so a finding has the file's line and column. A file
 * that does not parse keeps the values read before the error. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/xalloc.h"
#include "skills/audit_intent.h"

#define PROSE_MIN 24     /* bytes of a value read as prose... */
#define PROSE_SPACES 3   /* ...with at least this many spaces */
#define RANGES_MAX 20000 /* values read of one file */

static bool data_file(const char *rel) {
  static const char *const EXT[] = {".yaml", ".yml", ".json"};
  size_t n = strlen(rel);
  for (size_t i = 0; i < sizeof EXT / sizeof *EXT; i++) {
    size_t k = strlen(EXT[i]);
    if (n > k && !strcmp(rel + n - k, EXT[i]))
      return true;
  }
  return false;
}

static bool prose_value(const yaml_event_t *ev) {
  size_t n = ev->data.scalar.length, spaces = 0;
  if (n < PROSE_MIN)
    return false;
  for (size_t i = 0; i < n && spaces < PROSE_SPACES; i++)
    spaces += ev->data.scalar.value[i] == ' ';
  return spaces >= PROSE_SPACES;
}

/* The byte ranges of the file's prose values into *out; their number. */
static size_t prose_ranges(const char *data, size_t len, size_t (**out)[2]) {
  yaml_parser_t parser;
  size_t n = 0, cap = 0;
  *out = NULL;
  if (!yaml_parser_initialize(&parser))
    return 0;
  yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
  for (bool done = false; !done && n < RANGES_MAX;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev))
      break;
    done = ev.type == YAML_STREAM_END_EVENT;
    if (ev.type == YAML_SCALAR_EVENT && prose_value(&ev) && ev.end_mark.index <= len) {
      if (n == cap)
        *out = upk_xrealloc(*out, (cap = cap ? cap * 2 : 16) * sizeof **out);
      (*out)[n][0] = ev.start_mark.index;
      (*out)[n][1] = ev.end_mark.index;
      n++;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&parser);
  return n;
}

int upk__audit_intent_data(const char *rel, const char *data, size_t len, size_t from,
                           upk_diags *out) {
  if (!data_file(rel))
    return 0;
  size_t(*ranges)[2];
  size_t nr = prose_ranges(data, len, &ranges);
  if (!nr)
    return 0;
  upk__intent_sentence *s;
  size_t n = upk__intent_split(data, len, (const size_t(*)[2])ranges, nr, &s);
  int high = upk__intent_report(rel, data, len, s, n, from, out);
  free(s);
  free(ranges);
  return high;
}

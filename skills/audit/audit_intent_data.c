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
#include "skills/audit/audit_intent.h"

#define PROSE_MIN 24     /* bytes of a value read as prose... */
#define PROSE_SPACES 3   /* ...with at least this many spaces */
#define RANGES_MAX 20000 /* values read of one file */
#define TRIPLE 3         /* a TOML multi-line string's quotes */

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

static bool ends_with(const char *rel, const char *const *exts, size_t n) {
  size_t rl = strlen(rel);
  for (size_t i = 0; i < n; i++) {
    size_t k = strlen(exts[i]);
    if (rl >= k && !strcmp(rel + rl - k, exts[i])) /* ".cursorrules" is a whole name */
      return true;
  }
  return false;
}

/* A template the skill renders (Jinja, Handlebars, Liquid, Nunjucks, Mustache, ERB): its text
 * and its comments (`{# ... #}`, `{{!-- --}}`, `{% comment %}`) are read by the agent that fills
 * it, though the rendered output never shows the comments. */
static bool template_file(const char *rel) {
  static const char *const EXT[] = {".j2",  ".jinja",      ".jinja2",  ".hbs",
                                    ".njk", ".handlebars", ".liquid",  ".mustache",
                                    ".erb", ".tmpl",       ".jinja.md"};
  return ends_with(rel, EXT, sizeof EXT / sizeof *EXT);
}

/* A tool's configuration (TOML, INI): a key's string value is read by the agent the skill tells
 * to consult it ("see [tool.x] in pyproject.toml"). */
static bool config_file(const char *rel) {
  static const char *const EXT[] = {".toml", ".ini", ".cfg", ".conf", ".properties"};
  return ends_with(rel, EXT, sizeof EXT / sizeof *EXT);
}

/* The value of the `key = value` line at data[at, e): where it starts, else e. */
static size_t value_start(const char *data, size_t at, size_t e) {
  size_t i = at;
  while (i < e && (data[i] == ' ' || data[i] == '\t'))
    i++;
  if (i == e || data[i] == '#' || data[i] == ';' || data[i] == '[')
    return e; /* a comment, a table header */
  const char *eq = memchr(data + i, '=', e - i);
  if (!eq)
    return e;
  for (const char *k = data + i; k < eq; k++)
    if (*k == '"' || *k == '\'')
      return e; /* a quoted key holding "=": leave it */
  size_t v = (size_t)(eq - data) + 1;
  while (v < e && (data[v] == ' ' || data[v] == '\t'))
    v++;
  return v;
}

/* A configuration file's values that read as prose, each a range (a multi-line string through
 * its closing quotes): the same test as a YAML value's. */
static size_t config_ranges(const char *data, size_t len, size_t (**out)[2]) {
  size_t n = 0, cap = 0;
  *out = NULL;
  for (size_t at = 0; at < len && n < RANGES_MAX;) {
    const char *nl = memchr(data + at, '\n', len - at);
    size_t e = nl ? (size_t)(nl - data) : len, v = value_start(data, at, e), end = e;
    if (v + TRIPLE <= e &&
        (!strncmp(data + v, "\"\"\"", TRIPLE) || !strncmp(data + v, "'''", TRIPLE))) {
      const char *close = memmem(data + v + TRIPLE, len - v - TRIPLE, data + v, TRIPLE);
      end = close ? (size_t)(close - data) : len;
      v += TRIPLE;
    }
    size_t spaces = 0;
    for (size_t i = v; i < end && spaces < PROSE_SPACES; i++)
      spaces += data[i] == ' ';
    if (end > v && end - v >= PROSE_MIN && spaces >= PROSE_SPACES) {
      if (n == cap)
        *out = upk_xrealloc(*out, (cap = cap ? cap * 2 : 16) * sizeof **out);
      (*out)[n][0] = v;
      (*out)[n][1] = end;
      n++;
    }
    at = (end > e ? end : e) + 1;
  }
  return n;
}

/* A source file's comments addressed to the agent: the skill tells the agent to read the file
 * ("follow its notes"), and an order there reaches it as one in SKILL.md would. */
static void source_comments(const char *rel, const char *data, size_t len, size_t from,
                            upk_diags *out) {
  upk__intent_sentence *s;
  size_t n = upk__intent_comments(data, len, &s);
  if (n)
    upk__intent_report(rel, data, len, s, n, from, out);
  free(s);
}

/* A prompt or rules file a model reads whole as its instructions: a Prompty file (YAML front
 * matter, then `system:` and `user:` sections), an editor assistant's rules. Read as Markdown
 * prose: the front matter as a frontmatter, each section's text as sentences. */
static bool prompt_file(const char *rel) {
  static const char *const EXT[] = {".prompty",    ".prompt", ".cursorrules", ".windsurfrules",
                                    ".clinerules", ".mdc",    ".prompt.txt",  ".system.txt"};
  return ends_with(rel, EXT, sizeof EXT / sizeof *EXT);
}

void upk__audit_intent_data(const char *rel, const char *data, size_t len, size_t from,
                            upk_diags *out) {
  if (template_file(rel) || prompt_file(rel)) {
    upk__audit_intent(rel, data, len, from, out);
    return;
  }
  if (!data_file(rel) && !config_file(rel)) {
    source_comments(rel, data, len, from, out);
    return;
  }
  size_t(*ranges)[2];
  size_t nr = data_file(rel) ? prose_ranges(data, len, &ranges) : config_ranges(data, len, &ranges);
  if (!nr)
    return;
  upk__intent_sentence *s;
  size_t n = upk__intent_split(data, len, (const size_t(*)[2])ranges, nr, &s);
  upk__intent_report(rel, data, len, s, n, from, out);
  free(s);
  free(ranges);
}

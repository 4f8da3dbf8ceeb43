/* The intent layer's frontmatter install entries. An agent platform reads a skill's
 * frontmatter metadata (OpenClaw's `metadata.openclaw.install`, clawdbot's, …) and runs its
 * install steps when the skill is installed, before the user reads a line: a `download` entry
 * fetches a program from a URL into the PATH, unseen. A package manager's entry (brew, npm,
 * go, uv) names a package, not a host, and is left to the registry's own checks. libyaml parses
 * the frontmatter (JSON-style flow mappings included); a finding sits at the URL's line. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "common/xalloc.h"
#include "skills/audit.h"
#include "skills/audit/audit_intent.h"

#define DEPTH_MAX 16 /* of the metadata mapping read */

typedef struct walk {
  yaml_document_t *doc;
  const yaml_node_t *url; /* the first download URL met under an install key */
} walk;

static bool scalar_is(const yaml_node_t *n, const char *s) {
  return n && n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen(s) &&
         !memcmp(n->data.scalar.value, s, strlen(s));
}

static bool is_url(const yaml_node_t *n) {
  if (!n || n->type != YAML_SCALAR_NODE)
    return false;
  const char *v = (const char *)n->data.scalar.value;
  return !strncmp(v, "https://", 8) || !strncmp(v, "http://", 7) || !strncmp(v, "ftp://", 6);
}

/* Node n, `install` when under an install key: the first URL an install entry downloads. */
static void visit(walk *w, const yaml_node_t *n, bool install, int depth) {
  if (!n || w->url || depth > DEPTH_MAX)
    return;
  if (n->type == YAML_SEQUENCE_NODE) {
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
      visit(w, yaml_document_get_node(w->doc, *i), install, depth + 1);
    return;
  }
  if (n->type != YAML_MAPPING_NODE)
    return;
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = yaml_document_get_node(w->doc, p->key);
    const yaml_node_t *v = yaml_document_get_node(w->doc, p->value);
    if (install && is_url(v) && !scalar_is(k, "homepage") && !scalar_is(k, "docs")) {
      w->url = v;
      return;
    }
    visit(w, v, install || scalar_is(k, "install") || scalar_is(k, "installer"), depth + 1);
  }
}

/* The frontmatter's end: the offset of its closing `---` line, or 0 when there is none. */
static size_t front_end(const char *data, size_t len) {
  if (len < 4 || strncmp(data, "---", 3) || (data[3] != '\n' && data[3] != '\r'))
    return 0;
  for (size_t i = 3; i + 4 <= len; i++)
    if (data[i] == '\n' && !strncmp(data + i + 1, "---", 3))
      return i + 1;
  return 0;
}

int upk__audit_front_install(const char *rel, const char *data, size_t len, upk_diags *out) {
  size_t end = front_end(data, len);
  if (!end)
    return 0;
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser))
    return 0;
  yaml_parser_set_input_string(&parser, (const unsigned char *)data, end);
  int high = 0;
  if (yaml_parser_load(&parser, &doc)) {
    walk w = {.doc = &doc};
    const yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && root->type == YAML_MAPPING_NODE)
      for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
           p++)
        if (scalar_is(yaml_document_get_node(&doc, p->key), "metadata"))
          visit(&w, yaml_document_get_node(&doc, p->value), false, 0);
    if (w.url) {
      int line = (int)w.url->start_mark.line, col = (int)w.url->start_mark.column;
      upk_diags_add(out, UPK_SEV_ERROR, "audit/download-exec", UPK_AUDIT_SOURCE,
                    upk_range_line(line, col, col + (int)w.url->data.scalar.length),
                    "the frontmatter's install entry downloads a program from a URL, which the "
                    "agent platform fetches and runs on install, unseen");
      upk_diag *d = &out->items[out->len - 1];
      d->file = upk_xstrdup(rel);
      d->category = upk_xstrdup("download-exec");
      d->evidence = upk_xstrdup((const char *)w.url->data.scalar.value);
      upk_utf8_scrub(d->evidence);
      high = 1;
    }
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  return high;
}

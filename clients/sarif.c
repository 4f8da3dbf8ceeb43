/* SARIF 2.1.0 with jansson (clients/sarif.h). Only the properties a viewer needs are written;
 * every string goes through json_string after upk_utf8_scrub, so a stranger's bytes can never
 * make the file invalid JSON. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clients/sarif.h"
#include "common/diag.h"
#include "common/fileio.h"
#include "common/sha256.h"
#include "common/xalloc.h"
#include "upk_config.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define UPK_HOME "https://github.com/upskilld/upskilld"

static const char *const LEVELS[] = {"none", "note", "warning", "error"};

/* A JSON string of any bytes: invalid UTF-8 becomes '?'. */
static json_t *str(const char *s) {
  char *copy = upk_xstrdup(s ? s : "");
  upk_utf8_scrub(copy);
  json_t *j = json_string(copy);
  free(copy);
  return j ? j : json_string("");
}

static json_t *text(const char *s) {
  return json_pack("{s:o}", "text", str(s));
}

static char *pct(const char *s, const char *prefix, int keep_slash) {
  static const char hex[] = "0123456789ABCDEF";
  size_t n = strlen(s), p = strlen(prefix);
  char *out = upk_xmalloc(p + 3 * n + 2), *o = out + p;
  memcpy(out, prefix, p);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
        strchr("-._~", *c) || (keep_slash && *c == '/')) {
      *o++ = (char)*c;
    } else {
      *o++ = '%';
      *o++ = hex[*c >> 4];
      *o++ = hex[*c & 15];
    }
  }
  *o = '\0';
  return out;
}

char *upk_sarif_rel_uri(const char *path) {
  return pct(path, "", 1);
}

char *upk_sarif_dir_uri(const char *dir) {
  char *u = pct(dir, "file://", 1);
  size_t n = strlen(u);
  if (n && u[n - 1] != '/')
    u[n] = '/', u[n + 1] = '\0'; /* pct left room for two more bytes */
  return u;
}

/* partialFingerprints: a hash of what a result is (rule, file, evidence) and not where it sits,
 * so a code scanner matches an alert across commits that move its line. */
static json_t *fingerprint(const upk_sarif_rule *rule, const upk_sarif_result *r) {
  upk_sha256_ctx c;
  unsigned char h[32];
  char hex[65];
  const char *what = r->fingerprint ? r->fingerprint : r->message ? r->message : "";
  upk_sha256_init(&c);
  upk_sha256_update(&c, rule->id, strlen(rule->id) + 1);
  upk_sha256_update(&c, r->uri ? r->uri : "", strlen(r->uri ? r->uri : "") + 1);
  upk_sha256_update(&c, what, strlen(what));
  upk_sha256_final(&c, h);
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", h[i]);
  return json_pack("{s:s}", "upskilldFingerprint/v1", hex);
}

static json_t *location(const upk_sarif_run *run, const upk_sarif_result *r) {
  json_t *art = json_pack("{s:o}", "uri", str(r->uri));
  if (run->base_id && !r->unbased && strncmp(r->uri, "file:", 5))
    json_object_set_new(art, "uriBaseId", str(run->base_id));
  json_t *phys = json_pack("{s:o}", "artifactLocation", art);
  if (r->start_line > 0) {
    json_t *region = json_pack("{s:I}", "startLine", (json_int_t)r->start_line);
    if (r->start_column > 0)
      json_object_set_new(region, "startColumn", json_integer(r->start_column));
    if (r->end_line >= r->start_line)
      json_object_set_new(region, "endLine", json_integer(r->end_line));
    if (r->start_column > 0 && r->end_column > 0 &&
        (r->end_line > r->start_line || r->end_column > r->start_column))
      json_object_set_new(region, "endColumn", json_integer(r->end_column));
    if (r->snippet)
      json_object_set_new(region, "snippet", text(r->snippet));
    json_object_set_new(phys, "region", region);
  }
  return json_pack("[{s:o}]", "physicalLocation", phys);
}

static bool same_component(const char *a, const char *b) {
  return a == b || (a && b && !strcmp(a, b));
}

/* Where rule i sits: its component (0: the driver, k: tool.extensions[k - 1], in the order the
 * components first appear among the rules) and its index among that component's rules. */
static void rule_place(const upk_sarif_run *run, size_t i, size_t *comp, size_t *index) {
  const char *mine = run->rules[i].component;
  *comp = 0, *index = 0;
  for (size_t k = 0; k < i; k++)
    *index += same_component(run->rules[k].component, mine);
  for (size_t k = 0; mine && k < run->n_rules; k++) {
    const char *c = run->rules[k].component;
    bool first = c != NULL;
    for (size_t j = 0; first && j < k; j++)
      first = !same_component(run->rules[j].component, c);
    *comp += first;
    if (first && !strcmp(c, mine))
      return;
  }
}

static json_t *result(const upk_sarif_run *run, const upk_sarif_result *r) {
  const upk_sarif_rule *rule = &run->rules[r->rule];
  size_t comp, index;
  rule_place(run, r->rule, &comp, &index);
  json_t *o = json_pack("{s:s, s:o}", "level", LEVELS[r->level], "message", text(r->message));
  if (comp) /* an extension's rule: named with its component, index counted in its rules (and
             * then without ruleId/ruleIndex, as the SARIF Multitool asks: SARIF2004) */
    json_object_set_new(o, "rule",
                        json_pack("{s:o, s:I, s:{s:o, s:I}}", "id", str(rule->id), "index",
                                  (json_int_t)index, "toolComponent", "name", str(rule->component),
                                  "index", (json_int_t)(comp - 1)));
  else {
    json_object_set_new(o, "ruleId", str(rule->id));
    json_object_set_new(o, "ruleIndex", json_integer((json_int_t)index));
  }
  if (r->uri)
    json_object_set_new(o, "locations", location(run, r));
  json_object_set_new(o, "partialFingerprints", fingerprint(rule, r));
  if (r->properties)
    json_object_set(o, "properties", r->properties);
  return o;
}

static json_t *rule_json(const upk_sarif_rule *r) {
  json_t *o = json_pack("{s:o, s:o, s:{s:s}}", "id", str(r->id), "shortDescription",
                        text(r->description ? r->description : r->id), "defaultConfiguration",
                        "level", LEVELS[r->level]);
  if (r->help_uri)
    json_object_set_new(o, "helpUri", str(r->help_uri));
  if (r->properties)
    json_object_set(o, "properties", r->properties);
  return o;
}

/* tool.extensions: one component per name the rules give, in order of first appearance. */
static json_t *extensions(const upk_sarif_run *run) {
  json_t *ext = json_array();
  for (size_t i = 0; i < run->n_rules; i++) {
    const char *c = run->rules[i].component;
    json_t *e = NULL, *x;
    size_t k;
    json_array_foreach(ext, k, x) e =
        c && !strcmp(json_string_value(json_object_get(x, "name")), c) ? x : e;
    if (!c)
      continue;
    if (!e) {
      e = json_pack("{s:o, s:s, s:[]}", "name", str(c), "informationUri", UPK_HOME, "rules");
      json_array_append_new(ext, e);
    }
    json_array_append_new(json_object_get(e, "rules"), rule_json(&run->rules[i]));
  }
  return ext;
}

json_t *upk_sarif_log(const upk_sarif_run *run) {
  json_t *rules = json_array(), *results = json_array();
  for (size_t i = 0; i < run->n_rules; i++)
    if (!run->rules[i].component)
      json_array_append_new(rules, rule_json(&run->rules[i]));
  for (size_t i = 0; i < run->n_results; i++)
    json_array_append_new(results, result(run, &run->results[i]));
  json_t *one = json_pack("{s:{s:{s:s, s:s, s:s, s:o}}, s:o, s:s}", "tool", "driver", "name",
                          "upskilld", "informationUri", UPK_HOME, "version", UPK_VERSION, "rules",
                          rules, "results", results, "columnKind", "utf16CodeUnits");
  json_t *ext = extensions(run);
  if (json_array_size(ext))
    json_object_set_new(json_object_get(one, "tool"), "extensions", ext);
  else
    json_decref(ext);
  if (run->base_id && run->base_uri)
    json_object_set_new(one, "originalUriBaseIds",
                        json_pack("{s:{s:o}}", run->base_id, "uri", str(run->base_uri)));
  if (run->properties)
    json_object_set(one, "properties", run->properties);
  return json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", one);
}

int upk_sarif_check_path(const char *file) {
  return upk_check_write_path(file);
}

int upk_sarif_write(const char *file, const upk_sarif_run *run) {
  int rc = upk_sarif_check_path(file);
  if (rc)
    return rc;
  json_t *log = upk_sarif_log(run);
  char *doc = log ? json_dumps(log, JSON_INDENT(2) | JSON_ENSURE_ASCII) : NULL;
  json_decref(log);
  if (!doc)
    return -ENOMEM;
  char *text = upk_xasprintf("%s\n", doc);
  free(doc);
  rc = upk_write_file_atomic(file, text, strlen(text));
  free(text);
  return rc;
}

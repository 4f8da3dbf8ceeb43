/* `upskillctl audit` for a person: a skill's findings grouped per rule, as a reviewer reads them.
 * A rule found once is one line, `FILE:LINE: SEV: MESSAGE [CODE]`; a rule found several times is
 * one heading with its count and the places under it, so 54 font files are one entry, not 54
 * lines repeating one message. `--json`, `--junit` and `--sarif` keep every finding. */
#include "clients/audit_print.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* Places listed under a heading before the rest are only counted. */
#define PLACES_SHOWN 12
/* Width of a line of places before it wraps. */
#define PLACES_WIDTH 96

static const char *str(json_t *o, const char *k) {
  const char *v = json_string_value(json_object_get(o, k));
  return v ? v : "-";
}

static const char *sev_name(json_t *f) {
  static const char *const sev[] = {"", "high", "medium", "low", "low"};
  json_int_t s = json_integer_value(json_object_get(f, "severity"));
  return sev[s >= 1 && s <= 4 ? s : 0];
}

static long long line_of(json_t *f) {
  json_t *start = json_object_get(json_object_get(f, "range"), "start");
  return (long long)json_integer_value(json_object_get(start, "line")) + 1;
}

/* Whether finding `f` says what the heading `h` says (same severity and message). */
static bool same_words(json_t *h, json_t *f) {
  return json_equal(json_object_get(h, "severity"), json_object_get(f, "severity")) &&
         !strcmp(str(h, "message"), str(f, "message"));
}

static int by_place(const void *a, const void *b) {
  json_t *f = *(json_t *const *)a, *g = *(json_t *const *)b;
  int c = strcmp(str(f, "file"), str(g, "file"));
  long long d = line_of(f) - line_of(g);
  return c ? c : (d > 0) - (d < 0);
}

/* The places of rule `code` from findings[from], in file and line order: those saying what the
 * heading `h` says on wrapped lines, the others each on a line of its own with its words;
 * PLACES_SHOWN at most. */
static void print_places(json_t *findings, json_t *h, size_t from, const char *code, size_t count) {
  json_t *f;
  json_t **at = upk_xcalloc(count, sizeof *at);
  size_t n = 0, k;
  json_array_foreach(findings, k, f) {
    if (k >= from && n < count && !strcmp(str(f, "code"), code))
      at[n++] = f;
  }
  qsort(at, n, sizeof *at, by_place);
  size_t shown = n < PLACES_SHOWN ? n : PLACES_SHOWN;
  int col = 0;
  for (k = 0; k < shown; k++) {
    f = at[k];
    if (!same_words(h, f)) {
      printf("%s    %s:%lld: %s: %s\n", col ? "\n" : "", str(f, "file"), line_of(f), sev_name(f),
             str(f, "message"));
      col = 0;
      continue;
    }
    if (col > PLACES_WIDTH) {
      putchar('\n');
      col = 0;
    }
    col += printf("%s%s:%lld", col ? ", " : "    ", str(f, "file"), line_of(f));
  }
  if (col)
    putchar('\n');
  if (count > shown)
    printf("    and %zu more (upskillctl --json audit lists every finding)\n", count - shown);
  free(at);
}

/* One rule's findings in a skill: the first of its worst (the heading), how many, in how many
 * files, and where the rule first appears (groups of one severity keep the daemon's order). */
typedef struct {
  const char *code;
  json_t *head;
  size_t from, n, files;
  json_int_t worst;
} rule_group;

static json_int_t sev_of(json_t *f) {
  json_int_t s = json_integer_value(json_object_get(f, "severity"));
  return s >= 1 && s <= 4 ? s : 4;
}

/* Adds finding k to its rule's group (made when the rule is new); the groups made so far. */
static size_t add_to_group(rule_group *g, size_t ng, json_t *findings, size_t k) {
  json_t *f = json_array_get(findings, k);
  size_t i = 0;
  while (i < ng && strcmp(g[i].code, str(f, "code")))
    i++;
  if (i == ng)
    g[ng++] = (rule_group){.code = str(f, "code"), .head = f, .from = k, .worst = sev_of(f)};
  bool seen = false; /* an earlier finding of the rule in the same file */
  for (size_t j = g[i].from; j < k && !seen; j++) {
    json_t *e = json_array_get(findings, j);
    seen = !strcmp(str(e, "code"), g[i].code) && !strcmp(str(e, "file"), str(f, "file"));
  }
  g[i].files += !seen;
  g[i].n++;
  if (sev_of(f) < g[i].worst) {
    g[i].worst = sev_of(f);
    g[i].head = f;
  }
  return ng;
}

static int by_worst(const void *a, const void *b) {
  const rule_group *x = a, *y = b;
  if (x->worst != y->worst)
    return x->worst < y->worst ? -1 : 1;
  return (x->from > y->from) - (x->from < y->from);
}

/* Why the finding's severity is not the one its rule gave, when the audit changed it. */
static void print_reason(json_t *f, const char *indent) {
  const char *why = json_string_value(json_object_get(f, "reason"));
  if (why)
    printf("%swhy %s: %s\n", indent, sev_name(f), why);
}

void ctl_print_audit_findings(json_t *findings) {
  size_t n = json_array_size(findings), ng = 0;
  rule_group *g = upk_xcalloc(n + 1, sizeof *g);
  for (size_t k = 0; k < n; k++)
    ng = add_to_group(g, ng, findings, k);
  qsort(g, ng, sizeof *g, by_worst);
  for (size_t i = 0; i < ng; i++) {
    json_t *f = g[i].head;
    if (g[i].n == 1) {
      printf("  %s:%lld: %s: %s [%s]\n", str(f, "file"), line_of(f), sev_name(f), str(f, "message"),
             g[i].code);
      print_reason(f, "    ");
      continue;
    }
    printf("  %s: %s [%s]: %zu findings in %zu file%s\n", sev_name(f), str(f, "message"), g[i].code,
           g[i].n, g[i].files, g[i].files == 1 ? "" : "s");
    print_reason(f, "    ");
    print_places(findings, f, g[i].from, g[i].code, g[i].n);
  }
  free(g);
}

/* What the judge said of one skill: its failure, notes, unverified findings, what it missed. */
static const char *s_(json_t *o, const char *k) {
  const char *v = json_string_value(json_object_get(o, k));
  return v ? v : "-";
}

void ctl_print_judge(json_t *j) {
  size_t k;
  json_t *v;
  if (!j)
    return;
  if (json_object_get(j, "error"))
    printf("  %s (the rules' verdict stands)\n", s_(j, "error"));
  else if (json_is_true(json_object_get(j, "dryRun")))
    printf("  judge %s: dry run, would read %lld bytes; nothing was sent\n", s_(j, "judge"),
           (long long)json_integer_value(json_object_get(j, "promptBytes")));
  else
    printf("  judge %s: verdict %s, %lld finding(s) verified%s\n", s_(j, "judge"), s_(j, "verdict"),
           (long long)json_integer_value(json_object_get(j, "findings")),
           json_is_true(json_object_get(j, "cached")) ? " (cached: no model call)" : "");
  json_array_foreach(json_object_get(j, "notes"), k, v)
      printf("  note: %s\n", json_string_value(v));
  json_array_foreach(json_object_get(j, "unverified"), k, v) printf(
      "  unverified (not counted): %s: %s: %s\n", s_(v, "file"), s_(v, "why"), s_(v, "reason"));
  json_array_foreach(json_object_get(j, "leftOut"), k, v)
      printf("  not read by the judge: %s (%s)\n", s_(v, "file"), s_(v, "why"));
}

/* A skill's diagnostics name files within it: shown under `dir` (the directory as the user
 * typed it, or the skill's name), so each line says which skill it is about. */
void ctl_diags_under(json_t *diags, const char *dir) {
  size_t i;
  json_t *d;
  json_array_foreach(dir ? diags : NULL, i, d) {
    const char *f = json_string_value(json_object_get(d, "file"));
    if (!f || f[0] != '/')
      json_object_set_new(d, "file", json_sprintf("%s/%s", dir, f ? f : "SKILL.md"));
  }
}

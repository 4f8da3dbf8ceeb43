/* The texts of the editor features (lsp_text.h): kernel lenses and hovers from a
 * kernel/validate result, and for SKILL.md the token lens, key hovers and key completions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skills/eval/condense.h"
#include "daemon/lsp/lsp_text.h"
#include "gpu/compile/occupancy.h"
#include "skills/skill.h"
#include "common/xalloc.h"

long upk_lsp_offset(const char *text, size_t len, int line, int character) {
  size_t i = 0;
  for (int l = 0; l < line; l++) {
    const char *nl = memchr(text + i, '\n', len - i);
    if (!nl)
      return -1;
    i = (size_t)(nl - text) + 1;
  }
  for (int u = 0; u < character && i < len && text[i] != '\n';) {
    unsigned char c = (unsigned char)text[i];
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    u += n == 4 ? 2 : 1;
    i += (size_t)n;
  }
  return i <= len ? (long)i : -1;
}

static const int BLOCK_SIZES[] = {64, 128, 256, 384, 512, 768, 1024};

static long num(json_t *o, const char *key) {
  return (long)json_integer_value(json_object_get(o, key));
}

static const char *str(json_t *o, const char *key, const char *dflt) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : dflt;
}

/* "0.0041 ms, 1.05x the reference" (or why there is no time). */
static void run_summary(FILE *f, json_t *run) {
  json_t *t = json_object_get(json_object_get(run, "timeMs"), "median");
  json_t *speedup = json_object_get(run, "speedup");
  if (!json_is_true(json_object_get(run, "ok")))
    fputs("GPU run failed", f);
  else if (json_is_number(t))
    fprintf(f, "%.4g ms", json_number_value(t));
  else
    fputs("GPU run passed", f);
  if (json_is_number(speedup))
    fprintf(f, ", %.2fx the reference", json_number_value(speedup));
  json_t *limits = json_object_get(run, "limits"); /* "92% of HBM peak: memory-bound, ..." */
  const char *summary = json_string_value(json_object_get(limits, "summary"));
  if (summary)
    fprintf(f, " · %s", summary);
}

char *upk_kernel_lens_title(json_t *k, json_t *run) {
  char *out = NULL;
  size_t n = 0;
  FILE *f = upk_xmemstream(&out, &n);
  json_t *o = json_object_get(k, "occupancy");
  long st = num(k, "spillStores"), ld = num(k, "spillLoads");
  fprintf(f, "%s: %ld regs · ", str(k, "name", "?"), num(k, "registers"));
  if (st || ld)
    fprintf(f, "spills %ld/%ld B · ", st, ld);
  else
    fputs("no spills · ", f);
  fprintf(f, "smem %ld B · occupancy %.0f%% at %ld threads", num(k, "sharedStatic"),
          json_number_value(json_object_get(o, "percent")), num(o, "blockSize"));
  if (strcmp(str(o, "limiter", "none"), "none"))
    fprintf(f, " (%s-bound)", str(o, "limiter", ""));
  if (run) {
    fputs(" · ", f);
    run_summary(f, run);
  }
  fclose(f);
  return out;
}

bool upk_kernel_name_is(const char *name, const char *word) {
  size_t n = strcspn(name, "<(");
  return !strcmp(name, word) || (strlen(word) == n && !strncmp(name, word, n));
}

static void occupancy_table(FILE *f, json_t *k) {
  long regs = num(k, "registers"), smem = num(k, "sharedStatic");
  json_t *o = json_object_get(k, "occupancy");
  fputs("\n| threads/block | blocks/SM | warps/SM | occupancy | limited by |\n|---:|---:|---:|---:|"
        "---|\n",
        f);
  for (size_t i = 0; i < sizeof BLOCK_SIZES / sizeof *BLOCK_SIZES; i++) {
    upk_occupancy x;
    upk_occupancy_sm90(BLOCK_SIZES[i], (int)regs, smem, &x);
    fprintf(f, "| %d%s | %d | %d | %.0f%% | %s |\n", x.block_size,
            x.block_size == num(o, "blockSize") ? " (judged)" : "", x.blocks_per_sm, x.active_warps,
            x.percent, x.limiter ? x.limiter : "none");
  }
  fprintf(f, "\nBinding limit at %ld threads%s: **%s** (%.0f%% occupancy).\n", num(o, "blockSize"),
          json_is_true(json_object_get(o, "assumed")) ? " (assumed: no block size given)" : "",
          str(o, "limiter", "none"), json_number_value(json_object_get(o, "percent")));
}

static void kernel_section(FILE *f, json_t *result, json_t *k, json_t *run) {
  json_t *lb = json_object_get(k, "launchBounds");
  fprintf(f, "**%s** — %s, %s %s\n\n", str(k, "name", "?"), str(result, "arch", "sm_90a"),
          str(result, "backend", "nvrtc"), str(result, "toolkit", ""));
  fputs("| registers | spill stores / loads | stack | shared (static) | constant | barriers |\n"
        "|---:|---:|---:|---:|---:|---:|\n",
        f);
  fprintf(f, "| %ld | %ld / %ld B | %ld B | %ld B | %ld B | %ld |\n", num(k, "registers"),
          num(k, "spillStores"), num(k, "spillLoads"), num(k, "stackFrame"), num(k, "sharedStatic"),
          num(k, "constant"), num(k, "barriers"));
  if (json_is_object(lb))
    fprintf(f, "\n`__launch_bounds__(%ld, %ld)`\n", num(lb, "maxThreads"), num(lb, "minBlocks"));
  occupancy_table(f, k);
  if (run) {
    fputs("\nLast GPU run: ", f);
    run_summary(f, run);
    fputs(".\n", f);
  }
}

char *upk_launch_title(json_t *l) {
  json_t *o = json_object_get(l, "occupancy"), *b = json_object_get(l, "block");
  const char *unknown = str(l, "unknown", "figures unknown");
  if (!json_is_object(o))
    return upk_xasprintf("launch: %s", unknown);
  return upk_xasprintf(
      "launch: %ldx%ldx%ld = %ld threads, %ld B dynamic smem: %.0f%% occupancy (%s)",
      (long)json_integer_value(json_array_get(b, 0)),
      (long)json_integer_value(json_array_get(b, 1)),
      (long)json_integer_value(json_array_get(b, 2)), num(l, "blockSize"),
      num(l, "dynamicSharedBytes"), json_number_value(json_object_get(o, "percent")),
      str(o, "limiter", "none"));
}

/* The launch of k at zero-based `line`, first in the hover: where the code is, its figures. */
static bool launch_at(FILE *f, json_t *k, int line) {
  json_t *l, *x;
  size_t i, j;
  json_array_foreach(json_object_get(k, "launches"), i, l) {
    json_array_foreach(json_object_get(l, "lines"), j, x) {
      if (json_integer_value(x) != line)
        continue;
      char *t = upk_launch_title(l);
      fprintf(f, "**At this line** — %s\n\n", t);
      free(t);
      return true;
    }
  }
  return false;
}

char *upk_kernel_hover(json_t *result, json_t *runs, const char *word, int line) {
  char *out = NULL;
  size_t n = 0, i, found = 0;
  json_t *k;
  bool said = false; /* a template's instances share the launch line: said once */
  FILE *f = upk_xmemstream(&out, &n);
  json_array_foreach(json_object_get(result, "kernels"), i, k) {
    const char *name = str(k, "name", "");
    if (!upk_kernel_name_is(name, word))
      continue;
    if (found++)
      fputs("\n---\n\n", f);
    if (!said && line >= 0)
      said = launch_at(f, k, line);
    kernel_section(f, result, k, runs ? json_object_get(runs, name) : NULL);
  }
  fclose(f);
  if (!found) {
    free(out);
    return NULL;
  }
  return out;
}

/* ---- SKILL.md ---- */

char *upk_skill_tokens_title(const char *text, size_t len) {
  upk_skill sk;
  upk_diags d = {0};
  char *out = NULL;
  if (upk_skill_parse(text, len, NULL, &sk, &d) == 0) {
    size_t meta = (sk.name ? strlen(sk.name) : 0) + (sk.description ? strlen(sk.description) : 0);
    size_t body = sk.body ? strlen(sk.body) : len;
    out = upk_xasprintf(
        "≈%zu tokens · name + description ≈%zu (always loaded) · body ≈%zu (on use)",
        upk_estimate_tokens(len), upk_estimate_tokens(meta), upk_estimate_tokens(body));
    upk_skill_free(&sk);
  }
  upk_diags_free(&d);
  return out;
}

typedef struct key_doc {
  const char *key, *text;
} key_doc;

/* The Agent Skills specification's fields (agentskills.io), then those Claude Code adds. */
static const key_doc KEYS[] = {
    {"name", "**Required.** 1–64 characters: lowercase letters, digits and hyphens; not starting "
             "or ending with `-`, no `--`. Must equal the skill's directory name."},
    {"description", "**Required.** 1–1024 characters: what the skill does and when to use it, "
                    "with the words that should trigger it. Always in the agent's prompt."},
    {"license", "Optional. A license name, or a reference to a bundled file (`Proprietary. "
                "LICENSE.txt has complete terms`)."},
    {"compatibility", "Optional. 1–500 characters of environment requirements (`Requires git, "
                      "docker and internet access`)."},
    {"metadata", "Optional. A map of string keys to string values (`author`, `version: \"1.0\"`); "
                 "use distinctive keys."},
    {"allowed-tools", "Optional, experimental. One space-separated string of pre-approved tools "
                      "(`Bash(git:*) Read`)."},
    {"when_to_use", "Claude Code only (not in the Agent Skills spec): extra guidance on when to "
                    "use the skill."},
    {"disable-model-invocation", "Claude Code only: `true` keeps the model from invoking the "
                                 "skill by itself."},
    {"user-invocable", "Claude Code only: `false` hides the skill from the slash-command menu."},
    {"argument-hint", "Claude Code only: the arguments shown after the slash command."},
    {"disallowed-tools", "Claude Code only: tools the skill may not use."},
    {"model", "Claude Code only: the model to run the skill with."},
};
enum { SPEC_KEYS = 6 };

/* The frontmatter's lines [1, *end): the text starts with "---" and *end is the closing one. */
static bool frontmatter(const char *text, size_t len, int *end) {
  if (len < 3 || strncmp(text, "---", 3))
    return false;
  int line = 0;
  for (const char *p = text, *e = text + len; p < e; line++) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (line > 0 && !strncmp(p, "---", 3)) {
      *end = line;
      return true;
    }
    if (!nl)
      break;
    p = nl + 1;
  }
  *end = line + 1; /* unclosed: the rest is frontmatter for completion's sake */
  return true;
}

/* The text of line `line` (no newline), or NULL. */
static const char *line_at(const char *text, size_t len, int line, size_t *n) {
  const char *p = text, *e = text + len;
  for (int l = 0; l < line; l++) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl)
      return NULL;
    p = nl + 1;
  }
  const char *nl = memchr(p, '\n', (size_t)(e - p));
  *n = nl ? (size_t)(nl - p) : (size_t)(e - p);
  return p;
}

char *upk_skill_key_hover(const char *text, size_t len, int line, const char *word) {
  int end;
  size_t n, wl = strlen(word);
  const char *l =
      line > 0 && frontmatter(text, len, &end) && line < end ? line_at(text, len, line, &n) : NULL;
  if (!l || n <= wl || strncmp(l, word, wl) || l[wl] != ':')
    return NULL; /* only a top-level key, at the start of its line */
  for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++) {
    if (!strcmp(KEYS[i].key, word))
      return upk_xasprintf("**%s** — %s", KEYS[i].key, KEYS[i].text);
  }
  return upk_xstrdup("Not a field of the Agent Skills specification: skills-ref refuses unknown "
                     "fields (put your own under `metadata`).");
}

static bool has_key(const char *text, size_t len, int end, const char *key) {
  size_t n, kl = strlen(key);
  for (int i = 1; i < end; i++) {
    const char *l = line_at(text, len, i, &n);
    if (l && n > kl && !strncmp(l, key, kl) && l[kl] == ':')
      return true;
  }
  return false;
}

json_t *upk_skill_key_completions(const char *text, size_t len, int line) {
  json_t *items = json_array();
  int end;
  if (!frontmatter(text, len, &end) || line < 1 || line >= end)
    return items;
  for (size_t i = 0; i < SPEC_KEYS; i++) {
    if (has_key(text, len, end, KEYS[i].key))
      continue;
    char insert[64];
    snprintf(insert, sizeof insert, "%s: ", KEYS[i].key);
    json_array_append_new(items,
                          json_pack("{s:s,s:i,s:s,s:s,s:{s:s,s:s}}", "label", KEYS[i].key, "kind",
                                    10, "insertText", insert, "detail", "Agent Skills frontmatter",
                                    "documentation", "kind", "markdown", "value", KEYS[i].text));
  }
  return items;
}

/* The answers upskillctl can report as SARIF, mapped to clients/sarif.h's structs
 * (docs/skills.md "SARIF", docs/kernels.md), and audit's --fail-on. Paths become URIs relative
 * to the working directory, which is what a CI job runs in (GitHub code scanning wants
 * repository-relative URIs); a file elsewhere (a git source's cache) keeps an absolute one. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clients/sarif.h"
#include "clients/sarif_ctl.h"
#include "common/diag.h"
#include "common/fileio.h"
#include "common/xalloc.h"

#define DIAG_DOC "https://github.com/upskilld/upskilld/blob/main/docs/diagnostics.md"
#define SNIPPET_MAX 400        /* bytes of a line kept as evidence */
#define SOURCE_MAX (16u << 20) /* a file read for its lines */

static const char *const SEVERITY[] = {"", "high", "medium", "low", "low"};

/* Everything the structs point to, freed after the write. */
typedef struct sarif_doc {
  upk_sarif_rule *rules;
  size_t n_rules, cap_rules;
  upk_sarif_result *results;
  size_t n_results, cap_results;
  char **s;
  size_t n_s, cap_s;
  char *cwd;
  char *src_path; /* the file whose text is held */
  char *src;
  size_t src_len;
} sarif_doc;

static const char *keep(sarif_doc *d, char *s) {
  UPK_GROW(d->s, d->cap_s, d->n_s + 1);
  d->s[d->n_s++] = s;
  return s;
}

static const char *sv(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

static long long iv(json_t *o, const char *k) {
  return (long long)json_integer_value(json_object_get(o, k));
}

static upk_sarif_level level_of(json_int_t severity) {
  return severity == 1 ? UPK_SARIF_ERROR : severity == 2 ? UPK_SARIF_WARNING : UPK_SARIF_NOTE;
}

static void doc_free(sarif_doc *d) {
  for (size_t i = 0; i < d->n_rules; i++)
    json_decref(d->rules[i].properties);
  for (size_t i = 0; i < d->n_results; i++)
    json_decref(d->results[i].properties);
  for (size_t i = 0; i < d->n_s; i++)
    free(d->s[i]);
  free(d->rules), free(d->results), free(d->s);
  free(d->cwd), free(d->src_path), free(d->src);
}

/* The rule's index, added on first use. A code with several severities (credentials: high in a
 * script, medium in prose) takes its highest as the default level and properties. */
static size_t rule(sarif_doc *d, const char *id, const char *description, const char *help,
                   upk_sarif_level level, json_t *properties) {
  for (size_t i = 0; i < d->n_rules; i++) {
    upk_sarif_rule *r = &d->rules[i];
    if (strcmp(r->id, id))
      continue;
    if (level > r->level) {
      json_decref(r->properties);
      r->properties = json_incref(properties);
      r->level = level;
    }
    json_decref(properties);
    return i;
  }
  UPK_GROW(d->rules, d->cap_rules, d->n_rules + 1);
  d->rules[d->n_rules] =
      (upk_sarif_rule){keep(d, upk_xstrdup(id)), description, help, level, properties,
                       /* audit --judge's codes: the model's, not a rule's */
                       .component = strncmp(id, "judge/", 6) ? NULL : "upskilld-judge"};
  return d->n_rules++;
}

static upk_sarif_result *add(sarif_doc *d) {
  UPK_GROW(d->results, d->cap_results, d->n_results + 1);
  upk_sarif_result *r = &d->results[d->n_results++];
  memset(r, 0, sizeof *r);
  return r;
}

/* An absolute path as the result's URI: relative to the working directory when under it. */
static const char *uri_of(sarif_doc *d, const char *abs) {
  size_t n = strlen(d->cwd);
  if (!strncmp(abs, d->cwd, n) && abs[n] == '/')
    return keep(d, upk_sarif_rel_uri(abs + n + 1));
  if (!strcmp(d->cwd, "/") && abs[0] == '/')
    return keep(d, upk_sarif_rel_uri(abs + 1));
  char *u = upk_sarif_dir_uri(abs);
  u[strlen(u) - 1] = '\0'; /* a file, not a directory: no trailing '/' */
  return keep(d, u);
}

static char *absolute(const char *base_dir, const char *path) {
  char buf[PATH_MAX];
  char *joined =
      path[0] == '/' || !*base_dir ? upk_xstrdup(path) : upk_xasprintf("%s/%s", base_dir, path);
  if (realpath(joined, buf)) {
    free(joined);
    return upk_xstrdup(buf);
  }
  return joined;
}

/* Line `line` (0-based) of the held text, trimmed and cut at SNIPPET_MAX bytes; NULL when
 * there is none or it is blank. */
static const char *line_text(sarif_doc *d, long line) {
  const char *p = d->src, *end = d->src ? d->src + d->src_len : NULL;
  for (long i = 0; p && i < line; i++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : NULL;
  }
  if (!p || line < 0)
    return NULL;
  const char *e = memchr(p, '\n', (size_t)(end - p));
  e = e ? e : end;
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  if (e == p || memchr(p, '\0', (size_t)(e - p)))
    return NULL;
  char *t = upk_xstrndup(p, (size_t)(e - p) > SNIPPET_MAX ? SNIPPET_MAX : (size_t)(e - p));
  upk_utf8_scrub(t); /* a stranger's bytes, or a line cut inside a character */
  return keep(d, t);
}

/* Hold `path`'s text (once per file in a row): a skill's file beneath its root, never through
 * a link (root non-NULL), or the user's own source. Unreadable: no text, no snippet. */
static void hold(sarif_doc *d, const char *root, const char *path) {
  if (d->src_path && !strcmp(d->src_path, path))
    return;
  free(d->src_path), free(d->src);
  d->src_path = upk_xstrdup(path);
  d->src = NULL;
  d->src_len = 0;
  if (root) {
    if (upk_read_beneath(root, path, SOURCE_MAX, &d->src, &d->src_len))
      d->src = NULL;
  } else {
    d->src = upk_read_file(path, SOURCE_MAX, &d->src_len);
  }
}

static int finish(const char *verb, const char *file, sarif_doc *d, const char *base) {
  char *base_uri = base ? upk_sarif_dir_uri(d->cwd) : NULL;
  upk_sarif_run run = {d->rules, d->n_rules, d->results, d->n_results, base, base_uri, NULL};
  int rc = upk_sarif_write(file, &run);
  if (rc)
    fprintf(stderr, "upskillctl %s: cannot write --sarif %s: %s\n", verb, file, strerror(-rc));
  free(base_uri);
  doc_free(d);
  return rc ? 1 : 0;
}

static int doc_init(sarif_doc *d) {
  char buf[PATH_MAX];
  memset(d, 0, sizeof *d);
  d->cwd = upk_xstrdup(getcwd(buf, sizeof buf) ? buf : "/");
  return 0;
}

int ctl_sarif_check(const char *verb, const char *file) {
  int rc = upk_sarif_check_path(file);
  if (!rc)
    return 0;
  fprintf(stderr, "upskillctl %s: --sarif %s: %s\n", verb, file,
          rc == -EISDIR ? "is a directory (give a file name)" : strerror(-rc));
  return 2;
}

/* ---- audit ---- */

static const struct {
  const char *code, *what;
} AUDIT_RULES[] = {
    {"audit/download-exec", "A download executed (piped to a shell, saved and run, exec'd)"},
    {"audit/reverse-shell", "A shell connected to a network socket"},
    {"audit/obfuscated", "Decoded or encoded text executed, or a long encoded blob"},
    {"audit/credentials", "Credentials read (SSH keys, cloud, git or registry tokens)"},
    {"audit/exfiltration", "Data sent to a host"},
    {"audit/invisible-unicode", "Invisible or text-reordering Unicode"},
    {"audit/agent-instructions", "Text telling the agent to ignore the user or hide its actions"},
    {"audit/executable", "An executable program in the skill"},
    {"audit/binary", "Binary content that was not reviewed"},
    {"audit/oversize", "A file too large to review"},
    {"audit/persistence", "Something installed to run again later (cron, rc file, service)"},
    {"audit/destruction", "The user's home, the system or a disk deleted or overwritten"},
    {"audit/privilege", "Root gained or kept, or a protection turned off"},
    {"audit/tampering", "System logs or the audit trail deleted, truncated or stopped"},
    {"audit/mining", "A cryptocurrency miner or mining pool"},
    {"audit/controls-off",
     "A security control turned off (TLS verification, a host protection, the agent's approvals)"},
    {"audit/agent-config", "The agent's memory, rules, settings or MCP servers written"},
    {"audit/intent-exfil",
     "Prose telling the agent to send sensitive data to a host, or a stored secret anywhere"},
    {"audit/intent-conceal",
     "Prose telling the agent to take a sensitive step and keep it from the user"},
    {"audit/intent-phish",
     "Prose telling the agent to ask the user for a password, one-time code or recovery phrase "
     "and store or send it"},
    {"audit/intent-context",
     "Prose telling the agent to keep a whole store of secrets in its notes or context"},
    {"audit/intent-override",
     "Prose overriding the user's instructions or taking other content's words as theirs"},
    {"audit/intent-step",
     "Prose telling the agent to turn off approvals, write its memory or settings, raise "
     "privileges, run a bundled binary or delete"},
    {"audit/supply-chain",
     "A package registry redirected, or an install hook that fetches or runs code"},
    {"audit/link", "A symbolic link out of the skill, a loop or a dangling link"},
    {"audit/special-file", "A FIFO, socket or device file in the skill"},
    {"audit/not-utf8", "Text that is not valid UTF-8"},
};

static const char *audit_what(const char *code) {
  for (size_t i = 0; i < sizeof AUDIT_RULES / sizeof *AUDIT_RULES; i++)
    if (!strcmp(AUDIT_RULES[i].code, code))
      return AUDIT_RULES[i].what;
  return "A risk in a skill's files"; /* a code newer than this table */
}

/* `root`: the skill's directory here, or NULL for a git source (whose checkout the answer does
 * not name): then `rel` is the skill's place in the repository. */
static void audit_finding(sarif_doc *d, json_t *sk, const char *root, const char *rel, json_t *f) {
  json_int_t sev = json_integer_value(json_object_get(f, "severity"));
  json_t *start = json_object_get(json_object_get(f, "range"), "start");
  const char *code = sv(f, "code"), *slash = strchr(code, '/');
  /* GitHub code scanning reads tags and security-severity (a CVSS-like score) from the rule. */
  json_t *props = json_pack("{s:[s], s:s}", "tags", "security", "security-severity",
                            sev == 1   ? "8.0"
                            : sev == 2 ? "5.0"
                                       : "2.0");
  upk_sarif_result *r = add(d);
  r->rule = rule(d, code, audit_what(code),
                 DIAG_DOC "#source-lock-and-audit-diagnostics-"
                          "skillsinstall-from-a-source-restore-check-audit",
                 level_of(sev), props);
  r->level = level_of(sev);
  r->message = sv(f, "message");
  if (root) {
    char *path = absolute(root, sv(f, "file"));
    r->uri = uri_of(d, path);
    free(path);
  } else {
    r->uri = keep(d, upk_sarif_rel_uri(
                         keep(d, upk_xasprintf("%s%s%s", rel, *rel ? "/" : "", sv(f, "file")))));
    r->unbased = 1;
  }
  long line = json_is_integer(json_object_get(start, "line")) ? (long)iv(start, "line") : -1;
  /* The evidence: the daemon's when it gives one, else the finding's line as it stands. */
  const char *evidence = json_is_string(json_object_get(f, "evidence")) ? sv(f, "evidence") : NULL;
  if (!evidence && line >= 0 && root) {
    hold(d, root, sv(f, "file"));
    evidence = line_text(d, line);
  }
  if (line >= 0) {
    r->start_line = line + 1;
    r->end_line = line + 1;
  }
  r->snippet = line >= 0 ? evidence : NULL;
  r->fingerprint = evidence;
  r->properties =
      json_pack("{s:s, s:s, s:s}", "severity", SEVERITY[sev >= 1 && sev <= 4 ? sev : 3], "category",
                json_is_string(json_object_get(f, "category")) ? sv(f, "category")
                : slash                                        ? slash + 1
                                                               : code,
                "skill", sv(sk, "name"));
  if (evidence) /* valid UTF-8: line_text scrubs, and the daemon's came as a JSON string */
    json_object_set_new(r->properties, "evidence", json_string(evidence));
  for (const char *const *k = (const char *const[]){"rule", "reason", NULL}; *k; k++)
    if (json_is_string(json_object_get(f, *k))) /* the rule's own name; why its severity moved */
      json_object_set_new(r->properties, *k, json_string(sv(f, *k)));
  if (!strcmp(sv(f, "source"), "upskilld-judge")) /* audit --judge: the model's, not a rule's */
    json_object_set_new(r->properties, "source", json_string("judge"));
}

int ctl_sarif_audit(json_t *r, const char *file) {
  sarif_doc d;
  json_t *sk, *f;
  size_t i, k;
  doc_init(&d);
  /* A skill's `path` is its SKILL.md's, relative to the source's root: a local source's `url`
   * (with its `path`), or a repository. */
  json_t *src = json_object_get(r, "source");
  int local = !strcmp(sv(src, "type"), "local");
  json_array_foreach(json_object_get(r, "skills"), i, sk) {
    char *rel =
        upk_xasprintf("%s%s%s", sv(src, "path"), *sv(src, "path") ? "/" : "", sv(sk, "path"));
    char *slash = strrchr(rel, '/');
    slash ? (void)(*slash = '\0') : (void)(*rel = '\0'); /* the skill's directory */
    char *root = local ? absolute(sv(src, "url"), rel) : NULL;
    json_array_foreach(json_object_get(sk, "findings"), k, f) audit_finding(&d, sk, root, rel, f);
    free(root), free(rel);
  }
  return finish("audit", file, &d, "%SRCROOT%");
}

/* ---- check-kernel ---- */

static const struct {
  const char *prefix, *what, *anchor;
} KERNEL_RULES[] = {
    {"nvrtc/", "NVRTC front-end diagnostic", "compile-nvrtc-ptxas-kernel"},
    {"ptxas/", "ptxas diagnostic", "compile-nvrtc-ptxas-kernel"},
    {"kernel/", "Kernel validation", "compile-nvrtc-ptxas-kernel"},
    {"h100/", "H100 lint", "h100-lint-h100"},
    {"nvcc/", "nvcc diagnostic", "whole-files-nvcc-backend-and-projects-buildtoml"},
    {"buildtoml/", "build.toml (kernel-builder project)",
     "whole-files-nvcc-backend-and-projects-buildtoml"},
    {"run/", "Kernel run on the GPU", "runs-run"},
};

static size_t kernel_rule(sarif_doc *d, const char *code, upk_sarif_level level) {
  for (size_t i = 0; i < sizeof KERNEL_RULES / sizeof *KERNEL_RULES; i++)
    if (!strncmp(code, KERNEL_RULES[i].prefix, strlen(KERNEL_RULES[i].prefix)))
      return rule(d, code, KERNEL_RULES[i].what,
                  keep(d, upk_xasprintf(DIAG_DOC "#%s", KERNEL_RULES[i].anchor)), level, NULL);
  return rule(d, *code ? code : "kernel/diagnostic", "Kernel diagnostic",
              DIAG_DOC "#kernel-diagnostics", level, NULL);
}

/* A project's rows compile one file for several capabilities: a diagnostic they share is one
 * result. */
static int seen(sarif_doc *d, const upk_sarif_result *x) {
  for (size_t i = 0; i + 1 < d->n_results; i++) {
    const upk_sarif_result *r = &d->results[i];
    if (r->rule == x->rule && r->start_line == x->start_line &&
        r->start_column == x->start_column && !strcmp(r->uri, x->uri) &&
        !strcmp(r->message, x->message))
      return 1;
  }
  return 0;
}

/* `dir`: where a diagnostic's relative `file` is (the project, or the checked file's
 * directory); `main`: the file a diagnostic without `file` is about. */
static void kernel_diag(sarif_doc *d, const char *dir, const char *main, json_t *g) {
  json_t *range = json_object_get(g, "range"), *start = json_object_get(range, "start"),
         *end = json_object_get(range, "end");
  json_int_t sev = json_integer_value(json_object_get(g, "severity"));
  const char *f = json_is_string(json_object_get(g, "file")) ? sv(g, "file") : NULL;
  char *path = f ? absolute(dir, f) : upk_xstrdup(main);
  upk_sarif_result *r = add(d);
  r->level = level_of(sev);
  r->rule = kernel_rule(d, sv(g, "code"), r->level);
  r->message = sv(g, "message");
  r->uri = uri_of(d, path);
  long line = (long)iv(start, "line");
  if (line >= 0) { /* -1: about the whole file */
    r->start_line = line + 1;
    r->start_column = (long)iv(start, "character") + 1;
    r->end_line = iv(end, "line") >= line ? (long)iv(end, "line") + 1 : line + 1;
    r->end_column = (long)iv(end, "character") + 1;
    hold(d, NULL, path);
    r->snippet = line_text(d, line);
  }
  /* Identity across commits: the line's text and the message, not its number. */
  r->fingerprint = keep(d, upk_xasprintf("%s\n%s", r->snippet ? r->snippet : "", r->message));
  free(path);
  if (seen(d, r))
    d->n_results--;
}

static void kernel_check(sarif_doc *d, json_t *check) {
  json_t *res = json_object_get(check, "result"), *g, *row;
  size_t i, k;
  char *main = absolute("", sv(check, "file"));
  int project = json_is_array(json_object_get(res, "rows"));
  char *dir = upk_xstrdup(main), *slash = strrchr(dir, '/');
  if (project && json_is_string(json_object_get(res, "project"))) {
    free(dir);
    dir = absolute("", sv(res, "project"));
  } else if (slash && !project) {
    *slash = '\0';
  }
  /* A project's own diagnostics are build.toml's. */
  char *toml = project ? upk_xasprintf("%s/build.toml", dir) : NULL;
  json_array_foreach(json_object_get(res, "diagnostics"), i, g)
      kernel_diag(d, dir, project ? toml : main, g);
  json_array_foreach(json_object_get(res, "rows"), k, row) {
    char *src = absolute(dir, sv(row, "file"));
    json_array_foreach(json_object_get(row, "diagnostics"), i, g) kernel_diag(d, dir, src, g);
    free(src);
  }
  free(toml), free(dir), free(main);
}

int ctl_sarif_kernel(json_t *checks, const char *file) {
  sarif_doc d;
  json_t *ch;
  size_t i;
  doc_init(&d);
  json_array_foreach(checks, i, ch) kernel_check(&d, ch);
  return finish("check-kernel", file, &d, "%SRCROOT%");
}

/* ---- audit --fail-on ---- */

int ctl_fail_on_parse(const char *arg, int *severity) {
  for (int s = 1; s <= 3; s++)
    if (!strcmp(arg, SEVERITY[s])) {
      *severity = s;
      return 0;
    }
  fprintf(stderr, "upskillctl audit: --fail-on takes high, medium or low, not '%s'\n", arg);
  return -1;
}

int ctl_fail_on(json_t *r, int severity) {
  static const char *const count[] = {"", "high", "medium", "low"};
  json_t *sk;
  size_t i;
  long long n = 0;
  json_array_foreach(json_object_get(r, "skills"), i, sk) {
    for (int s = 1; s <= severity; s++)
      n += iv(sk, count[s]);
  }
  if (!n)
    return 0;
  fprintf(stderr, "upskillctl audit: %lld finding%s at or above --fail-on %s\n", n,
          n == 1 ? "" : "s", SEVERITY[severity]);
  return CTL_EXIT_FAIL_ON;
}

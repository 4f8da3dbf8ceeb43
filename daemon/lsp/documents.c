/* Editor diagnostics: the documents an LSP client has open.
 *
 * `.cu` / `.cuh` files are validated as kernels (through the kernel service,
 * so identical text is answered from its cache) and `SKILL.md` files as
 * skills (on the skills queue). A check starts a short while after the last
 * change (debounce), at most one compile per document runs at a time, and a
 * result for text that has changed since is dropped, never reported.
 *
 * What a check found goes up through the face's callbacks (documents.h), always from the
 * loop: a check starts only from the debounce timer or after the previous one finished, and
 * the kernel service answers even a cache hit from the loop, never inside
 * upk_kernels_check (kernel_service.h), so d->inflight is set before any answer. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/kernels/kernel_service.h"
#include "daemon/lsp/documents.h"
#include "gpu/worker/wire.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "daemon/skills/skills_service.h"
#include "skills/validate.h"

enum { DEBOUNCE_CUDA_MS = 250, DEBOUNCE_SKILL_MS = 100 };

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* file:///a/b%20c -> /a/b c; NULL for other schemes. */
char *upk_file_uri_to_path(const char *uri) {
  if (!uri || strncmp(uri, "file://", 7) != 0)
    return NULL;
  const char *p = uri + 7;
  if (*p != '/') { /* file://host/path: keep only the path */
    p = strchr(p, '/');
    if (!p)
      return NULL;
  }
  char *out = upk_xmalloc(strlen(p) + 1), *o = out;
  for (; *p; p++) {
    if (*p == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
      *o++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}

typedef struct upk_doc {
  upk_server *s;
  char *uri, *path; /* path NULL for non-file URIs */
  char *text;
  size_t len;
  int version;
  bool is_skill;
  uv_timer_t timer;
  upk_kcheck *inflight; /* a compile of inflight_version */
  int inflight_version;
  bool rerun;           /* the text changed while compiling */
  json_t *deps;         /* files the last check read besides this one: path -> true */
  json_t *result;       /* the last kernel check published (lenses, hovers answer from it) */
  json_t *good;         /* the last one that compiled: stale figures while a typo breaks it */
  int result_version;   /* the text version it is for */
  json_t *runs;         /* kernel name -> the last GPU run's "run" object */
  json_t *lens_waiters; /* ids of codeLens requests waiting for the check under way */
} doc;

UPK_MAP_TYPED(doc_map, doc)

/* What the skills queue needs: a copy, since the document may change meanwhile. */
typedef struct skill_check {
  upk_server *s;
  char *uri, *text;
  char *path; /* the file, for the directory checks (NULL for a non-file URI) */
  size_t len;
  int version;
  upk_diags diags;
} skill_check;

/* What a document is checked as; the others are not kept. */
enum doc_kind { DOC_IGNORED, DOC_KERNEL, DOC_SKILL };

static upk_docs *docs_of(upk_server *s) {
  return upk_session_docs(s);
}

static doc *doc_find(upk_server *s, const char *uri) {
  return uri ? doc_map_get(&docs_of(s)->open, uri) : NULL;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Which documents we check: CUDA sources and skills; everything else is ignored. */
static enum doc_kind kind_of(const char *uri, const char *language) {
  if (ends_with(uri, "/SKILL.md"))
    return DOC_SKILL;
  if (ends_with(uri, ".cu") || ends_with(uri, ".cuh") ||
      (language && (!strcmp(language, "cuda-cpp") || !strcmp(language, "cuda"))))
    return DOC_KERNEL;
  return DOC_IGNORED;
}

/* ---- what goes up to the face ---- */

static void report_diagnostics(upk_server *s, const upk_doc_diagnostics *d) {
  docs_of(s)->cb->diagnostics(s, d);
}

static void lenses_changed(upk_server *s) {
  docs_of(s)->cb->lenses_changed(s);
}

/* Requests that waited for the check (codeLens before the first lenses of a text): each
 * can be answered now, from the check just published or, once closed, with nothing. */
static void answer_waiters(doc *d) {
  json_t *ids = d->lens_waiters, *id;
  size_t i;
  d->lens_waiters = NULL;
  json_array_foreach(ids, i, id) docs_of(d->s)->cb->check_ready(d->s, d->uri, id);
  json_decref(ids);
}

/* ---- kernels ---- */

static void run(doc *d);
static void schedule(doc *d, unsigned delay_ms);

/* The headers (and build files) a check read: saving one of them rechecks this document. */
static void remember_deps(doc *d, json_t *deps) {
  json_t *set = json_object(), *x;
  size_t i;
  json_array_foreach(deps, i, x) {
    const char *path = json_string_value(json_object_get(x, "path"));
    if (path)
      json_object_set_new(set, path, json_true());
  }
  json_decref(d->deps);
  d->deps = set;
}

/* `path` was saved: recheck every other open kernel that read it. The kernel service's cache
 * compares each dependency's stamp, so the recheck compiles again only when the file changed. */
static void dependents_saved(upk_server *s, const char *path) {
  for (UPK_MAP_EACH(it, &docs_of(s)->open)) {
    doc *d = it.value;
    if (!d->is_skill && json_object_get(d->deps, path))
      schedule(d, 0);
  }
}

/* A kernel check finished (from the loop): publish it if it is for the text open now. */
static void kernel_checked(doc *d, json_t *result) {
  if (d->rerun) { /* stale: the text changed while it compiled */
    d->rerun = false;
    run(d);
    return;
  }
  if (d->inflight_version != d->version)
    return;
  remember_deps(d, json_object_get(result, "dependencies"));
  json_decref(d->result);
  d->result = json_incref(result);
  d->result_version = d->version;
  if (json_is_true(json_object_get(result, "ok"))) {
    json_decref(d->good);
    d->good = json_incref(result);
  }
  report_diagnostics(d->s,
                     &(upk_doc_diagnostics){.uri = d->uri,
                                            .path = d->path,
                                            .version = d->version,
                                            .kernel = json_object_get(result, "diagnostics")});
  answer_waiters(d);
  lenses_changed(d->s);
}

/* The kernel service's answer, always from the loop. */
static void on_kernel(void *arg, json_t *result) {
  doc *d = arg;
  d->inflight = NULL;
  kernel_checked(d, result);
}

/* projectAware: a file a build.toml builds is checked with its kernel's flags and includes;
 * includes may come from the file's directory and the workspace (none: sent empty). `dir` holds
 * the file's directory; `allowed` two places. */
static void kernel_req(const doc *d, upk_kernel_req *r, char **dir, const char **allowed) {
  upk_server *s = d->s;
  const char *workspace = upk_session_workspace(s);
  *r = (upk_kernel_req){.source = d->text,
                        .source_len = d->len,
                        .file_name = d->path ? d->path : d->uri,
                        .includes = allowed, /* none: sent empty */
                        .wire = {.cuda_path = upk_kernels_cuda_path(s),
                                 .pch = true,
                                 .project_aware = true,
                                 .allowed = allowed}};
  *dir = d->path ? upk_xstrdup(d->path) : NULL;
  if (*dir) {
    r->file_dir = dirname(*dir);
    r->wire.project_includes = true; /* a file on disk, in its project */
    allowed[r->wire.n_allowed++] = r->file_dir;
  }
  if (workspace) {
    allowed[r->wire.n_allowed++] = workspace;
    r->includes = &allowed[r->wire.n_allowed - 1];
    r->n_includes = 1;
  }
}

static void run_kernel(doc *d) {
  if (d->inflight) {
    d->rerun = true;
    return;
  }
  d->inflight_version = d->version;
  upk_kernel_req r;
  const char *allowed[2];
  char *dir;
  kernel_req(d, &r, &dir, allowed);
  d->inflight = upk_kernels_check(d->s, &r, 0, true, on_kernel, d);
  free(dir);
}

/* ---- skills ---- */

static void skill_work(upk_index *ix, void *arg) {
  skill_check *c = arg;
  /* with its path: the editor shows skill/name-dir-mismatch as `upskillctl validate` does */
  upk_skill_validate_buffer(c->text, c->len, c->path, UPK_VALIDATE_STRICT, &c->diags);
}

static void skill_check_free(skill_check *c) {
  upk_diags_free(&c->diags);
  free(c->uri);
  free(c->path);
  free(c->text);
  free(c);
}

/* From the loop, once the skills queue ran skill_work; status != 0: cancelled (the queue
 * closed), nothing to report. */
static void skill_done(void *arg, int status) {
  skill_check *c = arg;
  doc *d = doc_find(c->s, c->uri);
  if (status == 0 && d && d->version == c->version) {
    report_diagnostics(
        c->s, &(upk_doc_diagnostics){
                  .uri = c->uri, .path = c->path, .version = c->version, .skill = &c->diags});
    d->result_version = d->version; /* a skill's lens is its text's: nothing else to keep */
    lenses_changed(c->s);
  }
  skill_check_free(c);
}

static void run_skill(doc *d) {
  skill_check *c = upk_xmalloc(sizeof *c);
  *c = (skill_check){.s = d->s,
                     .uri = upk_xstrdup(d->uri),
                     .path = upk_xstrdup(d->path),
                     .text = memcpy(upk_xmalloc(d->len + 1), d->text, d->len + 1),
                     .len = d->len,
                     .version = d->version};
  /* Refused (the queue is closed): never checked, nothing to report. */
  if (upk_skills_submit(d->s, skill_work, skill_done, c))
    skill_check_free(c);
}

/* ---- lifecycle ---- */

static void run(doc *d) {
  if (d->is_skill)
    run_skill(d);
  else
    run_kernel(d);
}

static void on_timer(uv_timer_t *t) {
  run(t->data);
}

static void schedule(doc *d, unsigned delay_ms) {
  uv_timer_start(&d->timer, on_timer, delay_ms, 0);
}

static void set_text(doc *d, const char *text, size_t len) {
  char *copy = upk_xmalloc(len + 1);
  memcpy(copy, text, len);
  copy[len] = '\0';
  free(d->text);
  d->text = copy;
  d->len = len;
}

static void doc_freed(uv_handle_t *h) {
  doc *d = h->data;
  free(d->uri);
  free(d->path);
  free(d->text);
  json_decref(d->deps);
  json_decref(d->result);
  json_decref(d->good);
  json_decref(d->runs);
  free(d);
}

/* Out of the table first, so that the waiters' check_ready finds the document gone. */
static void doc_close(upk_server *s, doc *d) {
  doc_map_remove(&docs_of(s)->open, d->uri);
  answer_waiters(d); /* nothing to show any more */
  upk_kcheck_cancel(d->inflight);
  d->inflight = NULL;
  uv_timer_stop(&d->timer);
  uv_close((uv_handle_t *)&d->timer, doc_freed);
}

void upk_docs_open(upk_server *s, const char *uri, const char *language, int version,
                   const char *text, size_t len) {
  enum doc_kind kind = uri ? kind_of(uri, language) : DOC_IGNORED;
  if (kind == DOC_IGNORED || !text)
    return;
  doc *old = doc_find(s, uri);
  if (old)
    doc_close(s, old);
  doc *d = upk_xcalloc(1, sizeof *d);
  d->s = s;
  d->uri = upk_xstrdup(uri);
  d->path = upk_file_uri_to_path(uri);
  d->is_skill = kind == DOC_SKILL;
  d->version = version;
  set_text(d, text, len);
  uv_timer_init(upk_session_loop(s), &d->timer);
  d->timer.data = d;
  doc_map_set(&docs_of(s)->open, uri, d);
  schedule(d, 0);
}

void upk_docs_change(upk_server *s, const char *uri, int version, const char *text, size_t len) {
  doc *d = doc_find(s, uri);
  if (!d || !text)
    return;
  d->version = version;
  set_text(d, text, len);
  if (d->inflight)
    d->rerun = true;
  schedule(d, d->is_skill ? DEBOUNCE_SKILL_MS : DEBOUNCE_CUDA_MS);
}

void upk_docs_save(upk_server *s, const char *uri, const char *text, size_t len) {
  doc *d = doc_find(s, uri);
  if (d && text)
    set_text(d, text, len);
  if (d)
    schedule(d, 0);
  char *path = uri ? upk_file_uri_to_path(uri) : NULL;
  if (path) /* any file, checked or not (a .h header, build.toml) */
    dependents_saved(s, path);
  free(path);
}

bool upk_docs_close(upk_server *s, const char *uri) {
  doc *d = doc_find(s, uri);
  if (d)
    doc_close(s, d);
  return d != NULL;
}

void upk_docs_init(upk_server *s, const upk_docs_callbacks *cb) {
  upk_docs *ds = docs_of(s);
  ds->cb = cb;
}

void upk_docs_close_all(upk_server *s) {
  upk_docs *ds = docs_of(s);
  for (UPK_MAP_EACH(it, &ds->open))
    doc_close(s, it.value);
  upk_map_clear(&ds->open);
}

bool upk_docs_view(upk_server *s, const char *uri, upk_doc_view *out) {
  doc *d = doc_find(s, uri);
  if (!d)
    return false;
  *out = (upk_doc_view){.uri = d->uri,
                        .path = d->path,
                        .text = d->text,
                        .len = d->len,
                        .version = d->version,
                        .is_skill = d->is_skill,
                        .result = d->result,
                        .good = d->good,
                        .runs = d->runs,
                        .checked = d->result_version == d->version && !d->inflight};
  return true;
}

/* The kernel a run ran: the spec's name, else the result's only kernel. */
static const char *run_kernel_name(json_t *spec, json_t *result) {
  const char *name = json_string_value(json_object_get(spec, "kernel"));
  json_t *ks = json_object_get(result, "kernels");
  if (!name && json_array_size(ks) >= 1)
    name = json_string_value(json_object_get(json_array_get(ks, 0), "name"));
  return name;
}

void upk_docs_note_run(upk_server *s, const char *file, json_t *spec, json_t *result) {
  json_t *run = json_object_get(result, "run");
  const char *name = run_kernel_name(spec, result);
  if (!file || !json_is_object(run) || !name)
    return;
  for (UPK_MAP_EACH(it, &docs_of(s)->open)) {
    doc *d = it.value;
    if (!d->path || strcmp(d->path, file))
      continue;
    if (!d->runs)
      d->runs = json_object();
    json_object_set(d->runs, name, run);
  }
  lenses_changed(s);
}

bool upk_docs_wait_check(upk_server *s, const char *uri, json_t *id) {
  doc *d = doc_find(s, uri);
  if (!d || d->is_skill || (d->result_version == d->version && !d->inflight))
    return false;
  if (!d->lens_waiters)
    d->lens_waiters = json_array();
  json_array_append(d->lens_waiters, id);
  return true;
}

/* The nvcc backend (nvcc.h): a guarded child process, its log turned into
 * diagnostics with gpu/compile/nvlog.h's parsers plus the host preprocessor's
 * gcc-style lines, the ptxas report into per-kernel resources. */
#include "gpu/compile/nvcc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/dynbuf.h"
#include "common/fileio.h"
#include "common/sandbox.h"
#include "gpu/compile/cubin.h"
#include "gpu/compile/nvccbox.h"
#include "gpu/compile/nvlog.h"
#include "gpu/compile/toolkit.h"
#include "common/xalloc.h"

/* ---- the command line ---- */

typedef struct argvec {
  const char **v;
  char **owned; /* strings made here, freed with the vector */
  size_t n, n_owned, cap;
} argvec;

static int arg(argvec *a, const char *s) {
  if (a->n + 2 > a->cap) {
    size_t cap = a->cap;
    UPK_GROW(a->v, cap, a->n + 2);
    a->owned = upk_xreallocarray(a->owned, cap, sizeof *a->owned);
    a->cap = cap;
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
  return s ? 0 : -ENOMEM;
}

static int argf(argvec *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int argf(argvec *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = upk_xvasprintf(fmt, ap);
  va_end(ap);
  arg(a, s);
  a->owned[a->n_owned++] = s;
  return 0;
}

static void argvec_free(argvec *a) {
  for (size_t i = 0; i < a->n_owned; i++)
    free(a->owned[i]);
  free(a->owned);
  free(a->v);
}

/* nvcc -cubin wants a real SM: "compute_90a" is built as sm_90a. */
static void cubin_arch(const char *arch, char *out, size_t len) {
  arch = arch ? arch : "sm_90a";
  if (!strncmp(arch, "compute_", 8))
    snprintf(out, len, "sm_%s", arch + 8);
  else
    snprintf(out, len, "%s", arch);
}

/* `-x cu`: any file name is CUDA (a .cuh, a .cpp holding kernels). `keep`
 * (--keep) leaves the -lineinfo PTX in `tmp` for placing ptxas errors; it
 * writes every intermediate file (megabytes with <iostream>), so it is asked
 * for only when a ptxas error needs placing. */
static int build_argv(const upk_compile_req *req, const char *nvcc, const char *tmp,
                      const char *file, bool keep, argvec *a) {
  char arch[64];
  cubin_arch(req->arch, arch, sizeof arch);
  static const char *const fixed[] = {
      "-x",      "cu",           "-cubin",  "-lineinfo",        "-Xptxas", "-v",
      "-Xptxas", "-warn-spills", "-Xptxas", "-warn-lmem-usage", NULL};
  int rc = arg(a, nvcc) || argf(a, "-arch=%s", arch) ||
           argf(a, "--std=%s", req->std ? req->std : "c++17") ||
           (keep && (arg(a, "--keep") || argf(a, "--keep-dir=%s", tmp)));
  for (size_t i = 0; !rc && fixed[i]; i++)
    rc = arg(a, fixed[i]);
  for (size_t i = 0; !rc && i < req->includes.n; i++)
    rc = argf(a, "-I%s", req->includes.v[i]);
  for (size_t i = 0; !rc && i < req->defines.n; i++)
    rc = argf(a, "-D%s", req->defines.v[i]);
  for (size_t i = 0; !rc && i < req->options.n; i++)
    rc = arg(a, req->options.v[i]);
  if (!rc)
    rc = arg(a, "-o") || argf(a, "%s/out.cubin", tmp) || arg(a, file);
  return rc ? -ENOMEM : 0;
}

/* ---- the log ---- */

typedef struct logctx {
  const upk_compile_req *req;
  const char *main_file; /* as nvcc printed it (the file argument) */
  const char *dir;       /* nvcc's cwd: relative paths in the log are relative to it */
  int main_incl_line;    /* 1-based line of the main file's #include leading to a header; 0 none */
  upk_diags *out;
} logctx;

/* Line `line` (1-based) of the main source, without its newline. */
static const char *source_line(const upk_compile_req *req, int line, size_t *len) {
  const char *p = req->source, *end = req->source + req->source_len;
  for (int l = 1; p && p < end && l < line; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : end;
  }
  if (!p || p >= end)
    return NULL;
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  *len = (size_t)((nl ? nl : end) - p);
  return p;
}

/* The range of `target` on `line` (1-based) of the main file: the include's
 * text without its delimiters, as srcscan reports includes. */
static upk_range include_range(const upk_compile_req *req, int line, const char *target) {
  size_t len = 0, tl = strlen(target);
  const char *s = source_line(req, line, &len);
  for (size_t i = 0; s && tl && i + tl <= len; i++)
    if (!memcmp(s + i, target, tl) && i > 0 && (s[i - 1] == '<' || s[i - 1] == '"'))
      return upk_range_line(line - 1, (int)i, (int)(i + tl));
  return upk_range_line(line - 1, 0, s ? (int)len : 0);
}

static bool is_main(const logctx *c, const char *file) {
  return !strcmp(file, c->main_file);
}

static int set_file(const logctx *c, const char *file) {
  upk_diag *d = &c->out->items[c->out->len - 1];
  d->file = file[0] == '/' ? upk_xstrdup(file) : upk_xasprintf("%s/%s", c->dir, file);
  return 0;
}

static const char *torch_hint(const char *target) {
  static const char *const torch[] = {"torch/", "ATen/", "c10/", "pybind11/", "Python.h", NULL};
  for (size_t i = 0; torch[i]; i++)
    if (!strncmp(target, torch[i], strlen(torch[i])))
      return " (PyTorch's headers: <site-packages>/torch/include and "
             "<site-packages>/torch/include/torch/csrc/api/include)";
  return "";
}

/* `FILE:L:C: fatal error: T: No such file or directory`: one diagnostic at the
 * #include in the main file that leads there. */
static int missing_include(const logctx *c, const char *file, int line, const char *target) {
  bool here = is_main(c, file);
  int at = here ? line : c->main_incl_line;
  upk_range r = at > 0 ? include_range(c->req, at, here ? target : "") : upk_range_line(0, 0, 0);
  if (!here && at > 0) /* the include of the header, not of the missing file */
    r = upk_range_line(at - 1, 0, r.end_col);
  char via[PATH_MAX + 32] = "";
  if (!here)
    snprintf(via, sizeof via, " (included from %s:%d)", file, line);
  return upk_diags_add(c->out, UPK_SEV_ERROR, "nvcc/missing-include", "nvcc", r,
                       "cannot find %s%s: add the directory that holds it to includes%s", target,
                       via, torch_hint(target));
}

/* One gcc-style line of the host preprocessor; false when `l` is not one. */
static bool gcc_line(const logctx *c, const char *l, int *rc) {
  char file[PATH_MAX], kind[16];
  int line, col, n = 0;
  if (sscanf(l, "%4095[^:]:%d:%d: %15[a-z ]:%n", file, &line, &col, kind, &n) != 4 || !n)
    return false;
  const char *msg = l + n + (l[n] == ' ');
  if (!strcmp(kind, "note"))
    return true;
  const char *nsf = strstr(msg, ": No such file or directory");
  if (!strcmp(kind, "fatal error") && nsf) {
    char target[PATH_MAX];
    snprintf(target, sizeof target, "%.*s", (int)(nsf - msg), msg);
    *rc = missing_include(c, file, line, target);
    return true;
  }
  upk_severity sev = strcmp(kind, "warning") ? UPK_SEV_ERROR : UPK_SEV_WARNING;
  *rc = upk_diags_add(c->out, sev, "nvcc/preprocessor", "nvcc",
                      upk_range_line(line - 1, col - 1, col), "%s", msg);
  if (!*rc && !is_main(c, file))
    *rc = set_file(c, file);
  return true;
}

/* `In file included from b.cu:2:` / `                 from b.cu:2,`: remember
 * the main file's line. Also drops gcc's source excerpts. */
static bool gcc_context(logctx *c, const char *l) {
  size_t sp = strspn(l, " ");
  const char *from = strstr(l, "from ");
  if (!strncmp(l, "In file included from ", 22) || (sp > 0 && from == l + sp)) {
    char file[PATH_MAX];
    int line;
    if (sscanf(from + 5, "%4095[^:]:%d", file, &line) == 2 && is_main(c, file))
      c->main_incl_line = line;
    return true;
  }
  size_t dg = strspn(l + sp, "0123456789");
  return !strcmp(l, "compilation terminated.") || !strncmp(l + sp + dg, " | ", 3) ||
         (l[sp] == '|' && sp > 0);
}

/* nvcc's own `nvcc fatal   : ...` lines. */
static bool driver_line(const logctx *c, const char *l, int *rc) {
  static const struct {
    const char *prefix;
    upk_severity sev;
  } kinds[] = {{"nvcc fatal", UPK_SEV_ERROR},
               {"nvcc error", UPK_SEV_ERROR},
               {"nvcc warning", UPK_SEV_WARNING}};
  for (size_t i = 0; i < 3; i++) {
    if (strncmp(l, kinds[i].prefix, strlen(kinds[i].prefix)))
      continue;
    const char *m = strchr(l, ':');
    *rc = upk_diags_add(c->out, kinds[i].sev, "nvcc/driver", "nvcc", upk_range_line(0, 0, 0), "%s",
                        m ? m + 1 + strspn(m + 1, " ") : l);
    return true;
  }
  return false;
}

/* Read the lines nvlog does not know; return the rest for it, with nvcc's
 * `ptxas /tmp/x.ptx, line N;` spelt as NVRTC's `ptxas application ptx input, line N;`. */
static int split_log(logctx *c, const char *log, char **rest) {
  upk_buf out = UPK_BUF_INIT(SIZE_MAX);
  int rc = 0;
  char *line = upk_xmalloc(strlen(log) + 1);
  upk_buf_puts(&out, ""); /* a string even when nothing is left */
  for (const char *p = log; *p && !rc;) {
    size_t len = strcspn(p, "\n");
    memcpy(line, p, len);
    line[len] = '\0';
    p += len + (p[len] == '\n');
    if (gcc_line(c, line, &rc) || gcc_context(c, line) || driver_line(c, line, &rc) ||
        !strncmp(line, "Remark: The warnings can be suppressed", 38))
      continue;
    const char *at = strstr(line, ", line ");
    if (!strncmp(line, "ptxas ", 6) && at && !strstr(line, "application ptx input"))
      upk_buf_printf(&out, "ptxas application ptx input%s\n", at);
    else
      upk_buf_printf(&out, "%s\n", line);
  }
  free(line);
  *rest = upk_buf_take(&out, NULL);
  return rc;
}

/* nvlog speaks for NVRTC: the same front end run by nvcc is "nvcc", and paths
 * it printed relative to nvcc's cwd are made absolute. */
static int relabel(const logctx *c, upk_diags *d, size_t from) {
  for (size_t i = from; i < d->len; i++) {
    upk_diag *x = &d->items[i];
    if (x->source && !strcmp(x->source, "nvrtc")) {
      free(x->source);
      x->source = upk_xstrdup("nvcc");
      if (x->code && !strncmp(x->code, "nvrtc/", 6))
        memcpy(x->code, "nvcc/", 5), memmove(x->code + 5, x->code + 6, strlen(x->code + 6) + 1);
    }
    if (x->file && x->file[0] != '/') {
      char *abs = upk_xasprintf("%s/%s", c->dir, x->file);
      free(x->file);
      x->file = abs;
    }
    if (!x->source)
      return -ENOMEM;
  }
  return 0;
}

/* The -lineinfo PTX nvcc kept (one .ptx in the private directory), or NULL. */
static char *kept_ptx(const char *tmp) {
  DIR *d = opendir(tmp);
  struct dirent *e;
  char *ptx = NULL, path[PATH_MAX];
  size_t len;
  while (d && !ptx && (e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".ptx")) {
      snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
      ptx = upk_read_file(path, SIZE_MAX, &len);
    }
  }
  if (d)
    closedir(d);
  return ptx;
}

static void remove_tree(const char *tmp) {
  DIR *d = opendir(tmp);
  struct dirent *e;
  char path[PATH_MAX];
  while (d && (e = readdir(d))) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
      unlink(path);
    }
  }
  if (d)
    closedir(d);
  rmdir(tmp);
}

static int parse_log(logctx *c, const char *log, const char *tmp) {
  char *rest = NULL, *ptx = NULL;
  size_t from = c->out->len;
  int rc = split_log(c, log, &rest);
  upk_nvlog_ctx nc = {
      .main_file = c->main_file, .source = c->req->source, .source_len = c->req->source_len};
  if (!rc)
    rc = upk_nvlog_frontend(rest, &nc, c->out);
  if (!rc && strstr(rest, "ptxas")) {
    nc.ptx = ptx = kept_ptx(tmp);
    rc = upk_nvlog_ptxas(rest, &nc, c->out);
  }
  if (!rc)
    rc = relabel(c, c->out, from);
  free(rest);
  free(ptx);
  return rc;
}

/* ---- kernels ---- */

static bool name_matches(const char *want, const char *name) {
  size_t n = strcspn(name, "<");
  return !strcmp(want, name) ||
         (!strchr(want, '<') && strlen(want) == n && !strncmp(want, name, n));
}

/* Keep the kernels `names` asks for; a name that matches none is an error
 * listing those that exist. */
static int filter_names(const upk_compile_req *req, upk_compile_result *out) {
  if (!req->names.n)
    return 0;
  size_t w = 0;
  for (size_t i = 0; i < out->n_kernels; i++) {
    bool keep = false;
    for (size_t j = 0; j < req->names.n && !keep; j++)
      keep = out->kernels[i].name && name_matches(req->names.v[j], out->kernels[i].name);
    if (keep)
      out->kernels[w++] = out->kernels[i];
    else
      upk_kernel_info_free(&out->kernels[i]);
  }
  size_t all = out->n_kernels;
  out->n_kernels = w;
  for (size_t j = 0; j < req->names.n; j++) {
    bool found = false;
    for (size_t i = 0; i < w && !found; i++)
      found = name_matches(req->names.v[j], out->kernels[i].name);
    if (!found && upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/unknown-name", "upskilld",
                                upk_range_line(0, 0, 0),
                                "no kernel named %s in this file (%zu kernel%s compiled)",
                                req->names.v[j], all, all == 1 ? "" : "s"))
      return -ENOMEM;
  }
  return 0;
}

static int fill_kernels(const upk_compile_req *req, const char *log, const char *tmp,
                        upk_compile_result *out) {
  char path[PATH_MAX], name[1024];
  size_t len = 0;
  snprintf(path, sizeof path, "%s/out.cubin", tmp);
  char *cubin = upk_read_file(path, SIZE_MAX, &len);
  out->ok = cubin != NULL;
  out->cubin = cubin; /* for the Driver API (runs); freed with the result */
  out->cubin_size = cubin ? len : 0;
  if (upk_cubin_facts(cubin, len, log, &out->kernels, &out->n_kernels, &out->diags))
    return -ENOMEM;
  for (size_t i = 0; i < out->n_kernels; i++) {
    upk_kernel_info *k = &out->kernels[i];
    k->line = k->col = -1;
    if (!k->mangled || k->name)
      continue;
    upk_demangle_kernel(k->mangled, name, sizeof name);
    k->name = upk_xstrdup(name);
  }
  return filter_names(req, out);
}

/* ---- one compile ---- */

static bool same_text(const char *path, const char *src, size_t len) {
  size_t n = 0;
  char *text = upk_read_file(path, SIZE_MAX, &n);
  bool same = text && n == len && !memcmp(text, src, len);
  free(text);
  return same;
}

/* Compile the file in place, by its absolute path, when the request's text is
 * the file's (relative includes, __FILE__ and #pragma once behave as in the
 * user's build), else a copy in the private directory. nvcc always runs in the
 * private directory `dir`: never in the file's, where a relative -ccbin, a
 * program on a relative PATH entry or an nvcc.profile could be the project's
 * (issue 44). */
static int place_source(const upk_compile_req *req, const char *tmp, char *dir, char *file) {
  const char *name = req->file_name ? req->file_name : "kernel.cu";
  const char *slash = strrchr(name, '/'), *base = slash ? slash + 1 : name;
  snprintf(dir, PATH_MAX, "%s", tmp);
  if (!req->detached && name[0] == '/' && same_text(name, req->source, req->source_len)) {
    snprintf(file, PATH_MAX, "%s", name);
    return 0;
  }
  snprintf(file, PATH_MAX, "%.*s", NAME_MAX, *base && *base != '.' ? base : "kernel.cu");
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", tmp, file);
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(req->source, 1, req->source_len, f) == req->source_len;
  if (f && fclose(f))
    ok = false;
  return ok ? 0 : -EIO;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A failed compile that left no error line still says why. */
static int explain_failure(upk_compile_result *out, int status, const char *log) {
  size_t n = strlen(log);
  const char *tail = n > 400 ? log + n - 400 : log;
  return upk_diags_add(&out->diags, UPK_SEV_ERROR, "nvcc/failed", "nvcc", upk_range_line(0, 0, 0),
                       "nvcc failed (exit status %d): %s", status, *tail ? tail : "no output");
}

/* ptxas errors cite PTX lines: placing them needs the PTX nvcc kept. */
static bool ptxas_error(const char *log) {
  for (const char *p = log; p && (p = strstr(p, "ptxas")); p += 5) {
    const char *eol = strchr(p, '\n');
    const char *err = strstr(p, "error");
    if (err && (!eol || err < eol))
      return true;
  }
  return false;
}

/* nvcc runs its steps (the host preprocessor, cicc, ptxas) through a shell, each argument in
 * double quotes: `$(...)`, `${...}` and backquotes in an argument are expanded there, and a
 * '"' or '\\' ends the quoting (seen with nvcc 13.0: -D'Y=$(touch x)' runs touch). An argument
 * holding one of those, or a control character, is refused before nvcc starts: the first
 * such, or NULL. */
static const char *unsafe_arg(const argvec *a) {
  for (size_t i = 1; i < a->n; i++)
    for (const unsigned char *c = (const unsigned char *)a->v[i]; *c; c++)
      if (strchr("$`\"\\", *c) || *c < 0x20 || *c == 0x7f)
        return a->v[i];
  return NULL;
}

/* A directory of this compile's own under TMPDIR (else /tmp), into tmp; -1 with errno set. The
 * worker's temporary directory (worker.c) removed while it ran is made again. */
static int make_scratch(char *tmp, size_t n) {
  int rc = upk_private_tmpdir("nvcc", tmp, n);
  if (rc)
    errno = -rc;
  return rc ? -1 : 0;
}
/* One nvcc run; its log replaces out->log. */
static int invoke(const upk_compile_req *req, const char *nvcc, const char *tmp, const char *dir,
                  const char *file, bool keep, upk_compile_result *out, int *status) {
  argvec a = {0};
  if (upk_nvcc_refuse_unboxed(req, out)) {
    *status = 1;
    free(out->log);
    out->log = upk_xstrdup("");
    return 0;
  }
  if (build_argv(req, nvcc, tmp, file, keep, &a))
    return argvec_free(&a), -ENOMEM;
  const char *bad = unsafe_arg(&a);
  if (bad) {
    upk_diags_add(&out->diags, UPK_SEV_ERROR, "nvcc/unsafe-argument", "upskilld",
                  upk_range_line(0, 0, 0),
                  "nvcc would pass '%s' through a shell, which expands '$', '`', '\"' and '\\' "
                  "there: refused, nvcc did not run (rename the file or drop the character)",
                  bad);
    argvec_free(&a);
    *status = 1;
    free(out->log);
    out->log = upk_xstrdup("");
    return 0;
  }
  size_t len = 0;
  free(out->log);
  out->log = NULL;
  char **env = NULL, **boxed = upk_nvcc_boxed(req, tmp, file, a.v, &env);
  /* No sandbox: what the preprocessor read is checked after (nvccbox.h) */
  int rc = 0;
  if (!boxed && (arg(&a, "-MD") || arg(&a, "-MF") || argf(&a, "%s/deps.d", tmp)))
    rc = -ENOMEM;
  int ruleset = boxed || rc ? -1 : upk_nvcc_ruleset(req, tmp, file, a.v);
  if (!rc && boxed)
    rc = upk_child_run_env((const char *const *)boxed, dir, env, &out->log, &len, status);
  else if (!rc && ruleset >= 0)
    rc = upk_child_run_confined(a.v, dir, ruleset, tmp, &out->log, &len, status);
  else if (!rc)
    rc = upk_child_run(a.v, dir, &out->log, &len, status);
  out->confined = boxed || ruleset >= 0;
  if (ruleset >= 0)
    close(ruleset);
  if (!rc && !boxed && upk_nvcc_deps_check(req, tmp, dir, file, a.v, out) > 0)
    *status = 1;
  upk_sandbox_free(boxed);
  upk_sandbox_free(env);
  argvec_free(&a);
  return rc;
}

static int run_nvcc(const upk_compile_req *req, const char *nvcc, const char *tmp,
                    upk_compile_result *out) {
  char dir[PATH_MAX], file[PATH_MAX];
  int rc = place_source(req, tmp, dir, file);
  if (rc)
    return upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/unreadable", "upskilld",
                         upk_range_line(0, 0, 0), "cannot write the source to %s", tmp)
               ? -ENOMEM
               : 0;
  int status = 0;
  double t0 = now_ms();
  rc = invoke(req, nvcc, tmp, dir, file, false, out, &status);
  if (!rc && status && ptxas_error(out->log)) /* again, keeping the PTX to place it */
    rc = invoke(req, nvcc, tmp, dir, file, true, out, &status);
  out->compile_ms = now_ms() - t0;
  if (rc)
    return rc == -ENOMEM
               ? rc
               : upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/no-nvcc", "upskilld",
                               upk_range_line(0, 0, 0), "cannot run %s: %s", nvcc, strerror(-rc));
  logctx c = {.req = req, .main_file = file, .dir = dir, .out = &out->diags};
  if (parse_log(&c, out->log, tmp) || fill_kernels(req, out->log, tmp, out))
    return -ENOMEM;
  if (out->confined)
    upk_compile_explain_denied(&out->diags);
  size_t errors = upk_diags_count(&out->diags, UPK_SEV_ERROR);
  if (status && !errors && explain_failure(out, status, out->log))
    return -ENOMEM;
  out->ok = out->ok && status == 0 && !upk_diags_count(&out->diags, UPK_SEV_ERROR);
  if (!out->ok) { /* a cubin only on success, as NVRTC's path gives it */
    free(out->cubin);
    out->cubin = NULL;
    out->cubin_size = 0;
  }
  return 0;
}

int upk_nvcc_compile(const upk_compile_req *req, upk_compile_result *out) {
  memset(out, 0, sizeof *out);
  char nvcc[PATH_MAX], tmp[PATH_MAX];
  if (upk_nvcc_path(req->cuda_path, nvcc, sizeof nvcc))
    return upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/no-nvcc", "upskilld",
                         upk_range_line(0, 0, 0),
                         "no nvcc at %s: files with host code need the full CUDA toolkit "
                         "(set CUDA_PATH), or validate the device code alone with backend nvrtc",
                         nvcc)
               ? -ENOMEM
               : -ENOENT;
  upk_cuda_toolkit_version(upk_cuda_default_path(req->cuda_path), out->nvrtc_version,
                           sizeof out->nvrtc_version);
  if (make_scratch(tmp, sizeof tmp))
    return upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/no-nvcc", "upskilld",
                         upk_range_line(0, 0, 0), "cannot make a temporary directory: %s",
                         strerror(errno))
               ? -ENOMEM
               : 0;
  int rc = run_nvcc(req, nvcc, tmp, out);
  remove_tree(tmp);
  return rc;
}

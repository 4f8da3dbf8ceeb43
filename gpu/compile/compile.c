/* NVRTC straight to cubin, every log line turned into diagnostics (see
 * compile.h for the pipeline and nvlog.h for the log formats). */
#include "gpu/compile/compile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu/compile/cubin.h"
#include "gpu/compile/confine.h"
#include "gpu/compile/nvlog.h"
#include "gpu/compile/nvrtc.h"
#include "gpu/compile/toolkit.h"
#include "common/fileio.h"
#include "common/xalloc.h"

static const upk_range AT_TOP = {0, 0, 0, 0};

/* One nvrtcCompileProgram and what it left. */
typedef struct attempt {
  int rc;
  char *log, *ptx;
  void *cubin;
  size_t cubin_size;
  char **lowered; /* per requested name; NULL: not asked or not found */
} attempt;

/* One upk_compile call's state. */
typedef struct job {
  const upk_compile_req *req;
  const upk_nvrtc *nv;
  char *src; /* the source, NUL-terminated */
  const char *name, *arch;
  char *detached_name; /* /dev/null/upskilld/<base>: no "..." include resolves beside it */
  char **opts;         /* owned, NULL-terminated; opts[verbose_at] is --ptxas-options=-v */
  int n_opts, verbose_at;
  bool *bad;                     /* per name: NVRTC could not parse it as a name expression */
  const char **h_text, **h_name; /* req->headers for nvrtcCreateProgram */
  bool pch;                      /* -pch is on the line */
  double ms;
} job;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---- input checks ---- */

/* Length of the valid UTF-8 sequence at s (1..4), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  size_t len = s[0] < 0x80             ? 1
               : (s[0] & 0xE0) == 0xC0 ? 2
               : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4
                                       : 0;
  if (!len || len > n || (len == 2 && s[0] < 0xC2))
    return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  return len;
}

/* Source that is empty or not text gets one diagnostic and no compile: NUL
 * bytes always; stray bytes (invalid UTF-8, control characters) when they are
 * more than a tenth of the text, so a Latin-1 comment still compiles. */
static bool bad_source(const upk_compile_req *req, upk_diags *d) {
  const unsigned char *s = (const unsigned char *)req->source;
  size_t n = req->source ? req->source_len : 0, stray = 0, first = n, nul = n;
  size_t text = 0;
  for (size_t i = 0; i < n;) {
    size_t len = utf8_len(s + i, n - i);
    /* strchr finds a NUL in any string: test it apart */
    bool ctl = len == 1 && s[i] < 0x20 && (!s[i] || !strchr("\t\n\v\f\r", s[i]));
    if (!len || ctl) {
      stray++, first = first < i ? first : i;
      nul = nul < n || s[i] ? nul : i;
    }
    text += len && !ctl && s[i] > ' ';
    i += len ? len : 1;
  }
  if (!text && nul == n && !stray) {
    upk_diags_add(d, UPK_SEV_ERROR, "kernel/empty-source", "upskilld", AT_TOP,
                  "the kernel source is empty: there is nothing to compile");
    return true;
  }
  if (nul == n && stray * 10 <= n)
    return false;
  size_t at = nul < n ? nul : first, line = 0, col = 0;
  for (size_t i = 0; i < at; i++)
    s[i] == '\n' ? (line++, col = 0) : col++;
  upk_diags_add(d, UPK_SEV_ERROR, "kernel/binary-source", "upskilld",
                upk_range_line((int)line, (int)col, (int)col + 1),
                "the kernel source is not text: %s byte 0x%02X at line %zu, column %zu (%zu stray "
                "bytes in %zu); pass CUDA C++ source as UTF-8",
                nul < n ? "a NUL" : "a stray", s[at], line + 1, col + 1, stray, n);
  return true;
}

/* sm_XX / compute_XX with XX one of NVRTC's architectures; an 'a' suffix
 * (sm_90a and later) or 'f' (family, sm_100f and later). */
static bool arch_known(const upk_nvrtc *nv, const char *arch) {
  const char *p = !strncmp(arch, "sm_", 3)        ? arch + 3
                  : !strncmp(arch, "compute_", 8) ? arch + 8
                                                  : NULL;
  char *end;
  long v = p && *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
  if (v < 0 || (*end && (end[1] || !((*end == 'a' && v >= 90) || (*end == 'f' && v >= 100)))))
    return false;
  for (int i = 0; i < nv->n_archs; i++)
    if (nv->archs[i] == v)
      return true;
  return false;
}

static bool bad_arch(const upk_nvrtc *nv, const char *arch, upk_diags *d) {
  if (arch_known(nv, arch))
    return false;
  char list[512] = "";
  size_t used = 0;
  for (int i = 0; i < nv->n_archs && used < sizeof list; i++)
    used +=
        (size_t)snprintf(list + used, sizeof list - used, "%ssm_%d", i ? ", " : "", nv->archs[i]);
  upk_diags_add(d, UPK_SEV_ERROR, "kernel/unknown-arch", "upskilld", AT_TOP,
                "NVRTC %d.%d does not know the architecture '%s'; it supports %s, the 'a' forms "
                "from sm_90a on (sm_90a for H100's wgmma/setmaxnreg), and compute_XX for PTX",
                nv->major, nv->minor, arch, list);
  return true;
}

/* ---- options ---- */

static int add_opt(job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_opt(job *j, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  j->opts[j->n_opts++] = upk_xvasprintf(fmt, ap);
  va_end(ap);
  return 0;
}

/* Whether `#include <name>` finds the toolkit's copy first. */
static bool toolkit_header(const job *j, const char *name) {
  char p[1200];
  for (size_t i = 0; i < j->req->n_headers; i++)
    if (!strcmp(j->req->headers[i].name, name))
      return false;
  for (size_t i = 0; i < j->req->includes.n; i++) {
    snprintf(p, sizeof p, "%s/%s", j->req->includes.v[i], name);
    if (access(p, F_OK) == 0)
      return false;
  }
  snprintf(p, sizeof p, "%s/include/%s", j->nv->root, name);
  bool in_include = access(p, F_OK) == 0;
  snprintf(p, sizeof p, "%s/include/cccl/%s", j->nv->root, name);
  return in_include || access(p, F_OK) == 0;
}

/* NVRTC 13.0's automatic PCH is reused while the source's leading directives
 * are unchanged, even after a header they include has changed on disk (seen:
 * an edited header's new error never shows). So -pch is used only when every
 * #include before the first declaration is a toolkit header, which is where
 * the time goes (cuda_fp16.h, cooperative_groups.h, cuda/barrier). A source
 * with no such include gains nothing and pays for building the PCH (measured:
 * saxpy 51 ms without -pch, 86-114 ms with it), so it needs at least one. */
static bool pch_safe(const job *j) {
  bool comment = false, any = false;
  char line[1024], name[512];
  for (const char *l = j->src, *nl; l; l = nl ? nl + 1 : NULL) {
    nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (len >= sizeof line)
      return false;
    snprintf(line, sizeof line, "%.*s", (int)len, l);
    char *s = line + strspn(line, " \t\r"), *end = strstr(s, "*/");
    if (comment || !strncmp(s, "/*", 2)) {
      comment = !end; /* anything after a closing comment: too unusual to judge */
      if (end && end[2 + strspn(end + 2, " \t\r")])
        return false;
      continue;
    }
    if (!*s || !strncmp(s, "//", 2))
      continue;
    if (*s != '#')
      return any; /* the first declaration: the precompiled prefix ends here */
    if (s[strlen(s) - 1] == '\\')
      return false;
    s += 1 + strspn(s + 1, " \t");
    if (strncmp(s, "include", 7))
      continue;
    s += 7 + strspn(s + 7, " \t");
    if (*s != '<' || sscanf(s + 1, "%511[^>]", name) != 1 || !toolkit_header(j, name))
      return false;
    any = true;
  }
  return any;
}

/* NVRTC's precompiled headers in a directory of this worker's own under its TMPDIR (the user's
 * cache, gpu/worker/worker.c), made again before each compile: NVRTC's automatic one is made once
 * per process, and once removed (a cache cleaner) every later compile failed "invalid PCH
 * directory". False (NVRTC's own choice stands) where TMPDIR is not an absolute path: in a
 * shared /tmp a name another user could take first is not made, nor used when it was. */
static bool pch_dir(char *dir, size_t n) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || tmp[0] != '/')
    return false;
  int len = snprintf(dir, n, "%s/upskilld-pch-%ld", tmp, (long)getpid());
  struct stat st; /* ours: not a link or a directory another user made first */
  return len > 0 && (size_t)len < n && upk_mkdir_p(dir, 0700) == 0 && lstat(dir, &st) == 0 &&
         S_ISDIR(st.st_mode) && st.st_uid == getuid();
}

/* -arch, --std, -lineinfo, the ptxas report and warnings (each its own
 * --ptxas-options: a comma-joined list reaches ptxas as one option), -I
 * (the request's, then the toolkit's include and include/cccl: NVRTC has no
 * default include path), -D, the user's options, -pch. */
static int build_options(job *j) {
  const upk_compile_req *r = j->req;
  /* the 11 fixed options below (-pch-dir the 11th), the request's, and the terminating NULL */
  size_t cap = 12 + r->includes.n + r->defines.n + r->options.n;
  j->opts = upk_xcalloc(cap, sizeof *j->opts);
  int rc = add_opt(j, "-arch=%s", j->arch) | add_opt(j, "--std=%s", r->std ? r->std : "c++17") |
           add_opt(j, "-lineinfo");
  /* NVRTC 13 caches compiles in the CUDA driver wherever libcuda loads; a hit
   * skips ptxas and its -v report (seen on an H100, issue 12). The cubin still
   * says everything but spills (cubin.h); turning the cache off keeps those. */
  if (j->nv->major >= 13)
    rc |= add_opt(j, "--no-cache");
  j->verbose_at = j->n_opts;
  rc |= add_opt(j, "--ptxas-options=-v") | add_opt(j, "--ptxas-options=-warn-spills") |
        add_opt(j, "--ptxas-options=-warn-lmem-usage");
  for (size_t i = 0; i < r->includes.n; i++)
    rc |= add_opt(j, "-I%s", r->includes.v[i]);
  rc |= add_opt(j, "-I%s/include", j->nv->root) | add_opt(j, "-I%s/include/cccl", j->nv->root);
  for (size_t i = 0; i < r->defines.n; i++)
    rc |= add_opt(j, "-D%s", r->defines.v[i]);
  for (size_t i = 0; i < r->options.n; i++)
    rc |= add_opt(j, "%s", r->options.v[i]);
  if (r->pch && pch_safe(j)) {
    char dir[PATH_MAX];
    rc |= add_opt(j, "-pch"), j->pch = true;
    if (pch_dir(dir, sizeof dir))
      rc |= add_opt(j, "--pch-dir=%s", dir);
  }
  return rc ? -ENOMEM : 0;
}

/* The checked headers as NVRTC takes them. A name the policy found nowhere (text NULL: an
 * absolute path) stands for a file that cannot be opened: it may exist by the time NVRTC
 * would look. */
static void memory_headers(job *j) {
  static const char MISSING[] = "#error cannot open this header: it did not exist when the "
                                "include policy checked the kernel\n";
  size_t n = j->req->n_headers;
  j->h_text = upk_xcalloc(n + 1, sizeof *j->h_text);
  j->h_name = upk_xcalloc(n + 1, sizeof *j->h_name);
  for (size_t i = 0; i < n; i++) {
    j->h_text[i] = j->req->headers[i].text ? j->req->headers[i].text : MISSING;
    j->h_name[i] = j->req->headers[i].name;
  }
}

/* NVRTC names an in-memory header by its include name: diagnostics name the file it was read
 * from. */
static void header_paths(const job *j, upk_diags *d, size_t from) {
  for (size_t i = from; i < d->len; i++)
    for (size_t k = 0; d->items[i].file && k < j->req->n_headers; k++)
      if (!strcmp(d->items[i].file, j->req->headers[k].name)) {
        free(d->items[i].file);
        d->items[i].file = upk_xstrdup(j->req->headers[k].path);
        break;
      }
}

/* ---- one compile ---- */

static void attempt_free(attempt *a, size_t n_names) {
  free(a->log);
  free(a->ptx);
  free(a->cubin);
  for (size_t i = 0; a->lowered && i < n_names; i++)
    free(a->lowered[i]);
  free(a->lowered);
  memset(a, 0, sizeof *a);
}

/* Copy out one of NVRTC's buffers (log, PTX, cubin); NULL when it has none. */
static int fetch(upk_nvrtc_prog p, int (*size)(upk_nvrtc_prog, size_t *),
                 int (*get)(upk_nvrtc_prog, char *), char **out, size_t *len) {
  size_t n = 0;
  *out = NULL;
  if (size(p, &n) || n == 0)
    return 0;
  *out = upk_xcalloc(1, n + 1);
  if (get(p, *out)) {
    free(*out);
    *out = NULL;
    return 0;
  }
  if (len)
    *len = n;
  return 0;
}

static int fetch_lowered(const job *j, upk_nvrtc_prog p, attempt *a) {
  size_t n = j->req->names.n;
  a->lowered = upk_xcalloc(n + 1, sizeof *a->lowered);
  for (size_t i = 0; i < n; i++) {
    const char *low = NULL;
    if (j->bad[i] || j->nv->lowered_name(p, j->req->names.v[i], &low) || !low)
      continue;
    a->lowered[i] = upk_xstrdup(low);
  }
  return 0;
}

/* Compile once; `verbose` keeps ptxas's -v, `arch_opt` replaces -arch. */
static int run_once(job *j, bool verbose, const char *arch_opt, attempt *a) {
  const upk_nvrtc *nv = j->nv;
  memset(a, 0, sizeof *a);
  upk_nvrtc_prog p = NULL;
  double t0 = now_ms();
  if ((a->rc = nv->create(&p, j->src, j->name, (int)j->req->n_headers, j->h_text, j->h_name)))
    return 0; /* diagnose() names the failure */
  for (size_t i = 0; i < j->req->names.n; i++)
    if (!j->bad[i])
      nv->add_name(p, j->req->names.v[i]);
  const char *opts[j->n_opts + 1];
  int n = 0;
  for (int i = 0; i < j->n_opts; i++)
    if (verbose || i != j->verbose_at)
      opts[n++] = i == 0 && arch_opt ? arch_opt : j->opts[i];
  a->rc = nv->compile(p, n, opts);
  int rc = fetch(p, nv->log_size, nv->log, &a->log, NULL);
  if (!rc)
    rc = fetch(p, nv->ptx_size, nv->ptx, &a->ptx, NULL);
  if (!rc && a->rc == UPK_NVRTC_SUCCESS)
    rc = fetch(p, nv->cubin_size, nv->cubin, (char **)&a->cubin, &a->cubin_size);
  if (!rc && a->rc == UPK_NVRTC_SUCCESS)
    rc = fetch_lowered(j, p, a);
  nv->destroy(&p);
  j->ms += now_ms() - t0;
  return rc;
}

/* ptxas errors cite PTX lines: NVRTC keeps the PTX of a compile that ptxas
 * refused; if this one did not, compile again to compute_XX PTX. */
static int ensure_ptx(job *j, attempt *a) {
  if (a->ptx || !a->log || !strstr(a->log, "ptxas"))
    return 0;
  char arch[64];
  const char *digits = j->arch + strcspn(j->arch, "0123456789");
  snprintf(arch, sizeof arch, "-arch=compute_%s", digits);
  attempt p;
  int rc = run_once(j, false, arch, &p);
  a->ptx = p.ptx;
  p.ptx = NULL;
  attempt_free(&p, j->req->names.n);
  return rc;
}

/* The first compile, with the names NVRTC can parse. A name it cannot parse
 * fails the whole compile in its `__nv_name_map` unit: drop those, again. */
static int first_compile(job *j, attempt *a) {
  int rc = run_once(j, true, NULL, a);
  size_t n = j->req->names.n;
  if (rc || !n || a->rc == UPK_NVRTC_SUCCESS ||
      upk_nvlog_bad_names(a->log, j->req->names, j->bad) <= 0)
    return rc;
  bool any = false;
  for (size_t i = 0; i < n; i++)
    any |= j->bad[i];
  for (size_t i = 0; i < n && !any; i++)
    j->bad[i] = true; /* could not tell which: report without any */
  attempt_free(a, n);
  return run_once(j, true, NULL, a);
}

/* ---- results ---- */

static void kernel_names(const upk_kernel_info *k, size_t n, char *list, size_t len) {
  size_t used = 0;
  list[0] = '\0';
  for (size_t i = 0; i < n && used < len; i++)
    used += (size_t)snprintf(list + used, len - used, "%s%s", i ? ", " : "", k[i].name);
}

/* Without names every kernel is reported, named as a person writes it; with
 * names, only the kernels they lower to, under the names given. */
static int name_kernels(const job *j, const attempt *a, upk_compile_result *out) {
  upk_strv names = j->req->names;
  size_t w = 0;
  char list[1024];
  for (size_t i = 0; i < out->n_kernels; i++) {
    char full[512];
    upk_demangle_kernel(out->kernels[i].mangled, full, sizeof full);
    out->kernels[i].name = upk_xstrdup(full);
  }
  kernel_names(out->kernels, out->n_kernels, list, sizeof list);
  for (size_t i = 0; i < out->n_kernels; i++) {
    upk_kernel_info k = out->kernels[i];
    size_t m = names.n;
    for (size_t q = 0; q < names.n && m == names.n; q++)
      m = a->lowered[q] && !strcmp(a->lowered[q], k.mangled) ? q : m;
    if (names.n && m == names.n) {
      upk_kernel_info_free(&k);
      continue;
    }
    if (names.n) {
      free(k.name);
      k.name = upk_xstrdup(names.v[m]);
    }
    out->kernels[w++] = k;
  }
  for (size_t q = 0; q < names.n; q++) {
    bool found = false;
    for (size_t i = 0; i < w && !found; i++)
      found = !strcmp(out->kernels[i].name, names.v[q]);
    if (!found && upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/unknown-name", "upskilld",
                                AT_TOP, "no kernel is named '%s'; the kernels here are: %s",
                                names.v[q], list[0] ? list : "(none)"))
      return -ENOMEM;
  }
  out->n_kernels = w;
  return 0;
}

/* Kernel facts of a successful compile: the cubin's, with ptxas's -v report
 * adding spill counts (cubin.h says why the report alone is not enough). */
static int report(const job *j, const attempt *a, upk_compile_result *out) {
  if (a->rc != UPK_NVRTC_SUCCESS || !a->cubin)
    return 0; /* compute_XX (PTX only) or failed: no kernels */
  int rc =
      upk_cubin_facts(a->cubin, a->cubin_size, a->log, &out->kernels, &out->n_kernels, &out->diags);
  return rc ? rc : name_kernels(j, a, out);
}

static int diagnose(job *j, attempt *a, upk_compile_result *out) {
  if (a->rc == UPK_NVRTC_ERROR_INVALID_OPTION) {
    const char *u = a->log ? strstr(a->log, "unrecognized option ") : NULL;
    const char *msg = a->log && *a->log ? a->log + strspn(a->log, " ") : "no reason given";
    if (u)
      return upk_diags_add(&out->diags, UPK_SEV_ERROR, "nvrtc/invalid-option", "nvrtc", AT_TOP,
                           "NVRTC refuses the option '%.*s'", (int)strcspn(u + 20, " \n"), u + 20);
    return upk_diags_add(&out->diags, UPK_SEV_ERROR, "nvrtc/invalid-option", "nvrtc", AT_TOP,
                         "NVRTC refuses an option: %.*s", (int)strcspn(msg, "\n"), msg);
  }
  if (ensure_ptx(j, a))
    return -ENOMEM;
  upk_nvlog_ctx ctx = {
      .main_file = j->name, .source = j->src, .source_len = j->req->source_len, .ptx = a->ptx};
  size_t from = out->diags.len;
  if (upk_nvlog_frontend(a->log, &ctx, &out->diags) || upk_nvlog_ptxas(a->log, &ctx, &out->diags))
    return -ENOMEM;
  header_paths(j, &out->diags, from);
  if (a->rc != UPK_NVRTC_SUCCESS && !upk_diags_count(&out->diags, UPK_SEV_ERROR))
    return upk_diags_add(&out->diags, UPK_SEV_ERROR, "nvrtc/error", "nvrtc", AT_TOP,
                         "NVRTC failed (%s) without saying why", j->nv->error_string(a->rc));
  return 0;
}

/* Compile; a failure whose log names no error is compiled again without -v,
 * which can swallow ptxas's error line (reference §3). */
static int compile_job(job *j, upk_compile_result *out) {
  attempt a, b = {0};
  int rc = first_compile(j, &a);
  bool again = !rc && a.rc == UPK_NVRTC_ERROR_COMPILATION && !upk_nvlog_has_error(a.log);
  if (again)
    rc = run_once(j, false, NULL, &b);
  attempt *last = again ? &b : &a;
  if (!rc)
    rc = report(j, &a, out);
  if (!rc)
    rc = diagnose(j, last, out);
  out->log = last->log;
  last->log = NULL;
  if (!rc && last->rc == UPK_NVRTC_SUCCESS && last->cubin) {
    out->cubin = last->cubin, out->cubin_size = last->cubin_size;
    last->cubin = NULL;
  }
  out->ok = !rc && out->cubin && !upk_diags_count(&out->diags, UPK_SEV_ERROR);
  out->ok = out->ok || (!rc && last->rc == UPK_NVRTC_SUCCESS && !strncmp(j->arch, "compute_", 8) &&
                        !upk_diags_count(&out->diags, UPK_SEV_ERROR));
  attempt_free(&a, j->req->names.n);
  attempt_free(&b, j->req->names.n);
  return rc;
}

/* compile_job as the confined thread's work (confine.h). */
static int run_job(void *arg, upk_compile_result *out) {
  return compile_job(arg, out);
}

static void job_free(job *j) {
  free(j->h_text);
  free(j->h_name);
  free(j->detached_name);
  for (int i = 0; j->opts && i < j->n_opts; i++)
    free(j->opts[i]);
  free(j->opts);
  free(j->src);
  free(j->bad);
}

int upk_compile(const upk_compile_req *req, upk_compile_result *out) {
  memset(out, 0, sizeof *out);
  const char *root = upk_cuda_default_path(req->cuda_path);
  const upk_nvrtc *nv;
  char reason[1024] = "";
  int rc = upk_nvrtc_get(root, &nv, reason, sizeof reason);
  if (rc) {
    upk_diags_add(&out->diags, UPK_SEV_ERROR, "kernel/no-toolkit", "upskilld", AT_TOP,
                  "%s; kernels need the CUDA toolkit's NVRTC: install NVIDIA's CUDA toolkit (its "
                  "apt repository's cuda-toolkit, or the runfile from "
                  "https://developer.nvidia.com/cuda-downloads), then set CUDA_PATH or "
                  "--cuda-path where it is not /usr/local/cuda",
                  rc == -ENOMEM ? "out of memory loading NVRTC" : reason);
    return rc;
  }
  snprintf(out->nvrtc_version, sizeof out->nvrtc_version, "%d.%d", nv->major, nv->minor);
  job j = {.req = req,
           .nv = nv,
           .name = req->file_name ? req->file_name : "kernel.cu",
           .arch = req->arch ? req->arch : "sm_90a"};
  if (bad_source(req, &out->diags) || bad_arch(nv, j.arch, &out->diags))
    return 0;
  if (req->detached) { /* NVRTC looks for "x.h" beside the program's name, or in the cwd */
    const char *slash = strrchr(j.name, '/');
    j.name = j.detached_name = upk_xasprintf("/dev/null/upskilld/%s", slash ? slash + 1 : j.name);
  }
  j.src = upk_xstrndup(req->source, req->source_len);
  j.bad = upk_xcalloc(req->names.n + 1, sizeof *j.bad);
  memory_headers(&j);
  rc = j.src && j.bad ? build_options(&j) : -ENOMEM;
  if (!rc)
    rc = upk_nvrtc_confined(req, nv->root, j.pch, run_job, &j, out);
  out->compile_ms = j.ms;
  job_free(&j);
  return rc;
}

void upk_compile_result_free(upk_compile_result *r) {
  upk_diags_free(&r->diags);
  for (size_t i = 0; i < r->n_kernels; i++)
    upk_kernel_info_free(&r->kernels[i]);
  free(r->kernels);
  free(r->log);
  free(r->cubin);
  memset(r, 0, sizeof *r);
}

int upk_nvrtc_load(const char *cuda_path, char *reason, size_t reason_len) {
  const upk_nvrtc *nv;
  char why[1024] = "";
  int rc = upk_nvrtc_get(upk_cuda_default_path(cuda_path), &nv, why, sizeof why);
  snprintf(reason, reason_len, "%s", rc ? (rc == -ENOMEM ? "out of memory" : why) : "");
  return rc ? -ENOENT : 0;
}

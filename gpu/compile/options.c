/* Compiler options from an allowlist (options.h): each option is parsed as nvcc and NVRTC would
 * parse it (value joined with '=', joined to a short name, or in the next element), its value
 * checked, and either passed on normalized or refused with the rule it would break. */
#include "gpu/compile/options.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"

/* What an option's value must look like. */
typedef enum {
  V_NONE,    /* a switch */
  V_ARCH,    /* sm_90a, compute_90, lto_90, native, all, all-major; comma lists */
  V_GENCODE, /* arch=compute_90,code=[sm_90,compute_90] */
  V_OPT,     /* 0..3 */
  V_STD,     /* c++17, gnu++20 */
  V_NUM,     /* digits */
  V_BOOL,    /* true, false */
  V_WORDS,   /* identifiers, numbers, commas: --diag-suppress=20012,177 */
  V_MACRO,   /* -D/-U: any text */
  V_PTXAS,   /* a comma list of ptxas options, each on PTXAS_OK */
  V_HOST,    /* a comma list of host-compiler options, each on HOST_OK */
  V_FATBIN,  /* a comma list of fatbinary options, each on FATBIN_OK */
  V_DIR,     /* an include directory: absolute, under the roots */
  V_ANY,     /* a refused option's value, consumed with it */
} vkind;

typedef struct spec {
  const char *name;
  vkind v;
  bool joined; /* a short form whose value may follow without '=': -DX, -I/dir, -O3 */
  int power;   /* -1: allowed (its value checked); else the upk_power it needs */
} spec;

enum { OK = -1 };

/* nvcc's and NVRTC's options (nvcc --help, NVRTC's "Supported Compile Options"). */
static const spec SPECS[] = {
    /* target */
    {"-arch", V_ARCH, false, OK},
    {"--gpu-architecture", V_ARCH, false, OK},
    {"-code", V_ARCH, false, OK},
    {"--gpu-code", V_ARCH, false, OK},
    {"-gencode", V_GENCODE, false, OK},
    {"--generate-code", V_GENCODE, false, OK},
    /* optimisation and code generation */
    {"-O", V_OPT, true, OK},
    {"--optimize", V_OPT, false, OK},
    {"-dopt", V_WORDS, false, OK},
    {"--dopt", V_WORDS, false, OK},
    {"-maxrregcount", V_NUM, false, OK},
    {"--maxrregcount", V_NUM, false, OK},
    {"--use_fast_math", V_NONE, false, OK},
    {"-use_fast_math", V_NONE, false, OK},
    {"-ftz", V_BOOL, false, OK},
    {"--ftz", V_BOOL, false, OK},
    {"-prec-div", V_BOOL, false, OK},
    {"--prec-div", V_BOOL, false, OK},
    {"-prec-sqrt", V_BOOL, false, OK},
    {"--prec-sqrt", V_BOOL, false, OK},
    {"-fmad", V_BOOL, false, OK},
    {"--fmad", V_BOOL, false, OK},
    {"--extra-device-vectorization", V_NONE, false, OK},
    {"-extra-device-vectorization", V_NONE, false, OK},
    {"-restrict", V_NONE, false, OK},
    {"--restrict", V_NONE, false, OK},
    {"-rdc", V_BOOL, false, OK},
    {"--relocatable-device-code", V_BOOL, false, OK},
    {"-dc", V_NONE, false, OK},
    {"-dw", V_NONE, false, OK},
    {"-ewp", V_NONE, false, OK},
    {"--extensible-whole-program", V_NONE, false, OK},
    {"-dlto", V_NONE, false, OK},
    {"--dlink-time-opt", V_NONE, false, OK},
    {"-default-device", V_NONE, false, OK},
    {"--device-as-default-execution-space", V_NONE, false, OK},
    {"-device-int128", V_NONE, false, OK},
    {"--device-int128", V_NONE, false, OK},
    {"-default-stream", V_WORDS, false, OK},
    {"--default-stream", V_WORDS, false, OK},
    {"-t", V_NUM, false, OK},
    {"--threads", V_NUM, false, OK},
    {"-split-compile", V_NUM, false, OK},
    {"--split-compile", V_NUM, false, OK},
    {"-Ofast-compile", V_WORDS, false, OK},
    {"--Ofast-compile", V_WORDS, false, OK},
    /* language */
    {"-std", V_STD, false, OK},
    {"--std", V_STD, false, OK},
    {"--expt-relaxed-constexpr", V_NONE, false, OK},
    {"-expt-relaxed-constexpr", V_NONE, false, OK},
    {"--expt-extended-lambda", V_NONE, false, OK},
    {"-expt-extended-lambda", V_NONE, false, OK},
    {"--extended-lambda", V_NONE, false, OK},
    {"-extended-lambda", V_NONE, false, OK},
    {"-builtin-move-forward", V_BOOL, false, OK},
    {"--builtin-move-forward", V_BOOL, false, OK},
    {"-builtin-initializer-list", V_BOOL, false, OK},
    {"--builtin-initializer-list", V_BOOL, false, OK},
    {"-D", V_MACRO, true, OK},
    {"--define-macro", V_MACRO, false, OK},
    {"-U", V_MACRO, true, OK},
    {"--undefine-macro", V_MACRO, false, OK},
    /* debug information and diagnostics */
    {"-lineinfo", V_NONE, false, OK},
    {"--generate-line-info", V_NONE, false, OK},
    {"-G", V_NONE, false, OK},
    {"--device-debug", V_NONE, false, OK},
    {"-g", V_NONE, false, OK},
    {"--debug", V_NONE, false, OK},
    {"-src-in-ptx", V_NONE, false, OK},
    {"--source-in-ptx", V_NONE, false, OK},
    {"-w", V_NONE, false, OK},
    {"--disable-warnings", V_NONE, false, OK},
    {"-res-usage", V_NONE, false, OK},
    {"--resource-usage", V_NONE, false, OK},
    {"-Werror", V_WORDS, false, OK},
    {"--Werror", V_WORDS, false, OK},
    {"-Wreorder", V_NONE, false, OK},
    {"-Wno-deprecated-gpu-targets", V_NONE, false, OK},
    {"-Wno-deprecated-declarations", V_NONE, false, OK},
    {"-Wext-lambda-captures-this", V_NONE, false, OK},
    {"-err-no", V_NONE, false, OK},
    {"--display-error-number", V_NONE, false, OK},
    {"-no-err-no", V_NONE, false, OK},
    {"--no-display-error-number", V_NONE, false, OK},
    {"-diag-suppress", V_WORDS, false, OK},
    {"--diag-suppress", V_WORDS, false, OK},
    {"-diag-error", V_WORDS, false, OK},
    {"--diag-error", V_WORDS, false, OK},
    {"-diag-warn", V_WORDS, false, OK},
    {"--diag-warn", V_WORDS, false, OK},
    {"-Xfatbin", V_FATBIN, false, OK},
    {"--fatbin-options", V_FATBIN, false, OK},
    {"-static-global-template-stub", V_BOOL, false, OK},
    {"--static-global-template-stub", V_BOOL, false, OK},
    {"-ftemplate-backtrace-limit", V_NUM, false, OK},
    {"--ftemplate-backtrace-limit", V_NUM, false, OK},
    {"-ftemplate-depth", V_NUM, false, OK},
    {"--ftemplate-depth", V_NUM, false, OK},
    {"-Xptxas", V_PTXAS, false, OK},
    {"--ptxas-options", V_PTXAS, false, OK},
    {"-Xcompiler", V_HOST, false, OK},
    {"--compiler-options", V_HOST, false, OK},
    /* include directories: under the include policy's roots */
    {"-I", V_DIR, true, OK},
    {"--include-path", V_DIR, false, OK},
    {"-isystem", V_DIR, true, OK},
    {"--system-include", V_DIR, false, OK},
    /* run a program, load a plugin or library, choose a compiler */
    {"-ccbin", V_ANY, true, UPK_POWER_RUN},
    {"--compiler-bindir", V_ANY, false, UPK_POWER_RUN},
    {"-allow-unsupported-compiler", V_NONE, false, UPK_POWER_RUN},
    {"--allow-unsupported-compiler", V_NONE, false, UPK_POWER_RUN},
    {"-Xlinker", V_ANY, false, UPK_POWER_RUN},
    {"--linker-options", V_ANY, false, UPK_POWER_RUN},
    {"-Xnvlink", V_ANY, false, UPK_POWER_RUN},
    {"--nvlink-options", V_ANY, false, UPK_POWER_RUN},
    {"-Xarchive", V_ANY, false, UPK_POWER_RUN},
    {"--archive-options", V_ANY, false, UPK_POWER_RUN},

    {"-l", V_ANY, true, UPK_POWER_RUN},
    {"--library", V_ANY, false, UPK_POWER_RUN},
    {"-L", V_ANY, true, UPK_POWER_RUN},
    {"--library-path", V_ANY, false, UPK_POWER_RUN},
    {"-run", V_NONE, false, UPK_POWER_RUN},
    {"--run", V_NONE, false, UPK_POWER_RUN},
    {"-run-args", V_ANY, false, UPK_POWER_RUN},
    {"--run-args", V_ANY, false, UPK_POWER_RUN},
    {"-fplugin", V_ANY, true, UPK_POWER_RUN},
    {"-ldir", V_ANY, false, UPK_POWER_RUN},
    {"--libdevice-directory", V_ANY, false, UPK_POWER_RUN},
    /* read any file */
    {"-include", V_ANY, true, UPK_POWER_READ},
    {"--include", V_ANY, false, UPK_POWER_READ},
    {"--pre-include", V_ANY, false, UPK_POWER_READ},
    {"-optf", V_ANY, false, UPK_POWER_READ},
    {"--options-file", V_ANY, false, UPK_POWER_READ},
    {"-use-pch", V_ANY, false, UPK_POWER_READ},
    {"--use-pch", V_ANY, false, UPK_POWER_READ},
    /* write files */
    {"-o", V_ANY, true, UPK_POWER_WRITE},
    {"--output-file", V_ANY, false, UPK_POWER_WRITE},
    {"-odir", V_ANY, false, UPK_POWER_WRITE},
    {"--output-directory", V_ANY, false, UPK_POWER_WRITE},
    {"-M", V_NONE, false, UPK_POWER_WRITE},
    {"-MM", V_NONE, false, UPK_POWER_WRITE},
    {"-MD", V_NONE, false, UPK_POWER_WRITE},
    {"-MMD", V_NONE, false, UPK_POWER_WRITE},
    {"-MP", V_NONE, false, UPK_POWER_WRITE},
    {"-MF", V_ANY, true, UPK_POWER_WRITE},
    {"-MT", V_ANY, true, UPK_POWER_WRITE},
    {"--generate-dependencies", V_NONE, false, UPK_POWER_WRITE},
    {"--generate-nonsystem-dependencies", V_NONE, false, UPK_POWER_WRITE},
    {"--generate-dependencies-with-compile", V_NONE, false, UPK_POWER_WRITE},
    {"--generate-nonsystem-dependencies-with-compile", V_NONE, false, UPK_POWER_WRITE},
    {"--generate-dependency-targets", V_NONE, false, UPK_POWER_WRITE},
    {"--dependency-output", V_ANY, false, UPK_POWER_WRITE},
    {"--dependency-target-name", V_ANY, false, UPK_POWER_WRITE},
    {"-keep", V_NONE, false, UPK_POWER_WRITE},
    {"--keep", V_NONE, false, UPK_POWER_WRITE},
    {"-keep-dir", V_ANY, false, UPK_POWER_WRITE},
    {"--keep-dir", V_ANY, false, UPK_POWER_WRITE},
    {"-save-temps", V_NONE, false, UPK_POWER_WRITE},
    {"--save-temps", V_NONE, false, UPK_POWER_WRITE},
    {"-time", V_ANY, false, UPK_POWER_WRITE},
    {"--time", V_ANY, false, UPK_POWER_WRITE},
    {"-fdevice-time-trace", V_ANY, false, UPK_POWER_WRITE},
    {"--fdevice-time-trace", V_ANY, false, UPK_POWER_WRITE},
    {"-create-pch", V_ANY, false, UPK_POWER_WRITE},
    {"--create-pch", V_ANY, false, UPK_POWER_WRITE},
    {"-pch-dir", V_ANY, false, UPK_POWER_WRITE},
    {"--pch-dir", V_ANY, false, UPK_POWER_WRITE},
    {"-lib", V_NONE, false, UPK_POWER_WRITE},
    {"--lib", V_NONE, false, UPK_POWER_WRITE},
    {"-shared", V_NONE, false, UPK_POWER_WRITE},
    {"--shared", V_NONE, false, UPK_POWER_WRITE},
};

/* ptxas options that only change the code or the report (ptxas --help). */
/* clang-format off */
static const char *const PTXAS_OK[] = {
    "-v", "--verbose", "-warn-spills", "--warn-on-spills", "-warn-lmem-usage",
    "--warn-on-local-memory-usage", "-warn-double-usage", "--warn-on-double-precision-use", "-O0",
    "-O1", "-O2", "-O3", "-Werror", "--warning-as-error", "-w", "--disable-warnings", "-lineinfo",
    "--generate-line-info", "-disable-optimizer-constants", "--disable-optimizer-constants",
    "--suppress-stack-size-warning", "-suppress-stack-size-warning",
    "--allow-expensive-optimizations", "-allow-expensive-optimizations", "-sp-bounds-check",
    "--sp-bounds-check", "--suppress-async-bulk-multicast-advisory-warning", NULL};
/* clang-format on */
/* fatbinary's options that only change how the fat binary is packed (kernels-community's
 * build.toml files use -Xfatbin=-compress-all). */
static const char *const FATBIN_OK[] = {"-compress-all", "--compress-all", NULL};
/* ptxas options with a value, the value checked as V_WORDS. */
/* clang-format off */
static const char *const PTXAS_VALUED[] = {
    "-maxrregcount", "--maxrregcount", "-dlcm", "--def-load-cache", "-dscm", "--def-store-cache",
    "--opt-level", "--fmad", "-fmad", "--allow-expensive-optimizations", "--device-debug",
    "--position-independent-code", "-pic", "--warn-on-spills", NULL};
/* clang-format on */

/* Host-compiler options that cannot run, read or write anything (the host compiler only
 * preprocesses for a -cubin compile). -W... warnings except -Wl, -Wa and -Wp (which pass
 * options on to the linker, assembler and preprocessor). */
/* clang-format off */
static const char *const HOST_OK[] = {
    "-fPIC", "-fpic", "-fPIE", "-fpie", "-fno-strict-aliasing", "-fvisibility=hidden",
    "-fvisibility=default", "-fno-exceptions", "-fexceptions", "-fno-rtti", "-frtti",
    "-fno-omit-frame-pointer", "-fomit-frame-pointer", "-w", "-g", "-O0", "-O1", "-O2", "-O3",
    "-Os", "-pthread", "-fopenmp", "-pedantic", NULL};
/* clang-format on */

/* nvcc runs its steps through a shell, each argument in double quotes: `$`, '`' would be
 * expanded there and '"', '\\' end the quoting (nvcc.c refuses them again at the end). */
static bool shell_safe(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strchr("$`\"\\", s[i]) || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
      return false;
  return true;
}

static bool in_list(const char *const *list, const char *s, size_t n) {
  for (size_t i = 0; list[i]; i++)
    if (strlen(list[i]) == n && !memcmp(list[i], s, n))
      return true;
  return false;
}

static bool all_of(const char *s, const char *chars) {
  return *s && s[strspn(s, chars)] == '\0';
}

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

static bool arch_one(const char *s, size_t n) {
  static const char *const words[] = {"native", "all", "all-major", NULL};
  static const char *const pre[] = {"sm_", "compute_", "lto_", NULL};
  if (in_list(words, s, n))
    return true;
  for (size_t i = 0; pre[i]; i++) {
    size_t p = strlen(pre[i]), d = p;
    if (n <= p || memcmp(s, pre[i], p))
      continue;
    while (d < n && s[d] >= '0' && s[d] <= '9')
      d++;
    return d > p && (d == n || (d + 1 == n && (s[d] == 'a' || s[d] == 'f')));
  }
  return false;
}

/* A comma list whose every item passes `ok`. */
static bool each_item(const char *v, bool (*ok)(const char *, size_t)) {
  if (!*v)
    return false;
  for (const char *p = v;;) {
    size_t n = strcspn(p, ",");
    if (!ok(p, n))
      return false;
    if (!p[n])
      return true;
    p += n + 1;
  }
}

static bool ptxas_one(const char *s, size_t n) {
  if (in_list(PTXAS_OK, s, n))
    return true;
  const char *eq = memchr(s, '=', n);
  if (!eq || !in_list(PTXAS_VALUED, s, (size_t)(eq - s)))
    return false;
  char v[64];
  size_t vn = n - (size_t)(eq - s) - 1;
  if (vn == 0 || vn >= sizeof v)
    return false;
  memcpy(v, eq + 1, vn);
  v[vn] = '\0';
  return all_of(v, ALNUM "_");
}

static bool fatbin_one(const char *s, size_t n) {
  return in_list(FATBIN_OK, s, n);
}

/* The language standards -std names (gcc's and nvcc's), each checked whole. */
/* clang-format off */
static const char *const STDS[] = {
    "c++98", "c++03", "c++11", "c++14", "c++17", "c++20", "c++23", "c++26", "c++0x", "c++1y",
    "c++1z", "c++2a", "c++2b", "c++2c", "gnu++98", "gnu++03", "gnu++11", "gnu++14", "gnu++17",
    "gnu++20", "gnu++23", "gnu++26", "gnu++0x", "gnu++1y", "gnu++1z", "gnu++2a", "gnu++2b",
    "gnu++2c", "c89", "c90", "c99", "c11", "c17", "c18", "c23", "gnu89", "gnu90", "gnu99",
    "gnu11", "gnu17", "gnu18", "gnu23", NULL};
/* clang-format on */

#define LOWER "abcdefghijklmnopqrstuvwxyz"
#define DIGITS "0123456789"
/* What a macro's value may hold on the host compiler's line: characters nvcc's `sh -c` reads as
 * themselves, outside any quoting (no blank, quote, `$`, `;`, `|`, `&`, `<`, `>`, `(`, `*`...). */
#define SH_LITERAL ALNUM "_.+-:/@%="

static bool is_ident(const char *s, size_t n) {
  if (!n || !strchr("_" ALNUM, s[0]) || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (size_t i = 1; i < n; i++)
    if (!strchr("_" ALNUM, s[i]) || !s[i])
      return false;
  return true;
}

static bool chars_in(const char *s, size_t n, const char *set) {
  for (size_t i = 0; i < n; i++)
    if (!s[i] || !strchr(set, s[i]))
      return false;
  return true;
}

/* -DNAME, -DNAME=VALUE (VALUE of SH_LITERAL characters), -UNAME. */
static bool host_macro(const char *s, size_t n) {
  const char *eq = memchr(s, '=', n);
  size_t name = eq ? (size_t)(eq - s) - 2 : n - 2;
  if (!is_ident(s + 2, name))
    return false;
  return !eq || (s[1] == 'D' && chars_in(eq + 1, n - name - 3, SH_LITERAL));
}

/* -W warnings: lower-case words and dashes, `=` and a number; never -Wl, -Wa, -Wp (they pass
 * options on to the linker, assembler and preprocessor). */
static bool host_warning(const char *s, size_t n) {
  if (n < 3 || ((s[2] == 'l' || s[2] == 'a' || s[2] == 'p') && (n == 3 || s[3] == ',')))
    return false;
  const char *eq = memchr(s, '=', n);
  size_t word = eq ? (size_t)(eq - s) : n;
  return chars_in(s + 2, word - 2, LOWER DIGITS "-+") && s[2] != '-' &&
         (!eq || chars_in(eq + 1, n - word - 1, DIGITS)) && (!eq || n > word + 1);
}

/* A host-compiler option (one item of -Xcompiler's comma list), by type: a switch on HOST_OK,
 * -std= a known standard, a macro, a warning. Checked whole; nvcc pastes it into its `sh -c`
 * line unquoted, so every form here is made of characters the shell reads as themselves. */
static bool host_one(const char *s, size_t n) {
  if (in_list(HOST_OK, s, n))
    return true;
  if (n > 2 && s[0] == '-' && (s[1] == 'D' || s[1] == 'U'))
    return host_macro(s, n);
  if (n > 5 && !memcmp(s, "-std=", 5))
    return in_list(STDS, s + 5, n - 5);
  if (n > 2 && s[0] == '-' && s[1] == 'W')
    return host_warning(s, n);
  return false;
}

/* An include value: each of its directories (nvcc reads "/a,/b" as two; an empty item is
 * refused) absolute and under a root both as written (lexically) and as it really is (links
 * followed), so neither `..` nor a link leads out. */
static bool dir_ok(const char *v, const upk_kopts_policy *p) {
  char one[PATH_MAX], lex[PATH_MAX], real[PATH_MAX], root[PATH_MAX];
  for (size_t n;; v += n + 1) {
    n = strcspn(v, ",");
    if (!n || n >= sizeof one || v[0] != '/' || !shell_safe(v, n))
      return false;
    snprintf(one, sizeof one, "%.*s", (int)n, v);
    upk_path_lexical(one, lex);
    bool has_real = realpath(one, real) != NULL, lex_in = false, real_in = !has_real;
    for (size_t i = 0; i < p->roots.n; i++) {
      const char *r = p->roots.v[i];
      if (r && r[0] == '/') {
        if (!realpath(r, root))
          upk_path_lexical(r, root);
        lex_in |= upk_path_under(lex, root) || upk_path_under(lex, r);
        real_in |= has_real && upk_path_under(real, root);
      }
    }
    if (!lex_in || !real_in || !v[n])
      return lex_in && real_in;
  }
}

/* nvcc's own -D/-U value: a macro name (function-like too) and a value nvcc's double quotes
 * hold (shell_safe). */
static bool nvcc_macro(const char *v) {
  size_t name = strcspn(v, "(=");
  if (!is_ident(v, name) || !shell_safe(v, strlen(v)))
    return false;
  if (v[name] != '(')
    return true;
  const char *close = strchr(v + name, ')');
  return close && chars_in(v + name + 1, (size_t)(close - v - name - 1), "_, " ALNUM) &&
         (!close[1] || close[1] == '=');
}

static bool value_ok(vkind k, const char *v, const upk_kopts_policy *p) {
  switch (k) {
  case V_NONE:
    return true;
  case V_ARCH:
    return each_item(v, arch_one);
  case V_GENCODE:
    return strstr(v, "arch=") && all_of(v, ALNUM "_=,[]\"");
  case V_OPT:
    return strlen(v) == 1 && v[0] >= '0' && v[0] <= '3';
  case V_STD:
    return in_list(STDS, v, strlen(v));
  case V_NUM:
    return all_of(v, "0123456789");
  case V_BOOL:
    return !strcmp(v, "true") || !strcmp(v, "false");
  case V_WORDS:
    return all_of(v, ALNUM "_,-");
  case V_MACRO: /* NAME, NAME=VALUE, NAME(ARGS)=VALUE; nvcc quotes it, so only what ends */
    return nvcc_macro(v); /* or expands inside double quotes is kept out of VALUE */
  case V_PTXAS:
    return each_item(v, ptxas_one);
  case V_HOST:
    return each_item(v, host_one);
  case V_FATBIN:
    return each_item(v, fatbin_one);
  case V_DIR:
    return dir_ok(v, p);
  case V_ANY:
    return false;
  }
  return false;
}

/* The spec `s` names (longest match) and where its value is; NULL when none. `*next`: the
 * value is the next element. */
static const spec *find(const char *s, const char **value, bool *next) {
  const spec *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < sizeof SPECS / sizeof *SPECS; i++) {
    const spec *sp = &SPECS[i];
    size_t n = strlen(sp->name);
    if (n <= best_len || strncmp(s, sp->name, n))
      continue;
    if (s[n] == '\0') {
      best = sp, best_len = n, *value = NULL, *next = sp->v != V_NONE;
    } else if (s[n] == '=' && sp->v != V_NONE) {
      best = sp, best_len = n, *value = s + n + 1, *next = false;
    } else if (sp->joined && sp->v != V_NONE) {
      best = sp, best_len = n, *value = s + n, *next = false;
    }
  }
  return best;
}

static bool user_allows(const upk_kopts_policy *p, const char *written, const char *canon) {
  for (size_t i = 0; i < p->user_allow.n; i++) {
    const char *g = p->user_allow.v[i];
    if (g && *g && (!fnmatch(g, written, 0) || !fnmatch(g, canon, 0)))
      return true;
  }
  return false;
}

static void push(upk_kopts *k, char *s) {
  UPK_GROW(k->v, k->cap, k->n + 2);
  k->v[k->n++] = s;
  k->v[k->n] = NULL;
}

static void refuse(const upk_kopts_from *from, int power, const char *why, const char *written,
                   upk_diags *d) {
  char what[1400], msg[2800];
  snprintf(what, sizeof what, "the compiler option '%s' (from %s%s%s)", written,
           from->what ? from->what : "options", why ? "; " : "", why ? why : "");
  upk_policy_refusal(msg, sizeof msg, from->origin, (upk_power)power, what, from->dir);
  upk_diags_add(d, UPK_SEV_ERROR, "kernel/option-refused", "upskilld", upk_range_line(0, 0, 0),
                "%s; or allow it yourself with upskilld --allow-kernel-option='%s' "
                "(docs/security.md, \"Compiler options\")",
                msg, written);
}

/* The option as the compiler gets it: one element, the value joined. */
static char *canonical(const spec *sp, const char *s, const char *value) {
  if (!sp)
    return upk_xstrdup(s);
  if (!value)
    return upk_xstrdup(sp->name);
  if (sp->v == V_PTXAS)
    return upk_xasprintf("--ptxas-options=%s", value);
  if (sp->v == V_STD)
    return upk_xasprintf("--std=%s", value);
  if (sp->joined && strlen(sp->name) == 2)
    return upk_xasprintf("%s%s", sp->name, value);
  return upk_xasprintf("%s=%s", sp->name, value);
}

/* Why a known option or an element is refused, and the power it would need. */
static const char *judge(const spec *sp, const char *s, const char *value, bool missing,
                         const upk_kopts_policy *p, int *power) {
  *power = UPK_POWER_RUN;
  if (s[0] != '-') {
    *power = UPK_POWER_READ;
    return s[0] == '@' ? "a response file of options" : "not an option: a file or stray argument";
  }
  if (!sp)
    return "not on the allowlist of compiler options";
  if (missing)
    return "it needs a value";
  if (sp->power != OK) {
    *power = sp->power;
    return NULL;
  }
  if (value_ok(sp->v, value ? value : "", p))
    return "";
  if (sp->v == V_DIR) {
    *power = UPK_POWER_READ;
    return value && value[0] == '/' ? "an include directory outside the allowed directories"
                                    : "a relative include directory: give includes instead";
  }
  if (sp->v == V_HOST)
    return "a host-compiler option not on the harmless list";
  if (sp->v == V_PTXAS)
    return "a ptxas option not on the allowlist";
  return "a value not on the allowlist";
}

size_t upk_kopts_check(upk_strv opts, const upk_kopts_from *from, const upk_kopts_policy *p,
                       upk_kopts *out, upk_diags *diags) {
  size_t refused = 0;
  for (size_t i = 0; i < opts.n; i++) {
    const char *s = opts.v[i] ? opts.v[i] : "", *value = NULL;
    bool next = false;
    const spec *sp = s[0] == '-' ? find(s, &value, &next) : NULL;
    if (next && i + 1 < opts.n)
      value = opts.v[++i];
    /* As written (a value from the next element joined by a space) and as NAME=VALUE. */
    char *written = next && value ? upk_xasprintf("%s %s", s, value) : upk_xstrdup(s);
    char *canon = canonical(sp, s, value);
    int power;
    const char *why = judge(sp, s, value, sp && sp->v != V_NONE && !value, p, &power);
    bool fine = why && !*why;
    if (fine || user_allows(p, written, canon) ||
        upk_policy_allows(from->origin, (upk_power)power, from->trusted)) {
      push(out, canon);
      canon = NULL;
    } else {
      refuse(from, power, why, written, diags);
      refused++;
    }
    free(written);
    free(canon);
  }
  return refused;
}

upk_strv upk_kopts_strv(const upk_kopts *k) {
  return (upk_strv){(const char *const *)k->v, k->n};
}

void upk_kopts_free(upk_kopts *k) {
  for (size_t i = 0; i < k->n; i++)
    free(k->v[i]);
  free(k->v);
  memset(k, 0, sizeof *k);
}

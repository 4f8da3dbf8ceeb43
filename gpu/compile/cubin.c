/* Kernel facts from a cubin's ELF sections and `.nv.info` attributes (see
 * cubin.h for the layout). Every offset and size read from the image is
 * checked against its length before use: the bytes come from a compiler, but
 * a cache or a disk can hand back anything. */
#include "gpu/compile/cubin.h"

#include "gpu/compile/nvlog.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum {
  STO_CUDA_ENTRY = 0x10,
  /* .nv.info record formats */
  EIFMT_NVAL = 1,
  EIFMT_BVAL = 2,
  EIFMT_HVAL = 3,
  EIFMT_SVAL = 4,
  /* .nv.info attributes used here */
  EIATTR_MAX_THREADS = 0x05,
  EIATTR_REQNTID = 0x10,
  EIATTR_FRAME_SIZE = 0x11,
  EIATTR_MIN_STACK_SIZE = 0x12,
  EIATTR_REGCOUNT = 0x2f,
  EIATTR_CTA_PER_CLUSTER = 0x3d,
  EIATTR_NUM_BARRIERS = 0x4c,
};

static const upk_range AT_TOP = {0, 0, 0, 0};

typedef struct image {
  const unsigned char *b;
  size_t size;
  Elf64_Ehdr eh;
  Elf64_Shdr names; /* section header string table */
} image;

static bool in_bounds(const image *im, uint64_t off, uint64_t len) {
  return off <= im->size && len <= im->size - off;
}

static bool section_at(const image *im, size_t i, Elf64_Shdr *sh) {
  if (i >= im->eh.e_shnum)
    return false;
  memcpy(sh, im->b + im->eh.e_shoff + i * sizeof *sh, sizeof *sh);
  return true;
}

static int image_open(image *im, const void *cubin, size_t size) {
  im->b = cubin;
  im->size = size;
  if (!cubin || size < sizeof im->eh || memcmp(im->b, ELFMAG, SELFMAG) ||
      im->b[EI_CLASS] != ELFCLASS64)
    return -EINVAL;
  memcpy(&im->eh, im->b, sizeof im->eh);
  if (im->eh.e_shentsize != sizeof(Elf64_Shdr) ||
      !in_bounds(im, im->eh.e_shoff, (uint64_t)im->eh.e_shnum * sizeof(Elf64_Shdr)) ||
      !section_at(im, im->eh.e_shstrndx, &im->names) ||
      !in_bounds(im, im->names.sh_offset, im->names.sh_size))
    return -EINVAL;
  return 0;
}

/* A NUL-terminated string at `off` of string table `tab`, or NULL. */
static const char *string_at(const image *im, const Elf64_Shdr *tab, uint64_t off) {
  if (off >= tab->sh_size)
    return NULL;
  const char *s = (const char *)im->b + tab->sh_offset + off;
  return memchr(s, '\0', tab->sh_size - off) ? s : NULL;
}

/* The section named prefix + suffix (suffix may be ""); its index or -1. */
static long find_section(const image *im, const char *prefix, const char *suffix, Elf64_Shdr *out) {
  size_t np = strlen(prefix);
  for (size_t i = 0; i < im->eh.e_shnum; i++) {
    Elf64_Shdr sh;
    section_at(im, i, &sh);
    const char *s = string_at(im, &im->names, sh.sh_name);
    if (s && !strncmp(s, prefix, np) && !strcmp(s + np, suffix)) {
      *out = sh;
      return (long)i;
    }
  }
  return -1;
}

/* The bytes of a section that has them in the file (not NOBITS). */
static const unsigned char *section_data(const image *im, const Elf64_Shdr *sh) {
  if (sh->sh_type == SHT_NOBITS || !in_bounds(im, sh->sh_offset, sh->sh_size))
    return NULL;
  return im->b + sh->sh_offset;
}

static uint32_t u32_at(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* ---- .nv.info attributes ---- */

typedef void attr_fn(void *ctx, unsigned attr, const unsigned char *val, size_t len,
                     unsigned small);

/* Calls fn for each well-formed record; stops at the first malformed one. */
static void walk_attrs(const unsigned char *p, size_t len, attr_fn *fn, void *ctx) {
  size_t at = 0;
  while (len - at >= 2) {
    unsigned fmt = p[at], attr = p[at + 1];
    if (fmt == EIFMT_NVAL || fmt == EIFMT_BVAL || fmt == EIFMT_HVAL) {
      if (len - at < 4)
        return;
      unsigned small = fmt == EIFMT_BVAL ? p[at + 2] : (unsigned)(p[at + 2] | p[at + 3] << 8);
      fn(ctx, attr, NULL, 0, fmt == EIFMT_NVAL ? 0 : small);
      at += 4;
    } else if (fmt == EIFMT_SVAL) {
      size_t n = len - at >= 4 ? (size_t)(p[at + 2] | p[at + 3] << 8) : SIZE_MAX;
      if (n > len - at - 4)
        return;
      fn(ctx, attr, p + at + 4, n, 0);
      at += 4 + n;
    } else {
      return;
    }
  }
}

typedef struct found {
  upk_kernel_info *k;
  uint32_t *sym; /* symbol index of each kernel */
  size_t n;
} found;

/* Global .nv.info: {u32 symbol, u32 value} records per kernel. */
static void global_attr(void *ctx, unsigned attr, const unsigned char *val, size_t len,
                        unsigned small) {
  (void)small;
  found *f = ctx;
  if (len < 8)
    return;
  uint32_t sym = u32_at(val), v = u32_at(val + 4);
  for (size_t i = 0; i < f->n; i++) {
    if (f->sym[i] != sym)
      continue;
    if (attr == EIATTR_REGCOUNT)
      f->k[i].registers = (int)v;
    else if (attr == EIATTR_FRAME_SIZE)
      f->k[i].stack_frame = v;
    else if (attr == EIATTR_MIN_STACK_SIZE)
      f->k[i].cumulative_stack = v;
  }
}

static void dims(int out[3], const unsigned char *val, size_t len) {
  for (size_t d = 0; d < 3 && len >= 12; d++)
    out[d] = (int)u32_at(val + 4 * d);
}

/* .nv.info.<kernel>: the kernel's own attributes. */
static void kernel_attr(void *ctx, unsigned attr, const unsigned char *val, size_t len,
                        unsigned small) {
  upk_kernel_info *k = ctx;
  int d[3] = {0, 0, 0};
  if (attr == EIATTR_NUM_BARRIERS)
    k->barriers = (int)small;
  else if (attr == EIATTR_CTA_PER_CLUSTER)
    dims(k->cluster, val, len);
  else if (attr == EIATTR_MAX_THREADS || attr == EIATTR_REQNTID) {
    dims(d, val, len);
    long t = (long)d[0] * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1);
    k->max_threads = t > 0 && t <= 1 << 20 ? (int)t : k->max_threads;
  }
}

/* ---- kernels ---- */

/* Entry functions of the symbol table, into f (name = mangled). */
static int list_entries(const image *im, found *f) {
  Elf64_Shdr symtab, strtab;
  size_t i = 0;
  for (; i < im->eh.e_shnum; i++)
    if (section_at(im, i, &symtab) && symtab.sh_type == SHT_SYMTAB)
      break;
  if (i == im->eh.e_shnum)
    return 0; /* no symbols: no kernels */
  const unsigned char *syms = section_data(im, &symtab);
  if (!syms || symtab.sh_entsize != sizeof(Elf64_Sym) || !section_at(im, symtab.sh_link, &strtab) ||
      !in_bounds(im, strtab.sh_offset, strtab.sh_size))
    return -EINVAL;
  size_t count = symtab.sh_size / sizeof(Elf64_Sym);
  f->k = upk_xcalloc(count ? count : 1, sizeof *f->k);
  f->sym = upk_xcalloc(count ? count : 1, sizeof *f->sym);
  for (size_t s = 0; s < count; s++) {
    Elf64_Sym sym;
    memcpy(&sym, syms + s * sizeof sym, sizeof sym);
    const char *name = string_at(im, &strtab, sym.st_name);
    if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !(sym.st_other & STO_CUDA_ENTRY) || !name ||
        !*name)
      continue;
    upk_kernel_info *k = &f->k[f->n];
    *k = (upk_kernel_info){.line = -1, .col = -1};
    k->mangled = upk_xstrdup(name);
    f->sym[f->n++] = (uint32_t)s;
  }
  return 0;
}

/* Whether shared-memory sections include the per-block reservation. */
static bool reserves_smem(const image *im) {
  Elf64_Shdr sh;
  return find_section(im, ".nv.shared.reserved.", "0", &sh) >= 0;
}

static void kernel_sections(const image *im, upk_kernel_info *k, bool reserved) {
  Elf64_Shdr sh;
  if (find_section(im, ".nv.info.", k->mangled, &sh) >= 0) {
    const unsigned char *p = section_data(im, &sh);
    if (p)
      walk_attrs(p, sh.sh_size, kernel_attr, k);
  }
  if (find_section(im, ".nv.shared.", k->mangled, &sh) >= 0) {
    long s = (long)sh.sh_size - (reserved ? UPK_CUBIN_RESERVED_SMEM : 0);
    k->smem_static = s > 0 ? s : 0;
  }
  if (find_section(im, ".nv.constant0.", k->mangled, &sh) >= 0)
    k->cmem0 = (long)sh.sh_size;
}

static void free_kernels(upk_kernel_info *k, size_t n) {
  for (size_t i = 0; k && i < n; i++)
    upk_kernel_info_free(&k[i]);
  free(k);
}

static void found_free(found *f) {
  free_kernels(f->k, f->n);
  free(f->sym);
}

int upk_cubin_kernels(const void *cubin, size_t size, upk_kernel_info **kernels, size_t *n) {
  *kernels = NULL;
  *n = 0;
  image im;
  found f = {0};
  int rc = image_open(&im, cubin, size);
  if (!rc)
    rc = list_entries(&im, &f);
  if (rc || !f.n) {
    found_free(&f);
    return rc;
  }
  Elf64_Shdr info;
  if (find_section(&im, ".nv.info", "", &info) >= 0) {
    const unsigned char *p = section_data(&im, &info);
    if (p)
      walk_attrs(p, info.sh_size, global_attr, &f);
  }
  bool reserved = reserves_smem(&im);
  for (size_t i = 0; i < f.n; i++)
    kernel_sections(&im, &f.k[i], reserved);
  free(f.sym);
  *kernels = f.k;
  *n = f.n;
  return 0;
}

long upk_cubin_section_size(const void *cubin, size_t size, const char *name) {
  image im;
  Elf64_Shdr sh;
  if (image_open(&im, cubin, size) || find_section(&im, name, "", &sh) < 0)
    return -1;
  return (long)sh.sh_size;
}

size_t upk_cubin_merge_report(upk_kernel_info *kernels, size_t n, const upk_kernel_info *report,
                              size_t n_report) {
  size_t missing = 0;
  for (size_t i = 0; i < n; i++) {
    const upk_kernel_info *r = NULL;
    for (size_t j = 0; j < n_report && !r; j++)
      r = report[j].mangled && !strcmp(report[j].mangled, kernels[i].mangled) ? &report[j] : NULL;
    if (!r) {
      missing++;
      continue;
    }
    upk_kernel_info *k = &kernels[i];
    k->spill_stores = r->spill_stores;
    k->spill_loads = r->spill_loads;
    k->registers = k->registers ? k->registers : r->registers;
    k->barriers = k->barriers ? k->barriers : r->barriers;
    /* With indirect calls (virtual functions, function pointers) the cubin's
     * FRAME_SIZE also covers what the callees need; ptxas's figure is the
     * kernel's own frame (cuda-samples newdelete: 16 vs 24 bytes). */
    k->stack_frame = r->stack_frame;
    k->cumulative_stack = k->cumulative_stack ? k->cumulative_stack : r->cumulative_stack;
  }
  return missing;
}

static int warn_unreported(const upk_kernel_info *k, size_t n, const upk_kernel_info *report,
                           size_t n_report, upk_diags *diags) {
  for (size_t i = 0; i < n; i++) {
    bool seen = false;
    for (size_t j = 0; j < n_report && !seen; j++)
      seen = report[j].mangled && !strcmp(report[j].mangled, k[i].mangled);
    if (!seen && upk_diags_add(diags, UPK_SEV_WARNING, "kernel/no-ptxas-report", "upskilld", AT_TOP,
                               "ptxas printed no resource report for '%s' (a compiler cache "
                               "hit?): its spill counts are unknown; registers, stack and "
                               "memory come from the cubin",
                               k[i].mangled))
      return -ENOMEM;
  }
  return 0;
}

int upk_cubin_facts(const void *cubin, size_t size, const char *log, upk_kernel_info **kernels,
                    size_t *n, upk_diags *diags) {
  upk_kernel_info *report = NULL;
  size_t n_report = 0;
  int rc = upk_nvlog_report(log ? log : "", &report, &n_report);
  if (rc)
    return rc;
  rc = cubin ? upk_cubin_kernels(cubin, size, kernels, n) : -EINVAL;
  if (rc == -EINVAL) { /* keep what ptxas said, and say why the rest is missing */
    *kernels = report, *n = n_report;
    return !cubin
               ? 0
               : upk_diags_add(diags, UPK_SEV_WARNING, "kernel/bad-cubin", "upskilld", AT_TOP,
                               "the compiled image is not a readable cubin; kernel facts come from "
                               "the ptxas report alone");
  }
  if (!rc) {
    upk_cubin_merge_report(*kernels, *n, report, n_report);
    rc = warn_unreported(*kernels, *n, report, n_report, diags);
  }
  free_kernels(report, n_report);
  return rc;
}

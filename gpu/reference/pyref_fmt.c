/* The handoff format of the PyTorch reference (pyref.h): reading (mmap, every
 * field checked against the file's size before it is trusted) and writing. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/reference/pyref.h"
#include "common/xalloc.h"

enum { FILE_HEAD = 16, REC_HEAD = 96, MAX_DIMS = 8 };
_Static_assert(UPK_RUN_MAX_RANK == MAX_DIMS, "the record holds 8 dimensions");
_Static_assert(UPK_DT_F32 == 0 && UPK_DT_F16 == 1 && UPK_DT_BF16 == 2 && UPK_DT_F64 == 3 &&
                   UPK_DT_I8 == 4 && UPK_DT_I32 == 5 && UPK_DT_I64 == 6 && UPK_DT_U8 == 7 &&
                   UPK_DT_U32 == 8,
               "the handoff's dtype codes are the upk_dtype values");

static uint32_t u32_at(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static uint64_t u64_at(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static size_t pad8(size_t n) {
  return (n + 7) & ~(size_t)7;
}

static int bad(char *err, size_t len, const char *path, size_t rec, const char *what) {
  if (rec == SIZE_MAX)
    snprintf(err, len, "%s: %s", path, what);
  else
    snprintf(err, len, "%s: record %zu: %s", path, rec, what);
  return -EINVAL;
}

/* One record at `p` with `left` bytes after it; returns its length or 0. */
static size_t parse_record(const unsigned char *p, size_t left, upk_pyref_tensor *t,
                           const char **why) {
  if (left < REC_HEAD || memcmp(p, "UPKR", 4))
    return *why = left < REC_HEAD ? "truncated header" : "bad record magic", 0;
  uint32_t kind = u32_at(p + 4), dtype = u32_at(p + 12), rank = u32_at(p + 16),
           name_len = u32_at(p + 20);
  uint64_t bytes = u64_at(p + 88), count = 1;
  if (kind < UPK_PYT_INPUT || kind > UPK_PYT_OUTPUT_INIT)
    return *why = "unknown kind", 0;
  if (dtype >= UPK_DT_COUNT)
    return *why = "unknown dtype code", 0;
  if (rank > MAX_DIMS)
    return *why = "rank over 8", 0;
  if (name_len > UPK_PYREF_NAME_MAX)
    return *why = "name over 255 bytes", 0;
  for (uint32_t d = 0; d < rank; d++) {
    uint64_t n = u64_at(p + 24 + 8 * d);
    if (n && count > UPK_RUN_MAX_BUFFER_BYTES / n)
      return *why = "shape over the 16 GiB buffer cap", 0;
    count *= n;
    t->shape[d] = (size_t)n;
  }
  if (bytes != count * upk_dtype_size((upk_dtype)dtype))
    return *why = "data bytes do not match dtype and shape", 0;
  size_t need = REC_HEAD + pad8(name_len) + pad8((size_t)bytes);
  if (need > left)
    return *why = "data runs past the end of the file", 0;
  t->kind = (upk_pyref_kind)kind;
  t->index = u32_at(p + 8);
  t->dtype = (upk_dtype)dtype;
  t->rank = (int)rank;
  t->count = (size_t)count;
  t->bytes = (size_t)bytes;
  memcpy(t->name, p + REC_HEAD, name_len);
  t->name[name_len] = '\0';
  t->data = p + REC_HEAD + pad8(name_len);
  return need;
}

static int parse(upk_pyref_file *f, const char *path, char *err, size_t len) {
  const unsigned char *p = f->map;
  if (f->map_len < FILE_HEAD || memcmp(p, UPK_PYREF_MAGIC, 8))
    return bad(err, len, path, SIZE_MAX, "not a tensor handoff file (no UPKTENS1 header)");
  if (u32_at(p + 8) != UPK_PYREF_VERSION)
    return bad(err, len, path, SIZE_MAX, "unsupported version (this worker reads version 1)");
  uint32_t n = u32_at(p + 12);
  if (n > UPK_PYREF_MAX_RECORDS)
    return bad(err, len, path, SIZE_MAX, "over 4096 records");
  f->t = upk_xcalloc(n ? n : 1, sizeof *f->t);
  size_t off = FILE_HEAD;
  for (uint32_t i = 0; i < n; i++, f->n++) {
    const char *why = NULL;
    size_t used = parse_record(p + off, f->map_len - off, &f->t[i], &why);
    if (!used)
      return bad(err, len, path, i, why);
    off += used;
  }
  return off == f->map_len ? 0 : bad(err, len, path, SIZE_MAX, "trailing bytes after the records");
}

int upk_pyref_file_read(const char *path, upk_pyref_file *out, char *err, size_t err_len) {
  memset(out, 0, sizeof *out);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) {
    snprintf(err, err_len, "%s: %s", path, strerror(errno));
    return -ENOENT;
  }
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < FILE_HEAD) {
    close(fd);
    return bad(err, err_len, path, SIZE_MAX, "not a tensor handoff file (too short)");
  }
  out->map_len = (size_t)st.st_size;
  out->map = mmap(NULL, out->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (out->map == MAP_FAILED) {
    out->map = NULL;
    snprintf(err, err_len, "%s: mmap: %s", path, strerror(errno));
    return -ENOMEM;
  }
  int rc = parse(out, path, err, err_len);
  if (rc)
    upk_pyref_file_close(out);
  return rc;
}

void upk_pyref_file_close(upk_pyref_file *f) {
  if (f->map)
    munmap(f->map, f->map_len);
  free(f->t);
  memset(f, 0, sizeof *f);
}

const upk_pyref_tensor *upk_pyref_find(const upk_pyref_file *f, upk_run_from from, unsigned index,
                                       const char *name) {
  for (size_t i = 0; i < f->n; i++) {
    const upk_pyref_tensor *t = &f->t[i];
    if ((from == UPK_FROM_INPUT && t->kind == UPK_PYT_INPUT && t->index == index) ||
        (from == UPK_FROM_OUTPUT && t->kind == UPK_PYT_OUTPUT && t->index == index) ||
        (from == UPK_FROM_PARAM && t->kind == UPK_PYT_PARAM && name && !strcmp(t->name, name)))
      return t;
  }
  return NULL;
}

const upk_pyref_tensor *upk_pyref_find_kind(const upk_pyref_file *f, upk_pyref_kind kind) {
  for (size_t i = 0; i < f->n; i++)
    if (f->t[i].kind == kind)
      return &f->t[i];
  return NULL;
}

static int put(FILE *f, const void *p, size_t n) {
  static const unsigned char zeros[8];
  size_t pad = pad8(n) - n;
  return fwrite(p, 1, n, f) == n && fwrite(zeros, 1, pad, f) == pad ? 0 : -EIO;
}

int upk_pyref_write(FILE *f, const upk_pyref_tensor *t, size_t n) {
  uint32_t head[2] = {UPK_PYREF_VERSION, (uint32_t)n};
  if (put(f, UPK_PYREF_MAGIC, 8) || put(f, head, sizeof head))
    return -EIO;
  for (size_t i = 0; i < n; i++) {
    unsigned char h[REC_HEAD] = "UPKR";
    uint32_t u[5] = {t[i].kind, t[i].index, t[i].dtype, (uint32_t)t[i].rank,
                     (uint32_t)strlen(t[i].name)};
    uint64_t bytes = t[i].bytes;
    memcpy(h + 4, u, sizeof u);
    for (int d = 0; d < t[i].rank && d < MAX_DIMS; d++) {
      uint64_t x = t[i].shape[d];
      memcpy(h + 24 + 8 * d, &x, 8);
    }
    memcpy(h + 88, &bytes, 8);
    if (put(f, h, sizeof h) || put(f, t[i].name, u[4]) || put(f, t[i].data, t[i].bytes))
      return -EIO;
  }
  return fflush(f) ? -EIO : 0;
}

void upk_pyref_describe(upk_dtype t, const size_t *shape, int rank, char *buf, size_t len) {
  int n = snprintf(buf, len, "%s [", upk_dtype_name(t));
  for (int d = 0; d < rank && n >= 0 && (size_t)n < len; d++)
    n += snprintf(buf + n, len - (size_t)n, "%s%zu", d ? ", " : "", shape[d]);
  if (n >= 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, "]");
}

void upk_pyref_from_name(const upk_run_arg *a, char *buf, size_t len) {
  if (a->from == UPK_FROM_PARAM)
    snprintf(buf, len, "param:%s", a->from_name);
  else
    snprintf(buf, len, "%s%u", a->from == UPK_FROM_INPUT ? "input" : "output", a->from_index);
}

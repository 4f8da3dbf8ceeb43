/* The text the rules scan: the file with each long run of one repeated unit cut short.
 *
 * libyara runs a rule's regex at every place its atom occurs, and a bounded gap makes each
 * run cost up to the gap's length, so a file made of one word repeated (4 MiB of `curl `)
 * costs atoms x gap x rules: minutes. A run of a unit of up to UNIT_MAX bytes repeated over
 * RUN_MIN bytes is cut to its first RUN_KEEP bytes (whole units). What the rules look for
 * survives: every count in a rule is under RUN_KEEP bytes, and a shorter run only brings the
 * text around it closer, never apart. Offsets are mapped back, so findings name the file's
 * own lines. A padding of near-repeats is not cut; its scan still ends at the time cap and
 * is reported as unscanned. */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "skills/audit/audit_int.h"

#define UNIT_MAX 64   /* the longest repeated unit looked for anywhere... */
#define LINE_MAX 4096 /* ...and at a line's start, a whole line */
#define RUN_MIN 1024  /* a run longer than this is cut... */
#define RUN_KEEP 512  /* ...to this (rounded up to whole units) */

/* The length of the periodic run at d[i..) with period p: bytes that equal the byte p before. */
static size_t run_at(const char *d, size_t len, size_t i, size_t p) {
  size_t k = 0;
  while (i + p + k < len && d[i + k] == d[i + p + k])
    k++;
  return p + k;
}

static void add_segment(upk__audit_view *v, size_t vat, size_t oat, size_t *cap) {
  if (v->n == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    v->vat = upk_xrealloc(v->vat, *cap * sizeof *v->vat);
    v->oat = upk_xrealloc(v->oat, *cap * sizeof *v->oat);
  }
  v->vat[v->n] = vat;
  v->oat[v->n++] = oat;
}

void upk__audit_view_make(upk__audit_view *v, const char *d, size_t len) {
  *v = (upk__audit_view){.data = d, .len = len};
  size_t cap = 0, o = 0, i = 0, src = 0; /* src: the first byte not yet copied */
  char *out = NULL;
  while (i + RUN_MIN < len) {
    size_t p = 1, run = 0, longest = 0;
    for (; p <= UNIT_MAX && i + p < len; p++) {
      if (d[i] != d[i + p])
        continue;
      run = run_at(d, len, i, p);
      if (run > RUN_MIN)
        break;
      longest = run > longest ? run : longest;
      run = 0;
    }
    if (!run && (i == 0 || d[i - 1] == '\n')) { /* a line repeated: the unit is the line */
      const char *nl = memchr(d + i, '\n', len - i < LINE_MAX ? len - i : LINE_MAX);
      p = nl ? (size_t)(nl - (d + i)) + 1 : 0;
      run = p > UNIT_MAX && i + p < len ? run_at(d, len, i, p) : 0;
      run = run > RUN_MIN ? run : 0;
    }
    if (run && run / p * p <= (RUN_KEEP + p - 1) / p * p)
      run = 0; /* nothing to cut */
    if (!run) {
      /* a shorter run's suffixes are shorter still: skip them (linear time), leaving room
       * for a run of another period to start inside it */
      i += longest > 2 * UNIT_MAX ? longest - 2 * UNIT_MAX : 1;
      continue;
    }
    if (!out) { /* the first long run: from here on the view is a copy */
      out = upk_xmalloc(len);
      add_segment(v, 0, 0, &cap);
    }
    size_t keep = (RUN_KEEP + p - 1) / p * p;
    memcpy(out + o, d + src, i + keep - src);
    o += i + keep - src;
    i += run / p * p;
    src = i;
    add_segment(v, o, src, &cap);
  }
  if (!out)
    return;
  memcpy(out + o, d + src, len - src);
  v->own = out;
  v->data = out;
  v->len = o + len - src;
}

size_t upk__audit_view_orig(const upk__audit_view *v, size_t at) {
  if (!v->n)
    return at;
  size_t lo = 0, hi = v->n; /* the last segment starting at or before at */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (v->vat[mid] <= at)
      lo = mid;
    else
      hi = mid;
  }
  return v->oat[lo] + (at - v->vat[lo]);
}

void upk__audit_view_free(upk__audit_view *v) {
  free(v->own);
  free(v->vat);
  free(v->oat);
}

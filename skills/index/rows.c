/* Rows found in row lists: a few rows' postings in a list, by one walk with a byte per row or
 * by galloping, and the per-row working arrays lookups keep between them. Split from the
 * ranking (rank.c), which sums the lists. */
#include "skills/index/db_int.h"
#include "skills/index/rank_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define SLOT_MAX_ROWID (1 << 24) /* a byte per row up to here: 16 MiB at most */
#define WALK_PER_ROW 32          /* a list this many times the rows asked, or shorter: walked */

unsigned char *upk__ix_slots(upk_index *ix, int64_t max_rowid) {
  if (max_rowid < 0 || max_rowid >= SLOT_MAX_ROWID)
    return NULL;
  if ((size_t)max_rowid >= ix->slot_cap) {
    size_t cap = upk_pow2_at_least((size_t)max_rowid + 1, 4096);
    ix->slot = upk_xrealloc(ix->slot, cap);
    memset(ix->slot + ix->slot_cap, 0, cap - ix->slot_cap);
    ix->slot_cap = cap;
  }
  return ix->slot;
}

void upk__ix_find_rows(const upk__ix_postings *l, const int64_t *rows, size_t n,
                       const unsigned char *slot, const upk__ix_posting **out) {
  if (slot && l->n <= WALK_PER_ROW * n) {
    memset(out, 0, n * sizeof *out);
    for (const upk__ix_posting *p = l->v, *end = p + l->n; p < end; p++) {
      unsigned k = slot[p->rowid];
      if (k)
        out[k - 1] = p;
    }
    return;
  }
  size_t i = 0;
  for (size_t k = 0; k < n; k++) {
    i = upk__ix_seek(l, i, rows[k]);
    out[k] = i < l->n && l->v[i].rowid == rows[k] ? &l->v[i] : NULL;
  }
}

void upk__ix_rows_trim(upk_index *ix) {
  for (int w = 0; w < 2; w++) {
    free(ix->scratch[w].acc);
    free(ix->scratch[w].count);
    free(ix->scratch[w].touched);
    free(ix->scratch[w].heap);
    ix->scratch[w] = (upk__ix_scratch){0};
  }
  free(ix->slot);
  ix->slot = NULL;
  ix->slot_cap = 0;
}

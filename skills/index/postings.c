/* Phrases' row lists kept between lookups (see postings_int.h).
 *
 * Walking a phrase's rows through FTS5 is most of a lookup (~1,000
 * instructions a row: the doclist decoded, the positions read, the callback),
 * and a collection's common words come back lookup after lookup: in 400 of a
 * public registry's skills' own descriptions, asked of 10,000 skills, half
 * of the rows walked were a phrase's walked before. A list kept here is
 * summed again at ~20 instructions a row.
 *
 * Whatever changes a row's text writes its size to %_docsize; the update hook
 * in rank.c then marks the lists stale, and the next lookup begins by
 * dropping them all (as it does when another connection committed). They
 * are a copy of what FTS5 gives, never a guess. Bounded in entries and in
 * bytes: past either, the least recently used go. */
#include "skills/index/db_int.h"
#include "skills/index/postings_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/fnv1a.h"
#include "common/xalloc.h"

#define SLOTS 8192 /* open addressing: at most half of them used */
#define MAX_ENTRIES (SLOTS / 2)
/* The rows kept, all lists together: at 60,000 skills, 32 MiB dropped lists
 * the next lookups wanted (400 own descriptions: 7.5 M instructions a lookup,
 * 6.95 M with 64 MiB; RSS ~200 MiB of the 256 allowed). */
#define MAX_BYTES (64u << 20)

typedef struct entry {
  uint64_t hash; /* 0: empty slot */
  char *key;     /* the table's number, then the phrase as the MATCH has it */
  upk__ix_postings rows;
  uint64_t used; /* the lookup that last used it */
} entry;

struct upk__ix_pcache {
  entry slot[SLOTS];
  size_t entries, bytes;
  uint64_t tick;
  size_t hits; /* lists found here since open: for tests */
  bool totals_known[2];
  int64_t rows[2], tokens[2];
};

static uint64_t key_hash(int which, const char *text, int len) {
  unsigned char w = (unsigned char)which;
  uint64_t h = upk_fnv1a(upk_fnv1a(UPK_FNV1A_INIT, &w, 1), text, (size_t)len);
  return h ? h : 1;
}

static bool key_is(const entry *e, int which, const char *text, int len) {
  return e->key[0] == '0' + which && (int)strlen(e->key + 1) == len &&
         !memcmp(e->key + 1, text, (size_t)len);
}

static entry *find_slot(upk__ix_pcache *c, uint64_t h, int which, const char *text, int len) {
  for (size_t i = h & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
    entry *e = &c->slot[i];
    if (!e->hash || (e->hash == h && key_is(e, which, text, len)))
      return e;
  }
}

static void entry_free(entry *e) {
  free(e->key);
  free(e->rows.v);
  memset(e, 0, sizeof *e);
}

void upk__ix_pcache_clear(upk_index *ix) {
  upk__ix_pcache *c = ix->pcache;
  if (!c)
    return;
  for (size_t i = 0; c->entries && i < SLOTS; i++)
    if (c->slot[i].hash) {
      entry_free(&c->slot[i]);
      c->entries--;
    }
  c->bytes = 0;
  c->totals_known[0] = c->totals_known[1] = false;
}

void upk__ix_pcache_free(upk_index *ix) {
  upk__ix_pcache_clear(ix);
  free(ix->pcache);
  ix->pcache = NULL;
}

void upk__ix_pcache_next_lookup(upk_index *ix) {
  if (ix->pcache)
    ix->pcache->tick++;
}

bool upk__ix_pcache_get(upk_index *ix, int which, const char *text, int len,
                        upk__ix_postings *out) {
  upk__ix_pcache *c = ix->pcache;
  if (!c || !c->entries)
    return false;
  entry *e = find_slot(c, key_hash(which, text, len), which, text, len);
  if (!e->hash)
    return false;
  e->used = c->tick;
  c->hits++;
  *out = e->rows; /* borrowed: valid until the next put or clear */
  return true;
}

static int by_recent_use(const void *a, const void *b) {
  const entry *x = a, *y = b;
  return x->used != y->used ? (x->used > y->used ? -1 : 1) : 0;
}

/* Keep the most recently used entries, within three quarters of each bound:
 * a rebuild then comes only every so many lookups. */
static void evict(upk__ix_pcache *c) {
  entry *all = upk_xmalloc(c->entries * sizeof *all);
  if (!all) { /* cannot sort them: drop them all */
    for (size_t i = 0; i < SLOTS; i++)
      if (c->slot[i].hash)
        entry_free(&c->slot[i]);
    c->entries = c->bytes = 0;
    return;
  }
  size_t n = 0;
  for (size_t i = 0; i < SLOTS; i++)
    if (c->slot[i].hash)
      all[n++] = c->slot[i];
  qsort(all, n, sizeof *all, by_recent_use);
  memset(c->slot, 0, sizeof c->slot);
  c->entries = c->bytes = 0;
  for (size_t i = 0; i < n; i++) {
    size_t size = all[i].rows.n * sizeof *all[i].rows.v;
    if (c->entries >= MAX_ENTRIES * 3 / 4 || c->bytes + size > MAX_BYTES / 4 * 3) {
      entry_free(&all[i]);
      continue;
    }
    const char *k = all[i].key;
    *find_slot(c, all[i].hash, k[0] - '0', k + 1, (int)strlen(k + 1)) = all[i];
    c->entries++;
    c->bytes += size;
  }
  free(all);
}

void upk__ix_pcache_put(upk_index *ix, int which, const char *text, int len,
                        upk__ix_postings *rows) {
  size_t size = rows->n * sizeof *rows->v;
  if (rows->n < UPK_IX_PCACHE_MIN_ROWS || size > MAX_BYTES / 4)
    return;
  if (!ix->pcache && !(ix->pcache = upk_xcalloc(1, sizeof *ix->pcache)))
    return;
  upk__ix_pcache *c = ix->pcache;
  uint64_t h = key_hash(which, text, len);
  entry *e = find_slot(c, h, which, text, len);
  if (e->hash)
    return; /* kept already (a task that asks a phrase twice) */
  char *key = upk_xmalloc((size_t)len + 2);
  key[0] = (char)('0' + which);
  memcpy(key + 1, text, (size_t)len);
  key[len + 1] = '\0';
  *e = (entry){h, key, *rows, c->tick};
  rows->v = NULL; /* the cache owns them now */
  rows->n = rows->cap = 0;
  c->entries++;
  c->bytes += size;
  if (c->entries > MAX_ENTRIES || c->bytes > MAX_BYTES)
    evict(c);
}

bool upk__ix_pcache_totals(upk_index *ix, int which, int64_t *rows, int64_t *tokens) {
  upk__ix_pcache *c = ix->pcache;
  if (!c || !c->totals_known[which])
    return false;
  *rows = c->rows[which];
  *tokens = c->tokens[which];
  return true;
}

void upk__ix_pcache_set_totals(upk_index *ix, int which, int64_t rows, int64_t tokens) {
  if (!ix->pcache && !(ix->pcache = upk_xcalloc(1, sizeof *ix->pcache)))
    return;
  ix->pcache->rows[which] = rows;
  ix->pcache->tokens[which] = tokens;
  ix->pcache->totals_known[which] = true;
}

size_t upk__ix_pcache_hits(const upk_index *ix) {
  return ix->pcache ? ix->pcache->hits : 0;
}

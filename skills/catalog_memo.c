/* Entries of the MCP Skills listing kept in memory (catalog.h: upk_catalog_listed): a page
 * hands out the entry built for the same stored record before, and reads nothing back.
 *
 * Why: reading a page's stored records back (json_loads) and building its entries from them
 * was half of a page's CPU, 15-30 ms for 667 skills on this loaded machine, and the same on
 * every walk although nothing had changed. Here a page costs a hash of each record's text.
 *
 * An entry is keyed by its document and checked against a hash of everything it was built
 * from: the record's text (any change to the record, whoever wrote it, is a change of the
 * text), the skill's directory (the name rule) and its root URI. A changed record is read back
 * and checked again like any other. The entries are jansson values shared with the pages
 * that list them (reference counts are atomic in jansson >= 2.11; dumping a value writes
 * nothing to it since 2.13): nobody changes one once it is stored. */
#include "skills/catalog_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

typedef struct memo_slot {
  int64_t doc; /* 0: empty (documents are numbered from 1) */
  uint64_t key;
  json_t *entry; /* NULL when the skill cannot be listed: rc and why say why */
  int rc;
  char *why;
  size_t len; /* of the record */
} memo_slot;

typedef struct memo_page {
  int64_t at, next;
  size_t per;
  int more;
  json_t *skills;
  upk_json_text *text; /* skills dumped, once asked for (NULL before) */
} memo_page;

#define MEMO_PAGES 256 /* a walk is at most 64 pages; a few walks' page sizes */
/* Answer texts kept beside the pages: ~800 bytes a skill (a 40,000-skill walk's are 16 MB).
 * Past the bound a page's text is dumped for each answer again, as before it was kept. */
#define MEMO_TEXT_BYTES (64u << 20)

struct upk_catalog_memo {
  memo_slot *slots;
  size_t cap, used;  /* cap: a power of two; emptied when three quarters full */
  size_t bytes, max; /* record text behind the entries, and its bound */
  /* whole pages, as built when the index had `stamp` (upk_index_stamp) for roots `roots` */
  memo_page pages[MEMO_PAGES];
  size_t n_pages;
  /* the pages kept before the index last changed: a page built again from the same entries
   * (most are, after a change of a few rows) takes its text over instead of dumping again */
  memo_page stale[MEMO_PAGES];
  size_t n_stale;
  size_t text_bytes; /* of the texts of both */
  uint64_t stamp, roots;
  /* Guards the pages, the stale ones, text_bytes, stamp and roots: the loop thread reads a kept
   * page while the skills queue works (upk_catalog_memo_ready). The entries need no lock: only
   * the queue's thread uses them. */
  pthread_mutex_t mu;
};

upk_catalog_memo *upk_catalog_memo_new(size_t max_entries, size_t max_bytes) {
  upk_catalog_memo *m = upk_xcalloc(1, sizeof *m);
  m->cap = upk_pow2_at_least(max_entries + max_entries / 3, 1024);
  m->slots = upk_xcalloc(m->cap, sizeof *m->slots);
  m->max = max_bytes;
  pthread_mutex_init(&m->mu, NULL);
  return m;
}

static void slot_clear(memo_slot *s) {
  json_decref(s->entry);
  free(s->why);
  memset(s, 0, sizeof *s);
}

static void memo_clear(upk_catalog_memo *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].doc)
      slot_clear(&m->slots[i]);
  m->used = 0;
  m->bytes = 0;
}

static void pages_drop(upk_catalog_memo *m, memo_page *pages, size_t *n) {
  for (size_t i = 0; i < *n; i++) {
    json_decref(pages[i].skills);
    if (pages[i].text)
      m->text_bytes -= upk_json_text_len(pages[i].text);
    upk_json_text_unref(pages[i].text);
  }
  *n = 0;
}

static void pages_clear(upk_catalog_memo *m) {
  pages_drop(m, m->pages, &m->n_pages);
}

/* The index changed: the kept pages become the stale ones (those before are dropped). */
static void pages_retire(upk_catalog_memo *m, uint64_t stamp, uint64_t roots) {
  pages_drop(m, m->stale, &m->n_stale);
  if (m->roots == roots) { /* other URI bases: other texts */
    memcpy(m->stale, m->pages, m->n_pages * sizeof *m->pages);
    m->n_stale = m->n_pages;
    m->n_pages = 0;
  }
  pages_clear(m);
  m->stamp = stamp;
  m->roots = roots;
}

void upk_catalog_memo_free(upk_catalog_memo *m) {
  if (!m)
    return;
  pages_clear(m);
  pages_drop(m, m->stale, &m->n_stale);
  memo_clear(m);
  pthread_mutex_destroy(&m->mu);
  free(m->slots);
  free(m);
}

size_t upk_catalog_memo_size(const upk_catalog_memo *m) {
  return m ? m->used : 0;
}

/* A 64-bit hash of a string, eight bytes a step (a record is 1-2 KB; FNV-1a's byte a step
 * was a tenth of a page). It tells versions apart, nothing more: whoever can write the cache
 * file can write any record, which is read back and checked like any other. */
static uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

static uint64_t hash_str(uint64_t h, const char *s) {
  size_t n = strlen(s), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = mix(h, w);
  }
  uint64_t tail = 0;
  memcpy(&tail, s + i, n - i);
  return mix(mix(h, tail), n);
}

static memo_slot *find(upk_catalog_memo *m, int64_t doc) {
  uint64_t h = mix(0x243f6a8885a308d3ULL, (uint64_t)doc);
  size_t i = (size_t)h & (m->cap - 1);
  while (m->slots[i].doc && m->slots[i].doc != doc)
    i = (i + 1) & (m->cap - 1);
  return &m->slots[i];
}

int upk_catalog_listed(upk_catalog_memo *m, int64_t doc, const char *record, const char *dir,
                       const char *root_uri, json_t **out, char *why, size_t whylen) {
  *out = NULL;
  uint64_t key = hash_str(hash_str(hash_str(0x9e3779b97f4a7c15ULL, record), dir), root_uri);
  memo_slot *s = doc > 0 ? find(m, doc) : NULL;
  if (s && s->doc == doc && s->key == key) {
    if (s->rc)
      snprintf(why, whylen, "%s", s->why ? s->why : "");
    *out = json_incref(s->entry);
    return s->rc;
  }
  int rc = upk_catalog_entry_from_record(record, dir, root_uri, out, why, whylen);
  if (!s || rc == -ENOMEM)
    return rc;
  size_t len = strlen(record);
  if (!s->doc && ((m->used + 1) * 4 > m->cap * 3 || m->bytes + len > m->max)) {
    memo_clear(m); /* bounded: a collection past the bound is built per page, as before */
    s = find(m, doc);
  }
  if (s->doc) {
    m->bytes -= s->len;
    slot_clear(s);
  } else {
    m->used++;
  }
  s->doc = doc;
  s->key = key;
  s->rc = rc;
  s->entry = json_incref(*out);
  s->why = rc ? upk_xstrdup(why) : NULL;
  s->len = len;
  m->bytes += len;
  return rc;
}

uint64_t upk_catalog_memo_hash(uint64_t h, const char *s) {
  return hash_str(h ^ 0x9e3779b97f4a7c15ULL, s ? s : "");
}

static memo_page *page_of(upk_catalog_memo *m, int64_t at, size_t per) {
  for (size_t i = 0; i < m->n_pages; i++)
    if (m->pages[i].at == at && m->pages[i].per == per)
      return &m->pages[i];
  return NULL;
}

json_t *upk_catalog_memo_page(upk_catalog_memo *m, uint64_t stamp, uint64_t roots, int64_t at,
                              size_t per, int64_t *next, int *more) {
  json_t *skills = NULL;
  pthread_mutex_lock(&m->mu);
  memo_page *p = NULL;
  if (m->stamp != stamp || m->roots != roots) /* the index changed: no page holds */
    pages_retire(m, stamp, roots);
  else if ((p = page_of(m, at, per))) {
    *next = p->next;
    *more = p->more;
    skills = json_incref(p->skills);
  }
  pthread_mutex_unlock(&m->mu);
  return skills;
}

bool upk_catalog_memo_ready(upk_catalog_memo *m, uint64_t stamp, uint64_t roots, int64_t at,
                            size_t per, upk_catalog_ready *out) {
  pthread_mutex_lock(&m->mu);
  memo_page *p = m->stamp == stamp && m->roots == roots ? page_of(m, at, per) : NULL;
  bool ready = p && p->text;
  if (ready)
    *out =
        (upk_catalog_ready){json_incref(p->skills), upk_json_text_ref(p->text), p->next, p->more};
  pthread_mutex_unlock(&m->mu);
  return ready;
}

/* The same entries in the same order: the very values (kept entries are shared and never
 * changed; the stale page's references keep them alive, so an address is never another's). */
static bool same_entries(const json_t *a, const json_t *b) {
  size_t n = json_array_size(a);
  if (n != json_array_size(b))
    return false;
  for (size_t i = 0; i < n; i++)
    if (json_array_get(a, i) != json_array_get(b, i))
      return false;
  return true;
}

void upk_catalog_memo_keep_page(upk_catalog_memo *m, uint64_t stamp, uint64_t roots, int64_t at,
                                size_t per, json_t *skills, int64_t next, int more) {
  pthread_mutex_lock(&m->mu);
  if (m->stamp != stamp || m->roots != roots)
    pages_retire(m, stamp, roots);
  if (m->n_pages == MEMO_PAGES) /* bounded: start again */
    pages_clear(m);
  memo_page *p = &m->pages[m->n_pages++];
  *p = (memo_page){at, next, per, more, json_incref(skills), NULL};
  for (size_t i = 0; i < m->n_stale; i++) {
    memo_page *s = &m->stale[i];
    if (s->at == at && s->per == per && s->text && same_entries(s->skills, skills)) {
      p->text = s->text; /* its bytes stay counted */
      s->text = NULL;
      break;
    }
  }
  pthread_mutex_unlock(&m->mu);
}

upk_json_text *upk_catalog_memo_page_text(upk_catalog_memo *m, int64_t at, size_t per) {
  pthread_mutex_lock(&m->mu);
  memo_page *p = page_of(m, at, per);
  upk_json_text *text = p ? upk_json_text_ref(p->text) : NULL;
  pthread_mutex_unlock(&m->mu);
  return text;
}

void upk_catalog_memo_keep_text(upk_catalog_memo *m, int64_t at, size_t per, upk_json_text *text) {
  pthread_mutex_lock(&m->mu);
  memo_page *p = page_of(m, at, per);
  if (p && !p->text && text && m->text_bytes + upk_json_text_len(text) <= MEMO_TEXT_BYTES) {
    p->text = upk_json_text_ref(text);
    m->text_bytes += upk_json_text_len(text);
  }
  pthread_mutex_unlock(&m->mu);
}

/* The string-keyed map (map.h): chained buckets for lookups, a doubly linked list for the
 * insertion order. The key is stored in the entry's own allocation. */
#include "common/map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/fnv1a.h"
#include "common/xalloc.h"

struct upk_map_entry {
  upk_map_entry *chain;       /* next in the bucket */
  upk_map_entry *prev, *next; /* insertion order */
  uint64_t hash;
  void *value;
  char key[]; /* NUL-terminated */
};

static uint64_t hash_key(const char *key) {
  return upk_fnv1a(UPK_FNV1A_INIT, key, strlen(key));
}

static upk_map_entry **slot(const upk_map *m, const char *key, uint64_t h) {
  upk_map_entry **p = &m->buckets[h & (m->n_buckets - 1)];
  while (*p && ((*p)->hash != h || strcmp((*p)->key, key) != 0))
    p = &(*p)->chain;
  return p;
}

/* Doubles the buckets (a power of two) once the load passes one entry per bucket. */
static void grow(upk_map *m) {
  size_t n = m->n_buckets ? m->n_buckets * 2 : 16;
  upk_map_entry **b = upk_xcalloc(n, sizeof *b);
  for (upk_map_entry *e = m->first; e; e = e->next) {
    upk_map_entry **head = &b[e->hash & (n - 1)];
    e->chain = *head;
    *head = e;
  }
  free(m->buckets);
  m->buckets = b;
  m->n_buckets = n;
}

void *upk_map_get(const upk_map *m, const char *key) {
  if (!m->size)
    return NULL;
  upk_map_entry *e = *slot(m, key, hash_key(key));
  return e ? e->value : NULL;
}

void *upk_map_set(upk_map *m, const char *key, void *value) {
  uint64_t h = hash_key(key);
  if (m->size) {
    upk_map_entry *e = *slot(m, key, h);
    if (e) {
      void *old = e->value;
      e->value = value;
      return old;
    }
  }
  if (m->size + 1 > m->n_buckets)
    grow(m);
  size_t len = strlen(key) + 1;
  upk_map_entry *e = upk_xmalloc(sizeof *e + len);
  memcpy(e->key, key, len);
  e->hash = h;
  e->value = value;
  upk_map_entry **head = &m->buckets[h & (m->n_buckets - 1)];
  e->chain = *head;
  *head = e;
  e->prev = m->last;
  e->next = NULL;
  if (m->last)
    m->last->next = e;
  else
    m->first = e;
  m->last = e;
  m->size++;
  return NULL;
}

void *upk_map_remove(upk_map *m, const char *key) {
  if (!m->size)
    return NULL;
  upk_map_entry **p = slot(m, key, hash_key(key)), *e = *p;
  if (!e)
    return NULL;
  *p = e->chain;
  if (e->prev)
    e->prev->next = e->next;
  else
    m->first = e->next;
  if (e->next)
    e->next->prev = e->prev;
  else
    m->last = e->prev;
  m->size--;
  void *value = e->value;
  free(e);
  return value;
}

void upk_map_clear(upk_map *m) {
  for (upk_map_entry *e = m->first, *next; e; e = next) {
    next = e->next;
    free(e);
  }
  free(m->buckets);
  memset(m, 0, sizeof *m);
}

upk_map_iter upk_map_iter_start(const upk_map *m) {
  return (upk_map_iter){.next = m->first};
}

bool upk_map_iter_next(upk_map_iter *it) {
  upk_map_entry *e = it->next;
  if (!e)
    return false;
  it->key = e->key;
  it->value = e->value;
  it->next = e->next;
  return true;
}

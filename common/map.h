/** A map from string keys to pointers, kept in insertion order.
 *
 * It replaces JSON objects used as maps with pointers stored as integers: lookups are typed
 * (UPK_MAP_TYPED), a set is one allocation for the entry and its key, and deleting while
 * iterating is allowed. Iteration runs in insertion order, as jansson's objects did, so what
 * the daemon does in a loop over a map (cancel every request, close every document) keeps
 * its order. Not thread-safe: one thread owns a map. A zeroed upk_map is an empty map. */
#ifndef UPK_MAP_H
#define UPK_MAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct upk_map_entry upk_map_entry;

typedef struct upk_map {
  upk_map_entry **buckets; /* chains by hash; NULL while empty */
  size_t n_buckets, size;
  upk_map_entry *first, *last; /* insertion order */
} upk_map;

/** The value stored at `key` (borrowed), or NULL. */
void *upk_map_get(const upk_map *m, const char *key);
/** Stores `value` (borrowed: the map never frees values) at a copy of `key`; replaces and
 * returns the previous value, or NULL. A replaced key keeps its place in the order. */
void *upk_map_set(upk_map *m, const char *key, void *value);
/** Removes `key`: its value, or NULL when absent. */
void *upk_map_remove(upk_map *m, const char *key);
/** Entries stored. */
static inline size_t upk_map_size(const upk_map *m) {
  return m->size;
}
/** Frees the map's own memory (not the values); the map is empty again. */
void upk_map_clear(upk_map *m);

/** Iteration in insertion order: the current entry may be removed (the next one is taken
 * before the body runs), others may not. */
typedef struct upk_map_iter {
  upk_map_entry *next;
  const char *key;
  void *value;
} upk_map_iter;
/** Starts an iteration over m. */
upk_map_iter upk_map_iter_start(const upk_map *m);
/** Steps to the next entry (it->key, it->value): false at the end. */
bool upk_map_iter_next(upk_map_iter *it);

/** Typed accessors over a upk_map of `T *` values, named PREFIX_get / _set / _remove:
 * `UPK_MAP_TYPED(doc_map, doc)` gives `doc *doc_map_get(const upk_map *, const char *)`. */
#define UPK_MAP_TYPED(prefix, T)                                                                   \
  static inline T *prefix##_get(const upk_map *m, const char *key) {                               \
    return (T *)upk_map_get(m, key);                                                               \
  }                                                                                                \
  static inline T *prefix##_set(upk_map *m, const char *key, T *value) {                           \
    return (T *)upk_map_set(m, key, value);                                                        \
  }                                                                                                \
  static inline T *prefix##_remove(upk_map *m, const char *key) {                                  \
    return (T *)upk_map_remove(m, key);                                                            \
  }

/** for (UPK_MAP_EACH(it, m)) { it.key, it.value }: insertion order, removal of it.key allowed. */
#define UPK_MAP_EACH(it, m)                                                                        \
  upk_map_iter it = upk_map_iter_start(m);                                                         \
  upk_map_iter_next(&it);

#endif

/** The stored placements and documents as a full scan reads them (places.c). Not API. */
#ifndef UPK_SKILLS_INDEX_PLACES_INT_H
#define UPK_SKILLS_INDEX_PLACES_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "skills/index.h"
#include "common/strpool.h"

/** A stored placement: a document placed at dir under root, named name. */
typedef struct upk__ix_place {
  int64_t id, root, doc;
  char *dir, *name;
  bool seen; /* found again by this scan (or written by it) */
} upk__ix_place;
/** The stored placements, found by (root, dir). */
typedef struct upk__ix_places {
  upk__ix_place *v; /* in the order they were stored */
  size_t n, cap;
  size_t next;         /* after the last one found: a scan mostly asks in this order */
  uint32_t *slots;     /* by (root, dir), 1 + an index into v (0: empty); built at a first miss */
  size_t mask;         /* slots - 1, a power of two minus one */
  upk_strpool strings; /* the places' dir and name */
} upk__ix_places;
/** Reads every stored placement into *out (emptied first): 0 or an error, noted. */
int upk__ix_places_load(upk_index *ix, upk__ix_places *out);
/** The stored placement at (root, dir), or NULL; asked in about stored order, the one
 * after the last found is tried first. */
upk__ix_place *upk__ix_places_find(upk__ix_places *ps, int64_t root, const char *dir);
/** The stored documents as a full scan's probe compares them (ST_DOC_FIND's columns), read in
 * one pass over the doc_probe index instead of a seek per skill. */
typedef struct upk__ix_doc {
  const char *path, *name;
  int64_t id, mtime, size, ino;
} upk__ix_doc;
/** The stored documents, found by path. */
typedef struct upk__ix_docs {
  upk__ix_doc *v; /* by path, as memcmp orders it (SQLite's BINARY) */
  size_t n, cap, next;
  upk_strpool strings;
} upk__ix_docs;
/** Reads every stored document into *out (emptied first): 0 or an error, noted. */
int upk__ix_docs_load(upk_index *ix, upk__ix_docs *out);
/** The stored document at path, or NULL. Asked in about path order, the one after the last
 * found is tried first. */
const upk__ix_doc *upk__ix_docs_find(upk__ix_docs *ds, const char *path);
/** Frees what upk__ix_docs_load() read (not ds itself). */
void upk__ix_docs_free(upk__ix_docs *ds);
/** Note that a placement (of document doc, named name) goes or changes: its name's shadowing
 * is redone and its document dropped if nothing places it any more (touched, cand). */
int upk__ix_note_unplaced(upk_index *ix, const char *name, int64_t doc);
/** Delete the placements not seen (each noted unplaced); *removed counts them. */
int upk__ix_places_sweep(upk_index *ix, upk__ix_places *ps, size_t *removed);
/** Frees what upk__ix_places_load() read (not ps itself). */
void upk__ix_places_free(upk__ix_places *ps);

#endif

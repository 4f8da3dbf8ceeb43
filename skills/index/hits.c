/* A ranked document made a hit: the placement the asked agents read it
 * from (lookup answers where a skill is, not only what it says), and a
 * built-in skill moved to the installed copy of its name. Split from the
 * query (query.c), which only ranks. */
#include "skills/index/db_int.h"
#include "skills/index/hits_int.h"
#include "skills/index/roots_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static bool agent_ok(const char *agent, const char *const *agents, size_t n) {
  if (!n || !agent || !*agent)
    return true;
  for (size_t i = 0; i < n; i++)
    if (agents[i] && !strcmp(agents[i], agent))
      return true;
  return false;
}

/* The order agents read placements in: higher priority, then the scope's
 * order, then the root's. */
typedef struct place_key {
  int priority, scope;
  int64_t ord;
} place_key;

static bool place_before(place_key a, place_key b) {
  if (a.priority != b.priority)
    return a.priority > b.priority;
  return a.scope != b.scope ? a.scope < b.scope : a.ord < b.ord;
}

/* upk__ix_fill_entry(), and the placement's key in *where (if asked). One statement: the
 * document's row with each of its visible placements (none when it is not usable: agents skip
 * it, so do we), each placement's root from the rows kept. */
static int entry_at(upk_index *ix, int64_t doc, const char *const *agents, size_t n_agents,
                    upk_index_entry *e, place_key *where) {
  memset(e, 0, sizeof *e);
  int rc = upk__ix_roots_read(ix);
  if (rc)
    return rc;
  sqlite3_stmt *st = ix->st[ST_DOC_ENTRY];
  sqlite3_bind_int64(st, 1, doc);
  bool found = false;
  place_key best = {0};
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    const upk__ix_root_row *r = upk__ix_root_of(ix, sqlite3_column_int64(st, 0));
    if (!r)
      continue; /* a placement of no root: the join dropped it too */
    place_key k = {r->priority, r->scope, r->ord};
    if (!agent_ok(r->agent, agents, n_agents) || (found && !place_before(k, best)))
      continue;
    upk_index_entry_free(e);
    e->agent = r->agent ? upk_xstrdup(r->agent) : NULL;
    e->scope = (upk_index_scope)k.scope;
    e->priority = k.priority;
    e->dir = upk_xstrdup((const char *)sqlite3_column_text(st, 1));
    e->root = upk_xstrdup(r->dir);
    e->name = upk_xstrdup((const char *)sqlite3_column_text(st, 2));
    e->description = upk_xstrdup((const char *)sqlite3_column_text(st, 3));
    e->path = upk_xstrdup((const char *)sqlite3_column_text(st, 4));
    e->usable = true;
    e->tokens = (size_t)sqlite3_column_int64(st, 5);
    best = k;
    found = true;
  }
  sqlite3_reset(st);
  if (s != SQLITE_DONE) {
    upk_index_entry_free(e);
    return upk__ix_sql_fail(ix, "lookup: a hit's entry");
  }
  if (!found)
    return 0;
  if (where)
    *where = best;
  return e->dir && e->root && e->name && e->description && e->path ? 1 : -ENOMEM;
}

int upk__ix_fill_entry(upk_index *ix, int64_t doc, const char *const *agents, size_t n_agents,
                       upk_index_entry *e) {
  return entry_at(ix, doc, agents, n_agents, e, NULL);
}

int upk__ix_place_at_installed_copy(upk_index *ix, const char *const *agents, size_t n_agents,
                                    upk_index_entry *hit) {
  sqlite3_stmt *st = ix->st[ST_NAME_INSTALLED];
  sqlite3_bind_text(st, 1, hit->name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 2, UPK_INDEX_BUILTIN);
  upk_index_entry best = {0};
  place_key best_at = {0};
  int rc = 0, s;
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
    upk_index_entry e;
    place_key at;
    int ok = entry_at(ix, sqlite3_column_int64(st, 0), agents, n_agents, &e, &at);
    if (ok == 1 && (!best.name || place_before(at, best_at))) {
      upk_index_entry_free(&best);
      best = e;
      best_at = at;
    } else
      upk_index_entry_free(&e);
    rc = ok < 0 ? ok : 0;
  }
  if (!rc && s != SQLITE_DONE)
    rc = upk__ix_sql_fail(ix, "lookup: installed copies");
  sqlite3_reset(st);
  if (!rc && best.name) {
    upk_index_entry_free(hit);
    *hit = best;
  } else
    upk_index_entry_free(&best);
  return rc;
}

void upk_index_hits_free(upk_index_hits *h) {
  for (size_t i = 0; i < h->len; i++) {
    upk_index_entry_free(&h->items[i].e);
    free(h->items[i].why);
    for (size_t k = 0; k < h->items[i].n_matches; k++)
      free(h->items[i].matches[k].term);
    free(h->items[i].matches);
  }
  free(h->items);
  h->items = NULL;
  h->len = 0;
}

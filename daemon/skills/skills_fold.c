/* list_skills folded and paged by cursor (skills_fold.h). */
#include "daemon/skills/skills_fold.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fnv1a.h"
#include "common/xalloc.h"
#include "protocol/jsonrpc.h"

json_t *upk_skills_short_description(const char *d, size_t max) {
  size_t n = strlen(d), cut = n;
  for (size_t i = 0; i + 1 < n; i++)
    if (d[i] == '.' && (d[i + 1] == ' ' || d[i + 1] == '\n')) {
      cut = i + 1;
      break;
    }
  if (cut > max)
    cut = upk_utf8_prefix(d, max);
  if (cut == n || !cut)
    return json_string(d);
  char *t = upk_xasprintf("%.*s%s", (int)cut, d, d[cut - 1] == '.' ? "" : "...");
  json_t *j = json_string(t);
  free(t);
  return j;
}

enum { DESC_SHORT = 200 };

/* Whether `s` is among the first `n` of `v`'s strings (a NULL `s` never is). */
static bool seen(const char *s, const upk_index_entry *v, size_t n, bool agent) {
  for (size_t k = 0; s && k < n; k++) {
    const char *t = agent ? v[k].agent : v[k].dir;
    if (t && !strcmp(t, s))
      return true;
  }
  return false;
}

/* n entries that share a name: one entry, from the placement an agent loads (not shadowed)
 * when there is one; its agents each once, its placements the directories holding it. */
static json_t *fold_one(const upk_index_entry *e, size_t n, bool full) {
  const upk_index_entry *w = e;
  json_t *agents = json_array();
  bool usable = false;
  size_t dirs = 0, problems = 0;
  for (size_t k = 0; k < n; k++) {
    if (w->shadowed && !e[k].shadowed)
      w = &e[k];
    usable |= e[k].usable;
    problems += e[k].diags.len;
    if (e[k].agent && !seen(e[k].agent, e, k, true))
      json_array_append_new(agents, json_string(e[k].agent));
    dirs += !seen(e[k].dir, e, k, false);
  }
  const char *d = w->description ? w->description : "";
  json_t *j =
      json_pack("{s:s,s:o,s:s,s:s,s:s?,s:s,s:b,s:b,s:I,s:o,s:I}", "name", w->name, "description",
                full ? json_string(d) : upk_skills_short_description(d, DESC_SHORT), "path",
                w->path, "dir", w->dir, "agent", w->agent, "scope", upk_index_scope_name(w->scope),
                "shadowed", w->shadowed, "usable", usable, "tokens", (json_int_t)w->tokens,
                "agents", agents, "placements", (json_int_t)dirs);
  if (problems) /* the details are list_skills with fold: false */
    json_object_set_new(j, "problems", json_integer((json_int_t)problems));
  return j;
}

json_t *upk_skills_fold(const upk_index_entries *all, bool full, size_t offset, size_t limit,
                        size_t *total) {
  json_t *page = json_array();
  size_t names = 0;
  for (size_t i = 0; i < all->len;) {
    size_t j = i + 1;
    while (j < all->len && !strcmp(all->items[j].name, all->items[i].name))
      j++;
    if (names >= offset && names - offset < limit)
      json_array_append_new(page, fold_one(&all->items[i], j - i, full));
    names++;
    i = j;
  }
  *total = names;
  return page;
}

/* A check that a cursor was not altered by accident or moved between listings (not a secret:
 * a caller who forges one gets a page of a listing it may read anyway). */
static unsigned long long check(size_t offset, const char *listing) {
  uint64_t h = upk_fnv1a(UPK_FNV1A_INIT, &offset, sizeof offset);
  return (unsigned long long)upk_fnv1a(h, listing, strlen(listing));
}

char *upk_skills_cursor(size_t offset, const char *listing) {
  return upk_xasprintf("o%zu.%016llx", offset, check(offset, listing));
}

long long upk_skills_cursor_offset(const char *cursor, const char *listing) {
  size_t offset;
  unsigned long long h;
  int used = 0;
  if (sscanf(cursor, "o%zu.%16llx%n", &offset, &h, &used) != 2 || cursor[used] ||
      offset > 1000000000 || h != check(offset, listing))
    return -1;
  return (long long)offset;
}

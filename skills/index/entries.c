/* The skill index: reading entries back (list, get, shadows) and the
 * stored form of per-skill diagnostics. */
#include "skills/index/db_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "common/xalloc.h"

/* ---- entries ---- */

static char *col_dup(sqlite3_stmt *st, int col) {
  const unsigned char *s = sqlite3_column_text(st, col);
  return upk_xstrdup(s ? (const char *)s : "");
}

char *upk__ix_diags_pack(const upk_diags *d) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&b, "");
  for (size_t i = 0; d && i < d->len; i++) {
    const upk_diag *x = &d->items[i];
    char head[96];
    snprintf(head, sizeof head, "%d\x1f%d\x1f%d\x1f%d\x1f%d\x1f", x->severity, x->range.line,
             x->range.col, x->range.end_line, x->range.end_col);
    upk_buf_puts(&b, head);
    const char *parts[4] = {x->code, x->source, x->file, x->message};
    for (int k = 0; k < 4; k++) {
      size_t at = b.len;
      upk_buf_puts(&b, parts[k] ? parts[k] : "");
      for (size_t j = at; j < b.len; j++) /* keep the separators unambiguous */
        if (b.data[j] == '\x1e' || b.data[j] == '\x1f')
          b.data[j] = ' ';
      upk_buf_append(&b, k < 3 ? "\x1f" : "\x1e", 1);
    }
  }
  return b.data;
}

/* A number diags_pack wrote (0 for anything else: the field is ours, not a reader's). */
static int field_int(const char *f) {
  return (int)strtol(f, NULL, 10);
}

static void diags_unpack(const char *s, upk_diags *d) {
  while (s && *s) {
    const char *end = strchr(s, '\x1e');
    if (!end)
      break;
    char *rec = upk_xstrndup(s, (size_t)(end - s)), *f[9] = {0}, *cur = rec;
    int n;
    /* strsep keeps empty fields, which strtok would drop */
    for (n = 0; n < 9 && cur; n++)
      f[n] = strsep(&cur, "\x1f");
    if (n == 9) {
      upk_range r = {field_int(f[1]), field_int(f[2]), field_int(f[3]), field_int(f[4])};
      if (!upk_diags_add(d, (upk_severity)field_int(f[0]), *f[5] ? f[5] : NULL, *f[6] ? f[6] : NULL,
                         r, "%s", f[8]) &&
          *f[7])
        d->items[d->len - 1].file = upk_xstrdup(f[7]);
    }
    free(rec);
    s = end + 1;
  }
}

int upk__ix_entry_from_row(sqlite3_stmt *st, int c, upk_index_entry *e) {
  memset(e, 0, sizeof *e);
  e->name = col_dup(st, c);
  e->description = col_dup(st, c + 1);
  e->path = col_dup(st, c + 2);
  e->dir = col_dup(st, c + 3);
  e->root = col_dup(st, c + 4);
  const unsigned char *agent = sqlite3_column_text(st, c + 5);
  e->agent = agent && *agent ? upk_xstrdup((const char *)agent) : NULL;
  e->scope = (upk_index_scope)sqlite3_column_int(st, c + 6);
  e->priority = sqlite3_column_int(st, c + 7);
  e->shadowed = !sqlite3_column_int(st, c + 8);
  e->usable = sqlite3_column_int(st, c + 9);
  e->tokens = (size_t)sqlite3_column_int64(st, c + 10);
  diags_unpack((const char *)sqlite3_column_text(st, c + 11), &e->diags);
  if (!e->name || !e->description || !e->path || !e->dir || !e->root) {
    upk_index_entry_free(e);
    return -ENOMEM;
  }
  return 0;
}

void upk_index_entry_free(upk_index_entry *e) {
  free(e->name);
  free(e->description);
  free(e->path);
  free(e->dir);
  free(e->root);
  free(e->agent);
  free(e->catalog);
  upk_diags_free(&e->diags);
  memset(e, 0, sizeof *e);
}

void upk_index_entries_free(upk_index_entries *e) {
  for (size_t i = 0; i < e->len; i++)
    upk_index_entry_free(&e->items[i]);
  free(e->items);
  e->items = NULL;
  e->len = 0;
}

/* Collect the rows of a prepared statement whose first columns are UPK_ENTRY_COLS and whose
 * next column is a cursor. */
static int collect(upk_index *ix, sqlite3_stmt *st, int64_t *cursor, upk_index_entries *out,
                   const char *what) {
  int rc = 0, s;
  size_t cap = 0;
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
    UPK_GROW(out->items, cap, out->len + 1);
    if (!(rc = upk__ix_entry_from_row(st, 0, &out->items[out->len]))) {
      out->len++;
      if (cursor)
        *cursor = sqlite3_column_int64(st, 12);
      if (sqlite3_column_count(st) > 13 && sqlite3_column_type(st, 13) == SQLITE_TEXT &&
          !(out->items[out->len - 1].catalog =
                upk_xstrdup((const char *)sqlite3_column_text(st, 13))))
        rc = -ENOMEM;
      if (sqlite3_column_count(st) > 14) {
        out->items[out->len - 1].catalog_ours = sqlite3_column_int(st, 14) == 1;
        out->items[out->len - 1].catalog_doc = sqlite3_column_int64(st, 12);
      }
    }
  }
  if (!rc && s != SQLITE_DONE)
    rc = upk__ix_sql_fail(ix, what);
  sqlite3_finalize(st);
  if (rc)
    upk_index_entries_free(out);
  return rc;
}

#define LIST_WHERE " WHERE (?1 IS NULL OR r.agent = ?1) AND (?2 IS NULL OR r.scope = ?2)"

static size_t list_total(upk_index *ix, const char *agent, const upk_index_scope *scope) {
  static const char sql[] = "SELECT count(*) FROM place p JOIN root r ON r.id = p.root" LIST_WHERE;
  sqlite3_stmt *st;
  size_t n = 0;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return 0;
  if (agent)
    sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
  if (scope)
    sqlite3_bind_int(st, 2, *scope);
  if (sqlite3_step(st) == SQLITE_ROW)
    n = (size_t)sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return n;
}

int upk_index_list_page(upk_index *ix, const char *agent, const upk_index_scope *scope,
                        size_t offset, size_t limit, upk_index_entries *out, size_t *total) {
  static const char sql[] = "SELECT " UPK_ENTRY_COLS " FROM " UPK_ENTRY_FROM LIST_WHERE
                            " ORDER BY p.name, p.visible DESC, r.priority DESC, r.scope, r.ord,"
                            " p.dir LIMIT ?3 OFFSET ?4";
  memset(out, 0, sizeof *out);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "list");
  if (agent)
    sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
  if (scope)
    sqlite3_bind_int(st, 2, *scope);
  sqlite3_bind_int64(st, 3, limit && limit < INT64_MAX ? (int64_t)limit : -1);
  sqlite3_bind_int64(st, 4, offset < INT64_MAX ? (int64_t)offset : INT64_MAX);
  int rc = collect(ix, st, NULL, out, "list");
  if (rc)
    return rc;
  if (total) /* the whole list's length, also when the page is past its end */
    *total = offset == 0 && (!limit || out->len < limit) ? out->len : list_total(ix, agent, scope);
  return rc;
}

int upk_index_list(upk_index *ix, const char *agent, const upk_index_scope *scope,
                   upk_index_entries *out) {
  return upk_index_list_page(ix, agent, scope, 0, 0, out, NULL);
}

int upk_index_each_dir(upk_index *ix, int64_t *cursor, size_t max,
                       void (*each)(const char *dir, void *arg), void *arg) {
  sqlite3_stmt *st;
  /* A root several agents read is a root row per agent, each with the same placements: one
   * is enough (60,000 rows instead of 240,000 for a registry in .claude/skills). In id order
   * (`+root`: not the (root, dir) index, which would sort every row for each page). */
  static const char sql[] = "SELECT id, dir FROM place WHERE id > ?1 AND +root IN"
                            " (SELECT min(id) FROM root GROUP BY dir) ORDER BY id LIMIT ?2";
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "list directories");
  sqlite3_bind_int64(st, 1, *cursor);
  sqlite3_bind_int64(st, 2, max > INT64_MAX ? INT64_MAX : (sqlite3_int64)max);
  size_t n = 0;
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    *cursor = sqlite3_column_int64(st, 0);
    each((const char *)sqlite3_column_text(st, 1), arg);
    n++;
  }
  sqlite3_finalize(st);
  if (s != SQLITE_DONE)
    return upk__ix_sql_fail(ix, "list directories");
  return n == max;
}

/* ---- distinct skills: the MCP Skills extension's catalog ---- */

/* One SKILL.md's first placement: project before user before built-in, then root order. */
#define FIRST_PLACE                                                                                \
  "(SELECT p2.id FROM place p2 JOIN root r2 ON r2.id = p2.root WHERE p2.doc = d.id"                \
  " ORDER BY r2.scope, r2.ord, p2.dir LIMIT 1)"

int upk_index_skills_page(upk_index *ix, int64_t *cursor, size_t max, upk_index_entries *out) {
  static const char sql[] =
      /* UPK_ENTRY_COLS but the diagnostics, which the listing does not show: unpacking
       * them was a tenth of a page's time in a registry, whose skills have many */
      "SELECT p.name, d.description, d.path, p.dir, r.dir, r.agent, r.scope, r.priority,"
      " p.visible, d.usable, d.tokens, '', d.id, c.record, c.epoch = ?3 FROM doc d"
      " JOIN place p ON p.id = " FIRST_PLACE
      " JOIN root r ON r.id = p.root LEFT JOIN catalog c ON c.doc = d.id"
      " WHERE d.id > ?1 ORDER BY d.id LIMIT ?2";
  memset(out, 0, sizeof *out);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "list skills");
  sqlite3_bind_int64(st, 1, *cursor);
  sqlite3_bind_int64(st, 2, max > INT64_MAX ? INT64_MAX : (sqlite3_int64)max);
  sqlite3_bind_int64(st, 3, ix->epoch);
  int rc = collect(ix, st, cursor, out, "list skills");
  return rc ? rc : out->len == max;
}

static void listing_changed(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  upk_index *ix = sqlite3_user_data(ctx);
  __atomic_add_fetch(&ix->listing_changes, 1, __ATOMIC_RELAXED); /* on the writing thread */
  sqlite3_result_null(ctx);
}

/* Count the changes of what a listing page reads, on this connection: temporary triggers (they
 * live with the connection, nothing is written to the file) on the rows of documents, places,
 * roots and stored entries, not on what scans rewrite without changing a page (a place's
 * generation and name, the full-text tables, merges): a catch-up scan and the merges after the
 * first index wrote ~1,000 rows a queue turn, and a stamp of every change never held a page.
 * An update counts only when a value differs (a scan upserts every place it sees with its own
 * document again, and sets each root's `truncated` again: every kept page was dropped). */
static int watch_listing(upk_index *ix) {
  static const char sql[] =
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_doc_i AFTER INSERT ON main.doc"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_doc_d AFTER DELETE ON main.doc"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_doc_u AFTER UPDATE OF path, usable ON main.doc"
      " WHEN OLD.path IS NOT NEW.path OR OLD.usable IS NOT NEW.usable"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_place_i AFTER INSERT ON main.place"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_place_d AFTER DELETE ON main.place"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_place_u AFTER UPDATE OF root, dir, doc, visible"
      " ON main.place WHEN OLD.root IS NOT NEW.root OR OLD.dir IS NOT NEW.dir"
      " OR OLD.doc IS NOT NEW.doc OR OLD.visible IS NOT NEW.visible"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_root_i AFTER INSERT ON main.root"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_root_d AFTER DELETE ON main.root"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_root_u AFTER UPDATE ON main.root" /* every column */
      " WHEN OLD.id IS NOT NEW.id OR OLD.dir IS NOT NEW.dir OR OLD.real IS NOT NEW.real"
      " OR OLD.agent IS NOT NEW.agent OR OLD.scope IS NOT NEW.scope"
      " OR OLD.priority IS NOT NEW.priority OR OLD.ord IS NOT NEW.ord"
      " OR OLD.max_depth IS NOT NEW.max_depth OR OLD.truncated IS NOT NEW.truncated"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_cat_i AFTER INSERT ON main.catalog"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_cat_d AFTER DELETE ON main.catalog"
      " BEGIN SELECT upk_listing_changed(); END;"
      "CREATE TEMP TRIGGER IF NOT EXISTS upk_l_cat_u AFTER UPDATE ON main.catalog"
      " BEGIN SELECT upk_listing_changed(); END;";
  if (sqlite3_create_function(ix->db, "upk_listing_changed", 0, SQLITE_UTF8, ix, listing_changed,
                              NULL, NULL) != SQLITE_OK ||
      sqlite3_exec(ix->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "list skills: watch the listing's rows");
  ix->listing_watched = true;
  return 0;
}

int upk_index_stamp(upk_index *ix, uint64_t *stamp) {
  if (!ix->listing_watched && watch_listing(ix))
    return -EIO;
  /* this connection's changes to the listing's rows; PRAGMA data_version for other
   * connections' commits (they have no triggers of ours) */
  sqlite3_stmt *st = ix->st[ST_DATA_VERSION];
  int rc = sqlite3_step(st);
  uint64_t v = rc == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW)
    return upk__ix_sql_fail(ix, "list skills: data version");
  *stamp = __atomic_load_n(&ix->listing_changes, __ATOMIC_RELAXED) ^ (v << 40);
  return 0;
}

int upk_index_place_at(upk_index *ix, const char *dir, upk_index_entry *out) {
  /* `root IN (...)` lets SQLite seek the (root, dir) index once per root (a handful). */
  static const char sql[] = "SELECT " UPK_ENTRY_COLS ", 0 FROM " UPK_ENTRY_FROM
                            " WHERE p.dir = ?1 AND p.root IN (SELECT id FROM root)"
                            " ORDER BY r.scope, r.ord LIMIT 1";
  memset(out, 0, sizeof *out);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "find a skill directory");
  sqlite3_bind_text(st, 1, dir, -1, SQLITE_STATIC);
  upk_index_entries found = {0};
  int rc = collect(ix, st, NULL, &found, "find a skill directory");
  if (!rc && !found.len)
    rc = -ENOENT;
  if (!rc) {
    *out = found.items[0];
    found.len = 0; /* moved out */
  }
  upk_index_entries_free(&found);
  return rc;
}

/* ---- get ---- */

typedef struct file_list {
  char **v;
  size_t n, cap;
} file_list;

/* Files of a skill, as an agent would browse them: hidden entries, .git and
 * node_modules skipped, bounded in depth and count so a huge tree is cheap. */
static void list_files(const char *base, const char *rel, int depth, file_list *fl) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s%s%s", base, *rel ? "/" : "", rel);
  DIR *d = opendir(path);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)) && fl->n < 1000) {
    if (de->d_name[0] == '.' || !strcmp(de->d_name, "node_modules"))
      continue;
    char sub[PATH_MAX], full[PATH_MAX];
    snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
    snprintf(full, sizeof full, "%s/%s", base, sub);
    struct stat sb;
    if (stat(full, &sb))
      continue;
    if (S_ISDIR(sb.st_mode)) {
      if (depth < UPK_INDEX_MAX_DEPTH)
        list_files(base, sub, depth + 1, fl);
    } else if (S_ISREG(sb.st_mode)) {
      UPK_GROW(fl->v, fl->cap, fl->n + 1);
      fl->v[fl->n++] = upk_xstrdup(sub);
    }
  }
  closedir(d);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int upk_index_get(upk_index *ix, const char *name, const char *agent, upk_index_skill *out) {
  static const char sql[] = "SELECT " UPK_ENTRY_COLS " FROM " UPK_ENTRY_FROM
                            " WHERE p.name = ?1 AND (?2 IS NULL OR r.agent = ?2)"
                            " ORDER BY p.visible DESC, d.usable DESC, r.priority DESC, r.scope,"
                            " r.ord LIMIT 1";
  memset(out, 0, sizeof *out);
  if (!name || !*name)
    return upk__ix_fail(ix, -EINVAL, "get: no skill name given");
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "get");
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  if (agent)
    sqlite3_bind_text(st, 2, agent, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st) == SQLITE_ROW
               ? upk__ix_entry_from_row(st, 0, &out->e)
               : upk__ix_fail(ix, -ENOENT, "no skill named '%s'%s%s", name,
                              agent ? " for agent " : "", agent ? agent : "");
  sqlite3_finalize(st);
  if (rc)
    return rc;
  /* The skill's own files only: no link followed, no FIFO waited on (common/fileio.h). */
  if ((rc = upk_read_in_dir(out->e.path, 10u << 20, &out->text, &out->text_len))) {
    upk_index_skill_free(out);
    return upk__ix_fail(ix, rc, "cannot read %s: %s", name, upk_read_error(rc));
  }
  size_t meta_len;
  if (upk_read_beneath(out->e.dir, "skill_meta.json", 1u << 20, &out->meta_text, &meta_len))
    out->meta_text = NULL;
  file_list fl = {0};
  list_files(out->e.dir, "", 1, &fl);
  qsort(fl.v, fl.n, sizeof *fl.v, cmp_str);
  out->files = fl.v;
  out->n_files = fl.n;
  return 0;
}

void upk_index_skill_free(upk_index_skill *s) {
  upk_index_entry_free(&s->e);
  free(s->text);
  free(s->meta_text);
  for (size_t i = 0; i < s->n_files; i++)
    free(s->files[i]);
  free(s->files);
  memset(s, 0, sizeof *s);
}

/* ---- shadows ---- */

#define SHADOWS_SQL                                                                                \
  "SELECT p.name, r.agent, w.dir, wr.scope, p.dir, r.scope FROM place p"                           \
  " JOIN root r ON r.id = p.root JOIN place w ON w.name = p.name AND w.visible"                    \
  " JOIN root wr ON wr.id = w.root AND wr.agent = r.agent WHERE NOT p.visible"

int upk_index_shadows(upk_index *ix, upk_index_shadow **out, size_t *n) {
  return upk_index_shadows_between(ix, NULL, NULL, out, n);
}

int upk_index_shadows_between(upk_index *ix, const char *first, const char *last,
                              upk_index_shadow **out, size_t *n) {
  /* two texts: "?1 IS NULL OR" would keep SQLite from the name index */
  static const char all[] = SHADOWS_SQL " ORDER BY p.name, r.agent, p.dir";
  static const char range[] = SHADOWS_SQL " AND p.name BETWEEN ?1 AND ?2"
                                          " ORDER BY p.name, r.agent, p.dir";
  const char *sql = first && last ? range : all;
  *out = NULL;
  *n = 0;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk__ix_sql_fail(ix, "shadows");
  if (sql == range) {
    sqlite3_bind_text(st, 1, first, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, last, -1, SQLITE_STATIC);
  }
  size_t cap = 0;
  int rc = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    UPK_GROW(*out, cap, *n + 1);
    upk_index_shadow *s = &(*out)[(*n)++];
    const unsigned char *agent = sqlite3_column_text(st, 1);
    s->name = col_dup(st, 0);
    s->agent = agent && *agent ? upk_xstrdup((const char *)agent) : NULL;
    s->winner = col_dup(st, 2);
    s->winner_scope = (upk_index_scope)sqlite3_column_int(st, 3);
    s->shadowed = col_dup(st, 4);
    s->shadowed_scope = (upk_index_scope)sqlite3_column_int(st, 5);
  }
  sqlite3_finalize(st);
  if (rc) {
    upk_index_shadows_free(*out, *n);
    *out = NULL;
    *n = 0;
  }
  return rc;
}

void upk_index_shadows_free(upk_index_shadow *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(s[i].name);
    free(s[i].agent);
    free(s[i].winner);
    free(s[i].shadowed);
  }
  free(s);
}

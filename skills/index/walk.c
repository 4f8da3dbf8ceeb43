/* The walk: the skill directories under a root, each one's document kept
 * current and placed.
 *
 * A SKILL.md whose mtime, size and inode match what was indexed is not
 * parsed again, so walking an unchanged tree costs a stat per skill.
 * Directories are read sorted, so which fall past the directory limit does
 * not depend on readdir order. */
#include "skills/index/catalog_int.h"
#include "skills/index/scan_int.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/xalloc.h"

#define PREFETCH_MIN 256 /* children of a folder worth a second thread's stats */

static void scan_diag(scan *sc, upk_severity sev, const char *code, const char *file,
                      const char *msg, const char *detail) {
  if (!sc->diags)
    return;
  upk_range whole = {-1, 0, -1, 0};
  if (upk_diags_add(sc->diags, sev, code, "upskilld-index", whole, "%s%s%s", msg,
                    detail ? ": " : "", detail ? detail : "") == 0)
    sc->diags->items[sc->diags->len - 1].file = upk_xstrdup(file);
}

/* A stat of a child's SKILL.md made ahead of the walk (prefetch_skill_files). */
typedef struct pre_stat {
  bool done; /* else: not asked (a file, not a directory) */
  int err;   /* stat's errno; 0: sb is set */
  struct stat sb;
} pre_stat;

/* "SKILL.md" (preferred, as skills-ref does) or "skill.md"; NULL if neither. pre: SKILL.md's
 * stat made ahead, or NULL. */
static const char *skill_file(scan *sc, const char *dir, found_file *f, const pre_stat *pre) {
  static const char *const names[] = {"SKILL.md", "skill.md"};
  char p[PATH_MAX];
  for (int i = 0; i < 2; i++) {
    struct stat sb;
    int failed;
    if (i == 0 && pre && pre->done) {
      sb = pre->sb;
      failed = pre->err != 0;
      errno = pre->err;
    } else {
      snprintf(p, sizeof p, "%s/%s", dir, names[i]);
      failed = stat(p, &sb);
    }
    if (!failed && S_ISREG(sb.st_mode)) {
      f->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
      f->size = (int64_t)sb.st_size;
      f->ino = (int64_t)sb.st_ino;
      f->known = true;
      return names[i];
    }
    if (errno == EACCES) {
      scan_diag(sc, UPK_SEV_WARNING, "index/unreadable-dir", dir,
                "cannot look into this directory, skills in it are not indexed", strerror(errno));
      return NULL;
    }
  }
  return NULL;
}

int upk__ix_step_done(upk_index *ix, sqlite3_stmt *st, const char *what) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? 0 : upk__ix_sql_fail(ix, what);
}

/* Forget the resolved parent: a tree may change between passes. */
void upk__ix_forget_parent(upk_index *ix) {
  free(ix->parent);
  free(ix->parent_real);
  ix->parent = ix->parent_real = NULL;
}

/* realpath(dir), from the parent's resolved path when dir itself is no
 * symbolic link: skills share a few parents, and a realpath per skill (a
 * readlink or lstat per path component) was a third of a restart. */
static char *resolve(upk_index *ix, const char *dir, bool real_dir) {
  const char *slash = strrchr(dir, '/');
  struct stat sb;
  if (!slash || slash == dir || (!real_dir && (lstat(dir, &sb) || S_ISLNK(sb.st_mode))))
    return realpath(dir, NULL);
  size_t plen = (size_t)(slash - dir);
  if (!ix->parent || strlen(ix->parent) != plen || strncmp(ix->parent, dir, plen)) {
    upk__ix_forget_parent(ix);
    ix->parent = upk_xstrndup(dir, plen);
    ix->parent_real = ix->parent ? realpath(ix->parent, NULL) : NULL;
  }
  if (!ix->parent_real)
    return realpath(dir, NULL);
  return upk_xasprintf("%s%s", strcmp(ix->parent_real, "/") ? ix->parent_real : "", slash);
}

/* The document stored at loc, from the scan's read-ahead or else the index (then read into *row,
 * its name valid until ST_DOC_FIND is reset); NULL: none. */
static const upk__ix_doc *stored_doc(scan *sc, const char *loc, upk__ix_doc *row) {
  if (sc->docs)
    return upk__ix_docs_find(sc->docs, loc);
  sqlite3_stmt *st = sc->ix->st[ST_DOC_FIND];
  sqlite3_bind_text(st, 1, loc, -1, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_ROW)
    return NULL;
  *row = (upk__ix_doc){.id = sqlite3_column_int64(st, 0),
                       .mtime = sqlite3_column_int64(st, 1),
                       .size = sqlite3_column_int64(st, 2),
                       .ino = sqlite3_column_int64(st, 3),
                       .name = (const char *)sqlite3_column_text(st, 4)};
  return row;
}

/* 1: the stored document is current (*name set), 0: it must be parsed,
 * -1: the skill cannot be read (reported), or a negative errno. */
int upk__ix_probe_doc(scan *sc, const char *dir, const char *md, const found_file *f, probe *pr,
                      char **name) {
  snprintf(pr->mdpath, sizeof pr->mdpath, "%s/%s", dir, md);
  char *real = resolve(sc->ix, dir, f && f->real_dir);
  if (real && f && f->known) { /* what upk__ix_store_doc() and the check below read */
    pr->sb.st_mtim.tv_sec = f->mtime_ns / 1000000000;
    pr->sb.st_mtim.tv_nsec = f->mtime_ns % 1000000000;
    pr->sb.st_size = (off_t)f->size;
    pr->sb.st_ino = (ino_t)f->ino;
  } else if (!real || stat(pr->mdpath, &pr->sb)) {
    scan_diag(sc, UPK_SEV_WARNING, "index/skill-unreadable", pr->mdpath, "cannot read this skill",
              strerror(errno));
    free(real);
    return -1;
  }
  snprintf(pr->loc, sizeof pr->loc, "%s/%s", real, md);
  free(real);
  upk__ix_doc row;
  const upk__ix_doc *d = stored_doc(sc, pr->loc, &row);
  pr->id = d ? d->id : 0;
  int rc = 0;
  if (d && d->mtime == (int64_t)pr->sb.st_mtim.tv_sec * 1000000000 + pr->sb.st_mtim.tv_nsec &&
      d->size == (int64_t)pr->sb.st_size && d->ino == (int64_t)pr->sb.st_ino) {
    *name = upk_xstrdup(d->name);
    rc = *name ? 1 : -ENOMEM;
    if (sc->st)
      sc->st->unchanged++;
  }
  sqlite3_reset(sc->ix->st[ST_DOC_FIND]); /* after d->name's last use */
  return rc;
}

/* The document stored for pr->loc: its id, its name taken from p. */
static int64_t stored_twin(upk_index *ix, const probe *pr, upk__ix_parsed *p, char **name_out) {
  sqlite3_stmt *st = ix->st[ST_DOC_FIND];
  sqlite3_bind_text(st, 1, pr->loc, -1, SQLITE_STATIC);
  int64_t id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  if (!id)
    return upk__ix_sql_fail(ix, "store skill");
  *name_out = p->name;
  p->name = NULL;
  return id;
}

/* A skill that could not be parsed: reported, with its own diagnostics. */
static void report_unreadable(scan *sc, const probe *pr, upk__ix_parsed *p) {
  scan_diag(sc, UPK_SEV_WARNING, "index/skill-unreadable", pr->mdpath, "cannot load this skill",
            strerror(-p->rc));
  for (size_t i = 0; sc->diags && i < p->d.len; i++)
    if (!p->d.items[i].file)
      p->d.items[i].file = upk_xstrdup(pr->mdpath);
  if (sc->diags)
    upk_diags_take(sc->diags, &p->d);
}

/* Document id's searchable text: its head (name, description, headings) and
 * body rows; `was` (an existing document) drops its listing entry. */
static int store_text(upk_index *ix, int64_t id, const upk__ix_parsed *p, bool was) {
  sqlite3_stmt *st = ix->st[ST_FTS_INSERT];
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, p->name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, p->desc, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, p->name_col, -1, SQLITE_STATIC);
  if (upk__ix_step_done(ix, st, "index skill text"))
    return -EIO;
  st = ix->st[ST_BODY_INSERT];
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, p->body, -1, SQLITE_STATIC);
  /* a changed skill's listing entry goes: the listing builds it again (catalog.c) */
  if (upk__ix_step_done(ix, st, "index skill text") || (was && upk__ix_catalog_put(ix, id, NULL)))
    return -EIO;
  return 0;
}

/* Store a parsed skill as document pr->id (0: new). Returns the id, 0 when
 * the skill could not be loaded (reported), or a negative errno. */
int64_t upk__ix_store_doc(scan *sc, const probe *pr, upk__ix_parsed *p, char **name_out) {
  upk_index *ix = sc->ix;
  if (p->rc == -ENOMEM)
    return -ENOMEM;
  if (p->rc < 0) {
    report_unreadable(sc, pr, p);
    return 0;
  }
  int64_t id = pr->id;
  /* Its name or usability may change, and with them which placement of a name is seen. */
  if (id) {
    sqlite3_bind_int64(ix->st[ST_TOUCH_DOC], 1, id);
    if (upk__ix_step_done(ix, ix->st[ST_TOUCH_DOC], "note skill name"))
      return -EIO;
  }
  sqlite3_stmt *st = ix->st[id ? ST_DOC_UPDATE : ST_DOC_INSERT];
  const struct stat *sb = &pr->sb;
  sqlite3_bind_text(st, 1, pr->loc, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, p->name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, p->desc, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 4, (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec);
  sqlite3_bind_int64(st, 5, (int64_t)sb->st_size);
  sqlite3_bind_int64(st, 6, (int64_t)sb->st_ino);
  sqlite3_bind_int(st, 7, p->usable);
  sqlite3_bind_int64(st, 8, (int64_t)p->tokens);
  sqlite3_bind_text(st, 9, p->packed, -1, SQLITE_STATIC);
  if (upk__ix_step_done(ix, st, "store skill"))
    return -EIO;
  if (!id && !sqlite3_changes(ix->db)) /* the same file through another path, parsed alongside
                                        * this one and stored first (a linked skill) */
    return stored_twin(ix, pr, p, name_out);
  if (!id)
    id = sqlite3_last_insert_rowid(ix->db);
  else {
    static const int del[] = {ST_FTS_DELETE, ST_BODY_DELETE};
    for (int k = 0; k < 2; k++) {
      sqlite3_bind_int64(ix->st[del[k]], 1, id);
      if (upk__ix_step_done(ix, ix->st[del[k]], "replace skill text"))
        return -EIO;
    }
  }
  if (store_text(ix, id, p, pr->id != 0))
    return -EIO;
  *name_out = p->name;
  p->name = NULL;
  if (sc->st)
    sc->st->parsed++;
  return id;
}

/* Parse and store, or reuse the stored document when the file is unchanged.
 * Returns the document id, 0 when the skill cannot be loaded (reported), or
 * a negative errno. */
static int64_t load_doc(scan *sc, const char *dir, const char *md, char **name) {
  probe pr;
  int rc = upk__ix_probe_doc(sc, dir, md, NULL, &pr, name);
  if (rc == 1) /* SKILL.md unchanged; another of its files may have been edited */
    rc = upk__ix_catalog_check(sc->ix, pr.id, dir) ?: 1;
  if (rc != 0)
    return rc == 1 ? pr.id : rc == -1 ? 0 : rc;
  upk__ix_parsed p;
  upk__ix_parse(dir, &p);
  int64_t id = upk__ix_store_doc(sc, &pr, &p, name);
  upk__ix_parsed_free(&p);
  return id;
}

/* Place document id (named name) at dir under the scan's root. */
int upk__ix_place_doc(scan *sc, const char *dir, int64_t id, const char *name) {
  upk_index *ix = sc->ix;
  sqlite3_stmt *st = ix->st[ST_PLACE_UPSERT];
  sqlite3_bind_int64(st, 1, sc->root);
  sqlite3_bind_text(st, 2, dir, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, id);
  sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 5, sc->gen);
  int rc = upk__ix_step_done(ix, st, "place skill");
  if (!rc && !sc->full) { /* a full scan redoes every name's shadowing anyway */
    sqlite3_bind_text(ix->st[ST_TOUCH_NAME], 1, name, -1, SQLITE_STATIC);
    rc = upk__ix_step_done(ix, ix->st[ST_TOUCH_NAME], "note skill name");
  }
  if (!rc && sc->st)
    sc->st->skills++;
  return rc;
}

/* dir holds a skill: make sure its document is current and place it. */
static int index_skill(scan *sc, const char *dir, const char *md) {
  char *name = NULL;
  int64_t id = load_doc(sc, dir, md, &name);
  int rc = id <= 0 ? (int)id : upk__ix_place_doc(sc, dir, id, name);
  free(name);
  return rc;
}

void upk__ix_digest(uint64_t *h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    *h = (*h ^ b[i]) * 0x100000001b3ULL;
}

void upk__ix_digest_str(uint64_t *h, const char *s) {
  upk__ix_digest(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

int upk__ix_note_skill(scan *sc, const char *dir, const char *md, const found_file *f,
                       bool pooled) {
  struct upk__ix_job *j = sc->collect;
  UPK_GROW(j->items, j->cap, j->n + 1);
  const char *d = pooled ? dir : upk_strpool_dup(&j->strings, dir);
  j->items[j->n] = (job_item){.root = sc->root, .dir = d, .md = md, .f = *f};
  if (!j->items[j->n].dir)
    return -ENOMEM;
  j->n++;
  return 0;
}

bool upk__ix_skipped_name(const char *n) {
  /* hidden entries (.git, .cache, ...) and node_modules, as the client guide and Codex do */
  return n[0] == '.' || !strcmp(n, "node_modules");
}

/* A directory entry: its name, and its type as readdir says (DT_UNKNOWN when it does not). */
typedef struct dent {
  char *name;
  unsigned char type;
} dent;

static int cmp_name(const void *a, const void *b) {
  return strcmp(((const dent *)a)->name, ((const dent *)b)->name);
}

/* Sorted child names, so that which directories fall past the limit does
 * not depend on readdir order. NULL (reported) when unreadable. */
static dent *read_names(scan *sc, const char *dir, bool is_root, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) {
    if (!(is_root && errno == ENOENT)) /* an agent that is not installed: normal */
      scan_diag(sc, UPK_SEV_WARNING,
                errno == ENOTDIR ? "index/root-not-dir" : "index/unreadable-dir", dir,
                "cannot read this directory, skills in it are not indexed", strerror(errno));
    return NULL;
  }
  dent *v = NULL;
  size_t cap = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (upk__ix_skipped_name(de->d_name))
      continue;
    UPK_GROW(v, cap, *n + 1);
    v[*n].name = upk_xstrdup(de->d_name);
    v[(*n)++].type = de->d_type;
  }
  closedir(d);
  if (*n)
    qsort(v, *n, sizeof *v, cmp_name); /* v is NULL for an empty directory */
  return v;
}

static bool on_stack(const scan *sc, const struct stat *sb) {
  for (int i = 0; i < sc->depth; i++)
    if (sc->dev[i] == sb->st_dev && sc->ino[i] == sb->st_ino)
      return true;
  return false;
}

/* A directory's resolved path, into the scan's digest: a skill's location is read through it. */
static void digest_real(scan *sc, const char *dir) {
  char *real = realpath(dir, NULL);
  upk__ix_digest_str(&sc->collect->digest, real);
  free(real);
}

/* A skill the walk found, into the scan's digest: what the probe compares, and, for a
 * directory that is a link, where it leads (the probe reads it there). */
static void digest_skill(scan *sc, const char *dir, const char *md, const found_file *f) {
  int64_t stat_key[3] = {f->mtime_ns, f->size, f->ino};
  upk__ix_digest_str(&sc->collect->digest, dir);
  upk__ix_digest_str(&sc->collect->digest, md);
  upk__ix_digest(&sc->collect->digest, stat_key, sizeof stat_key);
  if (!f->real_dir)
    digest_real(sc, dir);
}

/* A project root's directory that is (or passes through) a link leading out of the workspace:
 * reported and left out, so that a cloned project cannot make its skill folder the user's
 * files (`.claude/skills/x -> ~/secrets`). Roots of other scopes are the user's own choice. */
static bool leads_out(scan *sc, const char *path) {
  if (!sc->within)
    return false;
  char *real = realpath(path, NULL); /* none: nothing there to read (a root not made yet) */
  bool out = real && !upk_path_under(real, sc->within);
  free(real);
  if (out)
    scan_diag(sc, UPK_SEV_WARNING, "index/link-outside", path,
              "a project's skill directory that is a link out of the workspace is not indexed",
              NULL);
  return out;
}

/* One child directory: a skill, or (within the depth limit) a folder of skills. */
/* `type`: readdir's word on path (DT_UNKNOWN: none). A directory readdir vouches for needs no
 * stat unless it is descended into; a file is none of ours. */
static int visit(scan *sc, const char *path, int depth, unsigned char type, const pre_stat *pre) {
  struct stat sb;
  bool real_dir = type == DT_DIR;
  if (type != DT_UNKNOWN && type != DT_DIR && type != DT_LNK)
    return 0;
  if (!real_dir && stat(path, &sb)) {
    if (errno == ELOOP)
      scan_diag(sc, UPK_SEV_WARNING, "index/symlink-loop", path, "symbolic link loop, not followed",
                NULL);
    return 0;
  }
  if (!real_dir && (!S_ISDIR(sb.st_mode) || leads_out(sc, path)))
    return 0;
  if (++sc->dirs > (size_t)sc->ix->max_dirs) {
    if (!sc->limit_hit)
      scan_diag(sc, UPK_SEV_WARNING, "index/dir-limit", path,
                "too many directories under this root; the rest are not scanned", NULL);
    sc->limit_hit = true;
    return 0;
  }
  if (sc->st)
    sc->st->dirs++;
  found_file f = {.real_dir = real_dir};
  const char *md = skill_file(sc, path, &f, pre);
  if (md && sc->collect)
    digest_skill(sc, path, md, &f);
  if (md)
    return sc->collect ? upk__ix_note_skill(sc, path, md, &f, false) : index_skill(sc, path, md);
  if (depth >= sc->max_depth)
    return 0;
  if (real_dir && stat(path, &sb))
    return 0; /* gone since readdir */
  if (on_stack(sc, &sb)) {
    scan_diag(sc, UPK_SEV_WARNING, "index/symlink-loop", path,
              "this directory contains itself through a symbolic link; not followed", NULL);
    return 0;
  }
  sc->dev[sc->depth] = sb.st_dev;
  sc->ino[sc->depth++] = sb.st_ino;
  int rc = upk__ix_walk(sc, path, depth);
  sc->depth--;
  return rc;
}

/* Stats of children's SKILL.md, entries [from, to) of names. */
typedef struct prefetch {
  const char *dir;
  const dent *names;
  pre_stat *out;
  size_t from, to;
} prefetch;

static void stat_skill_files(prefetch *pf) {
  for (size_t i = pf->from; i < pf->to; i++) {
    unsigned char t = pf->names[i].type;
    char p[PATH_MAX];
    pre_stat *o = &pf->out[i];
    o->done = (t == DT_DIR || t == DT_LNK || t == DT_UNKNOWN) &&
              snprintf(p, sizeof p, "%s/%s/SKILL.md", pf->dir, pf->names[i].name) < (int)sizeof p;
    if (o->done)
      o->err = stat(p, &o->sb) ? errno : 0;
  }
}

static void *stat_thread(void *arg) {
  stat_skill_files(arg);
  return NULL;
}

/* A folder of many skills: their SKILL.md are stat'ed on two threads before the walk goes
 * through them. An unchanged tree costs a stat per skill, most of a restart's walk, and on
 * our machines each is a system call of ~5-10 us (a restart of 60,000 skills: 0.96-1.27 ->
 * 0.79-0.99 s). NULL:
 * too few to be worth a thread, or no memory; the walk stats them itself. */
static pre_stat *prefetch_skill_files(const char *dir, const dent *names, size_t n) {
  pre_stat *out = n >= PREFETCH_MIN ? upk_xcalloc(n, sizeof *out) : NULL;
  if (!out)
    return NULL;
  prefetch a = {dir, names, out, 0, n / 2}, b = {dir, names, out, n / 2, n};
  pthread_t th;
  bool threaded = pthread_create(&th, NULL, stat_thread, &b) == 0;
  stat_skill_files(&a);
  if (threaded)
    pthread_join(th, NULL);
  else
    stat_skill_files(&b);
  return out;
}

/* dir's children sit at depth + 1. */
int upk__ix_walk(scan *sc, const char *dir, int depth) {
  size_t n;
  if (depth == 0 && leads_out(sc, dir))
    return 0; /* the root itself: `.claude/skills -> /elsewhere` */
  if (sc->collect)
    digest_real(sc, dir);
  dent *names = read_names(sc, dir, depth == 0, &n);
  pre_stat *pre = sc->collect ? prefetch_skill_files(dir, names, n) : NULL;
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    char path[PATH_MAX];
    if (!rc && !sc->limit_hit &&
        snprintf(path, sizeof path, "%s/%s", dir, names[i].name) < (int)sizeof path)
      rc = visit(sc, path, depth + 1, names[i].type, pre ? &pre[i] : NULL);
    free(names[i].name);
  }
  free(pre);
  free(names);
  return rc;
}

/* Rescan a root, or only `sub` (a top-level entry of it), then sweep what was
 * covered but not found. */
int upk__ix_scan_root(scan *sc, const char *root_dir, const char *sub) {
  upk_index *ix = sc->ix;
  int rc = 0;
  /* Note names (for shadowing) and documents (for orphans) this pass may change. */
  for (int k = 0; k < 2 && !rc; k++) {
    sqlite3_stmt *st = ix->st[k ? ST_CAND_SUB : ST_TOUCH_SUB];
    sqlite3_bind_int64(st, 1, sc->root);
    sqlite3_bind_text(st, 2, sub ? sub : "", -1, SQLITE_STATIC);
    rc = upk__ix_step_done(ix, st, "note skills");
  }
  struct stat sb;
  sc->depth = 0;
  if (!rc && !stat(root_dir, &sb)) {
    sc->dev[0] = sb.st_dev;
    sc->ino[0] = sb.st_ino;
    sc->depth = 1;
  }
  if (!rc)
    rc = sub ? visit(sc, sub, 1, DT_UNKNOWN, NULL) : upk__ix_walk(sc, root_dir, 0);
  if (rc)
    return rc;
  sqlite3_stmt *st = ix->st[ST_SWEEP];
  sqlite3_bind_int64(st, 1, sc->root);
  sqlite3_bind_text(st, 2, sub ? sub : "", -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, ix->gen);
  rc = upk__ix_step_done(ix, st, "sweep removed skills");
  if (!rc && sc->st)
    sc->st->removed += (size_t)sqlite3_changes(ix->db);
  return rc;
}

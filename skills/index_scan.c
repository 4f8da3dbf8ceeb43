/* Walking roots into the index: full scans and one-path refreshes.
 *
 * Every scan stamps the placements it finds with a new generation; whatever
 * a scan covered but did not stamp has disappeared and is swept. A SKILL.md
 * whose mtime, size and inode match what was indexed is not parsed again, so
 * rescanning an unchanged tree costs a stat per directory. */
#include "index_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "skill.h"
#include "validate.h"

/* A stepped full scan: the skill directories found by the walk, indexed a
 * batch at a time. */
/* What the walk learned of a skill file, so the probe need not ask the kernel again: a
 * restart of 60,000 skills made four stat calls per skill, the biggest share of its time. */
typedef struct found_file {
  int64_t mtime_ns, size, ino;
  bool known;    /* the fields above are set */
  bool real_dir; /* readdir said the skill's directory is no symbolic link */
} found_file;

typedef struct job_item {
  int64_t root;
  char *dir;
  const char *md; /* "SKILL.md" or "skill.md" (static) */
  size_t same;    /* 1 + the item found at the same place through an earlier root; 0: none */
  int64_t doc;    /* once indexed: its document and name, for the items that are `same` */
  char *name;
  found_file f; /* the walk's look at the skill file, reused by the probe */
} job_item;

/* A root walked in this scan: several agents read the same directory (every
 * agent that reads .claude/skills), and it is walked once. */
typedef struct job_root {
  char *real;
  int max_depth;
  char *dir; /* as the items' paths begin */
  size_t first, count;
  bool limit_hit;
} job_root;

struct upk_ix_job {
  job_item *items;
  size_t n, cap, next;
  job_root *roots;
  size_t n_roots;
  int64_t gen;         /* stamp of the placements this scan writes */
  upk_ix_places known; /* the stored placements: found again, or swept when done */
  bool placed;         /* a placement was written */
  bool bulk;           /* the first index of an empty one: FTS5 merges once, afterwards */
  upk_index_stats st;
  struct timespec t0;
};

typedef struct scan {
  upk_index *ix;
  upk_diags *diags;
  upk_index_stats *st;
  struct upk_ix_job *collect; /* walking for a stepped scan: note skills, do not index */
  int64_t gen;                /* stamp of the placements this pass finds */
  int64_t root;
  int max_depth;
  size_t dirs;
  bool limit_hit;
  bool full; /* a whole stepped scan: shadowing is redone for every name at the end */
  int depth; /* directories on the stack below, for loop detection */
  dev_t dev[UPK_INDEX_MAX_DEPTH + 2];
  ino_t ino[UPK_INDEX_MAX_DEPTH + 2];
} scan;

static void scan_diag(scan *sc, upk_severity sev, const char *code, const char *file,
                      const char *msg, const char *detail) {
  if (!sc->diags)
    return;
  upk_range whole = {-1, 0, -1, 0};
  if (upk_diags_add(sc->diags, sev, code, "upskilld-index", whole, "%s%s%s", msg,
                    detail ? ": " : "", detail ? detail : "") == 0)
    sc->diags->items[sc->diags->len - 1].file = strdup(file);
}

/* "SKILL.md" (preferred, as skills-ref does) or "skill.md"; NULL if neither. */
static const char *skill_file(scan *sc, const char *dir, found_file *f) {
  static const char *const names[] = {"SKILL.md", "skill.md"};
  char p[PATH_MAX];
  for (int i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    struct stat sb;
    if (!stat(p, &sb) && S_ISREG(sb.st_mode)) {
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

static int step_done(upk_index *ix, sqlite3_stmt *st, const char *what) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? 0 : upk_ix_sql_fail(ix, what);
}

/* What load_doc learns before parsing: where the document is, and whether
 * the stored one is still current. */
typedef struct probe {
  char loc[PATH_MAX + 16]; /* to-prompt's <location>: resolved directory + file name */
  char mdpath[PATH_MAX];
  struct stat sb;
  int64_t id; /* the stored document (0: none) */
} probe;

/* Forget the resolved parent: a tree may change between passes. */
static void forget_parent(upk_index *ix) {
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
    forget_parent(ix);
    ix->parent = strndup(dir, plen);
    ix->parent_real = ix->parent ? realpath(ix->parent, NULL) : NULL;
  }
  char *out = NULL;
  if (!ix->parent_real ||
      asprintf(&out, "%s%s", strcmp(ix->parent_real, "/") ? ix->parent_real : "", slash) < 0)
    return realpath(dir, NULL);
  return out;
}

/* 1: the stored document is current (*name set), 0: it must be parsed,
 * -1: the skill cannot be read (reported), or a negative errno. */
static int probe_doc(scan *sc, const char *dir, const char *md, const found_file *f, probe *pr,
                     char **name) {
  snprintf(pr->mdpath, sizeof pr->mdpath, "%s/%s", dir, md);
  char *real = resolve(sc->ix, dir, f && f->real_dir);
  if (real && f && f->known) { /* what store_doc() and the check below read */
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
  sqlite3_stmt *st = sc->ix->st[ST_DOC_FIND];
  sqlite3_bind_text(st, 1, pr->loc, -1, SQLITE_STATIC);
  pr->id = 0;
  int rc = 0;
  if (sqlite3_step(st) == SQLITE_ROW) {
    pr->id = sqlite3_column_int64(st, 0);
    if (sqlite3_column_int64(st, 1) ==
            (int64_t)pr->sb.st_mtim.tv_sec * 1000000000 + pr->sb.st_mtim.tv_nsec &&
        sqlite3_column_int64(st, 2) == (int64_t)pr->sb.st_size &&
        sqlite3_column_int64(st, 3) == (int64_t)pr->sb.st_ino) {
      *name = strdup((const char *)sqlite3_column_text(st, 4));
      rc = *name ? 1 : -ENOMEM;
      if (sc->st)
        sc->st->unchanged++;
    }
  }
  sqlite3_reset(st);
  return rc;
}

/* Store a parsed skill as document pr->id (0: new). Returns the id, 0 when
 * the skill could not be loaded (reported), or a negative errno. */
static int64_t store_doc(scan *sc, const probe *pr, upk_ix_parsed *p, char **name_out) {
  upk_index *ix = sc->ix;
  if (p->rc == -ENOMEM)
    return -ENOMEM;
  if (p->rc < 0) {
    scan_diag(sc, UPK_SEV_WARNING, "index/skill-unreadable", pr->mdpath, "cannot load this skill",
              strerror(-p->rc));
    for (size_t i = 0; sc->diags && i < p->d.len; i++)
      if (!p->d.items[i].file)
        p->d.items[i].file = strdup(pr->mdpath);
    if (sc->diags)
      upk_diags_take(sc->diags, &p->d);
    return 0;
  }
  int64_t id = pr->id;
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
  if (step_done(ix, st, "store skill"))
    return -EIO;
  if (!id)
    id = sqlite3_last_insert_rowid(ix->db);
  else {
    static const int del[] = {ST_FTS_DELETE, ST_BODY_DELETE};
    for (int k = 0; k < 2; k++) {
      sqlite3_bind_int64(ix->st[del[k]], 1, id);
      if (step_done(ix, ix->st[del[k]], "replace skill text"))
        return -EIO;
    }
  }
  st = ix->st[ST_FTS_INSERT];
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, p->name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, p->desc, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, p->name_col, -1, SQLITE_STATIC);
  if (step_done(ix, st, "index skill text"))
    return -EIO;
  st = ix->st[ST_BODY_INSERT];
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, p->body, -1, SQLITE_STATIC);
  if (step_done(ix, st, "index skill text"))
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
  int rc = probe_doc(sc, dir, md, NULL, &pr, name);
  if (rc != 0)
    return rc == 1 ? pr.id : rc == -1 ? 0 : rc;
  upk_ix_parsed p;
  upk_ix_parse(dir, &p);
  int64_t id = store_doc(sc, &pr, &p, name);
  upk_ix_parsed_free(&p);
  return id;
}

/* Place document id (named name) at dir under the scan's root. */
static int place_doc(scan *sc, const char *dir, int64_t id, const char *name) {
  upk_index *ix = sc->ix;
  sqlite3_stmt *st = ix->st[ST_PLACE_UPSERT];
  sqlite3_bind_int64(st, 1, sc->root);
  sqlite3_bind_text(st, 2, dir, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, id);
  sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 5, sc->gen);
  int rc = step_done(ix, st, "place skill");
  if (!rc && !sc->full) { /* a full scan redoes every name's shadowing anyway */
    sqlite3_bind_text(ix->st[ST_TOUCH_NAME], 1, name, -1, SQLITE_STATIC);
    rc = step_done(ix, ix->st[ST_TOUCH_NAME], "note skill name");
  }
  if (!rc && sc->st)
    sc->st->skills++;
  return rc;
}

/* dir holds a skill: make sure its document is current and place it. */
static int index_skill(scan *sc, const char *dir, const char *md) {
  char *name = NULL;
  int64_t id = load_doc(sc, dir, md, &name);
  int rc = id <= 0 ? (int)id : place_doc(sc, dir, id, name);
  free(name);
  return rc;
}

static int note_skill(scan *sc, const char *dir, const char *md, const found_file *f) {
  struct upk_ix_job *j = sc->collect;
  if (j->n == j->cap) {
    size_t cap = j->cap ? j->cap * 2 : 1024;
    job_item *p = realloc(j->items, cap * sizeof *p);
    if (!p)
      return -ENOMEM;
    j->items = p;
    j->cap = cap;
  }
  j->items[j->n] = (job_item){.root = sc->root, .dir = strdup(dir), .md = md, .f = *f};
  if (!j->items[j->n].dir)
    return -ENOMEM;
  j->n++;
  return 0;
}

static bool skipped_name(const char *n) {
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
    if (skipped_name(de->d_name))
      continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 32;
      dent *p = realloc(v, cap * sizeof *p);
      if (!p)
        break;
      v = p;
    }
    if (!(v[*n].name = strdup(de->d_name)))
      break;
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

static int walk(scan *sc, const char *dir, int depth);

/* One child directory: a skill, or (within the depth limit) a folder of skills. */
/* `type`: readdir's word on path (DT_UNKNOWN: none). A directory readdir vouches for needs no
 * stat unless it is descended into; a file is none of ours. */
static int visit(scan *sc, const char *path, int depth, unsigned char type) {
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
  if (!real_dir && !S_ISDIR(sb.st_mode))
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
  const char *md = skill_file(sc, path, &f);
  if (md)
    return sc->collect ? note_skill(sc, path, md, &f) : index_skill(sc, path, md);
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
  int rc = walk(sc, path, depth);
  sc->depth--;
  return rc;
}

/* dir's children sit at depth + 1. */
static int walk(scan *sc, const char *dir, int depth) {
  size_t n;
  dent *names = read_names(sc, dir, depth == 0, &n);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    char path[PATH_MAX];
    if (!rc && !sc->limit_hit &&
        snprintf(path, sizeof path, "%s/%s", dir, names[i].name) < (int)sizeof path)
      rc = visit(sc, path, depth + 1, names[i].type);
    free(names[i].name);
  }
  free(names);
  return rc;
}

/* Rescan a root, or only `sub` (a top-level entry of it), then sweep what was
 * covered but not found. */
static int scan_root(scan *sc, const char *root_dir, const char *sub) {
  upk_index *ix = sc->ix;
  int rc = 0;
  /* Note names (for shadowing) and documents (for orphans) this pass may change. */
  for (int k = 0; k < 2 && !rc; k++) {
    sqlite3_stmt *st = ix->st[k ? ST_CAND_SUB : ST_TOUCH_SUB];
    sqlite3_bind_int64(st, 1, sc->root);
    sqlite3_bind_text(st, 2, sub ? sub : "", -1, SQLITE_STATIC);
    rc = step_done(ix, st, "note skills");
  }
  struct stat sb;
  sc->depth = 0;
  if (!rc && !stat(root_dir, &sb)) {
    sc->dev[0] = sb.st_dev;
    sc->ino[0] = sb.st_ino;
    sc->depth = 1;
  }
  if (!rc)
    rc = sub ? visit(sc, sub, 1, DT_UNKNOWN) : walk(sc, root_dir, 0);
  if (rc)
    return rc;
  sqlite3_stmt *st = ix->st[ST_SWEEP];
  sqlite3_bind_int64(st, 1, sc->root);
  sqlite3_bind_text(st, 2, sub ? sub : "", -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, ix->gen);
  rc = step_done(ix, st, "sweep removed skills");
  if (!rc && sc->st)
    sc->st->removed += (size_t)sqlite3_changes(ix->db);
  return rc;
}

static void init_scan(scan *sc, upk_index *ix, sqlite3_stmt *roots, upk_diags *diags,
                      upk_index_stats *st) {
  memset(sc, 0, sizeof *sc);
  sc->ix = ix;
  sc->diags = diags;
  sc->st = st;
  sc->root = sqlite3_column_int64(roots, 0);
  sc->max_depth = sqlite3_column_int(roots, 3);
  sc->gen = ix->gen;
}

static int begin(upk_index *ix) {
  forget_parent(ix);
  if (upk_ix_exec(ix, "BEGIN IMMEDIATE; DELETE FROM touched; DELETE FROM cand"))
    return -EIO;
  ix->gen++;
  return 0;
}

/* changed: whether any document was parsed or placement removed; when not, a
 * full pass keeps the word statistics (a walk of the whole FTS index, seconds
 * for a registry) and the orphan sweep. */
static int finish_pass(upk_index *ix, int rc, bool all, bool changed) {
  if (!rc && changed)
    rc = upk_ix_drop_orphans(ix, all);
  if (!rc && changed)
    rc = upk_ix_visibility(ix, all);
  /* The first index leaves the document-frequency snapshot to the end of the merge after it
   * (upk_index_tidy()): over segments not merged yet it took seconds at 60,000 skills, while
   * lookups can ask fts5vocab for their few words meanwhile. */
  bool defer = all && changed && ix->job && ix->job->bulk;
  bool snapshot = !defer && all && (changed || ix->df_stale);
  if (!rc && defer)
    rc = upk_ix_exec(ix, "DELETE FROM df");
  else if (!rc && snapshot)
    rc = upk_ix_snapshot_df(ix);
  if (!rc)
    rc = upk_ix_exec(ix, "COMMIT");
  if (!rc && (defer || snapshot))
    ix->df_stale = defer;
  if (rc)
    sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
  ix->n_docs = upk_index_count(ix);
  return rc;
}

static int finish(upk_index *ix, int rc, bool all) {
  return finish_pass(ix, rc, all, true);
}

static void report_shadows(upk_index *ix, upk_diags *diags) {
  upk_index_shadow *sh;
  size_t n;
  if (!diags || upk_index_shadows(ix, &sh, &n))
    return;
  upk_range whole = {-1, 0, -1, 0};
  for (size_t i = 0; i < n; i++)
    if (!upk_diags_add(diags, UPK_SEV_INFO, "index/shadowed", "upskilld-index", whole,
                       "skill '%s' (%s) is shadowed%s%s by %s (%s)", sh[i].name,
                       upk_index_scope_name(sh[i].shadowed_scope), sh[i].agent ? " for " : "",
                       sh[i].agent ? sh[i].agent : "", sh[i].winner,
                       upk_index_scope_name(sh[i].winner_scope)))
      diags->items[diags->len - 1].file = strdup(sh[i].shadowed);
  upk_index_shadows_free(sh, n);
}

static const char roots_sql[] = "SELECT id, dir, real, max_depth FROM root ORDER BY ord";

void upk_ix_job_free(upk_index *ix) {
  forget_parent(ix);
  struct upk_ix_job *j = ix->job;
  if (!j)
    return;
  for (size_t i = 0; i < j->n; i++) {
    free(j->items[i].dir);
    free(j->items[i].name);
  }
  for (size_t i = 0; i < j->n_roots; i++) {
    free(j->roots[i].real);
    free(j->roots[i].dir);
  }
  free(j->items);
  free(j->roots);
  upk_ix_places_free(&j->known);
  free(j);
  ix->job = NULL;
}

/* The same directory, already walked through an earlier root: its skills
 * again, under this root's path. */
static int copy_root(scan *sc, const job_root *from, const char *dir) {
  struct upk_ix_job *j = sc->collect;
  size_t plen = strlen(from->dir);
  for (size_t i = from->first; i < from->first + from->count; i++) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s%s", dir, j->items[i].dir + plen);
    found_file f = j->items[i].f; /* note_skill() may move the items */
    int rc = note_skill(sc, path, j->items[i].md, &f);
    if (rc)
      return rc;
    j->items[j->n - 1].same = i + 1;
  }
  sc->limit_hit = from->limit_hit;
  return 0;
}

static int remember_root(struct upk_ix_job *j, const char *real, const scan *sc, const char *dir,
                         size_t first) {
  job_root *p = realloc(j->roots, (j->n_roots + 1) * sizeof *p);
  if (!p)
    return -ENOMEM;
  j->roots = p;
  p[j->n_roots] =
      (job_root){strdup(real), sc->max_depth, strdup(dir), first, j->n - first, sc->limit_hit};
  if (!p[j->n_roots].real || !p[j->n_roots].dir)
    return -ENOMEM;
  j->n_roots++;
  return 0;
}

/* Walk one root for a stepped scan; note whether it hit the directory limit. */
static int collect_root(scan *sc, sqlite3_stmt *roots, sqlite3_stmt *mark) {
  struct upk_ix_job *j = sc->collect;
  const char *dir = (const char *)sqlite3_column_text(roots, 1);
  const char *real = (const char *)sqlite3_column_text(roots, 2);
  real = real ? real : dir;
  const job_root *seen = NULL;
  for (size_t i = 0; i < j->n_roots && !seen; i++)
    if (!strcmp(j->roots[i].real, real) && j->roots[i].max_depth == sc->max_depth)
      seen = &j->roots[i];
  size_t first = j->n;
  int rc;
  if (seen) {
    rc = copy_root(sc, seen, dir);
  } else {
    struct stat sb;
    if (!stat(dir, &sb)) {
      sc->dev[0] = sb.st_dev;
      sc->ino[0] = sb.st_ino;
      sc->depth = 1;
    }
    rc = walk(sc, dir, 0);
    if (!rc)
      rc = remember_root(j, real, sc, dir, first);
  }
  sqlite3_bind_int(mark, 1, sc->limit_hit);
  sqlite3_bind_int64(mark, 2, sc->root);
  return rc ? rc : step_done(sc->ix, mark, "note the directory limit");
}

int upk_index_scan_begin(upk_index *ix, size_t *total, upk_diags *diags) {
  upk_ix_job_free(ix);
  struct upk_ix_job *j = calloc(1, sizeof *j);
  if (!j)
    return -ENOMEM;
  clock_gettime(CLOCK_MONOTONIC, &j->t0);
  j->gen = ++ix->gen;
  j->bulk = ix->n_docs == 0;
  ix->job = j;
  sqlite3_stmt *roots = NULL, *mark = NULL;
  int rc = upk_ix_places_load(ix, &j->known);
  if (!rc)
    rc = sqlite3_prepare_v2(ix->db, roots_sql, -1, &roots, NULL) ||
                 sqlite3_prepare_v2(ix->db, "UPDATE root SET truncated = ?1 WHERE id = ?2", -1,
                                    &mark, NULL)
             ? upk_ix_sql_fail(ix, "scan")
             : 0;
  while (!rc && sqlite3_step(roots) == SQLITE_ROW) {
    scan sc;
    init_scan(&sc, ix, roots, diags, &j->st);
    sc.collect = j;
    rc = collect_root(&sc, roots, mark);
  }
  sqlite3_finalize(roots);
  sqlite3_finalize(mark);
  if (rc) {
    upk_ix_job_free(ix);
    return rc;
  }
  if (total)
    *total = j->n;
  return 0;
}

/* FTS5's merging while it is written: `automerge` 2 (index.c) for refreshes; none during the
 * first index, where merging segments as they are written was a fifth of the time (60,000
 * skills: 31.8 -> 25.4 s). Its segments are merged after it (upk_index_tidy(), which the
 * daemon runs in steps). The setting is stored with the index: the next open sets 2 again
 * should the scan not end. */
static int set_automerge(upk_index *ix, int pages) {
  char sql[160];
  snprintf(sql, sizeof sql,
           "INSERT INTO fts(fts, rank) VALUES('automerge', %d);"
           "INSERT INTO fts_body(fts_body, rank) VALUES('automerge', %d)",
           pages, pages);
  return upk_ix_exec(ix, sql);
}

/* The last step: whatever the walk did not find again is gone. */
static int complete(upk_index *ix, struct upk_ix_job *j, int rc) {
  /* A full pass recomputes everything: what was noted for a partial one is moot. */
  if (!rc)
    rc = upk_ix_exec(ix, "DELETE FROM touched; DELETE FROM cand");
  if (!rc && j->bulk)
    rc = set_automerge(ix, 2);
  if (!rc)
    rc = upk_ix_places_sweep(ix, &j->known, &j->st.removed);
  return finish_pass(ix, rc, true, j->st.parsed || j->st.removed || j->placed);
}

#define SCAN_CHUNK 1024

/* Place a document for a full scan: a placement stored as it is only needs
 * to be noted as found (no write, and its name's shadowing is unchanged). */
static int place_again(struct upk_ix_job *j, scan *sc, const char *dir, int64_t doc,
                       const char *name) {
  upk_ix_place *p = upk_ix_places_find(&j->known, sc->root, dir);
  if (p)
    p->seen = true;
  if (p && p->doc == doc && !strcmp(p->name, name)) {
    if (sc->st)
      sc->st->skills++;
    return 0;
  }
  j->placed = true;
  return place_doc(sc, dir, doc, name);
}

/* One chunk of a stepped scan, items [from, to): documents found unchanged
 * are placed as they are; the others are parsed on helper threads while this
 * thread stores them in order. */
static int scan_items(upk_index *ix, struct upk_ix_job *j, size_t from, size_t to,
                      upk_diags *diags) {
  size_t n = to - from, k = 0;
  /* Not zeroed: probe_doc() sets every field it reads, and most items (found unchanged) never
   * use their 8 KB slot. calloc's zeroing of the whole array, 2 MB per chunk, was a fifth of a
   * restart's time. */
  probe *pr = malloc((n ? n : 1) * sizeof *pr);
  upk_ix_parsed *parsed = calloc(n ? n : 1, sizeof *parsed);
  const char **dirs = calloc(n ? n : 1, sizeof *dirs);
  size_t *todo = calloc(n ? n : 1, sizeof *todo); /* item -> its parse slot + 1; 0: none */
  int rc = pr && parsed && dirs && todo ? 0 : -ENOMEM;
  forget_parent(ix);                          /* chunks can be minutes apart */
  for (size_t i = from; !rc && i < to; i++) { /* which documents need parsing */
    job_item *it = &j->items[i];
    scan sc = {
        .ix = ix, .diags = diags, .st = &j->st, .gen = j->gen, .root = it->root, .full = true};
    if (it->same)
      continue;
    int r = probe_doc(&sc, it->dir, it->md, &it->f, &pr[k], &it->name);
    if (r == 1)
      it->doc = pr[k].id;
    else if (r == 0) {
      dirs[k] = it->dir;
      todo[i - from] = ++k;
    } else if (r < -1)
      rc = r;
  }
  upk_ix_pool *pool = NULL;
  if (!rc && k)
    rc = upk_ix_pool_start(&pool, dirs, parsed, k);
  for (size_t i = from; !rc && i < to; i++) {
    job_item *it = &j->items[i];
    scan sc = {
        .ix = ix, .diags = diags, .st = &j->st, .gen = j->gen, .root = it->root, .full = true};
    const job_item *o = it->same ? &j->items[it->same - 1] : NULL;
    size_t slot = todo[i - from];
    if (slot) {
      upk_ix_pool_wait(pool, slot - 1);
      it->doc = store_doc(&sc, &pr[slot - 1], &parsed[slot - 1], &it->name);
      upk_ix_parsed_free(&parsed[slot - 1]);
      rc = it->doc < 0 ? (int)it->doc : 0;
    }
    if (rc)
      break;
    if (o && o->doc > 0) /* parsed (or found unchanged) through the earlier root */
      rc = place_again(j, &sc, it->dir, o->doc, o->name);
    else if (!o && it->doc > 0)
      rc = place_again(j, &sc, it->dir, it->doc, it->name);
  }
  upk_ix_pool_done(pool);
  free(pr);
  free(parsed);
  free(dirs);
  free(todo);
  return rc;
}

int upk_index_scan_step(upk_index *ix, size_t max, upk_index_stats *stats, upk_diags *diags) {
  struct upk_ix_job *j = ix->job;
  if (!j)
    return upk_ix_fail(ix, -EINVAL, "no scan under way");
  if (upk_ix_exec(ix, "BEGIN IMMEDIATE")) { /* e.g. another daemon held the file past the
                                              * busy timeout: the scan is given up, not left
                                              * "under way" forever with nobody to step it */
    upk_ix_job_free(ix);
    return -EIO;
  }
  size_t to = max < j->n - j->next ? j->next + max : j->n;
  int rc = j->bulk && j->next == 0 ? set_automerge(ix, 0) : 0;
  while (!rc && j->next < to) { /* in chunks: what is held per item is bounded */
    size_t end = to - j->next > SCAN_CHUNK ? j->next + SCAN_CHUNK : to;
    rc = scan_items(ix, j, j->next, end, diags);
    j->next = end;
  }
  bool more = j->next < j->n;
  if (more) {
    if (rc || upk_ix_exec(ix, "COMMIT")) {
      sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
      upk_ix_job_free(ix);
      return rc ? rc : -EIO;
    }
    ix->n_docs = upk_index_count(ix);
    return 1;
  }
  rc = complete(ix, j, rc);
  if (!rc)
    report_shadows(ix, diags);
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  j->st.ms = (double)(t1.tv_sec - j->t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - j->t0.tv_nsec) / 1e6;
  if (stats)
    *stats = j->st;
  upk_ix_job_free(ix);
  return rc;
}

bool upk_index_scanning(const upk_index *ix, size_t *done, size_t *total) {
  const struct upk_ix_job *j = ix ? ix->job : NULL;
  if (done)
    *done = j ? j->next : 0;
  if (total)
    *total = j ? j->n : 0;
  return j != NULL;
}

int upk_index_scan(upk_index *ix, upk_index_stats *stats, upk_diags *diags) {
  if (stats)
    memset(stats, 0, sizeof *stats);
  int rc = upk_index_scan_begin(ix, NULL, diags);
  return rc ? rc : upk_index_scan_step(ix, SIZE_MAX, stats, diags);
}

int upk_index_truncated(upk_index *ix, char ***dirs, size_t *n) {
  *dirs = NULL;
  *n = 0;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db,
                         "SELECT dir FROM root WHERE truncated GROUP BY dir ORDER BY min(ord)", -1,
                         &st, NULL))
    return upk_ix_sql_fail(ix, "truncated roots");
  int rc = 0;
  while (!rc && sqlite3_step(st) == SQLITE_ROW) {
    char **p = realloc(*dirs, (*n + 1) * sizeof *p);
    if (!p || !(p[*n] = strdup((const char *)sqlite3_column_text(st, 0))))
      rc = -ENOMEM;
    if (p)
      *dirs = p;
    if (!rc)
      (*n)++;
  }
  sqlite3_finalize(st);
  return rc;
}

void upk_index_strings_free(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

/* Is path inside (or equal to) base? Sets *rest to what follows "base/". */
static bool under(const char *path, const char *base, const char **rest) {
  size_t n = strlen(base);
  if (strncmp(path, base, n))
    return false;
  if (path[n] == 0 || (n == 1 && base[0] == '/')) {
    *rest = path + (n == 1 ? 1 : n);
    return true;
  }
  if (path[n] != '/')
    return false;
  *rest = path + n + 1;
  return true;
}

/* The (root, sub) pairs one refresh has rescanned: a burst of events for
 * one skill (a temporary file, its rename over SKILL.md) is one rescan. */
typedef struct done_set {
  char **v;
  size_t n;
} done_set;

/* Whether root/sub was already rescanned; notes it when not. */
static bool done_before(done_set *d, int64_t root, const char *sub) {
  char key[PATH_MAX + 32];
  snprintf(key, sizeof key, "%lld:%s", (long long)root, sub ? sub : "");
  for (size_t i = 0; i < d->n; i++)
    if (!strcmp(d->v[i], key))
      return true;
  char **p = realloc(d->v, (d->n + 1) * sizeof *p);
  if (p && (p[d->n] = strdup(key))) {
    d->v = p;
    d->n++;
  } else if (p)
    d->v = p;
  return false;
}

static int rescan_once(scan *sc, done_set *done, const char *dir, const char *sub) {
  return done_before(done, sc->root, sub) ? 0 : scan_root(sc, dir, sub);
}

/* Refresh the part of one root that `path` touches. Returns 1 when the path
 * belongs to this root, 0 when not, or a negative errno. */
static int refresh_root(scan *sc, sqlite3_stmt *roots, const char *path, done_set *done) {
  const char *dir = (const char *)sqlite3_column_text(roots, 1);
  const char *bases[2] = {dir, (const char *)sqlite3_column_text(roots, 2)};
  for (int i = 0; i < 2; i++) {
    const char *rest;
    if (!bases[i] || !under(path, bases[i], &rest))
      continue;
    if (!*rest)
      return rescan_once(sc, done, dir, NULL) ?: 1;
    size_t n = strcspn(rest, "/");
    char sub[PATH_MAX];
    snprintf(sub, sizeof sub, "%s/%.*s", dir, (int)n, rest);
    if (skipped_name(sub + strlen(dir) + 1))
      return 1;
    return rescan_once(sc, done, dir, sub) ?: 1;
  }
  return 0;
}

/* A path outside every root can still be a skill some root links to (a
 * symlinked skill directory): refresh the placements of that document. */
static int refresh_linked(upk_index *ix, const char *path, upk_diags *diags) {
  static const char sql[] =
      "SELECT r.id, r.dir, r.real, r.max_depth, p.dir FROM place p JOIN doc d ON d.id = p.doc"
      " JOIN root r ON r.id = p.root WHERE d.path = ?1 || '/SKILL.md' OR d.path = ?1 ||"
      " '/skill.md'";
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
    return upk_ix_sql_fail(ix, "refresh");
  char cand[PATH_MAX];
  snprintf(cand, sizeof cand, "%s", path);
  int count = 0, rc = 0;
  for (int up = 0; !rc && !count && up <= UPK_INDEX_MAX_DEPTH && cand[1]; up++) {
    sqlite3_bind_text(st, 1, cand, -1, SQLITE_STATIC);
    while (!rc && sqlite3_step(st) == SQLITE_ROW) {
      scan sc;
      init_scan(&sc, ix, st, diags, NULL);
      rc = scan_root(&sc, (const char *)sqlite3_column_text(st, 1),
                     (const char *)sqlite3_column_text(st, 4));
      count++;
    }
    sqlite3_reset(st);
    char *slash = strrchr(cand, '/');
    *(slash == cand ? slash + 1 : slash) = 0;
  }
  sqlite3_finalize(st);
  return rc ? rc : count;
}

/* Refresh one path inside the caller's transaction: the number of roots (or
 * linked documents) it belongs to, or a negative errno. */
static int refresh_one(upk_index *ix, const char *path, upk_diags *diags, done_set *done) {
  char *abs = upk_ix_abspath(path);
  if (!abs)
    return -ENOMEM;
  sqlite3_stmt *roots;
  int rc =
      sqlite3_prepare_v2(ix->db, roots_sql, -1, &roots, NULL) ? upk_ix_sql_fail(ix, "refresh") : 0;
  int count = 0;
  while (!rc && sqlite3_step(roots) == SQLITE_ROW) {
    scan sc;
    init_scan(&sc, ix, roots, diags, NULL);
    int r = refresh_root(&sc, roots, abs, done);
    if (r < 0)
      rc = r;
    else
      count += r;
  }
  sqlite3_finalize(roots);
  if (!rc && !count)
    count = rc = refresh_linked(ix, abs, diags);
  free(abs);
  return rc < 0 ? rc : count;
}

int upk_index_refresh_many(upk_index *ix, const char *const *paths, size_t n, upk_diags *diags) {
  for (size_t i = 0; i < n; i++)
    if (!paths[i] || !*paths[i])
      return upk_ix_fail(ix, -EINVAL, "refresh: no path given");
  int rc = begin(ix), outside = 0;
  done_set done = {0};
  for (size_t i = 0; !rc && i < n; i++) {
    int r = refresh_one(ix, paths[i], diags, &done);
    if (r < 0)
      rc = r;
    else
      outside += r == 0;
  }
  for (size_t i = 0; i < done.n; i++)
    free(done.v[i]);
  free(done.v);
  rc = finish(ix, rc, false);
  return rc ? rc : outside;
}

int upk_index_refresh(upk_index *ix, const char *path, upk_diags *diags) {
  if (!path || !*path)
    return upk_ix_fail(ix, -EINVAL, "refresh: no path given");
  done_set done = {0};
  int rc = begin(ix), count = rc ? 0 : refresh_one(ix, path, diags, &done);
  for (size_t i = 0; i < done.n; i++)
    free(done.v[i]);
  free(done.v);
  if (count < 0) {
    rc = count;
    count = 0;
  }
  rc = finish(ix, rc, false);
  return rc ? rc : count;
}

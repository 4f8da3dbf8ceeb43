/* Stored entries of the MCP Skills extension (catalog.h): what a page of skills/list needs,
 * built once per skill version (by the first page that lists it) and read back as is.
 * Building an entry from disk costs a walk and a stat per file (30-60 us a skill on an idle
 * core, four times that on a loaded one) plus a read and a hash of every file: at 40,000
 * skills, 667-skill pages took 170-300 ms. A stored record makes a page a read of rows. */
#include "skills/catalog_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fanout.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xalloc.h"

/* What stat says of every file (path, size, times, inode), hashed: equal, no file changed
 * (64-bit FNV-1a: it tells versions apart, nothing more). */
static void sig_add(uint64_t *h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    *h = (*h ^ b[i]) * 0x100000001b3ULL;
}

static void signature(const upk_catalog_files *f, char out[17]) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < f->n; i++) {
    const struct stat *st = &f->items[i].st;
    int64_t v[7] = {st->st_size,        st->st_mtim.tv_sec,  st->st_mtim.tv_nsec,
                    st->st_ctim.tv_sec, st->st_ctim.tv_nsec, (int64_t)st->st_ino,
                    (int64_t)st->st_dev};
    sig_add(&h, f->items[i].rel, strlen(f->items[i].rel) + 1);
    sig_add(&h, v, sizeof v);
  }
  snprintf(out, 17, "%016" PRIx64, h);
}

static void hex_digest(const unsigned char md[32], char out[8 + 64]) {
  static const char hex[] = "0123456789abcdef";
  memcpy(out, "sha256:", 7);
  for (int i = 0; i < 32; i++) {
    out[7 + 2 * i] = hex[md[i] >> 4];
    out[8 + 2 * i] = hex[md[i] & 15];
  }
  out[7 + 64] = 0;
}

/* Every file's [path, size, digest], SKILL.md's frontmatter into *fm: 0, or an error with a
 * sentence in `why`. */
static int record_files(const upk_catalog_files *f, size_t at, json_t *files, json_t **fm,
                        char *why, size_t whylen) {
  for (size_t i = 0; i < f->n; i++) {
    char *data = NULL, digest[8 + 64];
    size_t len = 0;
    unsigned char md[32];
    int rc = upk_catalog_read_at(f->dfd, f->items[i].rel, UPK_CATALOG_MAX_BYTES, &data, &len);
    if (!rc)
      rc = upk_sha256(data, len, md);
    if (!rc && i == at)
      rc = upk_catalog_frontmatter(data, len, fm, why, whylen);
    else if (rc)
      snprintf(why, whylen, "cannot read %s: %s", f->items[i].rel, strerror(-rc));
    free(data);
    if (rc)
      return rc;
    hex_digest(md, digest);
    json_array_append_new(files, json_pack("[s,I,s]", i == at ? "SKILL.md" : f->items[i].rel,
                                           (json_int_t)f->items[i].st.st_size, digest));
  }
  return 0;
}

int upk_catalog_record(const char *dir, const char *skill_file, char **out) {
  *out = NULL;
  upk_catalog_files f;
  char why[256] = "", sig[17];
  int rc = upk_catalog_files_list(dir, &f);
  size_t at = f.n;
  for (size_t i = 0; !rc && i < f.n; i++)
    if (!strcmp(f.items[i].rel, skill_file))
      at = i;
  signature(&f, sig);
  json_t *fm = NULL, *files = json_array(), *rec;
  if (rc == -EFBIG)
    snprintf(why, sizeof why, "over the extension's limits (%d files, %u MiB)",
             UPK_CATALOG_MAX_FILES, UPK_CATALOG_MAX_BYTES >> 20);
  else if (rc)
    snprintf(why, sizeof why, "cannot read the skill: %s", strerror(-rc));
  else if (at == f.n)
    snprintf(why, sizeof why, "%s is missing", skill_file), rc = -ENOENT;
  else
    rc = record_files(&f, at, files, &fm, why, sizeof why);
  if (rc)
    rec = json_pack("{s:s,s:s,s:i}", "sig", sig, "error", why, "rc", rc);
  else
    rec = json_pack("{s:s,s:o,s:O}", "sig", sig, "frontmatter", fm, "files", files);
  json_decref(files);
  upk_catalog_files_free(&f);
  *out = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
  json_decref(rec);
  return *out ? 0 : -ENOMEM;
}

typedef struct records_job {
  const char *const *dirs, *const *files;
  char **out;
} records_job;

static void record_at(void *arg, size_t i) {
  records_job *j = arg;
  if (upk_catalog_record(j->dirs[i], j->files[i], &j->out[i]))
    j->out[i] = NULL;
}

void upk_catalog_records(const char *const *dirs, const char *const *skill_files, char **out,
                         size_t n, unsigned threads) {
  records_job j = {dirs, skill_files, out};
  upk_fan_out(n, threads, record_at, &j);
}

/* Indexing builds no record (hashing every file of every skill was a third of its time): the
 * first page that lists a skill builds it, on a thread per core, and stores it. Another
 * process's record that stat finds current (files may have changed while no daemon watched)
 * is stamped as this open's; one that is not is built again. */
size_t upk_catalog_own_records(upk_index *ix, upk_index_entries *page, bool *whole) {
  size_t n = page->len + 1, nb = 0, ns = 0;
  upk_index_entry **build = upk_xcalloc(n, sizeof *build), **store = upk_xcalloc(n, sizeof *store);
  const char **dirs = upk_xcalloc(n, sizeof *dirs), **files = upk_xcalloc(n, sizeof *files);
  char **built = upk_xcalloc(n, sizeof *built);
  for (size_t i = 0; i < page->len; i++) {
    upk_index_entry *e = &page->items[i];
    if (e->catalog && e->catalog_ours)
      continue;
    store[ns++] = e;
    if (e->catalog && upk_catalog_record_current(e->catalog, e->dir))
      continue; /* stored again as this open's */
    const char *slash = strrchr(e->path, '/');
    build[nb] = e;
    dirs[nb] = e->dir;
    files[nb++] = slash ? slash + 1 : e->path;
  }
  upk_catalog_records(dirs, files, built, nb, 0);
  bool missing = false;
  for (size_t i = 0; i < nb; i++) {
    free(build[i]->catalog);
    build[i]->catalog = built[i]; /* NULL (out of memory): the listing reads the disk */
    missing |= !built[i];
  }
  int rc = upk_index_catalog_keep(ix, store, ns);
  if (rc) /* served as built, not kept whole; the next walk's page builds them again */
    upk_debug("skills/list: listing entries not stored: %s", upk_index_errmsg(ix));
  *whole = !rc && !missing;
  free(build);
  free(store);
  free(dirs);
  free(files);
  free(built);
  return nb;
}

bool upk_catalog_record_current(const char *record, const char *dir) {
  json_t *rec = json_loads(record, 0, NULL);
  const char *was = json_string_value(json_object_get(rec, "sig"));
  upk_catalog_files f;
  char sig[17];
  (void)upk_catalog_files_list(dir, &f); /* an error stops the list as the record's did */
  signature(&f, sig);
  bool same = was && !strcmp(was, sig);
  upk_catalog_files_free(&f);
  json_decref(rec);
  return same;
}

static const char *base_name_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The manifest: each [path, size, digest] as {uri, digest, size} under root_uri. */
static json_t *resources_of(const json_t *files, const char *root_uri) {
  json_t *list = json_array(), *f;
  size_t i;
  json_array_foreach(files, i, f) {
    const char *rel = json_string_value(json_array_get(f, 0));
    char *uri = rel ? upk_catalog_file_uri(root_uri, rel) : NULL;
    json_t *r = uri ? json_object() : NULL; /* set one by one: json_pack parses its format */
    if (!r || json_object_set_new(r, "uri", json_string(uri)) ||
        json_object_set(r, "digest", json_array_get(f, 2)) ||
        json_object_set(r, "size", json_array_get(f, 1))) {
      free(uri);
      json_decref(r);
      return json_decref(list), NULL;
    }
    free(uri);
    if (json_array_append_new(list, r)) /* takes r, also when it fails */
      return json_decref(list), NULL;
  }
  return list;
}

int upk_catalog_entry_from_record(const char *record, const char *dir, const char *root_uri,
                                  json_t **out, char *why, size_t whylen) {
  *out = NULL;
  json_t *rec = json_loads(record, 0, NULL);
  json_t *fm = json_object_get(rec, "frontmatter"), *files = json_object_get(rec, "files");
  const char *err = json_string_value(json_object_get(rec, "error"));
  int rc = 0;
  if (!rec || (!err && (!json_is_object(fm) || !json_is_array(files)))) {
    snprintf(why, whylen, "a stored entry cannot be read");
    rc = -EINVAL;
  } else if (err) {
    snprintf(why, whylen, "%s", err);
    rc = (int)json_integer_value(json_object_get(rec, "rc"));
    rc = rc < 0 ? rc : -EINVAL;
  } else {
    rc = upk_catalog_check_rules(fm, base_name_of(dir), why, whylen);
  }
  json_t *list = rc ? NULL : resources_of(files, root_uri);
  char *uri = list ? upk_catalog_file_uri(root_uri, "SKILL.md") : NULL;
  if (uri)
    *out = json_pack("{s:s,s:O,s:o}", "uri", uri, "frontmatter", fm, "resources", list);
  else
    json_decref(list);
  if (!rc && !*out)
    rc = -ENOMEM;
  free(uri);
  json_decref(rec);
  return rc;
}

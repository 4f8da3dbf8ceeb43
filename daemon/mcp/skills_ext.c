/* Skills over MCP: the Skills extension (SEP-2640: skills/list, skills/get,
 * resources/directory/read) and the resources that serve every file of a skill
 * (resources/list, resources/read). URIs and entries come from skills/catalog.h; this file
 * pages through the index on the skills queue and shapes the answers. */
#include "daemon/mcp/skills_ext.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skills/catalog.h"
#include "skills/fsutil.h"
#include "daemon/mcp/face_jobs.h"
#include "daemon/core/jobs.h"
#include "common/env_options.h"
#include "common/log.h"
#include "protocol/mcp.h"
#include "common/sha256.h"
#include "daemon/skills/skills_call.h"
#include "daemon/skills/skills_service.h"
#include "common/xalloc.h"

/* Skills a skills/list page holds. A host walks at most 64 pages by default
 * (@modelcontextprotocol/client's listMaxPages), so a large collection must fit in 60: at
 * 40,000 skills that is 667 a page. Each entry is read from the index, a few microseconds a
 * skill, once the first page that listed it built and stored it (upk_catalog_own_records). */
#define PAGE_MIN 200
/* Files whose digests (and SKILL.md frontmatters) are kept: a 40,000-skill collection's
 * 54,000 files fit, in about 20 MB. */
#define CACHED_FILES 100000
/* Listing entries kept in memory (upk_catalog_listed): a 40,000-skill registry's records are
 * ~30 MB of text, ~60 MB as entries. Past either bound the memo starts again. */
#define LISTED_ENTRIES 100000
#define LISTED_BYTES (64u << 20)
/* Entries a walk's first page builds a queue turn, before it answers (warm_listing), and
 * records it builds from disk (hashing every file) before it lets the queue's next item run. */
#define WARM_SLICE 2000
#define WARM_BUILD_SLICE 400
#define PAGE_MAX 2000
#define PAGES_PER_WALK 60
/* How long a listing waits for the first index of the skills (a host lists once, at start). */
#define WAIT_FIRST_SCAN_MS 120000
/* ... when the client asked for no progress: nothing then keeps its request timeout from
 * running out (the SDKs' default is 60 s), so a page answers within half of that with the
 * skills indexed so far, and the walk goes on with those indexed later (see do_skills_list).
 * The first page's bound is UPSKILLD_LIST_WAIT_MS (this by default). */
#define WAIT_NO_PROGRESS_MS 30000
#define CURSOR_PREFIX "s1:"

static void not_found(upk_call *c, const char *uri, const char *what) {
  upk_call_fail(c, UPK_MCP_RESOURCE_NOT_FOUND, json_pack("{s:s}", "uri", uri), "%s not found: %.*s",
                what, (int)upk_utf8_prefix(uri, 400), uri);
}

static upk_catalog_bases bases_of(upk_server *s) {
  return (upk_catalog_bases){upk_session_workspace(s), getenv("HOME"), upk_skills_library_dir()};
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* One skill's extension entry, marked in _meta when another copy of its name wins for the
 * agents that see both (hosts decide what to load; they may want the winner); NULL (logged)
 * when the skill
 * breaks a rule the extension checks, so that one bad skill never fails a whole listing. */
static json_t *entry_of(const upk_call *c, const upk_index_entry *e) {
  upk_catalog_bases b = bases_of(c->server);
  char *root = upk_catalog_root_uri(&b, e->scope, e->dir), why[256] = "";
  json_t *entry = NULL;
  upk_services *sv = upk_session_services(c->server);
  if (!sv->catalog) /* made and used on the skills queue only; freed with the server */
    sv->catalog = upk_catalog_cache_new(CACHED_FILES);
  /* a page's entries come from records (upk_catalog_own_records: stored, or built now);
   * skills/get reads the disk. Without one (no memory to build it) the entry is read now. */
  int rc = !root        ? -ENOMEM
           : e->catalog ? upk_catalog_listed(sv->listed, e->catalog_doc, e->catalog, e->dir, root,
                                             &entry, why, sizeof why)
                        : upk_catalog_entry(sv->catalog, e->dir, base_name(e->path), root, &entry,
                                            why, sizeof why);
  if (rc) {
    upk_debug("skills/list leaves out %s: %s", e->dir, why);
  } else if (e->shadowed) {
    /* the URI says where it lives; only this is not in it. Kept entries are shared: mark a
     * copy of this one */
    json_t *mine = json_copy(entry);
    json_decref(entry);
    entry = mine;
    if (entry)
      json_object_set_new(entry, "_meta", json_pack("{s:b}", "dev.upskilld/shadowed", 1));
  }
  free(root);
  return entry;
}

/* ---- skills/list: every skill directory once, paged by a cursor over the index ---- */

/* A cursor is "s1:<the last document listed>:<skills a page>": a walk keeps the page size of
 * its first page, which waited for the first index, so that what happens to the index during
 * the walk (its count moving) never stretches the walk past a host's 64 pages. */
static bool parse_cursor(const char *s, int64_t *at, size_t *per) {
  char *end;
  *at = 0;
  *per = 0;
  if (!s)
    return true;
  if (strncmp(s, CURSOR_PREFIX, strlen(CURSOR_PREFIX)))
    return false;
  errno = 0;
  long long v = strtoll(s + strlen(CURSOR_PREFIX), &end, 10);
  *at = v;
  if (errno || v < 0) /* 0: a walk whose first page found nothing indexed yet */
    return false;
  if (!*end) /* a cursor of an earlier version: the page size as it computed it */
    return true;
  unsigned long long p = *end == ':' ? strtoull(end + 1, &end, 10) : 0;
  *per = (size_t)p;
  return !errno && !*end && p >= PAGE_MIN && p <= PAGE_MAX;
}

/* Skills a page of this walk holds: all of them over PAGES_PER_WALK. All is what the first
 * index holds; when the first page could not wait for it to end, the directories its walk
 * found bound what it will hold. */
static size_t page_size_for(size_t all) {
  size_t per = (all + PAGES_PER_WALK - 1) / PAGES_PER_WALK;
  return per < PAGE_MIN ? PAGE_MIN : per > PAGE_MAX ? PAGE_MAX : per;
}

static size_t walk_page_size(upk_index *ix) {
  size_t done, found, all = (size_t)upk_index_count(ix);
  if (upk_index_scanning(ix, &done, &found) && found > all)
    all = found;
  return page_size_for(all);
}

/* The URI bases a page's entries were built under (a kept page holds their URIs). */
static uint64_t roots_of(upk_server *s) {
  upk_catalog_bases b = bases_of(s);
  uint64_t h = upk_catalog_memo_hash(0, b.workspace);
  return upk_catalog_memo_hash(upk_catalog_memo_hash(h, b.home), b.builtin);
}

/* The page after *at, built from the index's rows (*at advanced): 1 when full, 0 at the end,
 * or a negative errno. *whole: every entry came from a record this index open stored, so the
 * page may be kept whole; *built: plus the records built from disk for it. */
static int build_page(const upk_call *c, upk_index *ix, int64_t *at, size_t per, json_t **skills,
                      bool *whole, size_t *built) {
  upk_index_entries page = {0};
  int more = upk_index_skills_page(ix, at, per, &page);
  *skills = more < 0 ? NULL : json_array();
  *whole = false;
  *built += more < 0 ? 0 : upk_catalog_own_records(ix, &page, whole);
  for (size_t i = 0; more >= 0 && i < page.len; i++) {
    json_t *entry = entry_of(c, &page.items[i]);
    if (entry)
      json_array_append_new(*skills, entry);
  }
  upk_index_entries_free(&page);
  return more;
}

/* The page after *at: the one kept from a walk before when nothing was written to the index
 * since (a page is then a reference, no row read), else built, and kept when the first index
 * is over. Built pages reuse kept entries (upk_catalog_listed): only changed skills are read
 * back. At 40,000 skills a page of 667 rows read back and built every entry: 15-30 ms of CPU,
 * 50-100 ms on this loaded machine. */
static int listed_page(const upk_call *c, upk_index *ix, int64_t *at, size_t per, json_t **skills,
                       bool *kept, size_t *built) {
  upk_catalog_memo *m = upk_session_services(c->server)->listed;
  uint64_t stamp = 0, roots = roots_of(c->server);
  size_t done, found;
  bool steady = !upk_index_scanning(ix, &done, &found) && !upk_index_stamp(ix, &stamp);
  int64_t next, from = *at;
  int more;
  *kept = false;
  if (steady && (*skills = upk_catalog_memo_page(m, stamp, roots, *at, per, &next, &more))) {
    *at = next;
    *kept = true;
    return more;
  }
  bool whole;
  more = build_page(c, ix, at, per, skills, &whole, built);
  if (more >= 0 && steady && whole) {
    upk_catalog_memo_keep_page(m, stamp, roots, from, per, *skills, *at, more);
    *kept = true;
  }
  return more;
}

/* A page's answer: its skills (stolen) and the cursor after them when more follow. */
static json_t *page_answer(json_t *skills, int more, int64_t at, size_t per) {
  json_t *answer = json_pack("{s:o}", "skills", skills);
  if (answer && more) {
    char next[64];
    snprintf(next, sizeof next, CURSOR_PREFIX "%lld:%zu", (long long)at, per);
    json_object_set_new(answer, "nextCursor", json_string(next));
  }
  return answer;
}

/* The text of a page's skills, dumped here on the queue rather than on the loop thread (270 KB
 * a page at 40,000 skills: 5-25 ms of the loop on a loaded machine), and kept beside a kept
 * page so that no walk dumps it again. The loop writes the rest of the answer around it (what
 * a modern client's answer adds, the id): upk_rpc_dump_spliced. */
static upk_json_text *skills_text(upk_catalog_memo *m, int64_t from, size_t per,
                                  const json_t *skills, bool kept) {
  upk_json_text *text = kept ? upk_catalog_memo_page_text(m, from, per) : NULL;
  if (!text) {
    text = upk_json_text_dump(skills);
    if (kept)
      upk_catalog_memo_keep_text(m, from, per, text);
  }
  return text;
}

/* The first walk's first page, past the first index, builds and keeps every page of the walk
 * and the text of its skills (a few a queue turn, saying so in progress): its later pages are
 * then references, written as they were dumped. Once per session, and only while nothing was
 * built yet: a walk that began during the first index built its entries page by page, and the
 * next walk keeps its pages as it goes (its first page building 40,000 entries took 5 s on
 * this loaded machine). True while there is more to build (the call is parked, holding the
 * settling work back, and runs again). */
static bool warm_listing(upk_call *c, upk_index *ix, size_t per) {
  upk_services *sv = upk_session_services(c->server);
  size_t done, found;
  if (sv->listed_warm || upk_index_scanning(ix, &done, &found))
    return false;
  if (!sv->listed_at && upk_catalog_memo_size(sv->listed)) {
    sv->listed_warm = true;
    return false;
  }
  for (size_t rows = 0, built = 0; rows < WARM_SLICE && built < WARM_BUILD_SLICE; rows += per) {
    json_t *skills = NULL;
    bool kept;
    int64_t from = sv->listed_at;
    int more = listed_page(c, ix, &sv->listed_at, per, &skills, &kept, &built);
    if (more >= 0 && kept) /* and its text: the page's hand-out then dumps nothing */
      upk_json_text_unref(skills_text(sv->listed, from, per, skills, true));
    json_decref(skills);
    if (more <= 0) {
      sv->listed_warm = true;
      return false;
    }
  }
  c->parked = true;
  c->holds = true; /* the walk is under way: the settling work waits (a merge step: 30-80 ms) */
  c->done = upk_catalog_memo_size(sv->listed);
  c->total = (size_t)upk_index_count(ix);
  return true;
}

/* A page waits for the first index (its first page, to fix the walk's page size; later ones
 * only when their skills are not indexed yet), reporting progress, at most WAIT_FIRST_SCAN_MS,
 * or WAIT_NO_PROGRESS_MS for a client that asked for no progress. Past that it answers with
 * what is indexed: documents are listed in the order the scan stores them (a new one after
 * every other), so the next pages go on with those indexed meanwhile, and while the scan is
 * under way every page has a next one, however short it is. */
static void do_skills_list(upk_call *c, upk_index *ix) {
  if (!upk_call_need_index(c, ix))
    return;
  int64_t at;
  size_t per;
  parse_cursor(upk_call_str(c, "cursor"), &at, &per);
  if (!per && upk_call_wait_scan(c, ix))
    return;
  upk_services *sv = upk_session_services(c->server);
  if (!per) { /* the walk's first page: fix its page size, then build its pages */
    per = walk_page_size(ix);
    if (warm_listing(c, ix, per))
      return;
  }
  json_t *skills = NULL;
  int64_t from = at;
  bool kept;
  int more = listed_page(c, ix, &at, per, &skills, &kept, &(size_t){0});
  if (more < 0) {
    upk_call_fail(c, UPK_RPC_REQUEST_FAILED, NULL, "%s", upk_index_errmsg(ix));
    return;
  }
  size_t done, found; /* a first index (not a catch-up scan) still adding skills */
  if (!more && upk_index_scanning(ix, &done, &found) && (size_t)upk_index_count(ix) < found) {
    if (upk_call_wait_scan(c, ix)) { /* its skills are still being indexed */
      json_decref(skills);
      return;
    }
    more = 1; /* the cursor stays where the rows ended: those indexed later follow */
  }
  c->result = page_answer(skills, more, at, per);
  if (c->result) /* skills lives in it */
    c->ahead =
        (upk_json_member){"skills", skills, skills_text(sv->listed, from, per, skills, kept)};
}

/* The page answered from the loop, when the skills queue is busy (a catch-up scan of 0.4-0.6 s
 * at 40,000 skills, a merge step of 30-80 ms, another's request) and the page was kept with its
 * text under the stamp the last item left (upk_skills_listing_lane): a kept page needs no index
 * work, and waiting behind the queue's item was all of a slow page's time once the settling
 * work had been held back as long as it may be. True when answered. */
static bool lane_page(upk_job *job, int64_t at, size_t per) {
  upk_catalog_memo *m = upk_session_services(job->server)->listed;
  uint64_t stamp;
  long count;
  if (!m || !upk_skills_listing_lane(job->server, &stamp, &count))
    return false;
  if (!per) /* a walk's first page: the page size do_skills_list would fix */
    per = page_size_for((size_t)count);
  upk_catalog_ready page;
  if (!upk_catalog_memo_ready(m, stamp, roots_of(job->server), at, per, &page))
    return false;
  json_t *skills = page.skills;
  json_t *answer = page_answer(skills, page.more, page.next, per);
  if (answer) /* skills lives in it */
    upk_job_reply_dumped(job, answer, &(upk_json_member){"skills", skills, page.text});
  upk_json_text_unref(page.text);
  return answer != NULL;
}

static void skills_list_handler(upk_job *job, json_t *params) {
  int64_t at;
  size_t per;
  if (!parse_cursor(json_string_value(json_object_get(params, "cursor")), &at, &per)) {
    upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "params.cursor: unknown cursor");
    return;
  }
  upk_skills_hold(job->server); /* no settling work queued between this walk's pages */
  if (lane_page(job, at, per))
    return;
  json_int_t wait = job->progress_token                 ? WAIT_FIRST_SCAN_MS
                    : json_object_get(params, "cursor") ? WAIT_NO_PROGRESS_MS
                                                        : upk_env_opts()->list_wait_ms;
  upk_call_start_waiting(job, params, do_skills_list, wait);
}

/* ---- finding the skill a URI is in ---- */

typedef struct located {
  upk_index_entry e; /* the skill's placement */
  const char *rel;   /* the rest of the path below the skill ("" for the skill itself) */
  char *path;        /* the whole decoded path (rel points into it) */
} located;

static void located_free(located *l) {
  upk_index_entry_free(&l->e);
  free(l->path);
  memset(l, 0, sizeof *l);
}

/* The indexed skill whose directory is the URI's path or one of its parents. */
static int locate(const upk_call *c, upk_index *ix, const char *uri, located *out) {
  memset(out, 0, sizeof *out);
  upk_catalog_bases b = bases_of(c->server);
  int rc = upk_catalog_uri_path(&b, uri, &out->path);
  size_t n = rc ? 0 : strlen(out->path);
  for (int depth = 0; !rc && n > 1 && depth <= 16; depth++) {
    char saved = out->path[n];
    out->path[n] = 0;
    rc = upk_index_place_at(ix, out->path, &out->e);
    out->path[n] = saved;
    if (!rc) {
      out->rel = out->path[n] ? out->path + n + 1 : out->path + n;
      return 0;
    }
    if (rc != -ENOENT)
      break;
    rc = 0;
    while (n > 1 && out->path[--n] != '/')
      ;
  }
  located_free(out);
  return rc ? rc : -ENOENT;
}

/* ---- skills/get ---- */

static void do_skills_get(upk_call *c, upk_index *ix) {
  const char *uri = upk_call_str(c, "uri");
  if (!upk_call_need_index(c, ix) || upk_call_wait_scan(c, ix))
    return;
  located l;
  if (locate(c, ix, uri, &l) || strcmp(l.rel, "SKILL.md")) {
    located_free(&l);
    not_found(c, uri, "skill");
    return;
  }
  c->result = entry_of(c, &l.e);
  if (c->result)
    c->result = json_pack("{s:o}", "skill", c->result);
  else
    upk_call_fail(c, UPK_RPC_INVALID_PARAMS, json_pack("{s:s}", "uri", uri),
                  "%s cannot be served: it breaks a rule of the Skills extension (see "
                  "skills/validate)",
                  uri);
  located_free(&l);
}

/* ---- resources/read: any file of a skill, whole, up to a stated cap ---- */

static const char *mime_of(const char *rel, bool text) {
  static const struct {
    const char *ext, *mime;
  } table[] = {{".md", "text/markdown"},      {".json", "application/json"},
               {".py", "text/x-python"},      {".sh", "text/x-shellscript"},
               {".yaml", "application/yaml"}, {".yml", "application/yaml"},
               {".html", "text/html"},        {".cu", "text/x-cuda"},
               {".png", "image/png"},         {".pdf", "application/pdf"}};
  const char *dot = strrchr(base_name(rel), '.');
  for (size_t i = 0; dot && i < sizeof table / sizeof *table; i++)
    if (!strcmp(dot, table[i].ext))
      return table[i].mime;
  return text ? "text/plain" : "application/octet-stream";
}

/* {uri, mimeType, text} for UTF-8 text, {uri, mimeType, blob} (base64) for other bytes. */
static json_t *contents_of(const char *uri, const char *rel, const char *data, size_t len) {
  /* NULL when not UTF-8; NUL is valid UTF-8 but no text file holds one */
  json_t *text = memchr(data, 0, len) ? NULL : json_stringn(data, len);
  if (text)
    return json_pack("{s:s,s:s,s:o}", "uri", uri, "mimeType", mime_of(rel, true), "text", text);
  char *b64 = NULL;
  if (upk_base64(data, len, &b64))
    return NULL;
  json_t *r = json_pack("{s:s,s:s,s:s}", "uri", uri, "mimeType", mime_of(rel, false), "blob", b64);
  free(b64);
  return r;
}

static void read_failed(upk_call *c, const char *uri, int rc) {
  if (rc == -EFBIG)
    upk_call_fail(c, UPK_RPC_REQUEST_FAILED,
                  json_pack("{s:s,s:I}", "uri", uri, "limit", (json_int_t)UPK_CATALOG_MAX_BYTES),
                  "%.*s is larger than the %u MiB a resource read returns whole",
                  (int)upk_utf8_prefix(uri, 400), uri, UPK_CATALOG_MAX_BYTES >> 20);
  else if (rc == -ENOMEM)
    upk_call_fail(c, UPK_RPC_INTERNAL_ERROR, NULL, "out of memory");
  else
    not_found(c, uri, "resource");
}

/* A URI of the form skill://<name>/<file> (the first scheme): the winning skill of that
 * name, for clients that built URIs from resources/list before the extension. */
static int read_by_name(upk_index *ix, const char *uri, char **data, size_t *len,
                        const char **rel) {
  const char *name = uri + strlen("skill://"), *slash = strchr(name, '/');
  char buf[256];
  if (strncmp(uri, "skill://", 8) || !slash || (size_t)(slash - name) >= sizeof buf)
    return -ENOENT;
  snprintf(buf, sizeof buf, "%.*s", (int)(slash - name), name);
  upk_index_skill sk = {0};
  if (upk_index_get(ix, buf, NULL, &sk) != 0)
    return -ENOENT;
  *rel = slash + 1;
  int rc = upk_catalog_read(sk.e.dir, base_name(sk.e.path), *rel, UPK_CATALOG_MAX_BYTES, data, len);
  upk_index_skill_free(&sk);
  return rc;
}

static void do_resources_read(upk_call *c, upk_index *ix) {
  const char *uri = upk_call_str(c, "uri"), *rel = NULL;
  if (!upk_call_need_index(c, ix) || upk_call_wait_scan(c, ix))
    return;
  char *data = NULL;
  size_t len = 0;
  located l;
  int rc = locate(c, ix, uri, &l);
  if (!rc) {
    rel = l.rel;
    rc = *rel ? upk_catalog_read(l.e.dir, base_name(l.e.path), rel, UPK_CATALOG_MAX_BYTES, &data,
                                 &len)
              : -EISDIR;
  }
  if (rc == -ENOENT || rc == -EINVAL) /* not a path URI: perhaps a name URI */
    rc = read_by_name(ix, uri, &data, &len, &rel);
  if (!rc) {
    json_t *contents = contents_of(uri, rel, data, len);
    c->result = contents ? json_pack("{s:[o]}", "contents", contents) : NULL;
    rc = contents ? 0 : -ENOMEM;
  }
  if (rc)
    read_failed(c, uri, rc);
  located_free(&l);
  free(data);
}

/* ---- resources/directory/read: the direct children of a skill directory ---- */

static json_t *child_json(const char *dir_uri, int dfd, const char *name) {
  struct stat sb;
  if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) ||
      (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)))
    return NULL; /* symlinks and special files are not part of a skill (fsutil.h) */
  char *uri = upk_catalog_file_uri(dir_uri, name);
  json_t *r = NULL;
  if (uri && S_ISDIR(sb.st_mode))
    r = json_pack("{s:s,s:s,s:s}", "uri", uri, "name", name, "mimeType", "inode/directory");
  else if (uri)
    r = json_pack("{s:s,s:s,s:s,s:I}", "uri", uri, "name", name, "mimeType", mime_of(name, true),
                  "size", (json_int_t)sb.st_size);
  free(uri);
  return r;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory's children, sorted, as resources (symlinks and special files left out). */
static json_t *children_json(const char *dir_uri, int dfd) {
  DIR *d = upk_opendir_at(dfd);
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, ".git"))
      continue;
    UPK_GROW(names, cap, n + 1);
    names[n++] = upk_xstrdup(de->d_name);
  }
  if (d)
    closedir(d);
  qsort(names, n, sizeof *names, by_name);
  json_t *list = json_array();
  for (size_t i = 0; i < n; i++) {
    json_t *child = child_json(dir_uri, dfd, names[i]);
    if (child)
      json_array_append_new(list, child);
    free(names[i]);
  }
  free(names);
  return d ? list : (json_decref(list), NULL);
}

static void do_directory_read(upk_call *c, upk_index *ix) {
  const char *uri = upk_call_str(c, "uri");
  if (!upk_call_need_index(c, ix) || upk_call_wait_scan(c, ix))
    return;
  located l;
  if (locate(c, ix, uri, &l)) {
    not_found(c, uri, "directory");
    return;
  }
  upk_catalog_bases b = bases_of(c->server);
  char *root = upk_catalog_root_uri(&b, l.e.scope, l.e.dir);
  char *dir_uri = root && *l.rel ? upk_catalog_file_uri(root, l.rel) : NULL;
  int dfd = upk_open_beneath(l.e.dir, l.rel, false);
  json_t *list = dfd < 0 ? NULL : children_json(dir_uri ? dir_uri : root, dfd);
  if (list)
    c->result = json_pack("{s:o}", "resources", list);
  else
    not_found(c, uri, "directory");
  if (dfd >= 0)
    close(dfd);
  free(root);
  free(dir_uri);
  located_free(&l);
}

/* ---- resources/list: each skill's SKILL.md under the name an agent knows it by ---- */

static void do_resources_list(upk_call *c, upk_index *ix) {
  if (!upk_call_need_index(c, ix))
    return;
  upk_index_entries all = {0};
  if (upk_index_list(ix, NULL, NULL, &all) != 0) {
    upk_call_fail(c, UPK_RPC_REQUEST_FAILED, NULL, "%s", upk_index_errmsg(ix));
    return;
  }
  json_t *seen = json_object(), *list = json_array();
  for (size_t i = 0; i < all.len; i++) {
    const upk_index_entry *e = &all.items[i];
    if (!e->usable || e->shadowed || json_object_get(seen, e->name))
      continue;
    json_object_set_new(seen, e->name, json_true());
    char uri[PATH_MAX];
    snprintf(uri, sizeof uri, "skill://%s/SKILL.md", e->name);
    json_t *r = json_pack("{s:s,s:s,s:s,s:s}", "uri", uri, "name", e->name, "description",
                          e->description ? e->description : "", "mimeType", "text/markdown");
    if (r)
      json_array_append_new(list, r);
  }
  upk_index_entries_free(&all);
  json_decref(seen);
  c->result = json_pack("{s:o}", "resources", list);
}

static void resources_list_handler(upk_job *job, json_t *params) {
  if (json_object_get(params, "cursor")) {
    upk_job_fail(job, UPK_RPC_INVALID_PARAMS, "params.cursor: unknown cursor");
    return;
  }
  upk_call_start(job, params, do_resources_list);
}

#define QUEUED(fn, wait)                                                                           \
  static void fn##_handler(upk_job *job, json_t *params) {                                         \
    upk_call_start_waiting(job, params, fn, wait);                                                 \
  }
QUEUED(do_skills_get, WAIT_FIRST_SCAN_MS)
QUEUED(do_resources_read, WAIT_FIRST_SCAN_MS)
QUEUED(do_directory_read, WAIT_FIRST_SCAN_MS)

/* ---- the methods, as the MCP face routes them ---- */

static const upk_param cursor_params[] = {
    {"cursor", UPK_T_STRING, 0, "Pagination cursor from the previous page."}, {0}};
static const upk_param uri_params[] = {{"uri", UPK_T_STRING, 1, "A skill:// URI."}, {0}};
static const upk_param dir_params[] = {
    {"uri", UPK_T_STRING, 1, "A skill directory's skill:// URI."},
    {"cursor", UPK_T_STRING, 0, "Pagination cursor (directories come in one page)."},
    {0}};

static const upk_method ext_methods[] = {
    {"skills/list", NULL, "List skills (MCP Skills extension)", "", cursor_params,
     skills_list_handler, UPK_METHOD_READ_ONLY},
    {"skills/get", NULL, "Get a skill (MCP Skills extension)", "", uri_params,
     do_skills_get_handler, UPK_METHOD_READ_ONLY},
    {"resources/list", NULL, "List skill resources", "", cursor_params, resources_list_handler,
     UPK_METHOD_READ_ONLY},
    {"resources/read", NULL, "Read a skill file", "", uri_params, do_resources_read_handler,
     UPK_METHOD_READ_ONLY},
    {"resources/directory/read", NULL, "List a skill directory", "", dir_params,
     do_directory_read_handler, UPK_METHOD_READ_ONLY},
};

/* libcrypto (common/sha256.h: where libmd is missing) sets up per-thread state on its first
 * digest; taken on a pool thread, it is lost when that thread ends (valgrind: 904 bytes lost).
 * Taken here, on the loop thread, it lives as long as the process. */
static void crypto_on_loop_thread(void) {
  static bool done;
  unsigned char md[32];
  if (!done)
    (void)upk_sha256("", 0, md); /* without libcrypto the digests fail later, with a reason */
  done = true;
}

bool upk_skills_ext_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                            json_t *params) {
  crypto_on_loop_thread();
  upk_services *sv = upk_session_services(s);
  for (size_t i = 0; i < sizeof ext_methods / sizeof *ext_methods; i++)
    if (!strcmp(method, ext_methods[i].name)) {
      if (!sv->listed) /* made here, before any request of ours is queued: the loop reads its
                        * kept pages (lane_page), the skills queue builds them */
        sv->listed = upk_catalog_memo_new(LISTED_ENTRIES, LISTED_BYTES);
      if (!strcmp(method, "resources/directory/read") &&
          json_object_get(params, "cursor")) { /* one page: no cursor is ever handed out */
        upk_session_answer(
            s, b, upk_rpc_error(id, UPK_RPC_INVALID_PARAMS, "params.cursor: unknown cursor", NULL));
        return true;
      }
      upk_job_start(s, b, &ext_methods[i], id, params, params, &upk_face_job_plain);
      return true;
    }
  return false;
}

/* The MCP Skills extension's catalog (catalog.h): URIs from paths and back, frontmatter typed
 * as a host re-reads it, the extension's rules, the manifest, and the digest cache noticing a
 * changed file at once. */
#include "tests/skills/skill_helpers.h"

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skills/catalog.h"

TestSuite(catalog, .init = th_setup, .fini = th_teardown);

static json_t *fm_of(const char *text, int want_rc) {
  json_t *fm = NULL;
  char why[256] = "";
  int rc = upk_catalog_frontmatter(text, strlen(text), &fm, why, sizeof why);
  cr_assert_eq(rc, want_rc, "%s -> %d (%s)", text, rc, why);
  return fm;
}

Test(catalog, frontmatter_has_yaml_core_schema_types) {
  json_t *fm = fm_of("---\nname: a\nn: 42\nneg: -7\nf: 0.5\nexp: 1e3\nhex: 0x1F\noct: 0o17\n"
                     "t: True\nnil: ~\nempty:\nq: \"42\"\nver: 1.0\nlist: [a, 2]\n"
                     "meta:\n  k: v\nblock: |\n  line\n---\nbody\n",
                     0);
  cr_assert_eq(json_integer_value(json_object_get(fm, "n")), 42);
  cr_assert_eq(json_integer_value(json_object_get(fm, "neg")), -7);
  cr_assert_float_eq(json_real_value(json_object_get(fm, "f")), 0.5, 1e-12);
  cr_assert_float_eq(json_number_value(json_object_get(fm, "exp")), 1000.0, 1e-9);
  cr_assert_eq(json_integer_value(json_object_get(fm, "hex")), 31);
  cr_assert_eq(json_integer_value(json_object_get(fm, "oct")), 15);
  cr_assert(json_is_true(json_object_get(fm, "t")));
  cr_assert(json_is_null(json_object_get(fm, "nil")));
  cr_assert(json_is_null(json_object_get(fm, "empty")));
  cr_assert_str_eq(json_string_value(json_object_get(fm, "q")), "42", "quoted stays a string");
  cr_assert_float_eq(json_number_value(json_object_get(fm, "ver")), 1.0, 1e-12);
  cr_assert_eq(json_integer_value(json_array_get(json_object_get(fm, "list"), 1)), 2);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(fm, "meta"), "k")), "v");
  cr_assert_str_eq(json_string_value(json_object_get(fm, "block")), "line\n");
  json_decref(fm);
}

Test(catalog, frontmatter_a_host_cannot_read_back_is_refused) {
  fm_of("no frontmatter\n", -EINVAL);
  fm_of("---\nname: a\n", -EINVAL);                       /* never closed */
  fm_of("---\n- a\n- b\n---\n", -EINVAL);                 /* not a mapping */
  fm_of("---\nname: a\nname: b\n---\n", -EINVAL);         /* duplicate key */
  fm_of("---\na: &x 1\nb: *x\n---\n", -EINVAL);           /* anchors and aliases */
  fm_of("---\n1: one\n---\n", -EINVAL);                   /* a key that is not a string */
  fm_of("---\nx: .inf\n---\n", -EINVAL);                  /* not representable in JSON */
  fm_of("---\ndescription: Use when: x\n---\n", -EINVAL); /* needed the lenient retry */
  json_decref(fm_of("\xEF\xBB\xBF---\r\nname: a\r\n---\r\nbody\r\n", 0)); /* BOM and CRLF */
}

Test(catalog, uris_come_from_paths_and_back) {
  upk_catalog_bases b = {"/w", "/home/u", "/usr/share/upskilld/skills"};
  char *uri = upk_catalog_root_uri(&b, UPK_INDEX_PROJECT, "/w/.claude/skills/pdf forms");
  cr_assert_str_eq(uri, "skill://project/.claude/skills/pdf%20forms");
  char *path = NULL;
  char *file = upk_catalog_file_uri(uri, "references/Q&A #1.md");
  cr_assert_str_eq(file, "skill://project/.claude/skills/pdf%20forms/references/Q&A%20%231.md");
  cr_assert_eq(upk_catalog_uri_path(&b, file, &path), 0);
  cr_assert_str_eq(path, "/w/.claude/skills/pdf forms/references/Q&A #1.md");
  free(path), free(file), free(uri);
  uri = upk_catalog_root_uri(&b, UPK_INDEX_USER, "/home/u/.agents/skills/x");
  cr_assert_str_eq(uri, "skill://user/.agents/skills/x");
  free(uri);
  uri = upk_catalog_root_uri(&b, UPK_INDEX_BUILTIN, "/usr/share/upskilld/skills/h100");
  cr_assert_str_eq(uri, "skill://builtin/h100");
  free(uri);
  uri = upk_catalog_root_uri(&b, UPK_INDEX_PROJECT, "/elsewhere/skills/x"); /* outside its base */
  cr_assert_str_eq(uri, "skill://path/elsewhere/skills/x");
  cr_assert_eq(upk_catalog_uri_path(&b, uri, &path), 0);
  cr_assert_str_eq(path, "/elsewhere/skills/x");
  free(path), free(uri);
}

Test(catalog, uris_that_leave_their_base_are_refused) {
  upk_catalog_bases b = {"/w", "/home/u", NULL};
  static const char *const bad[] = {"skill://project/../etc/passwd",
                                    "skill://project/a/%2E%2E/b",
                                    "skill://project/a/%2Fb",
                                    "skill://project/a//b",
                                    "skill://project/a/%00",
                                    "skill://builtin/x",
                                    "skill://other/x",
                                    "file:///etc/passwd",
                                    "skill://project/a?x=1",
                                    "skill://project/a/%zz",
                                    "skill://project/a/%4"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *path = NULL;
    cr_assert_eq(upk_catalog_uri_path(&b, bad[i], &path), -EINVAL, "%s -> %s", bad[i], path);
  }
}

static json_t *entry(upk_catalog_cache *c, const char *dir, int want_rc) {
  json_t *e = NULL;
  char why[256] = "";
  int rc = upk_catalog_entry(c, th_path(dir), "SKILL.md", "skill://project/s", &e, why, sizeof why);
  cr_assert_eq(rc, want_rc, "%s -> %d (%s)", dir, rc, why);
  return e;
}

Test(catalog, entries_follow_the_extension_rules) {
  th_skill("good", "name: good\ndescription: Use for good work.\n");
  th_write("good/references/R.md", "# R\n");
  th_write_bytes("good/bin.dat", "\0\1", 2);
  symlink("/etc/passwd", th_path("good/leak"));
  json_t *e = entry(NULL, "good", 0);
  json_t *res = json_object_get(e, "resources");
  cr_assert_eq(json_array_size(res), 3, "%s", json_dumps(e, 0)); /* the symlink is left out */
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 0), "uri")),
                   "skill://project/s/SKILL.md");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(res, 1), "uri")),
                   "skill://project/s/bin.dat");
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(res, 1), "size")), 2);
  cr_assert_str_eq(
      json_string_value(json_object_get(json_array_get(res, 1), "digest")),
      "sha256:b413f47d13ee2fe6c845b2ee141af81de858df4ec549a58b7970bb96645bc8d2"); /* hashlib.sha256(b"\\x00\\x01")
                                                                                   */
  json_decref(e);
  th_skill("wrong-dir", "name: other\ndescription: x\n");
  entry(NULL, "wrong-dir", -EINVAL);
  th_skill("Upper", "name: Upper\ndescription: x\n");
  entry(NULL, "Upper", -EINVAL);
  th_skill("nodesc", "name: nodesc\n");
  entry(NULL, "nodesc", -EINVAL);
  th_skill("meta", "name: meta\ndescription: x\nmetadata:\n  v: 1.0\n");
  entry(NULL, "meta", -EINVAL); /* metadata values must be strings */
}

Test(catalog, a_changed_file_gets_its_new_digest_at_once) {
  upk_catalog_cache *c = upk_catalog_cache_new(16);
  th_skill("s", "name: s\ndescription: Use for s.\n");
  th_write("s/notes.md", "one\n");
  json_t *a = entry(c, "s", 0), *b = entry(c, "s", 0); /* the second from the cache */
  cr_assert(json_equal(a, b));
  th_write("s/notes.md", "two\n"); /* same size: mtime and ctime tell */
  th_skill("s", "name: s\ndescription: Use for s, changed.\n");
  json_t *d = entry(c, "s", 0);
  json_t *na = json_array_get(json_object_get(a, "resources"), 1);
  json_t *nd = json_array_get(json_object_get(d, "resources"), 1);
  cr_assert(!json_equal(json_object_get(na, "digest"), json_object_get(nd, "digest")));
  cr_assert_str_eq(
      json_string_value(json_object_get(json_object_get(d, "frontmatter"), "description")),
      "Use for s, changed.");
  for (int i = 0; i < 40; i++) { /* past the cache's size: it starts again, answers stay right */
    char dir[32];
    snprintf(dir, sizeof dir, "k%d", i);
    char fm[96];
    snprintf(fm, sizeof fm, "name: k%d\ndescription: Use for k%d.\n", i, i);
    th_skill(dir, fm);
    json_decref(entry(c, dir, 0));
  }
  json_t *e = entry(c, "s", 0);
  cr_assert(json_equal(d, e));
  json_decref(a), json_decref(b), json_decref(d), json_decref(e);
  upk_catalog_cache_free(c);
}

Test(catalog, read_serves_files_of_the_skill_only) {
  th_skill("r", "name: r\ndescription: x\n");
  th_write("r/ref/a.md", "A\n");
  symlink("/etc", th_path("r/etc"));
  char *data = NULL;
  size_t len = 0;
  cr_assert_eq(upk_catalog_read(th_path("r"), "SKILL.md", "ref/a.md", 100, &data, &len), 0);
  cr_assert_str_eq(data, "A\n");
  free(data);
  cr_assert_lt(upk_catalog_read(th_path("r"), "SKILL.md", "etc/passwd", 1 << 20, &data, &len), 0);
  cr_assert_eq(upk_catalog_read(th_path("r"), "SKILL.md", "../r/SKILL.md", 100, &data, &len),
               -ENOENT);
  cr_assert_eq(upk_catalog_read(th_path("r"), "SKILL.md", "SKILL.md", 4, &data, &len), -EFBIG);
}

/* The stored record (what the index keeps for the listing's pages) gives the entry the disk
 * gives, refuses what the disk refuses, and says when a file changed under it. */
Test(catalog, a_stored_record_gives_the_entry_the_disk_gives) {
  upk_catalog_cache *c = upk_catalog_cache_new(16);
  th_skill("s", "name: s\ndescription: Use for s.\nmetadata:\n  v: \"1\"\n");
  th_write("s/references/deep/guide.md", "guide\n");
  th_write("s/run.sh", "echo hi\n");
  char *rec = NULL, why[256] = "";
  cr_assert_eq(upk_catalog_record(th_path("s"), "SKILL.md", &rec), 0);
  json_t *disk = entry(c, "s", 0), *stored = NULL;
  cr_assert_eq(upk_catalog_entry_from_record(rec, th_path("s"), "skill://project/s", &stored, why,
                                             sizeof why),
               0, "%s", why);
  cr_assert(json_equal(disk, stored));
  cr_assert(upk_catalog_record_current(rec, th_path("s")));
  /* placed under another directory name: the name rule is the placement's */
  json_t *other = NULL;
  cr_assert_eq(upk_catalog_entry_from_record(rec, th_path("t"), "skill://project/t", &other, why,
                                             sizeof why),
               -EINVAL);
  cr_assert(strstr(why, "differs from its directory"), "%s", why);
  /* a file deep below, rewritten at the same size: the record is no longer current */
  struct timespec pause = {0, 20000000};
  nanosleep(&pause, NULL);
  th_write("s/references/deep/guide.md", "GUIDE\n");
  cr_assert(!upk_catalog_record_current(rec, th_path("s")));
  free(rec);
  /* a skill the extension cannot serve: the record says why, and so does its entry */
  th_skill("bad", "name: bad\ndescription: [unclosed\n");
  cr_assert_eq(upk_catalog_record(th_path("bad"), "SKILL.md", &rec), 0);
  cr_assert_eq(upk_catalog_entry_from_record(rec, th_path("bad"), "skill://project/bad", &other,
                                             why, sizeof why),
               -EINVAL);
  cr_assert(strstr(why, "frontmatter"), "%s", why);
  free(rec);
  /* hostile or damaged stored text: refused, nothing served */
  cr_assert_eq(upk_catalog_entry_from_record("{\"frontmatter\": 3}", th_path("s"),
                                             "skill://project/s", &other, why, sizeof why),
               -EINVAL);
  cr_assert_eq(upk_catalog_entry_from_record("not json", th_path("s"), "skill://project/s", &other,
                                             why, sizeof why),
               -EINVAL);
  cr_assert_null(other);
  json_decref(disk);
  json_decref(stored);
  upk_catalog_cache_free(c);
}

/* The entries kept in memory: the same record gives the same (shared) entry without reading
 * it back; any change of the record, its placement or its root URI builds it again; a refusal
 * is kept with its reason; damaged text is refused as when read back; past its bounds the memo
 * starts again and still answers. */
Test(catalog, kept_entries_follow_their_record) {
  upk_catalog_memo *m = upk_catalog_memo_new(4, 1 << 20);
  th_skill("s", "name: s\ndescription: Use for s.\n");
  char *rec = NULL, *rec2 = NULL, why[256] = "";
  cr_assert_eq(upk_catalog_record(th_path("s"), "SKILL.md", &rec), 0);
  json_t *a = NULL, *b = NULL, *c = NULL, *want = NULL;
  cr_assert_eq(
      upk_catalog_entry_from_record(rec, th_path("s"), "skill://project/s", &want, why, sizeof why),
      0);
  cr_assert_eq(
      upk_catalog_listed(m, 1, rec, th_path("s"), "skill://project/s", &a, why, sizeof why), 0,
      "%s", why);
  cr_assert(json_equal(a, want));
  cr_assert_eq(
      upk_catalog_listed(m, 1, rec, th_path("s"), "skill://project/s", &b, why, sizeof why), 0);
  cr_assert_eq(a, b, "the same record hands out the entry kept");
  cr_assert_eq(upk_catalog_memo_size(m), 1);
  json_decref(b);
  /* another root URI (another workspace): built again, for that root */
  cr_assert_eq(upk_catalog_listed(m, 1, rec, th_path("s"), "skill://user/s", &b, why, sizeof why),
               0);
  cr_assert_neq(a, b);
  cr_assert_str_eq(json_string_value(json_object_get(b, "uri")), "skill://user/s/SKILL.md");
  json_decref(b);
  /* the skill changed: its new record gives the new digest, not the kept entry */
  th_write("s/SKILL.md", "---\nname: s\ndescription: Use for s, changed.\n---\n");
  cr_assert_eq(upk_catalog_record(th_path("s"), "SKILL.md", &rec2), 0);
  cr_assert_eq(
      upk_catalog_listed(m, 1, rec2, th_path("s"), "skill://project/s", &c, why, sizeof why), 0);
  cr_assert_neq(a, c);
  cr_assert_str_eq(
      json_string_value(json_object_get(json_object_get(c, "frontmatter"), "description")),
      "Use for s, changed.");
  cr_assert_eq(upk_catalog_memo_size(m), 1, "one document, one entry");
  json_decref(c);
  /* placed under another name: refused (the name rule), and refused again from memory */
  for (int i = 0; i < 2; i++) {
    why[0] = 0;
    cr_assert_eq(
        upk_catalog_listed(m, 2, rec2, th_path("t"), "skill://project/t", &c, why, sizeof why),
        -EINVAL);
    cr_assert_null(c);
    cr_assert(strstr(why, "differs from its directory"), "%s", why);
  }
  /* damaged or hostile stored text: refused, nothing kept to serve */
  cr_assert_eq(
      upk_catalog_listed(m, 3, "not json", th_path("s"), "skill://project/s", &c, why, sizeof why),
      -EINVAL);
  cr_assert_eq(upk_catalog_listed(m, 3, "{\"frontmatter\": 3}", th_path("s"), "skill://project/s",
                                  &c, why, sizeof why),
               -EINVAL);
  cr_assert_null(c);
  /* more documents than its bound (4 -> 1024 slots, emptied at three quarters): still right */
  for (int64_t doc = 10; doc < 1000; doc++) {
    cr_assert_eq(
        upk_catalog_listed(m, doc, rec2, th_path("s"), "skill://project/s", &c, why, sizeof why),
        0);
    json_decref(c);
  }
  cr_assert_leq(upk_catalog_memo_size(m), 768);
  /* a document id the index never gives (0) is built and not kept */
  size_t n = upk_catalog_memo_size(m);
  cr_assert_eq(
      upk_catalog_listed(m, 0, rec2, th_path("s"), "skill://project/s", &c, why, sizeof why), 0);
  cr_assert_eq(upk_catalog_memo_size(m), n);
  json_decref(c);
  /* the entries handed out outlive the memo */
  upk_catalog_memo_free(m);
  cr_assert(json_equal(a, want));
  json_decref(a);
  json_decref(want);
  free(rec);
  free(rec2);
}

/* The byte bound: records past it start the memo again. */
Test(catalog, kept_entries_stay_within_their_bytes) {
  th_skill("s", "name: s\ndescription: Use for s.\n");
  char *rec = NULL, why[256] = "";
  cr_assert_eq(upk_catalog_record(th_path("s"), "SKILL.md", &rec), 0);
  upk_catalog_memo *m = upk_catalog_memo_new(1000, strlen(rec) * 3);
  json_t *e = NULL;
  for (int64_t doc = 1; doc <= 10; doc++) {
    cr_assert_eq(
        upk_catalog_listed(m, doc, rec, th_path("s"), "skill://project/s", &e, why, sizeof why), 0);
    json_decref(e);
    cr_assert_leq(upk_catalog_memo_size(m), 3);
  }
  upk_catalog_memo_free(m);
  free(rec);
}

/* A kept page's answer text stays beside the page while the index stamp holds, only one text a
 * page, and goes with the page when the stamp changes; no page, no text. */
Test(catalog, kept_pages_keep_their_answer_text) {
  upk_catalog_memo *m = upk_catalog_memo_new(1000, 1 << 20);
  json_t *skills = json_pack("[{s:s}]", "uri", "skill://project/s");
  json_t *answer = json_pack("{s:O}", "skills", skills);
  upk_json_text *text = upk_json_text_dump(answer), *other = upk_json_text_dump(skills);
  int64_t next = 0;
  int more = 0;
  upk_catalog_memo_keep_text(m, 0, 200, text); /* no page kept yet: nothing */
  cr_assert_null(upk_catalog_memo_page(m, 7, 1, 0, 200, &next, &more));
  upk_catalog_memo_keep_page(m, 7, 1, 0, 200, skills, 5, 1);
  cr_assert_null(upk_catalog_memo_page_text(m, 0, 200));
  upk_catalog_memo_keep_text(m, 0, 200, text);
  upk_catalog_memo_keep_text(m, 0, 200, other); /* the first stays */
  upk_catalog_memo_keep_text(m, 5, 200, other); /* another page: not kept */
  cr_assert_null(upk_catalog_memo_page_text(m, 5, 200));
  json_t *page = upk_catalog_memo_page(m, 7, 1, 0, 200, &next, &more);
  cr_assert_eq(page, skills);
  json_decref(page);
  upk_json_text *got = upk_catalog_memo_page_text(m, 0, 200);
  cr_assert_eq(got, text);
  cr_assert_str_eq(upk_json_text_data(got), "{\"skills\":[{\"uri\":\"skill://project/s\"}]}");
  upk_json_text_unref(got);
  cr_assert_null(upk_catalog_memo_page(m, 8, 1, 0, 200, &next, &more)); /* the index changed */
  cr_assert_null(upk_catalog_memo_page_text(m, 0, 200));
  /* built again from the very entries: the text is taken over; from others: none */
  json_t *again = json_array(), *changed = json_array();
  json_array_append(again, json_array_get(skills, 0));
  json_array_append_new(changed, json_pack("{s:s}", "uri", "skill://project/s"));
  upk_catalog_memo_keep_page(m, 8, 1, 0, 200, again, 5, 1);
  got = upk_catalog_memo_page_text(m, 0, 200);
  cr_assert_eq(got, text, "the same entries: the same text");
  upk_json_text_unref(got);
  cr_assert_null(upk_catalog_memo_page(m, 9, 1, 0, 200, &next, &more)); /* changed again */
  upk_catalog_memo_keep_page(m, 9, 1, 0, 200, changed, 5, 1);
  cr_assert_null(upk_catalog_memo_page_text(m, 0, 200), "an equal entry is not the same one");
  cr_assert_null(upk_catalog_memo_page(m, 10, 2, 0, 200, &next, &more)); /* other URI bases */
  upk_catalog_memo_keep_page(m, 10, 2, 0, 200, again, 5, 1);
  cr_assert_null(upk_catalog_memo_page_text(m, 0, 200), "other bases: no text taken over");
  json_decref(again);
  json_decref(changed);
  upk_catalog_memo_free(m);
  cr_assert_str_eq(upk_json_text_data(text), "{\"skills\":[{\"uri\":\"skill://project/s\"}]}",
                   "a text handed out outlives the memo");
  upk_json_text_unref(text);
  upk_json_text_unref(other);
  json_decref(answer);
  json_decref(skills);
}

/* upk_catalog_memo_ready: what the loop may hand out while the queue works. Only a page kept
 * with its text, under the very stamp and bases; a stamp it does not hold changes nothing. */
Test(catalog, ready_pages_only_with_their_text_and_stamp) {
  upk_catalog_memo *m = upk_catalog_memo_new(1000, 1 << 20);
  json_t *skills = json_pack("[{s:s}]", "uri", "skill://project/r");
  upk_json_text *text = upk_json_text_dump(skills);
  upk_catalog_ready r = {0};
  cr_assert_not(upk_catalog_memo_ready(m, 7, 1, 0, 200, &r), "nothing kept");
  upk_catalog_memo_keep_page(m, 7, 1, 0, 200, skills, 42, 1);
  cr_assert_not(upk_catalog_memo_ready(m, 7, 1, 0, 200, &r), "kept, but no text yet");
  upk_catalog_memo_keep_text(m, 0, 200, text);
  cr_assert_not(upk_catalog_memo_ready(m, 8, 1, 0, 200, &r), "another stamp");
  cr_assert_not(upk_catalog_memo_ready(m, 7, 2, 0, 200, &r), "other bases");
  cr_assert_not(upk_catalog_memo_ready(m, 7, 1, 0, 300, &r), "another page size");
  cr_assert(upk_catalog_memo_ready(m, 7, 1, 0, 200, &r),
            "asking under another stamp dropped nothing");
  cr_assert_eq(r.skills, skills);
  cr_assert_eq(r.text, text);
  cr_assert_eq(r.next, 42);
  cr_assert_eq(r.more, 1);
  int64_t next;
  int more;
  cr_assert_null(upk_catalog_memo_page(m, 8, 1, 0, 200, &next, &more)); /* the queue: changed */
  upk_catalog_ready gone;
  cr_assert_not(upk_catalog_memo_ready(m, 7, 1, 0, 200, &gone), "dropped with the stamp's move");
  upk_catalog_memo_free(m);
  /* the references handed out outlive the memo */
  cr_assert_str_eq(upk_json_text_data(r.text), "[{\"uri\":\"skill://project/r\"}]");
  cr_assert_eq(json_array_size(r.skills), 1);
  json_decref(r.skills);
  upk_json_text_unref(r.text);
  upk_json_text_unref(text);
  json_decref(skills);
}

/* The queue's thread keeps pages, retires them (the stamp moves) and keeps their texts while
 * another thread hands them out: every page handed out is whole, its text the dump of its very
 * skills, under the stamp asked. (Run under ASan/TSan, a missing lock shows; here a torn page
 * would show as a mismatch or a crash.) */
typedef struct ready_race {
  upk_catalog_memo *m;
  atomic_bool stop;
  atomic_long served;
  atomic_long bad;
} ready_race;

static void *ready_reader(void *arg) {
  ready_race *rr = arg;
  while (!atomic_load(&rr->stop)) {
    for (uint64_t stamp = 1; stamp <= 8; stamp++) {
      upk_catalog_ready r;
      if (!upk_catalog_memo_ready(rr->m, stamp, 1, (int64_t)stamp, 200, &r))
        continue;
      char *dump = json_dumps(r.skills, UPK_JSON_WIRE_FLAGS);
      if (!dump || strcmp(dump, upk_json_text_data(r.text)) || r.next != (int64_t)stamp + 1)
        atomic_fetch_add(&rr->bad, 1);
      free(dump);
      json_decref(r.skills);
      upk_json_text_unref(r.text);
      atomic_fetch_add(&rr->served, 1);
    }
  }
  return NULL;
}

Test(catalog, ready_pages_while_the_queue_keeps_and_drops_them) {
  ready_race rr = {.m = upk_catalog_memo_new(1000, 1 << 20)};
  pthread_t t;
  cr_assert_eq(pthread_create(&t, NULL, ready_reader, &rr), 0);
  int64_t next;
  int more;
  /* until the reader was handed 200 pages (at least 2,000 rounds, at most 10 s) */
  time_t until = time(NULL) + 10;
  for (int round = 0; round < 2000 || (atomic_load(&rr.served) < 200 && time(NULL) < until);
       round++) {
    uint64_t stamp = (uint64_t)(round % 8) + 1;
    json_t *skills = json_pack("[{s:s,s:i}]", "uri", "skill://project/x", "round", round);
    upk_json_text *text = upk_json_text_dump(skills);
    json_decref(upk_catalog_memo_page(rr.m, stamp, 1, (int64_t)stamp, 200, &next, &more));
    upk_catalog_memo_keep_page(rr.m, stamp, 1, (int64_t)stamp, 200, skills, (int64_t)stamp + 1, 1);
    upk_catalog_memo_keep_text(rr.m, (int64_t)stamp, 200, text);
    upk_json_text_unref(text);
    json_decref(skills);
    for (int i = 0; i < 8; i++) /* a walk's pages read on this thread meanwhile */
      json_decref(upk_catalog_memo_page(rr.m, stamp, 1, (int64_t)stamp, 200, &next, &more));
  }
  atomic_store(&rr.stop, true);
  pthread_join(t, NULL);
  upk_catalog_memo_free(rr.m);
  cr_assert_gt(atomic_load(&rr.served), 0, "the reader was handed pages");
  cr_assert_eq(atomic_load(&rr.bad), 0, "%ld pages handed out torn", atomic_load(&rr.bad));
}

/* The first page of a skill's listing finds no stored record (indexing builds none: hashing
 * every file of every skill was a third of its time); what the page builds and keeps is read
 * back as this open's; an edit a refresh finds drops it (the next page builds it again, with
 * the new digest); a new open of the same file reads it as another's (checked against the
 * disk before use); records built for many skills on threads equal those built one by one. */
static upk_index_entries page_of(upk_index *ix) {
  upk_index_entries page = {0};
  int64_t at = 0;
  cr_assert_geq(upk_index_skills_page(ix, &at, 100, &page), 0, "%s", upk_index_errmsg(ix));
  cr_assert_eq(page.len, 2);
  return page;
}

Test(catalog, listing_records_are_stored_by_the_listing_not_by_indexing) {
  th_skill(".claude/skills/a", "name: a\ndescription: Use for a.\n");
  th_write(".claude/skills/a/run.sh", "echo a\n");
  th_skill(".claude/skills/b", "name: b\ndescription: Use for b.\n");
  char db[4096];
  snprintf(db, sizeof db, "%s", th_path("index.sqlite"));
  upk_index_options o = {.db_path = db};
  upk_index_root root = {.dir = th_path(".claude/skills"), .scope = UPK_INDEX_PROJECT};
  upk_index *ix;
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_eq(upk_index_set_roots(ix, &root, 1), 0);
  cr_assert_eq(upk_index_scan(ix, NULL, NULL), 0, "%s", upk_index_errmsg(ix));
  upk_index_entries page = page_of(ix);
  const char *dirs[2], *files[2] = {"SKILL.md", "SKILL.md"};
  char *built[2], *one = NULL;
  upk_index_entry *keep[2];
  for (size_t i = 0; i < 2; i++) {
    cr_assert_null(page.items[i].catalog, "indexing stored a record for %s", page.items[i].dir);
    dirs[i] = page.items[i].dir;
    keep[i] = &page.items[i];
  }
  upk_catalog_records(dirs, files, built, 2, 4);
  for (size_t i = 0; i < 2; i++) {
    cr_assert_eq(upk_catalog_record(dirs[i], "SKILL.md", &one), 0);
    cr_assert_str_eq(built[i], one);
    free(one);
  }
  for (size_t i = 0; i < 2; i++)
    page.items[i].catalog = strdup(built[i]);
  cr_assert_eq(upk_index_catalog_keep(ix, keep, 2), 0, "%s", upk_index_errmsg(ix));
  upk_index_entries_free(&page);
  page = page_of(ix);
  for (size_t i = 0; i < 2; i++) {
    cr_assert(page.items[i].catalog_ours, "%s", page.items[i].dir);
    cr_assert_str_eq(page.items[i].catalog, built[i]);
  }
  upk_index_entries_free(&page);
  /* an edit of a's other file, found by a refresh: a's record goes, b's stays */
  struct timespec pause = {0, 20000000};
  nanosleep(&pause, NULL);
  th_write(".claude/skills/a/run.sh", "echo edited\n");
  cr_assert_geq(upk_index_refresh(ix, th_path(".claude/skills/a"), NULL), 0);
  page = page_of(ix);
  size_t a = strstr(page.items[0].dir, "/a") ? 0 : 1;
  cr_assert_null(page.items[a].catalog, "a stale record of a was kept");
  cr_assert(page.items[1 - a].catalog && page.items[1 - a].catalog_ours);
  upk_index_entries_free(&page);
  upk_index_close(ix);
  /* the next open: b's record is another's now */
  cr_assert_eq(upk_index_open(&ix, &o), 0);
  cr_assert_eq(upk_index_set_roots(ix, &root, 1), 0);
  cr_assert_eq(upk_index_scan(ix, NULL, NULL), 0, "%s", upk_index_errmsg(ix));
  page = page_of(ix);
  cr_assert(page.items[1 - a].catalog && !page.items[1 - a].catalog_ours);
  upk_index_entries_free(&page);
  upk_index_close(ix);
  free(built[0]);
  free(built[1]);
}

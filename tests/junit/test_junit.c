/* clients/junit.c: the totals it counts, text a stranger chose made valid XML 1.0 (read back with
 * libxml2's own strict parser), and the paths --junit refuses. */
#include <dirent.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clients/junit.h"
#include "tests/unit/unit.h"

static xmlDocPtr parse(const char *xml, size_t len) {
  xmlDocPtr doc = xmlReadMemory(xml, (int)len, "junit.xml", NULL, XML_PARSE_NONET);
  cr_assert_not_null(doc, "libxml2 could not read:\n%s", xml);
  return doc;
}

static char *prop(xmlNodePtr n, const char *name) {
  xmlChar *v = xmlGetProp(n, BAD_CAST name);
  cr_assert_not_null(v, "no %s on <%s>", name, (const char *)n->name);
  char *out = strdup((const char *)v);
  xmlFree(v);
  return out;
}

static xmlNodePtr child(xmlNodePtr n, const char *name, int nth) {
  for (xmlNodePtr c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, name) && nth-- == 0)
      return c;
  return NULL;
}

static void expect_prop(xmlNodePtr n, const char *name, const char *want) {
  char *v = prop(n, name);
  cr_expect_str_eq(v, want, "%s=\"%s\", expected \"%s\"", name, v, want);
  free(v);
}

UTest(junit, totals_are_counted_per_suite_and_overall) {
  upk_junit_case a[] = {
      {"m.with_skill", "case 1 run 1", 1.5, UPK_JUNIT_PASS},
      {"m.with_skill", "case 2 run 1", 0.25, UPK_JUNIT_FAILURE, "no TOKEN", "assertion", "x: no\n"},
      {"m.baseline", "case 1 run 1", -1, UPK_JUNIT_SKIPPED, "no toolkit"},
  };
  upk_junit_case b[] = {{"n.with_skill", "case 1 run 1", 2, UPK_JUNIT_ERROR, "HTTP 404", "trial"}};
  upk_junit_suite s[] = {{"skill: m", a, 3, -1, 0}, {"skill: n", b, 1, 10, 0}};
  size_t len = 0;
  char *xml = upk_junit_string("upskillctl eval skill", s, 2, &len);
  cr_assert_not_null(xml);
  xmlDocPtr doc = parse(xml, len);
  xmlNodePtr root = xmlDocGetRootElement(doc), s0 = child(root, "testsuite", 0),
             s1 = child(root, "testsuite", 1);
  expect_prop(root, "tests", "4");
  expect_prop(root, "failures", "1");
  expect_prop(root, "errors", "1");
  expect_prop(root, "time", "11.750"); /* 1.75 summed, then the second suite's own 10 */
  expect_prop(s0, "tests", "3");
  expect_prop(s0, "skipped", "1");
  expect_prop(s0, "time", "1.750");
  expect_prop(s0, "timestamp", "1970-01-01T00:00:00");
  expect_prop(s1, "errors", "1");
  expect_prop(child(s0, "testcase", 2), "time", "0.000"); /* unknown: 0 */
  xmlNodePtr fail = child(child(s0, "testcase", 1), "failure", 0);
  cr_assert_not_null(fail);
  expect_prop(fail, "message", "no TOKEN");
  expect_prop(fail, "type", "assertion");
  cr_expect_not_null(child(child(s0, "testcase", 2), "skipped", 0));
  cr_expect_null(child(child(s0, "testcase", 0), "failure", 0));
  xmlFreeDoc(doc);
  free(xml);
}

/* Markup is escaped by the writer; bytes XML 1.0 cannot hold become U+FFFD; valid multi-byte
 * characters stay. */
UTest(junit, hostile_text_reads_back_as_text) {
  const char *msg = "<b>&amp;</b> ]]> \x01 \x1b[31m \xff\xfe \xc0\xaf \xed\xa0\x80 \xe2\x82 "
                    "\xef\xbf\xbe ok: \xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e";
  const char *want = "<b>&amp;</b> ]]> \xef\xbf\xbd \xef\xbf\xbd[31m \xef\xbf\xbd\xef\xbf\xbd "
                     "\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
                     "\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ok: "
                     "\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e";
  upk_junit_case c[] = {{msg, msg, 0, UPK_JUNIT_FAILURE, msg, msg, msg, msg}};
  upk_junit_suite s[] = {{msg, c, 1, -1, 0}};
  size_t len = 0;
  char *xml = upk_junit_string(msg, s, 1, &len);
  cr_assert_not_null(xml);
  xmlDocPtr doc = parse(xml, len);
  xmlNodePtr root = xmlDocGetRootElement(doc),
             tc = child(child(root, "testsuite", 0), "testcase", 0);
  cr_assert_not_null(tc);
  expect_prop(root, "name", want);
  expect_prop(tc, "name", want);
  xmlNodePtr f = child(tc, "failure", 0);
  cr_assert_not_null(f);
  cr_expect_null(f->children->next, "the text is one node: no element was injected");
  expect_prop(f, "message", want);
  xmlChar *text = xmlNodeGetContent(f);
  cr_expect_str_eq((const char *)text, want);
  xmlFree(text);
  xmlFreeDoc(doc);
  free(xml);
}

static char *scratch(void) {
  char *d = strdup("/tmp/upk-junit-XXXXXX");
  cr_assert_not_null(mkdtemp(d));
  return d;
}

UTest(junit, paths_refused_and_the_write_leaves_no_temporary) {
  char *d = scratch(), p[512];
  cr_expect_eq(upk_junit_check_path(d), -EISDIR);
  snprintf(p, sizeof p, "%s/missing/out.xml", d);
  cr_expect_eq(upk_junit_check_path(p), -ENOENT);
  cr_expect_eq(upk_junit_write(p, "x", NULL, 0), -ENOENT);
  snprintf(p, sizeof p, "%s/file", d);
  FILE *f = fopen(p, "w");
  cr_assert_not_null(f);
  fclose(f);
  snprintf(p, sizeof p, "%s/file/out.xml", d);
  cr_expect_eq(upk_junit_check_path(p), -ENOTDIR);
  cr_expect_eq(upk_junit_check_path(""), -ENOENT);
  snprintf(p, sizeof p, "%s/out.xml", d);
  upk_junit_case c[] = {{"k", "compile", 0.5, UPK_JUNIT_PASS}};
  upk_junit_suite s[] = {{"check-kernel", c, 1, -1, 0}};
  cr_assert_eq(upk_junit_write(p, "upskillctl check-kernel", s, 1), 0);
  cr_assert_eq(upk_junit_write(p, "upskillctl check-kernel", s, 1), 0); /* over the old one */
  xmlDocPtr doc = xmlReadFile(p, NULL, XML_PARSE_NONET);
  cr_assert_not_null(doc);
  xmlFreeDoc(doc);
  DIR *dir = opendir(d);
  struct dirent *e;
  size_t n = 0;
  while ((e = readdir(dir)))
    if (e->d_name[0] != '.') {
      n++;
      cr_expect(!strcmp(e->d_name, "out.xml") || !strcmp(e->d_name, "file"), "left: %s", e->d_name);
    }
  closedir(dir);
  cr_expect_eq(n, 2);
  snprintf(p, sizeof p, "rm -rf '%s'", d);
  cr_expect_eq(system(p), 0);
  free(d);
}

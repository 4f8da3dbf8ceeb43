/* JUnit XML through libxml2's xmlTextWriter (escaping is the writer's; validity of the
 * characters is ours, see xml_text) and common/fileio.h's atomic write. */
#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clients/junit.h"
#include "common/fileio.h"
#include "common/xalloc.h"

/* The length of a valid UTF-8 sequence at s that is an XML 1.0 Char, or 0. */
static size_t xml_char_len(const unsigned char *s, size_t left) {
  unsigned cp;
  size_t n;
  if (s[0] < 0x80)
    return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' || s[0] == '\r';
  if ((s[0] & 0xe0) == 0xc0)
    n = 2, cp = s[0] & 0x1f;
  else if ((s[0] & 0xf0) == 0xe0)
    n = 3, cp = s[0] & 0x0f;
  else if ((s[0] & 0xf8) == 0xf0)
    n = 4, cp = s[0] & 0x07;
  else
    return 0;
  if (n > left)
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  static const unsigned min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff ||
      cp > 0x10ffff)
    return 0;
  return n;
}

/* s as XML 1.0 character data: a byte that starts no valid character (invalid UTF-8, a
 * control character) becomes U+FFFD, so a hostile reason cannot make the file unreadable. */
static char *xml_text(const char *s) {
  size_t len = strlen(s), o = 0;
  char *out = upk_xmalloc(3 * len + 1);
  for (size_t i = 0; i < len;) {
    size_t n = xml_char_len((const unsigned char *)s + i, len - i);
    if (n) {
      memcpy(out + o, s + i, n);
      o += n, i += n;
    } else {
      memcpy(out + o, "\xef\xbf\xbd", 3);
      o += 3, i++;
    }
  }
  out[o] = '\0';
  return out;
}

static int attr(xmlTextWriterPtr w, const char *name, const char *value) {
  char *v = xml_text(value ? value : "");
  int rc = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v);
  free(v);
  return rc < 0 ? -1 : 0;
}

static int attr_num(xmlTextWriterPtr w, const char *name, const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  return attr(w, name, buf);
}

static int text(xmlTextWriterPtr w, const char *s) {
  char *v = xml_text(s);
  int rc = xmlTextWriterWriteString(w, BAD_CAST v);
  free(v);
  return rc < 0 ? -1 : 0;
}

typedef struct tally {
  size_t tests, failures, errors, skipped;
  double time;
} tally;

static void count(tally *t, const upk_junit_suite *s) {
  double sum = 0;
  for (size_t i = 0; i < s->n_cases; i++) {
    const upk_junit_case *c = &s->cases[i];
    t->tests++;
    t->failures += c->outcome == UPK_JUNIT_FAILURE;
    t->errors += c->outcome == UPK_JUNIT_ERROR;
    t->skipped += c->outcome == UPK_JUNIT_SKIPPED;
    sum += c->time_s > 0 ? c->time_s : 0;
  }
  t->time += s->time_s >= 0 ? s->time_s : sum;
}

static const char *const outcome_tag[] = {NULL, "failure", "error", "skipped"};

static int write_case(xmlTextWriterPtr w, const upk_junit_case *c) {
  if (xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 || attr(w, "name", c->name) ||
      attr(w, "classname", c->classname) ||
      attr_num(w, "time", "%.3f", c->time_s > 0 ? c->time_s : 0))
    return -1;
  if (c->outcome != UPK_JUNIT_PASS) {
    if (xmlTextWriterStartElement(w, BAD_CAST outcome_tag[c->outcome]) < 0)
      return -1;
    /* The Jenkins schema's <skipped> is text only; failure and error carry attributes. */
    if (c->outcome != UPK_JUNIT_SKIPPED &&
        ((c->message && attr(w, "message", c->message)) || attr(w, "type", c->type)))
      return -1;
    const char *body = c->outcome == UPK_JUNIT_SKIPPED && !c->detail ? c->message : c->detail;
    if ((body && text(w, body)) || xmlTextWriterEndElement(w) < 0)
      return -1;
  }
  if (c->out && (xmlTextWriterStartElement(w, BAD_CAST "system-out") < 0 || text(w, c->out) ||
                 xmlTextWriterEndElement(w) < 0))
    return -1;
  return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static void iso_time(double t, char *buf, size_t len) {
  time_t secs = (time_t)t;
  struct tm tm;
  gmtime_r(&secs, &tm);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

static int write_suite(xmlTextWriterPtr w, const upk_junit_suite *s, size_t id, const char *host) {
  tally t = {0};
  char when[32];
  count(&t, s);
  iso_time(s->timestamp, when, sizeof when);
  if (xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 || attr(w, "name", s->name) ||
      attr_num(w, "tests", "%.0f", (double)t.tests) ||
      attr_num(w, "failures", "%.0f", (double)t.failures) ||
      attr_num(w, "errors", "%.0f", (double)t.errors) ||
      attr_num(w, "skipped", "%.0f", (double)t.skipped) || attr_num(w, "time", "%.3f", t.time) ||
      attr(w, "timestamp", when) || attr(w, "hostname", host) ||
      attr_num(w, "id", "%.0f", (double)id))
    return -1;
  for (size_t i = 0; i < s->n_cases; i++)
    if (write_case(w, &s->cases[i]))
      return -1;
  return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int write_doc(xmlTextWriterPtr w, const char *name, const upk_junit_suite *suites,
                     size_t n) {
  tally all = {0};
  char host[256] = "localhost";
  if (gethostname(host, sizeof host - 1) || !*host)
    snprintf(host, sizeof host, "localhost");
  for (size_t i = 0; i < n; i++)
    count(&all, &suites[i]);
  if (xmlTextWriterSetIndent(w, 1) < 0 || xmlTextWriterSetIndentString(w, BAD_CAST "  ") < 0 ||
      xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
      xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0 || attr(w, "name", name) ||
      attr_num(w, "tests", "%.0f", (double)all.tests) ||
      attr_num(w, "failures", "%.0f", (double)all.failures) ||
      attr_num(w, "errors", "%.0f", (double)all.errors) || attr_num(w, "time", "%.3f", all.time))
    return -1;
  for (size_t i = 0; i < n; i++)
    if (write_suite(w, &suites[i], i, host))
      return -1;
  return xmlTextWriterEndDocument(w) < 0 ? -1 : 0;
}

char *upk_junit_string(const char *name, const upk_junit_suite *suites, size_t n_suites,
                       size_t *len) {
  xmlBufferPtr buf = xmlBufferCreate();
  xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
  char *out = NULL;
  int rc = w ? write_doc(w, name, suites, n_suites) : -1;
  xmlFreeTextWriter(w); /* flushes into buf */
  if (!rc && buf) {
    size_t n = (size_t)xmlBufferLength(buf);
    out = upk_xmalloc(n + 2);
    memcpy(out, xmlBufferContent(buf), n);
    if (!n || out[n - 1] != '\n') /* a text file ends with a newline */
      out[n++] = '\n';
    out[n] = '\0';
    *len = n;
  }
  if (buf)
    xmlBufferFree(buf);
  return out;
}

int upk_junit_check_path(const char *file) {
  return upk_check_write_path(file);
}

int upk_junit_write(const char *file, const char *name, const upk_junit_suite *suites,
                    size_t n_suites) {
  size_t len = 0;
  int rc = upk_junit_check_path(file);
  if (rc)
    return rc;
  char *doc = upk_junit_string(name, suites, n_suites, &len);
  if (!doc)
    return -ENOMEM;
  rc = upk_write_file_atomic(file, doc, len);
  free(doc);
  return rc;
}

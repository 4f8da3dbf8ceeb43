/* A download-and-run from the skill's own publisher: a SKILL.md whose frontmatter says
 * `metadata.author: camhahu` telling the agent to pipe
 * https://raw.githubusercontent.com/camhahu/browser/main/install.sh into bash installs the
 * publisher's own tool, as a script shipped in the skill would; what differs is that the script
 * is fetched, so nothing here has read it and it may change. Medium, not high: installing a
 * skill already trusts its publisher's code, and the finding still says what runs unread. The
 * author is the skill's word for itself, so only a URL whose owner is that author is lowered;
 * a stranger's host stays high. */
#include "skills/audit/audit_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "skills/skill.h"

#define NAME_MIN 4 /* shorter names ("ai", "dev") would match too many hosts */
#define NAME_MAX_LEN 64

/* Code hosts whose first path segment is the owner. */
static const char *const CODE_HOSTS[] = {
    "github.com",
    "www.github.com",
    "raw.githubusercontent.com",
    "gitlab.com",
    "codeload.github.com",
    "objects.githubusercontent.com",
    "bitbucket.org",
    "gist.githubusercontent.com",
};

/* `s[0, n)` lowercased with everything but letters and digits left out, into out. */
static size_t squeeze(const char *s, size_t n, char out[NAME_MAX_LEN]) {
  size_t k = 0;
  for (size_t i = 0; i < n && k < NAME_MAX_LEN - 1; i++)
    if (isalnum((unsigned char)s[i]))
      out[k++] = (char)tolower((unsigned char)s[i]);
  out[k] = '\0';
  return k;
}

static bool same(const char *s, size_t n, const char *author) {
  char name[NAME_MAX_LEN];
  squeeze(s, n, name);
  return !strcmp(name, author);
}

static bool code_host(const char *h, size_t n) {
  for (size_t i = 0; i < sizeof CODE_HOSTS / sizeof *CODE_HOSTS; i++)
    if (strlen(CODE_HOSTS[i]) == n && !strncasecmp(h, CODE_HOSTS[i], n))
      return true;
  return false;
}

/* Whether the URL whose host starts at u (past "://") belongs to `author`: the owner segment on
 * a code host, OWNER.github.io, or a label of any other host but its last (cli.oomol.com for
 * OOMOL). */
static bool url_owned(const char *u, const char *end, const char *author) {
  const char *h = u;
  while (h < end && (isalnum((unsigned char)*h) || *h == '.' || *h == '-'))
    h++;
  size_t hn = (size_t)(h - u);
  if (code_host(u, hn)) {
    if (h >= end || *h != '/')
      return false;
    const char *o = h + 1, *oe = o;
    while (oe < end && (isalnum((unsigned char)*oe) || *oe == '-' || *oe == '_' || *oe == '.'))
      oe++;
    return same(o, (size_t)(oe - o), author);
  }
  const char *last = u + hn;
  while (last > u && last[-1] != '.')
    last--; /* the last label (a top-level domain) is no one's */
  for (const char *l = u; l < last;) {
    const char *le = memchr(l, '.', (size_t)(last - l));
    if (!le)
      break;
    if (same(l, (size_t)(le - l), author))
      return true;
    l = le + 1;
  }
  return false;
}

/* Whether the evidence names at least one URL and every one belongs to `author`. */
static bool all_urls_owned(const char *ev, const char *author) {
  const char *end = ev + strlen(ev);
  int urls = 0;
  for (const char *p = strstr(ev, "://"); p; p = strstr(p + 3, "://")) {
    urls++;
    if (!url_owned(p + 3, end, author))
      return false;
  }
  return urls > 0;
}

/* The skill's metadata.author, from its SKILL.md (a regular file; NULL when none). */
static char *skill_author(const char *root) {
  char *path = upk_xasprintf("%s/SKILL.md", root), *text = NULL, *author = NULL;
  size_t len;
  upk_skill s = {0};
  upk_diags d = {0};
  if (!upk_read_in_dir(path, UPK_SKILL_MAX_BYTES, &text, &len) &&
      !upk_skill_parse(text, len, NULL, &s, &d)) {
    for (size_t i = 0; i < s.n_meta && !author; i++)
      if (!strcmp(s.meta_keys[i], "author") && s.meta_values[i])
        author = upk_xstrdup(s.meta_values[i]);
  }
  upk_skill_free(&s);
  upk_diags_free(&d);
  free(text);
  free(path);
  return author;
}

/* Whether out->items[i] is a high download-and-run finding: the only kind this lowers. */
static bool candidate(const upk_diag *f) {
  return f->severity == UPK_SEV_ERROR && f->code && !strcmp(f->code, "audit/download-exec") &&
         f->evidence;
}

void upk__audit_publisher_own(upk_diags *out, size_t from, const char *skill_root) {
  size_t i = from;
  while (i < out->len && !candidate(&out->items[i]))
    i++;
  if (i == out->len)
    return; /* the common case: SKILL.md is not read again */
  char *author_text = skill_author(skill_root), author[NAME_MAX_LEN];
  if (!author_text || squeeze(author_text, strlen(author_text), author) < NAME_MIN) {
    free(author_text);
    return;
  }
  for (; i < out->len; i++) {
    upk_diag *f = &out->items[i];
    if (!candidate(f) || !all_urls_owned(f->evidence, author))
      continue;
    char *msg = upk_xasprintf("%s It comes from the skill's own publisher (metadata.author "
                              "\"%.64s\"): medium, as a script shipped in the skill would be, but "
                              "what it runs was not audited and may change.",
                              f->message, author_text);
    free(f->message);
    f->message = msg;
    upk__audit_adjust(f, UPK_SEV_WARNING, "a download from the skill's own publisher");
  }
  free(author_text);
}

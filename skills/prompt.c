/* skills-ref's to-prompt, byte-identical. See prompt.h for the format. */
#include "skills/prompt.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/dynbuf.h"
#include "skills/skill.h"
#include "common/xalloc.h"

static void put(upk_buf *b, const char *s, size_t n) {
  upk_buf_append(b, s, n); /* uncapped: cannot fail */
}

static void puts_(upk_buf *b, const char *s) {
  put(b, s, strlen(s));
}

/* html.escape(s, quote=True): & first, then < > " ' */
static void put_escaped(upk_buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    switch (s[i]) {
    case '&':
      puts_(b, "&amp;");
      break;
    case '<':
      puts_(b, "&lt;");
      break;
    case '>':
      puts_(b, "&gt;");
      break;
    case '"':
      puts_(b, "&quot;");
      break;
    case '\'':
      puts_(b, "&#x27;");
      break;
    default:
      put(b, &s[i], 1);
    }
  }
}

char *upk_prompt_escape(const char *s) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  puts_(&b, "");
  put_escaped(&b, s, strlen(s));
  return b.data;
}

/* Length of the Python-whitespace character at s (str.isspace()), else 0:
 * ASCII \t\n\v\f\r, \x1c-\x1f and space, U+0085, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. */
static size_t space_at(const unsigned char *s, size_t n) {
  if (n >= 1 && ((s[0] >= 9 && s[0] <= 13) || (s[0] >= 0x1c && s[0] <= 0x20)))
    return 1;
  if (n >= 2 && s[0] == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
    return 2;
  if (n < 3)
    return 0;
  unsigned cp = ((s[0] & 0x0fu) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
  if ((s[0] & 0xf0) != 0xe0 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
    return 0;
  bool sp = cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 ||
            cp == 0x202f || cp == 0x205f || cp == 0x3000;
  return sp ? 3 : 0;
}

/* Python's str.strip(): whitespace off both ends. Sets *start and returns the length. */
static size_t py_strip(const char *s, const char **start) {
  const unsigned char *p = (const unsigned char *)s;
  size_t n = strlen(s), k;
  while (n && (k = space_at(p, n))) {
    p += k;
    n -= k;
  }
  for (bool again = true; again && n;) { /* from the end: try each character width */
    again = false;
    for (size_t w = 1; w <= 3 && w <= n; w++)
      if (space_at(p + n - w, w) == w) {
        n -= w;
        again = true;
        break;
      }
  }
  *start = (const char *)p;
  return n;
}

static void put_element(upk_buf *b, const char *tag, const char *value, bool strip) {
  const char *v = value ? value : "";
  size_t n = strip ? py_strip(v, &v) : strlen(v);
  puts_(b, "\n<");
  puts_(b, tag);
  puts_(b, ">\n");
  put_escaped(b, v, n);
  puts_(b, "\n</");
  puts_(b, tag);
  puts_(b, ">");
}

char *upk_prompt_render(const upk_prompt_skill *skills, size_t n) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  puts_(&b, "<available_skills>");
  for (size_t i = 0; i < n; i++) {
    puts_(&b, "\n<skill>");
    put_element(&b, "name", skills[i].name, true);
    put_element(&b, "description", skills[i].description, true);
    put_element(&b, "location", skills[i].location, false);
    puts_(&b, "\n</skill>");
  }
  puts_(&b, "\n</available_skills>");
  return b.data;
}

static int fail(upk_diags *diags, int rc, const char *code, const char *file, const char *msg) {
  upk_range whole = {-1, 0, -1, 0};
  if (diags && !upk_diags_add(diags, UPK_SEV_ERROR, code, "upskilld-prompt", whole, "%s", msg))
    diags->items[diags->len - 1].file = file ? upk_xstrdup(file) : NULL;
  return rc;
}

static bool blank(const char *s) {
  const char *p;
  return !s || py_strip(s, &p) == 0;
}

/* Resolve one directory into name, description and location (all malloc'd). */
static int load_one(const char *dir, char **name, char **desc, char **loc, upk_diags *diags) {
  struct stat sb;
  char *real = realpath(dir, NULL);
  if (!real)
    return fail(diags, -ENOENT, "prompt/not-found", dir, "skill directory not found");
  if (!stat(real, &sb) && S_ISREG(sb.st_mode)) { /* a SKILL.md path: its directory */
    char *slash = strrchr(real, '/');
    *(slash == real ? slash + 1 : slash) = 0;
  }
  char md[PATH_MAX];
  const char *file = "SKILL.md";
  snprintf(md, sizeof md, "%s/%s", real, file);
  if (stat(md, &sb)) {
    file = "skill.md";
    snprintf(md, sizeof md, "%s/%s", real, file);
  }
  upk_skill s = {0};
  upk_diags d = {0};
  int rc = upk_skill_load(real, &s, &d);
  upk_diags_free(&d);
  if (rc < 0)
    rc = fail(diags, rc, "prompt/unreadable", dir, "cannot read the skill's SKILL.md");
  else if (blank(s.name) || blank(s.description))
    rc = fail(diags, -EINVAL, "prompt/incomplete", md,
              "the skill needs a non-empty name and description");
  else if (!(*name = upk_xstrdup(s.name)) || !(*desc = upk_xstrdup(s.description)) ||
           !(*loc = upk_xstrdup(md)))
    rc = -ENOMEM;
  upk_skill_free(&s);
  free(real);
  return rc;
}

int upk_prompt_from_dirs(const char *const *dirs, size_t n, char **out, upk_diags *diags) {
  *out = NULL;
  upk_prompt_skill *v = upk_xcalloc(n ? n : 1, sizeof *v);
  int rc = 0;
  size_t done = 0;
  for (; done < n && !rc; done++) {
    char *name = NULL, *desc = NULL, *loc = NULL;
    rc = load_one(dirs[done], &name, &desc, &loc, diags);
    v[done] = (upk_prompt_skill){name, desc, loc};
  }
  if (!rc && !(*out = upk_prompt_render(v, n)))
    rc = -ENOMEM;
  for (size_t i = 0; i < done; i++) {
    free((char *)v[i].name);
    free((char *)v[i].description);
    free((char *)v[i].location);
  }
  free(v);
  return rc;
}

char *upk_prompt_from_entries(const upk_index_entry *e, size_t n) {
  upk_prompt_skill *v = upk_xcalloc(n ? n : 1, sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (e[i].shadowed || !e[i].usable)
      continue;
    bool dup = false; /* one entry per name: the first, which upk_index_list orders first */
    for (size_t j = 0; j < k && !dup; j++)
      dup = !strcmp(v[j].location, e[i].path) || !strcmp(v[j].name, e[i].name);
    if (!dup)
      v[k++] = (upk_prompt_skill){e[i].name, e[i].description, e[i].path};
  }
  char *out = upk_prompt_render(v, k);
  free(v);
  return out;
}

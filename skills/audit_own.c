/* A secret sent to its own service: GITHUB_TOKEN in a request to api.github.com is how the
 * GitHub API is called, the same token in a request to any other host is the token taken. A
 * rule with `own_service = "veto"` (audit_rules/secret_flow.yar) drops its matches that this
 * says are at home. */
#include "skills/audit_int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define WINDOW_BEFORE 6 /* lines above the match a request's URL may sit on (a multi-line call) */
#define WINDOW_AFTER 2
#define VENDOR_MAX 32

/* First words of secret names that say what a secret is, not whose: no host is theirs. */
static const char *const GENERIC[] = {
    "api",     "secret",   "token",   "access", "auth",     "client",     "private", "app",
    "my",      "user",     "session", "jwt",    "database", "db",         "ssh",     "bot",
    "service", "master",   "admin",   "root",   "x",        "encryption", "signing", "webhook",
    "oauth",   "personal", "prod",    "dev",    "staging",  "test",       "ci",      "refresh",
    "bearer",  "password", "pass",    "key",    "account",  "shared",     "default", "local",
};

/* Vendors whose secrets' first word is not in their host name. */
static const struct {
  const char *word, *host;
} ALIASES[] = {
    {"gh", "github"},         {"aws", "amazonaws"}, {"gcp", "googleapis"}, {"gcloud", "googleapis"},
    {"google", "googleapis"}, {"az", "azure"},      {"hf", "huggingface"}, {"cf", "cloudflare"},
};

static bool is_name(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool generic(const char *w) {
  for (size_t i = 0; i < sizeof GENERIC / sizeof *GENERIC; i++)
    if (!strcmp(w, GENERIC[i]))
      return true;
  return false;
}

/* Whether a URL's host in d[from, to) contains `word` (case-insensitively). */
static bool host_has(const char *d, size_t from, size_t to, const char *word) {
  size_t wl = strlen(word);
  for (size_t i = from; i + 3 <= to; i++) {
    if (memcmp(d + i, "://", 3))
      continue;
    size_t h = i + 3, e = h;
    while (e < to && (isalnum((unsigned char)d[e]) || d[e] == '.' || d[e] == '-'))
      e++;
    for (size_t k = h; k + wl <= e; k++)
      if (!strncasecmp(d + k, word, wl))
        return true;
  }
  return false;
}

static bool has_url(const char *d, size_t from, size_t to) {
  for (size_t i = from; i + 3 <= to; i++)
    if (!memcmp(d + i, "://", 3))
      return true;
  return false;
}

/* The window of lines around [at, at + n): WINDOW_BEFORE lines above, WINDOW_AFTER below. */
static void window(const char *d, size_t len, size_t at, size_t n, size_t *from, size_t *to) {
  size_t a = at, lines = 0;
  while (a > 0 && !(d[a - 1] == '\n' && ++lines > WINDOW_BEFORE))
    a--;
  size_t b = at + n < len ? at + n : len;
  lines = 0;
  while (b < len && !(d[b] == '\n' && ++lines > WINDOW_AFTER))
    b++;
  *from = a;
  *to = b;
}

bool upk__audit_own_service(const char *d, size_t len, size_t at, size_t n) {
  size_t from, to;
  window(d, len, at, n, &from, &to);
  if (!has_url(d, from, to))
    from = 0, to = len; /* the URL sits in a variable set elsewhere in the file */
  int secrets = 0;
  for (size_t i = at; i < at + n && i < len;) {
    if (!is_name(d[i]) || (i > at && is_name(d[i - 1]))) {
      i++;
      continue;
    }
    size_t e = i;
    while (e < len && is_name(d[e]))
      e++;
    const char *us = memchr(d + i, '_', e - i);
    if (us && (size_t)(us - (d + i)) < VENDOR_MAX && isupper((unsigned char)d[i])) {
      char w[VENDOR_MAX];
      size_t wl = (size_t)(us - (d + i));
      for (size_t k = 0; k < wl; k++)
        w[k] = (char)tolower((unsigned char)d[i + k]);
      w[wl] = '\0';
      if (generic(w) || wl < 2)
        return false; /* a secret that names no vendor has no home to go to */
      const char *host = w;
      for (size_t k = 0; k < sizeof ALIASES / sizeof *ALIASES; k++)
        if (!strcmp(w, ALIASES[k].word))
          host = ALIASES[k].host;
      if (!host_has(d, from, to, host) && (host == w || !host_has(d, from, to, w)))
        return false;
      secrets++;
    }
    i = e;
  }
  return secrets > 0;
}

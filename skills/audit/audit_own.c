/* A secret sent to its own service: GITHUB_TOKEN in a request to api.github.com is how the
 * GitHub API is called, the same token in a request to any other host is the token taken. A
 * rule with `own_service = "veto"` (audit_rules/secret_flow.yar) drops its matches that this
 * says are at home: every secret-named variable in the match (a name holding TOKEN, SECRET,
 * KEY, PASSWORD, ...) either has a vendor word naming a host near it, or has none and is the
 * value of an API-key query parameter (`?key=$API_KEY`). */
#include "skills/audit/audit_int.h"

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
    {"gh", "github"},          {"aws", "amazonaws"},     {"gcp", "googleapis"},
    {"gcloud", "googleapis"},  {"google", "googleapis"}, {"gemini", "googleapis"},
    {"youtube", "googleapis"}, {"vertex", "googleapis"}, {"firebase", "googleapis"},
    {"az", "azure"},           {"hf", "huggingface"},    {"cf", "cloudflare"},
    {"dd", "datadog"},
};

/* What makes a variable's name a secret's (the rules match the same words). */
static const char *const SECRET_WORDS[] = {
    "SECRET", "TOKEN",      "PASSWORD",     "PASSWD", "PASSPHRASE",
    "KEY",    "CREDENTIAL", "DATABASE_URL", "DSN",
};

/* Query parameters that carry an API's own key (`?key=`, `&access_token=`): a secret with no
 * vendor word there authenticates to the host it is sent to, like an Authorization header. */
static const char *const AUTH_PARAMS[] = {
    "key=",   "api_key=", "apikey=",     "api-key=", "access_token=", "accesstoken=",
    "token=", "auth=",    "auth_token=", "app_key=", "appid=",        "app_id=",
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

/* Whether a URL's host in d[from, to) contains `word` (case-insensitively), its dots and hyphens
 * aside: CALCOM_API_KEY's home is api.cal.com, CLICKUP_TOKEN's api.click-up.com. */
static bool host_has(const char *d, size_t from, size_t to, const char *word) {
  size_t wl = strlen(word);
  char host[256];
  for (size_t i = from; i + 3 <= to; i++) {
    if (memcmp(d + i, "://", 3))
      continue;
    size_t hl = 0;
    for (size_t e = i + 3; e < to && hl < sizeof host - 1; e++) {
      if (isalnum((unsigned char)d[e]))
        host[hl++] = d[e];
      else if (d[e] != '.' && d[e] != '-')
        break;
    }
    for (size_t k = 0; k + wl <= hl; k++)
      if (!strncasecmp(host + k, word, wl))
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

/* Whether a name's part (between underscores) ends in a secret word: NPM_TOKEN, SERPAPI_APIKEY,
 * DB_PASSWORD; not KEYWORD or TOKENIZER_MODEL. */
static bool secret_name(const char *d, size_t n) {
  for (size_t i = 0; i < sizeof SECRET_WORDS / sizeof *SECRET_WORDS; i++) {
    size_t wl = strlen(SECRET_WORDS[i]);
    for (size_t k = 0; k + wl <= n; k++) {
      size_t e = k + wl;
      if (!memcmp(d + k, SECRET_WORDS[i], wl) && (e == n || d[e] == '_' || d[e] == 'S'))
        return true;
    }
  }
  return false;
}

/* Whether the variable at d[i] is a query parameter's value, the parameter an API key's. */
static bool auth_param(const char *d, size_t i, size_t from) {
  size_t lo = i > from + 24 ? i - 24 : from;
  for (size_t k = lo; k < i; k++) {
    if (d[k] != '?' && d[k] != '&')
      continue;
    for (size_t a = 0; a < sizeof AUTH_PARAMS / sizeof *AUTH_PARAMS; a++) {
      size_t pl = strlen(AUTH_PARAMS[a]);
      if (k + 1 + pl <= i && !strncasecmp(d + k + 1, AUTH_PARAMS[a], pl))
        return true;
    }
  }
  return false;
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
    if (!isupper((unsigned char)d[i]) || !secret_name(d + i, e - i)) {
      i = e; /* BOARD_ID, VIDEO_ID: not a secret */
      continue;
    }
    const char *us = memchr(d + i, '_', e - i);
    size_t wl = us ? (size_t)(us - (d + i)) : e - i;
    char w[VENDOR_MAX];
    for (size_t k = 0; k < wl && k < VENDOR_MAX - 1; k++)
      w[k] = (char)tolower((unsigned char)d[i + k]);
    w[wl < VENDOR_MAX - 1 ? wl : VENDOR_MAX - 1] = '\0';
    if (!us || wl < 2 || wl >= VENDOR_MAX || generic(w)) {
      if (!auth_param(d, i, at))
        return false; /* a secret that names no vendor has no home to go to */
    } else {
      const char *host = w;
      for (size_t k = 0; k < sizeof ALIASES / sizeof *ALIASES; k++)
        if (!strcmp(w, ALIASES[k].word))
          host = ALIASES[k].host;
      if (!host_has(d, from, to, host) && (host == w || !host_has(d, from, to, w)))
        return false;
    }
    secrets++;
    i = e;
  }
  return secrets > 0;
}

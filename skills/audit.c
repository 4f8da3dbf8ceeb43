/* A static audit of a skill before it is installed (audit.h). Line rules are POSIX extended
 * regular expressions (regcomp), compiled once. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "skills/audit.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "skills/unicode.h"
#include "common/xalloc.h"

#define OVERSIZE (1u << 20)
#define READ_MAX (16u << 20)
#define BLOB_MIN 400

typedef enum { PROSE = 1, SCRIPT = 2, ANY = 3 } where;

typedef struct rule {
  const char *code;
  upk_severity script_sev, prose_sev;
  where applies;
  const char *what; /* the finding's message */
  const char *re;
} rule;

/* What a stranger's skill should not do. Scripts are files that are not Markdown or text;
 * prose is what the agent reads, where the same words are usually advice. */
static const rule RULES[] = {
    {"audit/pipe-to-shell", UPK_SEV_ERROR, UPK_SEV_ERROR, ANY,
     "a download is piped into a shell: whatever the server sends runs",
     "(curl|wget)[^|;]*\\|[[:space:]]*(sudo[[:space:]]+)?(ba|z|da|k)?sh([^[:alnum:]_.-]|$)|"
     "(ba|z)?sh[[:space:]]+<\\([[:space:]]*(curl|wget)|"
     "(iex|invoke-expression).*(iwr|invoke-webrequest|downloadstring)"},
    {"audit/obfuscated", UPK_SEV_ERROR, UPK_SEV_ERROR, ANY,
     "decoded text is executed: the code that runs is hidden from a reader",
     "base64[[:space:]]+(-d|--decode|-D)[^|]*\\|[[:space:]]*(ba|z)?sh|"
     "(eval|exec)[[:space:]]*\\(.*(b64decode|atob|base64|fromcharcode|decode\\()|"
     "(ba|z)?sh[[:space:]]+-c[[:space:]]+[\"']?\\$\\([[:space:]]*(echo|printf)[^)]*\\|[[:space:]]*"
     "base64"},
    {"audit/credentials", UPK_SEV_ERROR, UPK_SEV_WARNING, ANY,
     "reads credentials: SSH keys, cloud, git or package-registry tokens",
     "\\.ssh/(id_|authorized_keys|config)|id_(rsa|ed25519|ecdsa)([^.]|$)|\\.aws/credentials|"
     "\\.netrc|\\.git-credentials|/etc/shadow|\\.config/gh/hosts|\\.docker/config\\.json|"
     "\\.kube/config|security[[:space:]]+find-(generic|internet)-password"},
    {"audit/exfiltration", UPK_SEV_WARNING, UPK_SEV_INFO, ANY, "sends data to a host",
     "curl[^|;]*[[:space:]](-d|--data[a-z-]*|-F|--form|-T|--upload-file)[[:space:]=]|"
     "wget[^|;]*--post-(data|file)|"
     "(^|[^[:alnum:]_])(nc|ncat|netcat)[[:space:]]+(-[a-z]+[[:space:]]+)*[a-z0-9.-]+\\.[a-z]{2,}[[:"
     "space:]]+[0-9]+|"
     "requests\\.(post|put)\\(|urlopen\\([^)]*data=|method:[[:space:]]*[\"']post"},
    {"audit/agent-instructions", UPK_SEV_ERROR, UPK_SEV_ERROR, ANY,
     "tells the agent to go against the user or hide what it does",
     "ignore[[:space:]]+(all[[:space:]]+|any[[:space:]]+)?(the[[:space:]]+|your[[:space:]]+)?"
     "(previous|prior|above|earlier|user'?s?|system)[[:space:]]+(instructions|messages|prompts|"
     "requests|rules)|"
     "(do[[:space:]]+not|don'?t|never)[[:space:]]+(tell|inform|notify|alert|show)[[:space:]]+"
     "(this[[:space:]]+(to[[:space:]]+)?)?the[[:space:]]+user|"
     "without[[:space:]]+(telling|asking|informing|notifying|alerting)[[:space:]]+the[[:space:]]+"
     "user|"
     "(hide|conceal)[[:space:]]+(this|these|the|your)[[:space:]]+(action|actions|step|steps|"
     "change|changes|command|commands|activity)[[:space:]]+from"},
};
#define N_RULES (sizeof RULES / sizeof *RULES)

static regex_t compiled[N_RULES];
static bool compiled_ok;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void compile_rules(void) {
  compiled_ok = true;
  for (size_t i = 0; i < N_RULES; i++)
    compiled_ok &= regcomp(&compiled[i], RULES[i].re, REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0;
}

static bool is_prose(const char *rel) {
  const char *dot = strrchr(rel, '.');
  return dot && (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown") ||
                 !strcasecmp(dot, ".txt") || !strcasecmp(dot, ".rst"));
}

static void finding(upk_diags *out, upk_severity sev, const char *code, const char *rel, int line,
                    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void finding(upk_diags *out, upk_severity sev, const char *code, const char *rel, int line,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_range r = line < 0 ? (upk_range){-1, 0, -1, 0} : upk_range_line(line, 0, 0);
  if (upk_diags_vadd(out, sev, code, UPK_AUDIT_SOURCE, r, fmt, ap) == 0)
    out->items[out->len - 1].file = upk_xstrdup(rel);
  va_end(ap);
}

/* Characters a reader does not see. High: what can carry hidden text or reorder what is shown
 * (tag characters, bidirectional overrides and isolates: "Trojan Source"); medium: what only
 * hides itself (zero-width spaces and joiners, direction marks, a BOM inside the text). */
static upk_severity invisible(uint32_t cp, bool at_start) {
  if ((cp >= 0xE0000 && cp <= 0xE007F) || (cp >= 0x202A && cp <= 0x202E) ||
      (cp >= 0x2066 && cp <= 0x2069))
    return UPK_SEV_ERROR;
  if ((cp >= 0x200B && cp <= 0x200F) || cp == 0x2060 || (cp == 0xFEFF && !at_start))
    return UPK_SEV_WARNING;
  return 0;
}

/* One line: invisible characters, an encoded blob, then the rules. */
static void audit_line(const char *rel, bool prose, const char *s, size_t n, int line,
                       upk_diags *out, int *high) {
  size_t run = 0, longest = 0;
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t k = upk_u8_decode(s + i, n - i, &cp);
    upk_severity sev = k ? invisible(cp, line == 0 && i == 0) : 0;
    if (sev) {
      finding(out, sev, "audit/invisible-unicode", rel, line,
              "an invisible or text-reordering character (U+%04X): what the agent reads differs "
              "from what a reviewer sees",
              (unsigned)cp);
      *high += sev == UPK_SEV_ERROR;
      break;
    }
    char c = s[i];
    bool b64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '+' || c == '/' || c == '=';
    run = b64 ? run + 1 : 0;
    longest = run > longest ? run : longest;
    i += k ? k : 1;
  }
  if (longest >= BLOB_MIN)
    finding(out, UPK_SEV_WARNING, "audit/obfuscated", rel, line,
            "a %zu-character encoded blob: its content cannot be reviewed as it stands", longest);
  char *text = upk_xstrndup(s, n);
  for (size_t r = 0; text && r < N_RULES; r++) {
    if (regexec(&compiled[r], text, 0, NULL, 0) != 0)
      continue;
    upk_severity sev = prose ? RULES[r].prose_sev : RULES[r].script_sev;
    finding(out, sev, RULES[r].code, rel, line, "%s", RULES[r].what);
    *high += sev == UPK_SEV_ERROR;
  }
  free(text);
}

static bool starts_with(const char *d, size_t len, const char *magic, size_t m) {
  return len >= m && !memcmp(d, magic, m);
}

/* Executables and other binary content: whole-file findings. True when it is binary. */
static bool audit_binary(const char *rel, const char *d, size_t len, upk_diags *out, int *high) {
  if (starts_with(d, len,
                  "\x7f"
                  "ELF",
                  4) ||
      starts_with(d, len, "MZ", 2) || starts_with(d, len, "\xcf\xfa\xed\xfe", 4) ||
      starts_with(d, len, "\xca\xfe\xba\xbe", 4)) {
    finding(out, UPK_SEV_ERROR, "audit/executable", rel, -1,
            "an executable program: what it does cannot be read");
    (*high)++;
    return true;
  }
  if (memchr(d, '\0', len < 8192 ? len : 8192)) {
    finding(out, UPK_SEV_INFO, "audit/binary", rel, -1, "binary content, not reviewed");
    return true;
  }
  return false;
}

/* A script that reads credentials and sends data somewhere: high. (Reading an API key from
 * the environment to call that API is what many good skills do: not escalated.) */
static void escalate_exfiltration(upk_diags *out, size_t from, int *high) {
  bool creds = false, sends = false;
  for (size_t i = from; i < out->len; i++) {
    creds |= !strcmp(out->items[i].code, "audit/credentials");
    sends |= !strcmp(out->items[i].code, "audit/exfiltration");
  }
  for (size_t i = from; sends && creds && i < out->len; i++) {
    if (strcmp(out->items[i].code, "audit/exfiltration") || out->items[i].severity == UPK_SEV_ERROR)
      continue;
    out->items[i].severity = UPK_SEV_ERROR;
    (*high)++;
  }
}

int upk_audit_text(const char *rel, const char *data, size_t len, upk_diags *out) {
  pthread_once(&once, compile_rules);
  int high = 0;
  size_t from = out->len;
  if (len > OVERSIZE)
    finding(out, UPK_SEV_WARNING, "audit/oversize", rel, -1,
            "%zu KiB: larger than a skill's files usually are", len >> 10);
  if (!compiled_ok || audit_binary(rel, data, len, out, &high))
    return high;
  bool prose = is_prose(rel);
  int line = 0;
  for (const char *p = data, *end = data + len; p < end; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    audit_line(rel, prose, p, n, line, out, &high);
    p += n + 1;
  }
  if (!prose)
    escalate_exfiltration(out, from, &high);
  return high;
}

static int audit_dir(const char *dir, const char *rel, upk_diags *out, int depth) {
  DIR *dp = depth < 16 ? opendir(dir) : NULL;
  if (!dp)
    return depth ? 0 : -errno;
  struct dirent *e;
  int high = 0;
  while ((e = readdir(dp))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
      continue;
    char *path = NULL, *sub = NULL;
    struct stat st;
    path = upk_xasprintf("%s/%s", dir, e->d_name);
    sub = upk_xasprintf("%s%s%s", rel, *rel ? "/" : "", e->d_name);
    if (lstat(path, &st) < 0) {
      free(path);
      free(sub);
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      high += audit_dir(path, sub, out, depth + 1);
    } else if (S_ISREG(st.st_mode)) {
      size_t len;
      char *data = NULL; /* lstat saw a regular file: a swap for a link or a FIFO is refused */
      int rc = upk_read_in_dir(path, READ_MAX, &data, &len);
      if (!rc)
        high += upk_audit_text(sub, data, len, out);
      else if (rc == -EFBIG)
        finding(out, UPK_SEV_WARNING, "audit/oversize", sub, -1, "over %u MiB; not read",
                READ_MAX >> 20);
      free(data);
    }
    free(path);
    free(sub);
  }
  closedir(dp);
  return high;
}

int upk_audit_skill(const char *dir, upk_diags *out) {
  return audit_dir(dir, "", out, 0);
}

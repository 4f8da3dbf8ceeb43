/* A static audit of a skill before it is installed (audit.h): the walk, and on each file the
 * detectors in a fixed order, then the adjudication (adjudicate.c), which alone changes a
 * severity once reported and counts the high findings. What a file says is matched by YARA
 * rules (audit_yara.c, skills/audit/rules/) and read as orders (audit_intent*.c); what a file
 * is (a link, a FIFO, an executable, its size, its encoding) is checked here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "skills/audit.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "skills/audit/audit_int.h"
#include "skills/audit/audit_intent.h"
#include "skills/unicode.h"

#define OVERSIZE (1u << 20)  /* medium: larger than a skill's files usually are */
#define READ_MAX (16u << 20) /* high, and not read: too large to review */
#define BLOB_MIN 400         /* an encoded run this long on one line: medium */
#define BLOBS_MAX 5          /* blob findings per file */
#define SCAN_FILE_S 30       /* a pathological file holds a pool thread no longer... */
#define SCAN_SKILL_S 90      /* ...nor a skill of many (past it, each file left is unscanned) */
#define DEPTH_MAX 16
#define FILES_MAX 20000

static void finding(upk_diags *out, upk_severity sev, const char *code, const char *category,
                    const char *rel, int line, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static void finding(upk_diags *out, upk_severity sev, const char *code, const char *category,
                    const char *rel, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  upk_range r = line < 0 ? (upk_range){-1, 0, -1, 0} : upk_range_line(line, 0, 0);
  upk_diags_vadd(out, sev, code, UPK_AUDIT_SOURCE, r, fmt, ap);
  out->items[out->len - 1].file = upk_xstrdup(rel);
  out->items[out->len - 1].category = upk_xstrdup(category);
  va_end(ap);
}

/* Long runs of base64 alphabet on one line: content a reader cannot review. Linear, so it
 * stays here rather than in a YARA regex without an anchor. */
static void audit_blobs(const char *rel, const char *d, size_t len, upk_diags *out) {
  size_t run = 0, longest = 0;
  int line = 0, found = 0;
  for (size_t i = 0; i <= len && found < BLOBS_MAX; i++) {
    char c = i < len ? d[i] : '\n';
    bool b64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '+' || c == '/' || c == '=';
    run = b64 ? run + 1 : 0;
    longest = run > longest ? run : longest;
    if (c != '\n')
      continue;
    if (longest >= BLOB_MIN && ++found)
      finding(out, UPK_SEV_WARNING, "audit/obfuscated", "encoded-exec", rel, line,
              "a %zu-character encoded blob: its content cannot be reviewed as it stands", longest);
    longest = 0;
    line++;
  }
}

/* Text that is not UTF-8: low, and the rules still read its bytes. */
static void audit_encoding(const char *rel, const char *d, size_t len, upk_diags *out) {
  int line = 0;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t k = upk_u8_decode(d + i, len - i, &cp);
    if (!k) {
      finding(out, UPK_SEV_INFO, "audit/not-utf8", "encoding", rel, line,
              "not valid UTF-8 (byte 0x%02X at offset %zu): a reader may see other text than "
              "an agent",
              (unsigned char)d[i], i);
      return;
    }
    line += d[i] == '\n';
    i += k;
  }
}

static bool starts_with(const char *d, size_t len, const char *magic, size_t m) {
  return len >= m && !memcmp(d, magic, m);
}

/* Compiled code that a loader or interpreter runs, named by its extension (bytecode has no
 * magic a reader knows: .pyc, .class). */
static bool compiled_name(const char *rel) {
  static const char *const EXT[] = {".pyc", ".pyo",  ".class", ".jar", ".dll", ".so",  ".dylib",
                                    ".exe", ".wasm", ".node",  ".o",   ".a",   ".bin", ".msi",
                                    ".deb", ".rpm",  ".apk",   ".dmg", ".pkg"};
  const char *base = strrchr(rel, '/'), *dot = strrchr(base ? base : rel, '.');
  for (size_t i = 0; dot && i < sizeof EXT / sizeof *EXT; i++)
    if (!strcasecmp(dot, EXT[i]))
      return true;
  return false;
}

/* Bytecode a loader or interpreter runs, by its magic whatever the file is called: CPython's
 * .pyc (a 16-bit version, then \r\n), Lua and LuaJIT chunks, Dalvik dex. */
static bool bytecode_magic(const char *d, size_t len) {
  if (len >= 16 && d[2] == '\r' && d[3] == '\n') {
    unsigned v = (unsigned char)d[0] | (unsigned)(unsigned char)d[1] << 8;
    if (v >= 3000 && v < 5000 && memchr(d + 4, '\0', 12))
      return true;
  }
  return starts_with(d, len, "\x1bLua", 4) || starts_with(d, len, "\x1bLJ", 3) ||
         starts_with(d, len, "dex\n0", 5);
}

/* An executable past the file's start: an ELF, Mach-O or PE image appended to a script stub
 * (a self-extracting payload) or hidden inside other content. The offset, or 0. */
static size_t embedded_executable(const char *d, size_t len) {
  for (const char *p = d + 1; (p = memmem(p, len - (size_t)(p - d),
                                          "\x7f"
                                          "ELF",
                                          4));
       p++) {
    size_t left = len - (size_t)(p - d);
    if (left >= 20 && (p[4] == 1 || p[4] == 2) && (p[5] == 1 || p[5] == 2) && p[6] == 1)
      return (size_t)(p - d);
  }
  static const char *const MACHO[] = {"\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\xfe\xed\xfa\xcf",
                                      "\xfe\xed\xfa\xce"};
  for (size_t i = 0; i < sizeof MACHO / sizeof *MACHO; i++) {
    const char *p = memmem(d + 1, len - 1, MACHO[i], 4);
    if (p)
      return (size_t)(p - d);
  }
  for (const char *p = d + 1; (p = memmem(p, len - (size_t)(p - d), "MZ", 2)); p++) {
    size_t at = (size_t)(p - d);
    if (at + 0x40 > len)
      break;
    const unsigned char *u = (const unsigned char *)p + 0x3c;
    size_t pe = (size_t)u[0] | (size_t)u[1] << 8 | (size_t)u[2] << 16 | (size_t)u[3] << 24;
    if (pe >= 0x40 && pe < 4096 && at + pe + 4 <= len && !memcmp(p + pe, "PE\0\0", 4))
      return at;
  }
  return 0;
}

/* A zip archive (a Python zipapp, a self-running archive behind a `#!` line) holding compiled
 * code: bytecode or native libraries whose source is not in the skill. Names are read from the
 * local headers; Office documents' .bin parts (printer settings) are not code. */
static bool zip_holds_compiled(const char *d, size_t len) {
  static const char *const CODE[] = {".pyc",   ".pyo", ".class", ".so",  ".dll",
                                     ".dylib", ".exe", ".wasm",  ".node"};
  const char *p = d;
  if (starts_with(d, len, "#!", 2) && (p = memchr(d, '\n', len)) != NULL)
    p++;
  if (!p || !starts_with(p, len - (size_t)(p - d), "PK\x03\x04", 4))
    return false;
  for (; (p = memmem(p, len - (size_t)(p - d), "PK\x03\x04", 4)) != NULL; p += 4) {
    size_t left = len - (size_t)(p - d);
    if (left < 30)
      break;
    const unsigned char *u = (const unsigned char *)p;
    size_t n = (size_t)u[26] | (size_t)u[27] << 8;
    if (n == 0 || n > 255 || 30 + n > left)
      continue;
    char name[256];
    memcpy(name, p + 30, n);
    name[n] = '\0';
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof CODE / sizeof *CODE; i++)
      if (!strcasecmp(dot, CODE[i]))
        return true;
  }
  return false;
}

/* Executables and other binary content: whole-file findings. True when it is binary. */
static bool audit_binary(const char *rel, const char *d, size_t len, upk_diags *out) {
  if (starts_with(d, len,
                  "\x7f"
                  "ELF",
                  4) ||
      starts_with(d, len, "MZ", 2) || starts_with(d, len, "\xcf\xfa\xed\xfe", 4) ||
      starts_with(d, len, "\xce\xfa\xed\xfe", 4) || starts_with(d, len, "\xca\xfe\xba\xbe", 4) ||
      starts_with(d, len, "\0asm", 4) || bytecode_magic(d, len) ||
      (compiled_name(rel) && memchr(d, '\0', len < 8192 ? len : 8192))) {
    finding(out, UPK_SEV_ERROR, "audit/executable", "executable", rel, -1,
            "an executable program: what it does cannot be read");
    return true;
  }
  size_t at = len > 1 && memchr(d, '\0', len) ? embedded_executable(d, len) : 0;
  if (at) {
    finding(out, UPK_SEV_ERROR, "audit/executable", "executable", rel, -1,
            "an executable program inside the file (at byte %zu, after other content): what it "
            "does cannot be read",
            at);
    return true;
  }
  if (memchr(d, '\0', len < 8192 ? len : 8192) && zip_holds_compiled(d, len)) {
    finding(out, UPK_SEV_ERROR, "audit/executable", "executable", rel, -1,
            "an archive of compiled code (a zipapp or a jar): what it runs cannot be read");
    return true;
  }
  if (memchr(d, '\0', len < 8192 ? len : 8192)) {
    finding(out, UPK_SEV_INFO, "audit/binary", "binary", rel, -1, "binary content, not reviewed");
    return true;
  }
  return false;
}

/* ---- the detectors ---- */

static int detect_size(const upk__audit_file *f, upk_diags *out) {
  if (f->len > READ_MAX) {
    finding(out, UPK_SEV_ERROR, "audit/oversize", "oversize", f->rel, -1,
            "%zu MiB: too large to review, and larger than any skill needs", f->len >> 20);
    return UPK__AUDIT_DONE;
  }
  if (f->len > OVERSIZE)
    finding(out, UPK_SEV_WARNING, "audit/oversize", "oversize", f->rel, -1,
            "%zu KiB: larger than a skill's files usually are", f->len >> 10);
  return 0;
}

static int detect_binary(const upk__audit_file *f, upk_diags *out) {
  return audit_binary(f->rel, f->data, f->len, out) ? UPK__AUDIT_DONE : 0;
}

static int detect_encoding(const upk__audit_file *f, upk_diags *out) {
  audit_encoding(f->rel, f->data, f->len, out);
  return 0;
}

static int detect_blobs(const upk__audit_file *f, upk_diags *out) {
  audit_blobs(f->rel, f->data, f->len, out);
  return 0;
}

/* The YARA rules over the text (and a Markdown file's code blocks). A scan that cannot finish
 * is high: padding a file until the scan gives up must not hide a payload. */
static int detect_rules(const upk__audit_file *f, upk_diags *out) {
  int rc = f->timeout_s <= 0 ? -ETIMEDOUT
                             : upk__audit_scan(f->rel, f->data, f->len, f->lang, f->timeout_s, out);
  if (rc == -EINVAL)
    finding(out, UPK_SEV_ERROR, "audit/rules", "audit", f->rel, -1,
            "the audit could not start (%s): this build cannot audit", upk__audit_rules_error());
  else if (rc < 0)
    finding(out, UPK_SEV_ERROR, "audit/unscanned", "audit", f->rel, -1,
            "the rules could not finish scanning this file (%s): not reviewed",
            rc == -ETIMEDOUT ? "out of time" : strerror(-rc));
  return rc;
}

/* A Markdown file's prose read as orders (audit_intent.c); a YAML or JSON file's prose values,
 * a template's or a source file's comments to the agent (audit_intent_data.c). */
static int detect_intent(const upk__audit_file *f, upk_diags *out) {
  if (!strcmp(f->lang, "markdown"))
    upk__audit_intent(f->rel, f->data, f->len, f->rules_from, out);
  else
    upk__audit_intent_data(f->rel, f->data, f->len, f->rules_from, out);
  return 0;
}

/* In this order: the intent layer reads the rules' findings beside its prose. A model's
 * judgement joins last: its findings are its own, and where it finds another detector's
 * finding graver it calls upk__audit_raise, which never lowers. */
static const upk__audit_detector DETECTORS[] = {
    {"size", detect_size},   {"binary", detect_binary}, {"encoding", detect_encoding},
    {"blobs", detect_blobs}, {"rules", detect_rules},   {"intent", detect_intent},
};

/* The detectors on one file's content, then its adjudication; scan time at most `timeout_s`. */
static void audit_content(const char *rel, const char *data, size_t len, int timeout_s,
                          upk_diags *out) {
  upk__audit_file f = {.rel = rel, .data = data, .len = len, .timeout_s = timeout_s};
  size_t first = out->len;
  int rc = 0;
  for (size_t i = 0; i < sizeof DETECTORS / sizeof *DETECTORS && !rc; i++) {
    if (DETECTORS[i].scan == detect_rules) { /* the file is text from here on */
      f.lang = upk__audit_lang(rel, data, len);
      f.rules_from = out->len;
    }
    rc = DETECTORS[i].scan(&f, out);
  }
  if (!rc)
    upk__audit_adjudicate_file(&f, out, first);
}

int upk_audit_text(const char *rel, const char *data, size_t len, upk_diags *out) {
  size_t first = out->len;
  audit_content(rel, data, len, SCAN_FILE_S, out);
  return upk__audit_highs(out, first);
}

#define HARDLINKS_MAX 1024
#define LINKED_DIRS_MAX 8

typedef struct hardlink {
  dev_t dev;
  ino_t ino;
  nlink_t nlink, seen; /* its names, and those found in the skill */
  char *rel;
} hardlink;

typedef struct walk {
  char root[PATH_MAX]; /* the skill directory's real path */
  char repo[PATH_MAX]; /* the audited repository's real path (root itself for a lone skill) */
  upk_diags *out;
  int files;
  char *linked[LINKED_DIRS_MAX]; /* real paths of the directories walked through links */
  size_t n_linked;
  struct timespec start; /* the scan time is the skill's, SCAN_SKILL_S in all */
  hardlink *links;       /* regular files with more than one name */
  size_t n_links;
} walk;

static int seconds_left(const walk *w) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long left = SCAN_SKILL_S - (long)(now.tv_sec - w->start.tv_sec);
  return left < SCAN_FILE_S ? (int)left : SCAN_FILE_S;
}

/* Where a link leads: the skill itself, elsewhere in the audited repository, or outside it. */
typedef enum { LINK_IN_SKILL, LINK_IN_REPO, LINK_OUT } link_place;

static link_place place_of(const walk *w, const char *target) {
  if (upk_path_under(target, w->root))
    return LINK_IN_SKILL;
  return upk_path_under(target, w->repo) ? LINK_IN_REPO : LINK_OUT;
}

/* Where a link that resolves to nothing would lead, read from its text against the link's own
 * directory (`path` is spelled from real directories, so `..` climbs as the kernel would). A
 * target too long to spell is taken as outside. */
static link_place dangling_place(const walk *w, const char *path) {
  char target[PATH_MAX], joined[PATH_MAX], lexical[PATH_MAX];
  ssize_t n = readlink(path, target, sizeof target - 1);
  if (n <= 0)
    return LINK_IN_SKILL;
  target[n] = '\0';
  const char *slash = strrchr(path, '/');
  int len = target[0] == '/' ? snprintf(joined, sizeof joined, "%s", target)
                             : snprintf(joined, sizeof joined, "%.*s/%s",
                                        (int)(slash ? slash - path : 0), path, target);
  if (len < 0 || (size_t)len >= sizeof joined)
    return LINK_OUT;
  upk_path_lexical(joined, lexical);
  return place_of(w, lexical);
}

/* A regular file with more than one name: noted, and reported at the walk's end when some of
 * its names lie outside the skill (a hard link exposes that file as a symbolic link would, and
 * no check of the link's text can see it). */
static void note_hardlink(walk *w, const struct stat *st, const char *rel) {
  for (size_t i = 0; i < w->n_links; i++)
    if (w->links[i].dev == st->st_dev && w->links[i].ino == st->st_ino) {
      w->links[i].seen++;
      return;
    }
  if (w->n_links == HARDLINKS_MAX)
    return;
  if (!w->links)
    w->links = upk_xmalloc(HARDLINKS_MAX * sizeof *w->links);
  w->links[w->n_links++] = (hardlink){st->st_dev, st->st_ino, st->st_nlink, 1, upk_xstrdup(rel)};
}

static void report_hardlinks(walk *w) {
  for (size_t i = 0; i < w->n_links; i++) {
    hardlink *h = &w->links[i];
    if (h->seen < h->nlink) {
      finding(w->out, UPK_SEV_ERROR, "audit/link", "link", h->rel, -1,
              "a hard link: %lu of this file's %lu names are outside the skill, so it is the "
              "same file as one elsewhere",
              (unsigned long)(h->nlink - h->seen), (unsigned long)h->nlink);
    }
    free(h->rel);
  }
  free(w->links);
}

static void audit_file(walk *w, const char *path, const char *rel);
static void audit_dir(walk *w, const char *dir, const char *rel, int depth);

/* Whether directory `real` was walked through a link already (directories linking to each
 * other would spend the budget going round). */
static bool linked_seen(const walk *w, const char *real) {
  for (size_t i = 0; i < w->n_linked; i++)
    if (!strcmp(w->linked[i], real))
      return true;
  return false;
}

/* What a link to elsewhere in the repository shows an agent that reads the skill where it lies:
 * the target's text, audited under the link's name (so a risk cannot hide behind a link). A
 * directory is walked once, unless it holds the skill itself (every other skill would be
 * reported here); past LINKED_DIRS_MAX of them the rest are named, not walked. A FIFO or device
 * behind a link is not opened. */
static void audit_linked(walk *w, const char *real, const char *rel, int depth) {
  struct stat st;
  if (stat(real, &st) < 0)
    return;
  if (S_ISREG(st.st_mode)) {
    audit_file(w, real, rel);
  } else if (S_ISDIR(st.st_mode) && !upk_path_under(w->root, real) && !linked_seen(w, real)) {
    if (w->n_linked == LINKED_DIRS_MAX) {
      finding(w->out, UPK_SEV_WARNING, "audit/link", "link", rel, -1,
              "over %d directories behind links: this one is not reviewed", LINKED_DIRS_MAX);
      return;
    }
    w->linked[w->n_linked++] = upk_xstrdup(real);
    audit_dir(w, real, rel, depth + 1);
  }
}

/* A link out of the repository: high. The message names the link's own text too where it
 * differs from the resolved path, since that is what an install or an agent on another machine
 * follows (`/proc/self/mem` resolves to the auditing process's own pid here). */
static void link_out(walk *w, const char *path, const char *rel, const char *real) {
  char text[PATH_MAX];
  ssize_t n = readlink(path, text, sizeof text - 1);
  if (n > 0 && (text[n] = '\0', strcmp(text, real)))
    finding(w->out, UPK_SEV_ERROR, "audit/link", "link", rel, -1,
            "a symbolic link out of the skill (to %s, %s here): it exposes or replaces a file "
            "elsewhere",
            text, real);
  else
    finding(w->out, UPK_SEV_ERROR, "audit/link", "link", rel, -1,
            "a symbolic link out of the skill (to %s): it exposes or replaces a file elsewhere",
            real);
}

/* A symbolic link. Out of the repository high (an install would copy what it points at, or an
 * agent would read it: anything on the machine). Elsewhere in the same repository medium: an
 * install copies no link, an agent reading the clone reads the target, which is audited here.
 * A loop medium, dangling low; inside the skill nothing (its target is audited where it lies).
 * ELOOP is a loop or a chain of over 40 links: the same for a reader, so one message for both. */
static void audit_link(walk *w, const char *path, const char *rel, int depth) {
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    int err = errno;
    if (err == ELOOP) {
      finding(w->out, UPK_SEV_WARNING, "audit/link", "link", rel, -1,
              "a symbolic link that cannot be resolved (ELOOP): a loop, or a chain longer than "
              "the system follows; an install or an agent cannot read through it");
    } else if (dangling_place(w, path) == LINK_OUT) {
      finding(w->out, UPK_SEV_ERROR, "audit/link", "link", rel, -1,
              "a symbolic link out of the skill to a path that does not exist here (%s): it "
              "exposes that file wherever it does",
              strerror(err));
    } else {
      finding(w->out, UPK_SEV_INFO, "audit/link", "link", rel, -1,
              "a symbolic link to nothing (%s)", strerror(err));
    }
    return;
  }
  switch (place_of(w, real)) {
  case LINK_IN_SKILL:
    return;
  case LINK_IN_REPO:
    finding(w->out, UPK_SEV_WARNING, "audit/link", "link", rel, -1,
            "a symbolic link out of the skill to %s in the same repository: an install does not "
            "copy it, an agent reading the skill where it lies reads that (audited here under "
            "this name)",
            real + strlen(w->repo) + (real[strlen(w->repo)] == '/'));
    audit_linked(w, real, rel, depth);
    return;
  case LINK_OUT:
    link_out(w, path, rel, real);
  }
}

static void audit_file(walk *w, const char *path, const char *rel) {
  size_t len;
  char *data = NULL; /* lstat saw a regular file: a swap for a link or a FIFO is refused */
  int rc = upk_read_in_dir(path, READ_MAX, &data, &len);
  if (!rc) {
    audit_content(rel, data, len, seconds_left(w), w->out);
  } else if (rc == -EFBIG) {
    finding(w->out, UPK_SEV_ERROR, "audit/oversize", "oversize", rel, -1,
            "over %u MiB: too large to review, and larger than any skill needs; not read",
            READ_MAX >> 20);
  } else {
    finding(w->out, UPK_SEV_WARNING, "audit/unreadable", "audit", rel, -1,
            "could not be read (%s): not reviewed", strerror(-rc));
  }
  free(data);
}

/* A bidirectional control in a file name (RLO, LRO, the embeddings and isolates, the marks,
 * U+061C): `invoice_\u202Efdp.sh` displays as `invoice_hs.pdf`. No file name needs one. */
static bool name_reorders(const char *rel) {
  for (const unsigned char *p = (const unsigned char *)rel; *p; p++) {
    if (p[0] == 0xD8 && p[1] == 0x9C)
      return true;
    if (p[0] == 0xE2 && p[1] == 0x80 && p[2] &&
        ((p[2] >= 0xAA && p[2] <= 0xAE) || p[2] == 0x8E || p[2] == 0x8F))
      return true;
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)
      return true;
  }
  return false;
}

static void audit_entry(walk *w, const char *path, const char *rel, int depth) {
  struct stat st;
  if (lstat(path, &st) < 0)
    return;
  if (name_reorders(rel))
    finding(w->out, UPK_SEV_ERROR, "audit/invisible-unicode", "unicode", rel, -1,
            "a bidirectional control in the file name: the name displayed is not the real one");
  if (++w->files == FILES_MAX)
    finding(w->out, UPK_SEV_WARNING, "audit/too-many-files", "oversize", rel, -1,
            "over %d files: the rest are not reviewed", FILES_MAX);
  if (w->files >= FILES_MAX)
    return;
  if (S_ISDIR(st.st_mode))
    audit_dir(w, path, rel, depth + 1);
  else if (S_ISREG(st.st_mode)) {
    if (st.st_nlink > 1)
      note_hardlink(w, &st, rel);
    audit_file(w, path, rel);
  } else if (S_ISLNK(st.st_mode))
    audit_link(w, path, rel, depth);
  else
    finding(w->out, UPK_SEV_WARNING, "audit/special-file", "special-file", rel, -1,
            "a %s, not a regular file: not read, and no skill needs one",
            S_ISFIFO(st.st_mode)   ? "FIFO"
            : S_ISSOCK(st.st_mode) ? "socket"
                                   : "device file");
}

static void audit_dir(walk *w, const char *dir, const char *rel, int depth) {
  if (depth > DEPTH_MAX) {
    finding(w->out, UPK_SEV_WARNING, "audit/too-deep", "oversize", rel, -1,
            "nested over %d directories deep: not reviewed below", DEPTH_MAX);
    return;
  }
  DIR *dp = opendir(dir);
  if (!dp) {
    finding(w->out, UPK_SEV_WARNING, "audit/unreadable", "audit", *rel ? rel : ".", -1,
            "a directory that could not be read (%s): not reviewed", strerror(errno));
    return;
  }
  struct dirent *e;
  while ((e = readdir(dp))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
      continue;
    char *path = upk_xasprintf("%s/%s", dir, e->d_name);
    char *sub = upk_xasprintf("%s%s%s", rel, *rel ? "/" : "", e->d_name);
    audit_entry(w, path, sub, depth);
    free(path);
    free(sub);
  }
  closedir(dp);
}

int upk_audit_skill(const char *dir, upk_diags *out) {
  return upk_audit_skill_in(dir, NULL, out);
}

int upk_audit_skill_in(const char *dir, const char *repo, upk_diags *out) {
  walk w = {.out = out};
  clock_gettime(CLOCK_MONOTONIC, &w.start);
  struct stat st;
  if (!realpath(dir, w.root) || stat(w.root, &st) < 0)
    return -errno;
  if (!S_ISDIR(st.st_mode))
    return -ENOTDIR;
  /* A repository that does not hold the skill is no repository of it: links are judged
   * against the skill alone. */
  if (!repo || !realpath(repo, w.repo) || !upk_path_under(w.root, w.repo))
    memcpy(w.repo, w.root, sizeof w.repo);
  size_t first = out->len;
  audit_dir(&w, w.root, "", 0);
  report_hardlinks(&w);
  upk__audit_adjudicate_skill(out, first, w.root);
  for (size_t i = 0; i < w.n_linked; i++)
    free(w.linked[i]);
  return upk__audit_highs(out, first);
}

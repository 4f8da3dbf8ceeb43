/* What upskillctl writes reaches a terminal only as text (term.h). */
#include "clients/term.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A stream's state: its descriptor, and the first bytes of a UTF-8 sequence that the last
 * write ended inside (at most two: the longest sequence looked at is three bytes). */
typedef struct term_out {
  int fd;
  unsigned char held[2];
  size_t n_held;
} term_out;

static term_out outs[2] = {{.fd = 1}, {.fd = 2}};

/* Code points a terminal acts on or reorders text by: bidi embeddings and overrides
 * (U+202A..202E), isolates (U+2066..2069), marks (U+200E, U+200F, U+061C). */
static bool bidi(unsigned cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
         cp == 0x200F || cp == 0x061C;
}

/* The UTF-8 sequence at s (n bytes there) as a code point worth escaping: its length, and
 * *cp set; 0 when it is none (plain text, or not UTF-8); -1 when s ends inside it. */
static int escapable(const unsigned char *s, size_t n, unsigned *cp) {
  int len = s[0] == 0xC2 || s[0] == 0xD8 ? 2 : s[0] == 0xE2 ? 3 : 0;
  if (!len)
    return 0;
  if ((size_t)len > n)
    return -1;
  *cp = len == 2 ? (unsigned)(s[0] & 0x1F) << 6 | (s[1] & 0x3F)
                 : (unsigned)(s[0] & 0x0F) << 12 | (unsigned)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
  bool c1 = len == 2 && s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F;
  return c1 || bidi(*cp) ? len : 0;
}

/* `\xHH` (width 2) or `\uHHHH` (width 4) into out; its length. */
static size_t hex_escape(char *out, char kind, unsigned v, int width) {
  static const char digits[] = "0123456789abcdef";
  out[0] = '\\';
  out[1] = kind;
  for (int d = 0; d < width; d++)
    out[2 + d] = digits[(v >> (4 * (width - 1 - d))) & 0xF];
  return 2 + (size_t)width;
}

size_t ctl_term_escape(const char *in, size_t n, char *out, size_t *used) {
  const unsigned char *s = (const unsigned char *)in;
  size_t o = 0, i = 0;
  while (i < n) {
    unsigned cp = 0;
    int k = s[i] >= 0x80 ? escapable(s + i, n - i, &cp) : 0;
    if (k < 0)
      break; /* the rest of the sequence comes with the next write */
    if (k > 0) {
      o += hex_escape(out + o, 'u', cp, 4);
      i += (size_t)k;
    } else if ((s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') || s[i] == 0x7F) {
      o += s[i] == 0x7F ? hex_escape(out + o, 'u', 0x7F, 4) : hex_escape(out + o, 'x', s[i], 2);
      i++;
    } else {
      out[o++] = (char)s[i++];
    }
  }
  *used = i;
  return o;
}

static bool write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

#define CHUNK 1024

/* fopencookie's write: the bytes escaped, a sequence cut by the end kept for the next. */
static ssize_t term_write(void *cookie, const char *buf, size_t size) {
  term_out *t = cookie;
  char in[CHUNK + sizeof t->held], out[6 * (CHUNK + sizeof t->held)];
  size_t done = 0;
  while (done < size) {
    size_t take = size - done < CHUNK ? size - done : CHUNK, used;
    memcpy(in, t->held, t->n_held);
    memcpy(in + t->n_held, buf + done, take);
    size_t n = t->n_held + take, o = ctl_term_escape(in, n, out, &used);
    if (!write_all(t->fd, out, o))
      return done ? (ssize_t)done : -1;
    t->n_held = n - used; /* at most two bytes: escapable() looks at three */
    memcpy(t->held, in + used, t->n_held);
    done += take;
  }
  return (ssize_t)size;
}

static int term_close(void *cookie) {
  term_out *t = cookie;
  bool ok = write_all(t->fd, (const char *)t->held, t->n_held); /* a cut sequence, as it was */
  t->n_held = 0;
  return ok ? 0 : -1;
}

void ctl_term_guard(void) {
  cookie_io_functions_t io = {.write = term_write, .close = term_close};
  FILE *o = fopencookie(&outs[0], "w", io), *e = fopencookie(&outs[1], "w", io);
  if (!o || !e) { /* no memory: the streams stay as they are */
    if (o)
      fclose(o);
    if (e)
      fclose(e);
    return;
  }
  fflush(stdout);
  fflush(stderr);
  setvbuf(o, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
  setvbuf(e, NULL, _IONBF, 0);
  stdout = o;
  stderr = e;
}

void ctl_term_raw(FILE *f, const char *seq) {
  fflush(f);
  write_all(f == stdout ? outs[0].fd : outs[1].fd, seq, strlen(seq));
}

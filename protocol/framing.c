#include "protocol/framing.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum {
  ST_HEADERS, /* LSP: reading a header block */
  ST_BODY,    /* LSP: waiting for `length` body bytes */
  ST_RESYNC,  /* LSP: after a bad header, looking for the next Content-Length */
  ST_LINE,    /* MCP: reading one line */
  ST_DISCARD, /* MCP: dropping the rest of an oversized line */
  ST_SKIP,    /* either: dropping `skip` bytes of an oversized message */
};

#define NEED_MORE ((ptrdiff_t)-1)
static const char cl_name[] = "content-length";

void upk_framer_init(upk_framer *f, upk_framing mode, size_t max_message,
                     const upk_framer_callbacks *cb, void *ud) {
  memset(f, 0, sizeof *f);
  f->mode = mode;
  f->max_message = max_message;
  upk_buf_init(&f->in, SIZE_MAX - 1);
  f->state = mode == UPK_FRAMING_MCP ? ST_LINE : ST_HEADERS;
  f->cb = *cb;
  f->ud = ud;
}

void upk_framer_free(upk_framer *f) {
  upk_buf_free(&f->in);
}

upk_framing upk_framer_mode(const upk_framer *f) {
  return f->mode;
}

static void framer__too_big(upk_framer *f, unsigned long long size) {
  char msg[160];
  snprintf(msg, sizeof msg,
           "message of %llu bytes exceeds the limit of %llu bytes (--max-message-size)", size,
           (unsigned long long)f->max_message);
  f->cb.on_error(f->ud, UPK_FRAME_ETOOBIG, msg);
}

/* Parse a Content-Length value: digits only, no sign, no overflow. */
static int parse_length(const char *v, size_t n, uint64_t *out) {
  while (n && (*v == ' ' || *v == '\t'))
    v++, n--;
  while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
    n--;
  if (n == 0)
    return -EINVAL;
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isdigit((unsigned char)v[i]))
      return -EINVAL;
    unsigned d = (unsigned)(v[i] - '0');
    if (x > (UINT64_MAX - d) / 10)
      return -ERANGE;
    x = x * 10 + d;
  }
  *out = x;
  return 0;
}

/* A Content-Length value for an error message: blanks trimmed, at most 20 bytes, anything
 * but printable ASCII shown as '?' (the message must stay valid UTF-8 for JSON). */
static void quote_value(char out[24], const char *v, size_t n) {
  while (n && (*v == ' ' || *v == '\t'))
    v++, n--;
  while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
    n--;
  size_t i = 0;
  for (; i < n && i < 20; i++)
    out[i] = v[i] >= 0x20 && v[i] < 0x7f ? v[i] : '?';
  out[i] = '\0';
}

/* One LSP header block. Consumes it whole or asks for more. */
static ptrdiff_t step_headers(upk_framer *f, const char *p, size_t n) {
  size_t pos = 0, lines = 0;
  int length_rc = 1; /* 1: absent, 0: good, <0: bad */
  uint64_t length = 0;
  char bad_value[24] = "";
  /* The block must end within UPK_FRAME_MAX_HEADER bytes however the bytes arrive. */
  const size_t lim = n < UPK_FRAME_MAX_HEADER ? n : UPK_FRAME_MAX_HEADER;
  for (;;) {
    const char *nl = pos < lim ? memchr(p + pos, '\n', lim - pos) : NULL;
    if (!nl) {
      if (n < UPK_FRAME_MAX_HEADER)
        return NEED_MORE;
      f->cb.on_error(f->ud, UPK_FRAME_EHEADER, "LSP header block longer than 8192 bytes");
      f->state = ST_RESYNC;
      return (ptrdiff_t)lim; /* what follows may hold the next message */
    }
    size_t end = (size_t)(nl - p), len = end - pos;
    const char *line = p + pos;
    if (len && line[len - 1] == '\r')
      len--;
    pos = end + 1;
    if (len == 0)
      break;
    lines++;
    const char *colon = memchr(line, ':', len);
    if (!colon || (size_t)(colon - line) != sizeof cl_name - 1 ||
        strncasecmp(line, cl_name, sizeof cl_name - 1) != 0)
      continue; /* unknown header or stray text: ignored */
    size_t vlen = len - (size_t)(colon + 1 - line);
    length_rc = parse_length(colon + 1, vlen, &length);
    quote_value(bad_value, colon + 1, vlen);
  }
  if (lines == 0)
    return (ptrdiff_t)pos; /* a stray blank line between messages */
  if (length_rc == 1) {
    f->cb.on_error(f->ud, UPK_FRAME_EHEADER, "LSP header block without Content-Length");
    f->state = ST_RESYNC;
    return (ptrdiff_t)pos;
  }
  if (length_rc < 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "invalid Content-Length '%s': %s", bad_value,
             length_rc == -ERANGE ? "too large" : "not a non-negative integer");
    f->cb.on_error(f->ud, UPK_FRAME_EHEADER, msg);
    f->state = ST_RESYNC;
    return (ptrdiff_t)pos;
  }
  if (length > f->max_message) {
    framer__too_big(f, length);
    f->skip = length;
    f->state = ST_SKIP;
    return (ptrdiff_t)pos;
  }
  f->length = length;
  f->state = ST_BODY;
  return (ptrdiff_t)pos;
}

/* Find the next "Content-Length" after garbage; keep a tail that may be its start. */
static ptrdiff_t step_resync(upk_framer *f, const char *p, size_t n) {
  const size_t k = sizeof cl_name - 1;
  for (size_t i = 0; i + k <= n; i++) {
    if ((p[i] == 'c' || p[i] == 'C') && strncasecmp(p + i, cl_name, k) == 0) {
      f->state = ST_HEADERS;
      return (ptrdiff_t)i;
    }
  }
  return n > k ? (ptrdiff_t)(n - k) : NEED_MORE;
}

static ptrdiff_t step_line(upk_framer *f, const char *p, size_t n) {
  const char *nl = memchr(p + f->scanned, '\n', n - f->scanned);
  if (!nl) {
    f->scanned = n;
    /* A line of exactly max_message bytes may still be waiting for the \n of its \r\n. */
    if (n <= f->max_message || (n - 1 == f->max_message && p[n - 1] == '\r'))
      return NEED_MORE;
    framer__too_big(f, n);
    f->state = ST_DISCARD;
    return (ptrdiff_t)n;
  }
  size_t len = (size_t)(nl - p);
  size_t body = len && p[len - 1] == '\r' ? len - 1 : len;
  if (body > f->max_message) {
    framer__too_big(f, body);
  } else {
    size_t i = 0;
    while (i < body && isspace((unsigned char)p[i]))
      i++;
    if (i < body)
      f->cb.on_message(f->ud, p, body);
  }
  return (ptrdiff_t)(len + 1);
}

static ptrdiff_t step(upk_framer *f, const char *p, size_t n) {
  if (f->mode == UPK_FRAMING_AUTO) {
    size_t i = 0;
    while (i < n && isspace((unsigned char)p[i]))
      i++;
    if (i == n)
      return i ? (ptrdiff_t)i : NEED_MORE;
    f->mode = (p[i] == '{' || p[i] == '[') ? UPK_FRAMING_MCP : UPK_FRAMING_LSP;
    f->state = f->mode == UPK_FRAMING_MCP ? ST_LINE : ST_HEADERS;
    return (ptrdiff_t)i;
  }
  switch (f->state) {
  case ST_HEADERS:
    return step_headers(f, p, n);
  case ST_BODY:
    if (n < f->length)
      return NEED_MORE;
    f->state = ST_HEADERS;
    f->cb.on_message(f->ud, p, (size_t)f->length);
    return (ptrdiff_t)f->length;
  case ST_RESYNC:
    return step_resync(f, p, n);
  case ST_LINE:
    return step_line(f, p, n);
  case ST_DISCARD: {
    const char *nl = memchr(p, '\n', n);
    if (!nl)
      return (ptrdiff_t)n;
    f->state = ST_LINE;
    return nl - p + 1;
  }
  default: { /* ST_SKIP */
    uint64_t m = n < f->skip ? n : f->skip;
    f->skip -= m;
    if (f->skip == 0)
      f->state = f->mode == UPK_FRAMING_MCP ? ST_LINE : ST_HEADERS;
    return (ptrdiff_t)m;
  }
  }
}

/* Run the parser over p[0..n); returns bytes consumed. */
static size_t run(upk_framer *f, const char *p, size_t n) {
  size_t pos = 0;
  /* An empty LSP body is complete with its header: deliver it now, not on the next feed. */
  while (pos < n || (f->state == ST_BODY && f->length == 0)) {
    ptrdiff_t r = step(f, p + pos, n - pos);
    if (r == NEED_MORE)
      break;
    f->scanned = 0;
    pos += (size_t)r;
  }
  return pos;
}

int upk_framer_feed(upk_framer *f, const char *data, size_t len) {
  if (f->in.len == 0) {
    /* Fast path: parse straight from the caller's bytes, keep only the tail. */
    size_t used = run(f, data, len);
    return used < len ? upk_buf_append(&f->in, data + used, len - used) : 0;
  }
  int rc = upk_buf_append(&f->in, data, len);
  if (rc)
    return rc;
  size_t used = run(f, f->in.data, f->in.len);
  if (used == f->in.len)
    upk_buf_free(&f->in); /* don't keep a large body's allocation around */
  else
    upk_buf_consume(&f->in, used);
  return 0;
}

void upk_framer_end(upk_framer *f) {
  if (f->mode != UPK_FRAMING_MCP || f->state != ST_LINE || f->in.len == 0)
    return;
  /* Feeding the missing newline runs the normal line path (size cap included). */
  upk_framer_feed(f, "\n", 1);
}

uint64_t upk_framer_pending(const upk_framer *f) {
  if (f->state == ST_SKIP)
    return f->skip;
  if (f->state == ST_BODY)
    return f->length;
  for (size_t i = 0; i < f->in.len; i++)
    if (!isspace((unsigned char)f->in.data[i]))
      return f->in.len;
  return 0;
}

int upk_frame_write(upk_framing mode, const char *body, size_t len, upk_buf *out) {
  const size_t old = out->len;
  int rc;
  if (mode == UPK_FRAMING_LSP) {
    rc = upk_buf_printf(out, "Content-Length: %zu\r\n\r\n", len);
    if (!rc)
      rc = upk_buf_append(out, body, len);
  } else {
    rc = upk_buf_append(out, body, len);
    if (!rc)
      rc = upk_buf_append(out, "\n", 1);
  }
  if (rc && out->data) { /* all or nothing: never leave half a frame behind */
    out->len = old;
    out->data[old] = '\0';
  }
  return rc;
}

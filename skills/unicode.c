#include "skills/unicode.h"

#include <stdlib.h>
#include <string.h>

struct u_run {
  uint32_t cp;
  uint16_t len;
  int32_t delta;
};
struct u_multi {
  uint32_t cp;
  uint16_t off;
  uint8_t len;
};
struct u_comp {
  uint32_t a, b, c;
};
struct u_ccc {
  uint32_t lo, hi;
  uint8_t ccc;
};
struct u_range {
  uint32_t lo, hi;
};

#include "skills/unicode_data.h"
#include "common/xalloc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Hangul syllables are composed and decomposed arithmetically (Unicode 3.12). */
enum { SBASE = 0xAC00, LBASE = 0x1100, VBASE = 0x1161, TBASE = 0x11A7 };
enum { LCOUNT = 19, VCOUNT = 21, TCOUNT = 28, NCOUNT = VCOUNT * TCOUNT, SCOUNT = LCOUNT * NCOUNT };

size_t upk_u8_decode(const char *str, size_t len, uint32_t *cp) {
  const unsigned char *s = (const unsigned char *)str;
  if (len == 0)
    return 0;
  if (s[0] < 0x80) {
    *cp = s[0];
    return 1;
  }
  size_t n;
  uint32_t c, min;
  if ((s[0] & 0xE0) == 0xC0) {
    n = 2, c = s[0] & 0x1F, min = 0x80;
  } else if ((s[0] & 0xF0) == 0xE0) {
    n = 3, c = s[0] & 0x0F, min = 0x800;
  } else if ((s[0] & 0xF8) == 0xF0) {
    n = 4, c = s[0] & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (len < n)
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (s[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *cp = c;
  return n;
}

size_t upk_u8_encode(uint32_t cp, char *buf) {
  unsigned char *b = (unsigned char *)buf;
  if (cp < 0x80) {
    b[0] = (unsigned char)cp;
    return 1;
  }
  if (cp < 0x800) {
    b[0] = (unsigned char)(0xC0 | (cp >> 6));
    b[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    b[0] = (unsigned char)(0xE0 | (cp >> 12));
    b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  b[0] = (unsigned char)(0xF0 | (cp >> 18));
  b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
  b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
  b[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}

size_t upk_u8_len(const char *s) {
  size_t n = 0;
  for (; *s; s++)
    n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

size_t upk_u16_len(const char *s, size_t n) {
  size_t units = 0, i = 0;
  while (i < n) {
    uint32_t cp;
    size_t k = upk_u8_decode(s + i, n - i, &cp);
    if (k == 0) {
      units++, i++;
      continue;
    }
    units += cp >= 0x10000 ? 2 : 1;
    i += k;
  }
  return units;
}

static bool in_ranges(const struct u_range *r, size_t n, uint32_t cp) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < r[mid].lo)
      hi = mid;
    else if (cp > r[mid].hi)
      lo = mid + 1;
    else
      return true;
  }
  return false;
}

bool upk_u_isalnum(uint32_t cp) {
  return in_ranges(u_alnum, N(u_alnum), cp);
}

bool upk_u_has_lower(uint32_t cp) {
  return in_ranges(u_cased, N(u_cased), cp);
}

bool upk_u_isspace(uint32_t cp) {
  return in_ranges(u_space, N(u_space), cp);
}

static int ccc(uint32_t cp) {
  size_t lo = 0, hi = N(u_ccc);
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < u_ccc[mid].lo)
      hi = mid;
    else if (cp > u_ccc[mid].hi)
      lo = mid + 1;
    else
      return u_ccc[mid].ccc;
  }
  return 0;
}

/* A growable code point buffer. */
typedef struct {
  uint32_t *v;
  size_t n, cap;
} cpbuf;

static bool cp_push(cpbuf *b, uint32_t cp) {
  UPK_GROW(b->v, b->cap, b->n + 1);
  b->v[b->n++] = cp;
  return true;
}

/* Append the full compatibility decomposition of cp (the tables hold NFKD of
 * each character already, so no recursion is needed). */
static bool decompose(cpbuf *b, uint32_t cp) {
  if (cp >= SBASE && cp < SBASE + SCOUNT) {
    uint32_t s = cp - SBASE, t = s % TCOUNT;
    if (!cp_push(b, LBASE + s / NCOUNT) || !cp_push(b, VBASE + (s % NCOUNT) / TCOUNT))
      return false;
    return t == 0 || cp_push(b, TBASE + t);
  }
  size_t lo = 0, hi = N(u_decomp1);
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < u_decomp1[mid].cp)
      hi = mid;
    else if (cp >= u_decomp1[mid].cp + u_decomp1[mid].len)
      lo = mid + 1;
    else
      return cp_push(b, (uint32_t)((int32_t)cp + u_decomp1[mid].delta));
  }
  lo = 0, hi = N(u_decompn);
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < u_decompn[mid].cp) {
      hi = mid;
    } else if (cp > u_decompn[mid].cp) {
      lo = mid + 1;
    } else {
      for (size_t i = 0; i < u_decompn[mid].len; i++)
        if (!cp_push(b, u_pool[u_decompn[mid].off + i]))
          return false;
      return true;
    }
  }
  return cp_push(b, cp);
}

/* Canonical ordering: a stable sort of each run of non-starters by class. */
static void reorder(cpbuf *b) {
  for (size_t i = 1; i < b->n; i++) {
    uint32_t c = b->v[i];
    int cc = ccc(c);
    if (cc == 0)
      continue;
    size_t j = i;
    while (j > 0 && ccc(b->v[j - 1]) > cc) {
      b->v[j] = b->v[j - 1];
      j--;
    }
    b->v[j] = c;
  }
}

static uint32_t compose_pair(uint32_t a, uint32_t b) {
  if (a >= LBASE && a < LBASE + LCOUNT && b >= VBASE && b < VBASE + VCOUNT)
    return SBASE + ((a - LBASE) * VCOUNT + (b - VBASE)) * TCOUNT;
  if (a >= SBASE && a < SBASE + SCOUNT && (a - SBASE) % TCOUNT == 0 && b > TBASE &&
      b < TBASE + TCOUNT)
    return a + (b - TBASE);
  size_t lo = 0, hi = N(u_comp);
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const struct u_comp *p = &u_comp[mid];
    if (a < p->a || (a == p->a && b < p->b))
      hi = mid;
    else if (a > p->a || b > p->b)
      lo = mid + 1;
    else
      return p->c;
  }
  return 0;
}

/* Canonical composition in place (UAX #15): a character joins the last
 * starter unless a character in between blocks it. */
static void compose(cpbuf *b) {
  if (b->n == 0)
    return;
  size_t starter = 0, o = 1;
  bool have_starter = ccc(b->v[0]) == 0;
  int last_cc = have_starter ? 0 : 256;
  for (size_t i = 1; i < b->n; i++) {
    uint32_t c = b->v[i];
    int cc = ccc(c);
    bool blocked = o - 1 != starter && (last_cc == 0 || last_cc >= cc);
    uint32_t comp = have_starter && !blocked ? compose_pair(b->v[starter], c) : 0;
    if (comp) {
      b->v[starter] = comp;
      continue;
    }
    if (cc == 0) {
      starter = o;
      have_starter = true;
    }
    last_cc = cc;
    b->v[o++] = c;
  }
  b->n = o;
}

char *upk_nfkc(const char *s) {
  cpbuf b = {0};
  size_t len = strlen(s);
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t k = upk_u8_decode(s + i, len - i, &cp);
    if (k == 0) { /* not UTF-8: keep the byte's value rather than fail */
      cp = (unsigned char)s[i];
      k = 1;
    }
    if (!decompose(&b, cp)) {
      free(b.v);
      return NULL;
    }
    i += k;
  }
  reorder(&b);
  compose(&b);
  char *out = upk_xmalloc(b.n * 4 + 1);
  if (out) {
    size_t o = 0;
    for (size_t i = 0; i < b.n; i++)
      o += upk_u8_encode(b.v[i], out + o);
    out[o] = '\0';
  }
  free(b.v);
  return out;
}

char *upk_u8_strip(const char *s) {
  size_t len = strlen(s), start = 0, end = len;
  while (start < len) {
    uint32_t cp;
    size_t k = upk_u8_decode(s + start, len - start, &cp);
    if (k == 0 || !upk_u_isspace(cp))
      break;
    start += k;
  }
  while (end > start) {
    size_t b = end - 1;
    while (b > start && ((unsigned char)s[b] & 0xC0) == 0x80)
      b--;
    uint32_t cp;
    size_t k = upk_u8_decode(s + b, end - b, &cp);
    if (k == 0 || k != end - b || !upk_u_isspace(cp))
      break;
    end = b;
  }
  return upk_xstrndup(s + start, end - start);
}

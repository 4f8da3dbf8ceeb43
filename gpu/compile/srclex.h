/** The lexer under the source scan and the lint: tokens of CUDA source with
 * comments skipped, string/char literals (raw ones too) kept whole, line
 * continuations spliced, and directive lines marked. Positions map back to the
 * original text (zero-based line, column in bytes). */
#ifndef UPK_GPU_SRCLEX_H
#define UPK_GPU_SRCLEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  UPK_TOK_IDENT,
  UPK_TOK_NUMBER,
  UPK_TOK_STRING, /* with prefix and quotes: "..", u8"..", R"x(..)x" */
  UPK_TOK_CHAR,
  UPK_TOK_HEADER, /* <...> after #include, without the brackets */
  UPK_TOK_PUNCT,  /* one character, or <<< >>> :: -> && || == != <= >= */
  UPK_TOK_HASH,   /* the '#' that starts a directive */
} upk_tok_kind;

typedef struct upk_src_token {
  upk_tok_kind kind;
  const char *text; /* into the lexer's spliced copy; not NUL-terminated */
  size_t len;
  size_t off;         /* offset in the spliced copy */
  unsigned directive; /* nonzero: the number of the directive this token belongs to */
} upk_src_token;

typedef struct upk_src_lexer {
  char *buf; /* the source with backslash-newlines removed */
  size_t len, pos;
  size_t *splice_at, *splice_cum; /* spliced offset of each removal, bytes removed so far */
  size_t n_splice;
  size_t *line_start; /* offsets of line starts in the original text */
  size_t n_lines;
  unsigned directive, n_directives;
  bool bol;      /* nothing but blanks since the last newline */
  int dir_state; /* 1: after '#', 2: after '#include' */
} upk_src_lexer;

/** Prepare to lex `len` bytes of `src`. Returns 0 or -ENOMEM. */
int upk_src_lex_open(upk_src_lexer *lx, const char *src, size_t len);
/** The next token; false at the end. Comments and blanks are skipped. */
bool upk_src_lex_next(upk_src_lexer *lx, upk_src_token *t);
/** Zero-based line and column (bytes) in the original text of spliced offset `off`. */
void upk_src_lex_pos(const upk_src_lexer *lx, size_t off, int *line, int *col);
void upk_src_lex_close(upk_src_lexer *lx);

/** True when token `t` is the identifier or punctuator `s`. */
bool upk_tok_is(const upk_src_token *t, const char *s);

#endif

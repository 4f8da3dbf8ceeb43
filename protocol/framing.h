/** Message framing for JSON-RPC over a byte stream.
 *
 * Two framings are understood: LSP (`Content-Length: N\r\n\r\n` + N bytes,
 * header names case-insensitive, unknown headers ignored) and MCP stdio (one
 * JSON message per line, `\r\n` tolerated, blank lines skipped). In AUTO mode
 * the first non-blank byte decides: `{` or `[` means MCP, anything else LSP.
 *
 * The parser is incremental: bytes may arrive one at a time or many messages
 * at once. Memory is bounded by the message cap: a hostile Content-Length is
 * never allocated up front, and an oversized message is skipped as it streams
 * past, after one error callback. After any framing error the parser
 * resynchronises and keeps going.
 */
#ifndef UPK_FRAMING_H
#define UPK_FRAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dynbuf.h"

typedef enum { UPK_FRAMING_AUTO = 0, UPK_FRAMING_LSP, UPK_FRAMING_MCP } upk_framing;

/** Error codes given to on_error. */
enum {
  UPK_FRAME_ETOOBIG = -1, /* message larger than the cap; it was skipped */
  UPK_FRAME_EHEADER = -2, /* malformed LSP header block; it was dropped */
};

/** The longest LSP header block accepted. */
#define UPK_FRAME_MAX_HEADER 8192

typedef struct upk_framer_callbacks {
  /** One whole message body. `body` is valid only during the call. */
  void (*on_message)(void *ud, const char *body, size_t len);
  /** A framing error; `message` says what was wrong in plain words. */
  void (*on_error)(void *ud, int code, const char *message);
} upk_framer_callbacks;

typedef struct upk_framer {
  upk_framing mode;
  size_t max_message;
  upk_buf in;      /* bytes of an incomplete message, always starting at its beginning */
  size_t scanned;  /* bytes of `in` already known to hold no newline */
  int state;       /* internal parser state */
  uint64_t length; /* LSP: body length of the message being read */
  uint64_t skip;   /* bytes still to discard from an oversized message */
  upk_framer_callbacks cb;
  void *ud;
} upk_framer;

/** Prepare a framer. `max_message` caps one message body in bytes. */
void upk_framer_init(upk_framer *f, upk_framing mode, size_t max_message,
                     const upk_framer_callbacks *cb, void *ud);
/** Feed bytes; callbacks run before it returns. Returns 0 or -ENOMEM. */
int upk_framer_feed(upk_framer *f, const char *data, size_t len);
/** The framing in use (AUTO until the first non-blank byte arrives). */
upk_framing upk_framer_mode(const upk_framer *f);
/** Input has ended: deliver a last MCP line that lacks its newline. */
void upk_framer_end(upk_framer *f);
/** Bytes of an incomplete message held or still expected (for EOF reports). */
uint64_t upk_framer_pending(const upk_framer *f);
/** Release the framer's memory. */
void upk_framer_free(upk_framer *f);

/** Append `body` framed for `mode` to `out` (AUTO frames as MCP). */
int upk_frame_write(upk_framing mode, const char *body, size_t len, upk_buf *out);

#endif

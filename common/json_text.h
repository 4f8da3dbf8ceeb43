/** A JSON text jansson produced, shared read-only between threads (atomic reference count).
 *
 * Why: a large answer (a 270 KB skills/list page) dumped on the loop thread holds every other
 * client up for as long as the dump takes (5-20 ms on a loaded machine). The thread that
 * builds the answer dumps its big member once (upk_json_text_dump), whoever keeps that value
 * keeps the text beside it, and the loop thread splices it into the response
 * (upk_rpc_dump_spliced). Only jansson writes JSON here: the text is its output, never
 * edited. */
#ifndef UPK_JSON_TEXT_H
#define UPK_JSON_TEXT_H

#include <jansson.h>
#include <stddef.h>

/** The flags every JSON text the daemon sends is dumped with (protocol/jsonrpc.c too), so
 * that a text dumped ahead is the bytes the response would have held. */
#define UPK_JSON_WIRE_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(12))

typedef struct upk_json_text upk_json_text;

/** v (any value: a result may be a bare one) dumped with UPK_JSON_WIRE_FLAGS, one
 * reference; NULL when jansson refuses it. */
upk_json_text *upk_json_text_dump(const json_t *v);
/** Another reference to t (t may be NULL). */
upk_json_text *upk_json_text_ref(upk_json_text *t);
/** Drop a reference (t may be NULL); the last one frees the text. */
void upk_json_text_unref(upk_json_text *t);
/** The text (NUL-terminated) and its length in bytes. */
const char *upk_json_text_data(const upk_json_text *t);
size_t upk_json_text_len(const upk_json_text *t);

/** A member of a response's result dumped ahead: result[key] is `value` (the very value, never
 * changed since), and `text` its dump. */
typedef struct upk_json_member {
  const char *key;
  const json_t *value;
  upk_json_text *text;
} upk_json_member;

#endif

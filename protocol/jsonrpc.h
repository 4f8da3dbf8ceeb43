/** JSON-RPC 2.0 envelopes on top of jansson values.
 *
 * This module knows the shape of requests, notifications and responses and
 * builds replies; it knows nothing of methods. Values follow jansson's rules:
 * "borrowed" members stay owned by the message, "stolen" arguments are owned
 * by the callee afterwards.
 */
#ifndef UPK_JSONRPC_H
#define UPK_JSONRPC_H

#include <jansson.h>
#include <stddef.h>

#include "common/dynbuf.h"
#include "common/json_text.h"

/* Standard JSON-RPC codes and the LSP ones the daemon uses. */
enum {
  UPK_RPC_PARSE_ERROR = -32700,
  UPK_RPC_INVALID_REQUEST = -32600,
  UPK_RPC_METHOD_NOT_FOUND = -32601,
  UPK_RPC_INVALID_PARAMS = -32602,
  UPK_RPC_INTERNAL_ERROR = -32603,
  UPK_RPC_SERVER_NOT_INITIALIZED = -32002,
  UPK_RPC_REQUEST_FAILED = -32803,
  UPK_RPC_REQUEST_CANCELLED = -32800,
};

typedef enum {
  UPK_RPC_REQUEST,
  UPK_RPC_NOTIFICATION,
  UPK_RPC_RESPONSE,
  UPK_RPC_INVALID,
} upk_rpc_kind;

/** A classified message; every pointer is borrowed from the parsed value. */
typedef struct upk_rpc_msg {
  upk_rpc_kind kind;
  const char *method; /* requests and notifications */
  json_t *id;         /* requests and responses; for INVALID the id when usable, else NULL */
  json_t *params;     /* NULL when absent */
  const char *why;    /* INVALID: what is wrong, in words */
} upk_rpc_msg;

/** Longest canonical id key produced by upk_rpc_id_key (longer string ids are hashed). */
#define UPK_RPC_KEY_MAX 80

/** Bytes of `s` to keep to show at most `max` bytes without splitting a UTF-8
 * sequence (error messages travel as JSON strings and must stay valid UTF-8). */
size_t upk_utf8_prefix(const char *s, size_t max);

/** Parse one message body. On invalid JSON returns NULL and writes why to `err`. */
json_t *upk_rpc_parse(const char *body, size_t len, char *err, size_t errlen);
/** Classify a parsed value (object expected) into `out`. */
void upk_rpc_classify(json_t *msg, upk_rpc_msg *out);
/** A canonical text key for an id ("i:7", "s:abc"), for tables of requests in flight. */
void upk_rpc_id_key(const json_t *id, char key[UPK_RPC_KEY_MAX]);

/** {"jsonrpc":"2.0","id":id,"result":result}; `id` borrowed (NULL → null), `result` stolen. */
json_t *upk_rpc_result(json_t *id, json_t *result);
/** An error response; `data` stolen and may be NULL. */
json_t *upk_rpc_error(json_t *id, int code, const char *message, json_t *data);
/** A notification; `params` stolen and may be NULL. */
json_t *upk_rpc_notification(const char *method, json_t *params);
/** A request from the server; `id` borrowed, `params` stolen. */
json_t *upk_rpc_request(json_t *id, const char *method, json_t *params);
/** Append `msg` as compact JSON (never containing a newline). */
int upk_rpc_dump(const json_t *msg, upk_buf *out);
/** Append the response `msg` as upk_rpc_dump would, but for one member of its result dumped
 * before (`m`: result[m->key] is m->value, m->text its dump): jansson dumps the rest of the
 * message (the id among it) and m->text goes in the place of the member's value, copied,
 * unchanged. That member comes last in the result, the result last in the message: the same
 * value as upk_rpc_dump's, members in another order. -EINVAL when the result holds no
 * m->value at m->key (nothing appended: dump it whole). */
int upk_rpc_dump_spliced(const json_t *msg, const upk_json_member *m, upk_buf *out);

#endif

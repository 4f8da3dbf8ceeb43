/** A small blocking JSON-RPC client over a spawned server's stdio (LSP
 * framing). Used by upskillctl; simple by design: one request at a time,
 * notifications handed to a callback while waiting. */
#ifndef UPK_RPC_CLIENT_H
#define UPK_RPC_CLIENT_H

#include <jansson.h>
#include <sys/types.h>

#include "common/dynbuf.h"
#include "protocol/framing.h"

typedef void (*upk_client_notify_cb)(void *ud, const char *method, json_t *params);

typedef struct upk_client {
  pid_t pid;
  int to_server, from_server;
  upk_framer framer;
  json_t *inbox; /* messages parsed but not yet consumed */
  long long next_id;
  int timeout_ms;
  upk_client_notify_cb on_notify;
  void (*on_tick)(void *ud); /* every quarter second of a wait with nothing read, if set */
  void *ud;
  char error[512]; /* why the last call failed */
} upk_client;

/** Spawn `argv` (argv[0] looked up in PATH) with pipes on stdin/stdout. */
int upk_client_spawn(upk_client *c, char *const argv[], int timeout_ms);
/** Send a request and wait for its response. Returns the response object
 * (caller decrefs) or NULL with c->error set (transport failure/timeout). */
json_t *upk_client_call(upk_client *c, const char *method, json_t *params);
/** Send a notification (params stolen). Returns 0 or -1. */
int upk_client_notify(upk_client *c, const char *method, json_t *params);
/** Close stdin, wait for exit (killing after the timeout); returns the exit status. */
int upk_client_close(upk_client *c);

#endif

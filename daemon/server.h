/** The protocol server: one session over stdio.
 *
 * It owns the transport and framer, validates JSON-RPC envelopes, runs the
 * LSP and MCP lifecycles, routes requests through the faces and the method
 * table into jobs, and is the only writer of protocol output: everything below
 * it answers through the callbacks it installs in the session (session.h).
 * Only main.c includes this.
 */
#ifndef UPK_SERVER_H
#define UPK_SERVER_H

#include <uv.h>

#include "daemon/core/session.h"

/** Create the session on stdio (kinds guessed by main) in *out; 0 or a negative errno from
 * opening the transport (then nothing has started, and *out is only for upk_server_free). */
int upk_server_new(upk_server **out, uv_loop_t *loop, const upk_options *opts, int in_fd,
                   uv_handle_type in_kind, int out_fd, uv_handle_type out_kind);
/** Begin reading; the loop runs until input ends or `exit` arrives. */
int upk_server_start(upk_server *s);
/** Release everything after uv_run has returned. */
void upk_server_free(upk_server *s);
/** The process's exit code once the session is over (1: exit without shutdown). */
int upk_server_exit_code(const upk_server *s);

#endif

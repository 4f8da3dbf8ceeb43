/** The faces' side of a job (face_jobs.c): how a request started by a face is answered and
 * how its progress is spoken. jobs.c calls these through upk_job_face and knows no protocol. */
#ifndef UPK_FACE_JOBS_H
#define UPK_FACE_JOBS_H

#include "daemon/core/jobs.h"

/** A plain JSON-RPC answer; progress as the session's framing speaks it (LSP `$/progress`,
 * MCP `notifications/progress`). */
extern const upk_job_face upk_face_job_plain;
/** An MCP `tools/call`: the answer is a tool result, a failure an `isError` one. */
extern const upk_job_face upk_face_job_tool;

#endif

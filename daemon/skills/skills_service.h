/** The daemon's side of the skills library: one SQLite index per session,
 * used only from a serial work queue (never on the loop), kept live by
 * uv_fs_event watchers (one per directory: Linux has no recursive watch).
 *
 * Roots: every agent's project and user directories (its own and the ones it
 * also reads), the built-in library and `initializationOptions.skills.
 * extraDirs`. The index is opened and scanned when the session is
 * initialized; requests queued behind that see the scanned index.
 */
#ifndef UPK_SKILLS_SERVICE_H
#define UPK_SKILLS_SERVICE_H

#include "skills/index.h"
#include "daemon/core/serial.h"
#include "daemon/core/session.h"

typedef struct upk_skills_svc upk_skills_svc;

/** Start the service for an initialized session (workspace known). */
int upk_skills_start(upk_server *s);
/** Stop watching, cancel queued work, close the index (at exit). */
void upk_skills_stop(upk_server *s);
/** Run `work` on the index queue. `work` receives the index (NULL when it
 * could not be opened; upk_skills_open_error says why); `done` is called from the loop, never
 * from inside this call. Returns 0, or a negative errno and `done` is never called. */
typedef void (*upk_skills_work)(upk_index *ix, void *arg);
int upk_skills_submit(upk_server *s, upk_skills_work work, upk_serial_done done, void *arg);
/** Why the index is unavailable ("" when it is fine). Queue thread only. */
const char *upk_skills_open_error(upk_server *s);
/** Ask for `path` to be re-indexed (after an install or remove). Queue thread only. */
void upk_skills_touch(upk_server *s, upk_index *ix, const char *path);
/** The index's state for upskilld/status: skills indexed, the first scan's
 * progress, roots cut at the directory limit. Loop thread. */
json_t *upk_skills_status(upk_server *s);
/** A host walks the MCP Skills listing (a page arrived): the index's settling work (the watch
 * set's listing, the catch-up scan, merge steps) waits until a second after the last page, at
 * most 30 s in a row, so that no page queues behind it. Loop thread. */
void upk_skills_hold(upk_server *s);
/** While the skills queue is busy (a catch-up scan, a merge step, a watch-set page, another's
 * request), the listing's stamp and skill count as the item before the running one left them,
 * so that a page kept under that stamp is answered from the loop at once instead of waiting
 * behind the item (skills_ext.c). False when the queue is idle (the page goes there), the
 * first index is not over, or no listing was asked for yet. Loop thread. */
bool upk_skills_listing_lane(upk_server *s, uint64_t *stamp, long *count);
/** The built-in library directory in use. */
const char *upk_skills_library_dir(void);

#endif

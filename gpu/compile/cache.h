/** The kernel-result cache's keys, freshness checks and disk store.
 *
 * A key is the SHA-256 of the request's wire params (keys sorted), the
 * toolkit version and, for a `path` request, the file's size, mtime and
 * inode — so a changed file is a different key, found without reading it.
 * A stored result lists the non-toolkit headers it read with their stamps
 * (`dependencies`); it is fresh while every stamp still matches.
 *
 * The disk store lives in $XDG_CACHE_HOME/upskilld/kernels-v1/ (or
 * ~/.cache/...): one JSON file per key, written atomically (temporary file +
 * rename), safe to delete at any time. Blocking file I/O: workers only. */
#ifndef UPK_GPU_KCACHE_H
#define UPK_GPU_KCACHE_H

#include <jansson.h>
#include <stdbool.h>

/** Fill `out` with the 64 hex digits of the key. Returns 0 or -ENOMEM. */
int upk_kcache_key(json_t *params, const char *toolkit, char out[65]);
/** True while every dependency of `result` has the size and mtime it lists. */
bool upk_kcache_fresh(json_t *result);
/** A fresh stored result for `key` (caller owns), or NULL. */
json_t *upk_kcache_load(const char *key);
/** Store `result` under `key`: 0, or a negative errno with a sentence naming the path in
 * `err` (nothing half-written is left; a cache is optional, so callers carry on). */
int upk_kcache_store(const char *key, json_t *result, char *err, size_t err_len);
/** The directory in use (for status and docs). */
const char *upk_kcache_dir(void);

#endif

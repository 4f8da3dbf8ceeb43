/** The project's skills-lock.json, in the format vercel's `skills` CLI (1.7) writes, so each
 * tool sees the other's installs:
 *
 *   {"version": 1, "skills": {"<frontmatter name>": {
 *      "source": "owner/repo" | "<git URL>" | "<path relative to the project>",
 *      "sourceType": "github" | "git" | "local",
 *      "sourceUrl": "<git URL>",          (git sources not on GitHub)
 *      "ref": "<ref as asked>",           (when one was asked)
 *      "skillPath": "skills/pdf/SKILL.md", (git sources)
 *      "computedHash": "<sha256 hex>",
 *      "commit": "<40 hex>"}}}            (upskilld's: what restore fetches; the CLI ignores it)
 *
 * written with sorted keys, two-space indent and a final newline. computedHash is the CLI's:
 * SHA-256 over each regular file below the skill directory (not .git or node_modules, no
 * symbolic links), in the order of their '/'-separated relative paths as JavaScript's
 * localeCompare sorts them, each path then its content. A file of a newer version is never
 * rewritten. Blocking; plain C.
 */
#ifndef UPK_SKILLS_LOCK_H
#define UPK_SKILLS_LOCK_H

#include <jansson.h>
#include <stddef.h>

#define UPK_SKILLS_LOCK_NAME "skills-lock.json"
#define UPK_SKILLS_LOCK_VERSION 1

/** computedHash of the skill directory `dir` (64 hex + NUL). 0 or a negative errno. */
int upk_skills_lock_hash(const char *dir, char hex[65]);

/** Compare two relative paths as the CLI's sort does (localeCompare, root collation: symbols,
 * then digits, then letters regardless of case; lower case first on a tie). */
int upk_skills_lock_collate(const char *a, const char *b);

/** Read <project>/skills-lock.json: a new reference, {"version":1,"skills":{}} when there is
 * none. NULL with a message in err when it is not valid JSON or is of a newer version, or
 * cannot be read: a link (never followed, even inside the project), a FIFO or other non-regular
 * file, over the cap. The message names the file and the problem and never quotes the file. */
json_t *upk_skills_lock_read(const char *project, char *err, size_t err_len);

/** Set (entry non-NULL; reference taken) or drop the entry of `name` and write the file
 * atomically. 0, or a negative errno with a message in err (the file is then unchanged). */
int upk_skills_lock_set(const char *project, const char *name, json_t *entry, char *err,
                        size_t err_len);

#endif

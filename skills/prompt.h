/** The `<available_skills>` block agents put in their system prompt, byte for
 * byte as skills-ref's to-prompt writes it (skills-ref/src/skills_ref/prompt.py):
 *
 *   <available_skills>\n<skill>\n<name>\nNAME\n</name>\n<description>\nDESC\n
 *   </description>\n<location>\nPATH\n</location>\n</skill>\n...</available_skills>
 *
 * every element on its own line, no trailing newline, values escaped like
 * Python's html.escape(s, quote=True) (& < > " ' -> &amp; &lt; &gt; &quot;
 * &#x27;), name and description stripped like str.strip(), the location the
 * resolved skill directory joined with SKILL.md (or skill.md). No skills:
 * exactly "<available_skills>\n</available_skills>".
 */
#ifndef UPK_PROMPT_H
#define UPK_PROMPT_H

#include <stddef.h>

#include "common/diag.h"
#include "skills/index.h"

typedef struct upk_prompt_skill {
  const char *name, *description, *location;
} upk_prompt_skill;

/** Render the block. Malloc'd; NULL only when out of memory. */
char *upk_prompt_render(const upk_prompt_skill *skills, size_t n);

/** Escape like Python's html.escape(s, quote=True). Malloc'd. */
char *upk_prompt_escape(const char *s);

/** to-prompt over skill directories (a SKILL.md path stands for its
 * directory), in the order given. Like skills-ref, a skill that cannot be
 * read or has no name or description fails the whole call: -ENOENT or
 * -EINVAL, with a diagnostic naming it. */
int upk_prompt_from_dirs(const char *const *dirs, size_t n, char **out, upk_diags *diags);

/** The block for index entries (e.g. upk_index_list for one agent): shadowed
 * and unusable entries are left out, as the agent would not load them; a
 * SKILL.md indexed through several roots appears once, and so does a name
 * (several agents' copies, or an installed and a built-in copy): the first
 * usable one in the order given, which for upk_index_list's order (priority,
 * scope, root order) is the copy skills/get returns. */
char *upk_prompt_from_entries(const upk_index_entry *entries, size_t n);

#endif

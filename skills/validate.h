/** Validating skills against the Agent Skills specification.
 *
 * STRICT applies every rule of the specification with the same checks and
 * messages as the reference validator (skills-ref), plus warnings where real
 * agents are stricter. LENIENT is the loading mode of the client guide: only
 * what makes a skill unusable is an error (no description, no frontmatter at
 * all); everything else is a warning, so slightly broken skills are still
 * found by lookup.
 */
#ifndef UPK_VALIDATE_H
#define UPK_VALIDATE_H

#include "diag.h"
#include "skill.h"

typedef enum { UPK_VALIDATE_STRICT, UPK_VALIDATE_LENIENT } upk_validate_mode;

/** Check a parsed skill; appends to `out`. Returns the number of errors added. */
size_t upk_skill_validate(const upk_skill *s, upk_validate_mode mode, upk_diags *out);
/** Load (directory or SKILL.md) and validate; path problems are diagnostics too. */
size_t upk_skill_validate_path(const char *path, upk_validate_mode mode, upk_diags *out);
/** Validate SKILL.md text given inline (no directory checks). */
size_t upk_skill_validate_text(const char *text, size_t len, upk_validate_mode mode,
                               upk_diags *out);

#endif

/** Validating skills against the Agent Skills specification.
 *
 * STRICT applies every rule of the specification with the same checks and
 * messages as the reference validator (skills-ref), plus warnings where real
 * agents are stricter. LENIENT is the loading mode of the client guide: only
 * what makes a skill unusable is an error (no description, no frontmatter at
 * all); everything else is a warning, so slightly broken skills are still
 * found by lookup. INSTALL is LENIENT except for what agents refuse to load: a name
 * outside ^[a-z0-9]+(-[a-z0-9]+)*$ or over 64 characters is an error (opencode and
 * Anthropic's packager refuse it), so that an install never places a skill some agent skips;
 * the name's directory is the installed one, named after it (docs/skills.md, "Install rules").
 */
#ifndef UPK_VALIDATE_H
#define UPK_VALIDATE_H

#include "common/diag.h"
#include "skills/skill.h"

typedef enum { UPK_VALIDATE_STRICT, UPK_VALIDATE_LENIENT, UPK_VALIDATE_INSTALL } upk_validate_mode;

/** Check a parsed skill; appends to `out`. Returns the number of errors added.
 *
 * First come the problems parsing got around (s->issues: BOM, bad UTF-8,
 * the `key: text: more` retry, YAML strictyaml refuses, skill_meta.json), in
 * STRICT as errors, in LENIENT as warnings. A skill whose frontmatter could
 * not be parsed at all (has_frontmatter false) gets nothing more: its error
 * came from upk_skill_parse/load. Then skills-ref's checks in its order
 * (unexpected fields, name, description, compatibility) and the extra
 * warnings (reserved words, `<`/`>`, body over 500 lines, broken references,
 * non-ASCII names, the `synced` folder). Codes and severities per mode:
 * docs/diagnostics.md. */
size_t upk_skill_validate(const upk_skill *s, upk_validate_mode mode, upk_diags *out);
/** Load (directory or SKILL.md) and validate; path problems are diagnostics too.
 * Returns every error added, parse errors included (skills-ref's validate()). */
size_t upk_skill_validate_path(const char *path, upk_validate_mode mode, upk_diags *out);
/** Validate SKILL.md text given inline (no directory checks). */
size_t upk_skill_validate_text(const char *text, size_t len, upk_validate_mode mode,
                               upk_diags *out);
/** Validate SKILL.md text as an editor holds it (unsaved edits included) for the file at
 * `path` (NULL: none), so that the directory checks run too: the name against its directory,
 * the files the body references. */
size_t upk_skill_validate_buffer(const char *text, size_t len, const char *path,
                                 upk_validate_mode mode, upk_diags *out);

#endif

/** A static audit of a skill before it is installed: what matters in a stranger's skill, each
 * finding a diagnostic on its file, line and column (diag.file relative to the skill, source
 * "upskilld-audit"), severity ERROR = high, WARNING = medium, INFO = low, `code` the rule id
 * (audit/download-exec, audit/reverse-shell, audit/obfuscated, audit/credentials,
 * audit/exfiltration, audit/persistence, audit/destruction, audit/privilege,
 * audit/agent-instructions, audit/intent-exfil, audit/intent-conceal, audit/intent-override,
 * audit/intent-step, audit/invisible-unicode, audit/executable, audit/binary,
 * audit/oversize, audit/link, audit/special-file, audit/not-utf8, ...: docs/diagnostics.md),
 * `category` its group and `evidence` the matched text (escaped, capped).
 *
 * What a file says is matched by YARA rules (skills/audit/rules/, embedded at build time,
 * compiled once, thread-safe); what a file is (link, FIFO, executable, size, encoding) is
 * checked in C. Blocking; reads each regular file once; no symbolic link followed out of the
 * audited repository (upk_audit_skill_in).
 */
#ifndef UPK_AUDIT_H
#define UPK_AUDIT_H

#include <stddef.h>

#include "common/diag.h"

#define UPK_AUDIT_SOURCE "upskilld-audit"

/** Audit every file below skill directory `dir` into `out`. Returns the number of high
 * findings, or a negative errno when `dir` cannot be read. */
int upk_audit_skill(const char *dir, upk_diags *out);

/** The same for a skill of repository `repo` (a checkout, or the directory an audit was given;
 * NULL or one that does not hold `dir`: the skill alone). A symbolic link out of the skill to
 * elsewhere in `repo` is medium, and what it points at is audited under the link's name; one
 * out of `repo` is high. */
int upk_audit_skill_in(const char *dir, const char *repo, upk_diags *out);

/** Audit one file's content (`rel`: its path in the skill, for the findings and for telling a
 * script from prose). Returns the number of high findings. */
int upk_audit_text(const char *rel, const char *data, size_t len, upk_diags *out);

#endif

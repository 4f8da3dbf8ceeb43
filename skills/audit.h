/** A static audit of a skill before it is installed: what matters in a stranger's skill,
 * each finding a diagnostic on its file and line (diag.file relative to the skill, source
 * "upskilld-audit"), severity ERROR = high, WARNING = medium, INFO = low:
 *
 *   audit/pipe-to-shell      a download piped into a shell (curl | sh, bash <(wget ...), iex)  high
 *   audit/obfuscated         base64-decoded text executed (base64 -d | sh, eval(atob(...)))     high
 *                            a long encoded blob                                              medium
 *   audit/credentials        SSH keys, cloud or git credentials, /etc/shadow read              high in
 *                            a script, medium in prose
 *   audit/exfiltration       data sent to a host (curl -d/-F/-T, nc, requests.post, POST)     medium;
 *                            high in a script that also reads credentials
 *   audit/invisible-unicode  tag characters, bidirectional overrides and isolates            high;
 *                            zero-width characters, direction marks                          medium
 *   audit/agent-instructions text telling the agent to ignore the user or hide what it does   high
 *   audit/executable         an ELF, Mach-O or PE executable                                  high
 *   audit/binary             other binary content                                             low
 *   audit/oversize           a file over 1 MiB                                                medium
 *
 * Plain C, blocking; reads each regular file once (no symbolic links followed).
 */
#ifndef UPK_AUDIT_H
#define UPK_AUDIT_H

#include <stddef.h>

#include "common/diag.h"

#define UPK_AUDIT_SOURCE "upskilld-audit"

/** Audit every file below skill directory `dir` into `out`. Returns the number of high
 * findings, or a negative errno when `dir` cannot be read. */
int upk_audit_skill(const char *dir, upk_diags *out);

/** Audit one file's content (`rel`: its path in the skill, for the findings and for telling a
 * script from prose). Returns the number of high findings. */
int upk_audit_text(const char *rel, const char *data, size_t len, upk_diags *out);

#endif

/** `upskillctl audit`'s findings for a person (audit_print.c). */
#ifndef UPK_CTL_AUDIT_PRINT_H
#define UPK_CTL_AUDIT_PRINT_H

#include <jansson.h>

/** A skill's audit findings on stdout, grouped per rule: a rule found once is one line
 * `  FILE:LINE: SEV: MESSAGE [CODE]`; a rule found more often is a heading with its worst
 * severity, its count and how many files, and its places under it (at most 12, then how many
 * more). Rules in order of their worst severity. */
void ctl_print_audit_findings(json_t *findings);

/** What the audit's judge said of one skill (its `judge` object; NULL: nothing): its failure
 * (the rules' verdict stands), a dry run's size, or its verdict, then its notes, the findings it
 * could not verify and the files it did not read. */
void ctl_print_judge(json_t *j);

/** A skill's diagnostics name files within it (or none: its SKILL.md): each relative `file` is
 * put under `dir` (the skill's directory as the user typed it, or its name), so a line says
 * which skill it is about. A NULL `dir` leaves them as they are. */
void ctl_diags_under(json_t *diags, const char *dir);

#endif

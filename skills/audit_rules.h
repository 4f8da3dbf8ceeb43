/* The audit's YARA rules, embedded at build time (skills/audit_rules/embed.py). Internal. */
#ifndef UPK_AUDIT_RULES_H
#define UPK_AUDIT_RULES_H

#include <stddef.h>

typedef struct upk__audit_rule_file {
  const char *name; /* e.g. "reverse_shell.yar" (the YARA namespace) */
  const char *text;
} upk__audit_rule_file;

extern const upk__audit_rule_file upk__audit_rule_files[];
extern const size_t upk__audit_rule_count;

#endif

/* The audit's YARA rules, embedded at build time (skills/audit/rules/embed.py). Internal. */
#ifndef UPK_AUDIT_RULES_H
#define UPK_AUDIT_RULES_H

#include <stddef.h>

typedef struct upk__audit_rule_file {
  const char *name; /* e.g. "reverse_shell.yar" (the YARA namespace) */
  const char *text;
} upk__audit_rule_file;

extern const upk__audit_rule_file upk__audit_rule_files[];
extern const size_t upk__audit_rule_count;

struct YR_RULES;

/** Compiles the rule files above into *out (libyara initialised by the caller). Returns 0, or -1
 * with the first error ("file:line: message") in err. */
int upk__audit_rules_compile(struct YR_RULES **out, char *err, size_t err_cap);

/** The same rules compiled at build time (skills/audit/rules/yarac.c) in libyara's saved format,
 * linked in by skills/audit/rules/incbin.py: the bytes from upk__audit_rules_yarc to
 * upk__audit_rules_yarc_end. */
extern const unsigned char upk__audit_rules_yarc[];
extern const unsigned char upk__audit_rules_yarc_end[];

/** Loads rules saved by libyara from the bytes [at, end) into *out (libyara initialised by the
 * caller). Returns 0, or -1 with *out NULL when they are not a whole saved set of rules of this
 * libyara's format. */
int upk__audit_rules_load(const unsigned char *at, const unsigned char *end, struct YR_RULES **out);

#endif

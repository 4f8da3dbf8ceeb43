/* The audit's adjudication (audit_int.h): the one place a finding's severity changes once a
 * detector reported it, each change recorded on the finding, and the one count of high
 * findings. The passes over a whole file's or a whole skill's findings run here, after every
 * detector, in a fixed order.
 *
 * The changes that read a detector's own view of the file are made while it reads it, through
 * upk__audit_adjust too: a detection rule's block (audit_yara.c), and a command quoted on a
 * teaching line or hidden by the prose around it (audit_intent_near.c). The intent layer's
 * findings are reported only where no finding as severe is on the line, so those two run
 * before it and after it, as they always have: moving them here would change what it reports. */
#include "skills/audit/audit_int.h"

void upk__audit_adjust(upk_diag *d, upk_severity sev, const char *reason) {
  if (d->severity == sev)
    return;
  d->severity = sev;
  d->reason = reason;
}

void upk__audit_raise(upk_diag *d, upk_severity sev, const char *reason) {
  if (sev && sev < d->severity) /* ERROR is 1: a smaller number is more severe */
    upk__audit_adjust(d, sev, reason);
}

void upk__audit_adjudicate_file(const upk__audit_file *f, upk_diags *out, size_t from) {
  upk__audit_table_counter(f->rel, f->lang, f->data, f->len, out, from);
}

void upk__audit_adjudicate_skill(upk_diags *out, size_t from, const char *skill_root) {
  upk__audit_publisher_own(out, from, skill_root);
}

int upk__audit_highs(const upk_diags *out, size_t from) {
  int high = 0;
  for (size_t i = from; i < out->len; i++)
    high += out->items[i].severity == UPK_SEV_ERROR;
  return high;
}

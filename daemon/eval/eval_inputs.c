/* Files a client names by path (a trace to condense, a tests file, trigger queries): where each
 * may be read from, by who asked (docs/security.md, "Traces").
 *
 * An agent (an MCP session: its arguments may come from a prompt injection) reads beneath the
 * places guard.h's upk_guard_places lists, the same the guard checked on the loop; anything
 * else is refused by rule trust/read. An editor
 * (LSP) is driven by the user and reads what the user can. Either way the file is read through
 * common/fileio.h's safe reader: never a FIFO, never over the cap, and for an agent no link below
 * the root it was found under. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/eval/eval_methods.h"
#include "daemon/eval/eval_methods_int.h"
#include "daemon/core/guard.h"
#include "common/fileio.h"
#include "common/trust.h"
#include "common/xalloc.h"

/* Read abs beneath the first root it lies under that lets it be read. -EACCES: under none. */
static int read_as_agent(ecall *c, const char *abs, size_t max, char **out, size_t *len) {
  json_t *roots = upk_guard_places(c->workspace, c->opts, c->init_options, false), *v;
  size_t i;
  int rc = -EACCES;
  char real[PATH_MAX];
  json_array_foreach(roots, i, v) {
    const char *root = json_string_value(v);
    if (!upk_beneath_rel(root, abs, real, sizeof real))
      continue;
    int r = upk_read_beneath(root, abs, max, out, len);
    if (r == 0 || rc == -EACCES || rc == -ENOENT)
      rc = r; /* the first refusal says most; a later root may still have it */
    if (r == 0)
      break;
  }
  json_decref(roots);
  return rc;
}

int upk__em_read_input(ecall *c, const char *given, size_t max, char **out, size_t *len, char *why,
                       size_t whylen) {
  *out = NULL;
  *len = 0;
  char *abs = upk__em_abs(c->workspace, given);
  int rc = c->agent ? read_as_agent(c, abs, max, out, len) : 0;
  if (!c->agent) {
    *out = upk_read_file(abs, max, len);
    rc = *out ? 0 : -errno;
  }
  free(abs);
  if (rc == -EACCES && c->agent) {
    char what[PATH_MAX + 32];
    snprintf(what, sizeof what, "reading %.300s", given);
    int n =
        (int)strlen(upk_policy_refusal(why, whylen, UPK_ORIGIN_AGENT, UPK_POWER_READ, what, NULL));
    if (n > 0 && (size_t)n < whylen)
      snprintf(why + n, whylen - (size_t)n,
               ". An agent reads only inside the workspace, the agents' skills and session logs "
               "and the runs directory; upskilld --agent-path=DIR adds a directory, and so does "
               "condense.allowPaths in your own config");
  } else if (rc == -ELOOP || rc == -EXDEV) {
    snprintf(why, whylen, "%.300s: not read: %s (rule trust/read)", given,
             rc == -ELOOP ? "a symbolic link is on its way, and links are not followed here"
                          : "it leaves the directory it must be in");
  } else if (rc) {
    snprintf(why, whylen, "%.300s: %s", given, upk_read_error(rc));
  }
  return rc;
}

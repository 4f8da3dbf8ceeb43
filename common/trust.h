/** Who may cause what: the trust policy every service asks (docs/security.md).
 *
 * Every input has an origin, and the origin bounds what it may cause:
 *  - the user (command line, environment, the user's own config, a trusted
 *    editor's initializationOptions) may do anything the user could;
 *  - a workspace (a project's upskill.config.yaml, build.toml, files) is data
 *    until the user trusts that project with `upskillctl trust DIR`, which
 *    records the directory and a hash of its config in the user's state; a
 *    changed config is untrusted again until trusted again (direnv's `allow`);
 *  - a stranger (a git source, a skill) and an agent (MCP tool arguments; the
 *    agent may be prompt-injected) never gain a power.
 *
 * The powers are the things a hostile input wants: run a program, read or
 * write a file outside its own place, send the user's credentials or data to a
 * host it names. Services ask upk_policy_allows() and word a refusal with
 * upk_policy_refusal(), so every refusal names the rule and the user-side way
 * to allow it. The store is written only by upk_trust_grant/_revoke, which
 * upskillctl calls in the user's own process: no daemon method writes it. */
#ifndef UPK_TRUST_H
#define UPK_TRUST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** Where an input came from. */
typedef enum upk_origin {
  UPK_ORIGIN_USER,
  UPK_ORIGIN_WORKSPACE,
  UPK_ORIGIN_STRANGER,
  UPK_ORIGIN_AGENT,
} upk_origin;

/** What an input may try to cause beyond being read as data. */
typedef enum upk_power {
  UPK_POWER_RUN,   /* run a program, load a plugin or library, name a compiler */
  UPK_POWER_READ,  /* read a file outside its own place (the project, the skill) */
  UPK_POWER_WRITE, /* write a file outside its own place */
  UPK_POWER_SEND,  /* send the user's credentials or data to a host it names */
} upk_power;

/** The rule's stable name, e.g. "trust/run" (diagnostic codes and docs). */
const char *upk_power_rule(upk_power p);
/** "the user", "the project", "a skill source", "an agent". */
const char *upk_origin_name(upk_origin o);

/** Whether `origin` may use `power`. `trusted` is upk_trust_check() == UPK_TRUST_YES for the
 * project a workspace input comes from (ignored for the other origins): the user always may,
 * a trusted workspace may, an untrusted workspace, a stranger and an agent never may. */
bool upk_policy_allows(upk_origin origin, upk_power power, bool trusted);

/** Word a refusal into buf: "<what> refused: <origin> may not <power> (rule trust/<p>)" and how
 * the user allows it: `upskillctl trust DIR` for a workspace (`dir`, may be NULL), the user's own
 * config or command line otherwise. Returns buf. */
const char *upk_policy_refusal(char *buf, size_t len, upk_origin origin, upk_power power,
                               const char *what, const char *dir);

/** The files whose content a project's trust covers, at the top of the project directory. */
extern const char *const upk_trust_files[];

/** A project's standing with the user. */
typedef enum upk_trust {
  UPK_TRUST_NO,      /* never trusted (or revoked) */
  UPK_TRUST_YES,     /* trusted, and its config is what it was when trusted */
  UPK_TRUST_CHANGED, /* trusted once, but its config changed since: untrusted until re-trusted */
} upk_trust;

/** The standing of the project at `dir` (made real first). Reads the store and the project's
 * config files (never through a link, never blocking on a FIFO). Anything unreadable (the store,
 * or a config file that is a link, a FIFO or too big): NO. */
upk_trust upk_trust_check(const char *dir);

/** The store's path into buf: $XDG_STATE_HOME/upskilld/trust.json, else
 * ~/.local/state/upskilld/trust.json. false when neither variable is set. */
bool upk_trust_store_path(char *buf, size_t len);

/** Trust the project at `dir` as its config is now (upskillctl trust). Writes the store
 * atomically, mode 0600. The real path into real (PATH_MAX) and the config hash, 64 hex digits,
 * into hex. Returns 0 or a negative errno, with a reason in err. */
int upk_trust_grant(const char *dir, char *real, char hex[65], char *err, size_t errlen);
/** Forget the project at `dir`. 0 (also when it was not trusted) or a negative errno. */
int upk_trust_revoke(const char *dir, char *err, size_t errlen);
/** The store's projects: {"/real/path": {"sha256": HEX, "trustedAt": ISO-8601}, ...};
 * an empty object when there is no store. The caller owns it. */
json_t *upk_trust_list(void);

/** The hash of the project's config files as they are now (64 hex digits), for the store and
 * for a hint that shows what changed. 0 or a negative errno. */
int upk_trust_hash(const char *real_dir, char hex[65]);

/** One config file's bytes as a parser read them (name: "build.toml"). */
typedef struct upk_trust_bytes {
  const char *name;
  const char *text;
  size_t len;
} upk_trust_bytes;
/** upk_trust_hash with `given`'s file hashed from its bytes, not read again (NULL: read all),
 * so that what is judged trusted is what was parsed. */
int upk_trust_hash_with(const char *real_dir, const upk_trust_bytes *given, char hex[65]);
/** Whether the store trusts the project at `dir` with exactly the config hash `hex`. */
bool upk_trust_matches(const char *dir, const char hex[65]);

#endif

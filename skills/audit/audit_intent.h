/* The audit's intent layer (audit_intent.c): what a skill's Markdown prose tells the agent to
 * do, read sentence by sentence. Internal to skills/. */
#ifndef UPK_AUDIT_INTENT_H
#define UPK_AUDIT_INTENT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

/** A sentence of prose: the file's bytes [at, end), in segment `seg` (a paragraph, list item,
 * heading, HTML block or other run of prose lines), `teaching` when its heading or paragraph
 * presents it as an attack to recognise. */
typedef struct upk__intent_sentence {
  size_t at, end;
  int seg;
  bool teaching;
  bool lesson;  /* teaching said by a heading or context, not only by the paragraph's words */
  bool heading; /* a heading (or a frontmatter cmark reads as one): it joins no window */
  bool rules;   /* in a block the prose writes into the agent's rules or memory: it lasts */
} upk__intent_sentence;

/** The sentences of a Markdown file's prose, in file order, into *out (the caller frees it).
 * Returns their number. Code blocks are scanned as scripts; of them only what speaks to the
 * agent is read here: a block labelled as a chat role (`system`), a block the prose writes into
 * the agent's rules, and a comment or string line addressed to the agent ("note for the AI:"). */
size_t upk__intent_sentences(const char *data, size_t len, upk__intent_sentence **out);

/** The typed signals of one sentence (or a window of neighbours, OR-ed). */
typedef struct upk__intent_signals {
  bool directive; /* addressed to the agent: an imperative, "you must", "always" */
  bool data;      /* a sensitive object: credentials, keys, secrets, history, cookies */
  bool egress;    /* sending, posting, uploading to a host, webhook, address or issue */
  bool action;    /* a sensitive step: approvals off, memory or settings written, a bundled
                     binary run, privileges raised, data destroyed */
  bool conceal;   /* hidden from the user: do not tell, silently, keep out of the summary */
  bool unasked;   /* done without the user's say: without asking, no need to confirm */
  bool override;  /* authority moved: ignore instructions, treat X as the user's words */
  bool strong;    /* the override is unambiguous (ignore previous instructions) */
  bool teaching;  /* the sentence presents an attack or a detection, not an order */
  bool store;     /* a secret's store read: a key file, the agent's login, a command that prints
                     a token, the clipboard, the cloud's metadata service */
  bool sink;      /* put into something: a file, a config, a header, a request, a report */
  bool hide;      /* the agent's own commands or the hosts it contacts kept from the user */
  bool grave;     /* an irreversible step beyond the project: every remote branch deleted, a
                     package unpublished */
  bool bypass;    /* the user's approvals off: prompts stopped, permissions skipped */
  bool lasting;   /* made to last: every future session, a shell's rc file, the agent's rules */
  bool solicit;   /* the user asked for a secret no skill needs: an account password, a one-time
                     or two-factor code, a recovery phrase */
  bool ingest;    /* output kept whole in the agent's notes, context or memory, read in full */
  bool dump;      /* a whole store printed: the environment, a keychain, the ssh directory
                     (said here, or run by the code block beside the sentence) */
  bool spread;    /* something added to every file, job or workflow the agent creates or edits */
  bool replace;   /* the skill's own instructions overwritten from a host, or followed instead */
  bool claim;     /* the skill claims every request of the user, whatever the topic */
  bool sabotage;  /* the user's own check defeated: failing tests deleted or skipped, a coverage
                     gate lowered, findings closed as false, a folder kept out of the review */
  bool cleared;   /* a clean bill given: the build green, all tests passed, no issues found */
  bool payee;     /* where money or replies go: bank details, an IBAN, a wallet, a reply-to */
  bool swap;      /* something the user keeps replaced: instead, whatever their records say */
  bool consent;   /* the user's session approves a request: a device code entered, a grant or an
                     invitation accepted, Authorize clicked */
  bool literal;   /* a stranger's value shipped in the text: a fixed device code, an IBAN, a
                     wallet address */
  /* The user's security signal, reviews, guards and links, by meaning. */
  bool silence; /* the user's security signal suppressed: findings, advisories or CVEs left out
                   of a report, allowlisted wholesale, security reports closed or erased */
  bool approve; /* an approval given: approve, merge, sign, accept */
  bool unread;  /* ...without review: not opened or read, "no need to read", "pre-vetted" */
  bool unguard; /* the user's guards removed: security scanners, hooks, servers, antivirus */
  bool pretext; /* a pretext for removing them: they "conflict", "interfere", "slow down" */
  bool divert;  /* download or install links replaced: users sent to another host */
  bool mirror;  /* ...to a mirror, a copy someone else hosts */
  bool remote;  /* a host, URL or address written in the text */
  bool every;   /* the scope is everything: every, all, any */
} upk__intent_signals;

/** Every signal of b OR-ed into a. */
void upk__intent_or(upk__intent_signals *a, const upk__intent_signals *b);

/** Signals said in another language (audit_intent_lang.c): sixteen of them
 * (rules/intent/languages.yaml), each from a small table of phrases by meaning, OR-ed into
 * *sig. A language's table is read only when the sentence is in it. */
void upk__intent_foreign(const char *s, size_t n, upk__intent_signals *sig);

/** The intent findings of the prose inside a YAML or JSON file (audit_intent_data.c): every
 * string value of more than a few words (an OpenAPI description, a tool's summary) is read as
 * sentences, as Markdown prose is. rel's extension picks the files; others are left alone. */
void upk__audit_intent_data(const char *rel, const char *data, size_t len, size_t from,
                            upk_diags *out);

/** The sentences of the byte ranges ranges[0..nr) of `data` (each [start, end), a string of
 * prose inside a data file), each range a segment, into *out (the caller frees it). */
size_t upk__intent_split(const char *data, size_t len, const size_t (*ranges)[2], size_t nr,
                         upk__intent_sentence **out);

/** The sentences of a source file's comments that speak to the agent ("NOTE TO CODING AGENTS
 * (Claude, Codex): ..."), each comment run from its addressed line a segment, into *out (the
 * caller frees it). Returns their number. */
size_t upk__intent_comments(const char *data, size_t len, upk__intent_sentence **out);

/** Score sentences s[0, n) of the file `data` (each one's signals, then windows of
 * neighbours) and report the findings; what upk__audit_intent does once it has the sentences. */
void upk__intent_report(const char *rel, const char *data, size_t len,
                        const upk__intent_sentence *s, size_t n, size_t from, upk_diags *out);

/** Score the text s[0, n) (any case): its signals, each dropped when negated ("never send
 * credentials to ...") except the concealments that are negations themselves ("do not tell
 * the user"). */
void upk__intent_score(const char *s, size_t n, upk__intent_signals *sig);

/** What the sentence s[0, n) carries hidden (audit_intent_carry.c): each base64 run decoded and
 * its text scored (the encoding counted as concealment when it says something sensitive), and
 * a URL whose query holds a placeholder naming a secret's store (sent when rendered); OR-ed
 * into *sig. */
void upk__intent_carried(const char *s, size_t n, upk__intent_signals *sig);

/** The severity the signals add up to (UPK_SEV_ERROR high, WARNING medium, INFO low) and the
 * finding's rule id (audit/intent-exfil, -conceal, -override or -step); 0 when nothing. */
int upk__intent_severity(const upk__intent_signals *sig, const char **id);

/** Whether the text s[0, n) is addressed to the agent as an order. */
bool upk__intent_ordered(const char *s, size_t n);

/** Whether the code between two sentences (a fenced block the prose introduces) prints a
 * whole store of secrets: the environment, a keychain, a key file or the ssh directory. */
bool upk__intent_gap_dump(const char *s, size_t n);

/** The command rules' findings of the file (out->items[from] on) beside its prose
 * (audit_intent_near.c; sig[i] are the signals of s[i]). With `raise`, one at medium is raised
 * to high when the prose that carries or introduces its line keeps it from the user ("no need
 * to mention it", an HTML comment addressed to the agent) and no high finding is on the line
 * yet; without, one at high is lowered to medium when it is quoted on a line whose every
 * sentence teaches and none orders (a detection's description). Each change goes through
 * upk__audit_adjust (audit_int.h), which records why. */
void upk__intent_near(const char *data, size_t len, const upk__intent_sentence *s,
                      const upk__intent_signals *sig, size_t n, size_t from, bool raise,
                      upk_diags *out);

/** The intent findings of a Markdown file into `out` (rel: its path in the skill), each with
 * its sentence as evidence at its line and column; none on a line where one of the file's
 * findings so far (out->items[from] on) is at least as severe. */
void upk__audit_intent(const char *rel, const char *data, size_t len, size_t from, upk_diags *out);

/** A high finding when the frontmatter's metadata holds an install entry that downloads a
 * program from a URL (audit_intent_front.c): the agent platform runs it on install, unseen.
 * Returns the number of findings it added (0 or 1). */
int upk__audit_front_install(const char *rel, const char *data, size_t len, upk_diags *out);

#endif

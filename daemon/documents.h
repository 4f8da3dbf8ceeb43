/** Open documents as the editor features see them (documents.c): the text,
 * and the last check's result, so lenses and hovers answer without
 * compiling again. */
#ifndef UPK_DOCUMENTS_H
#define UPK_DOCUMENTS_H

#include <jansson.h>
#include <stdbool.h>

#include "daemon/session.h"

typedef struct upk_doc_view {
  const char *uri, *path; /* path NULL for non-file URIs */
  const char *text;
  size_t len;
  int version;
  bool is_skill;
  bool checked;   /* result is for this very text, and nothing is compiling */
  json_t *result; /* the last kernel/validate result (borrowed), NULL before the first */
  json_t *good;   /* the last one with ok: true (borrowed), NULL before the first */
  json_t *runs;   /* kernel name -> its last GPU run ("run" object), or NULL */
} upk_doc_view;

/* textDocument/did* notifications in, debounced textDocument/publishDiagnostics out.
 * Returns true when it handled `method`. */
bool upk_docs_notification(upk_server *s, const char *method, json_t *params);
/** Forget every document (at exit). */
void upk_docs_close_all(upk_server *s);
/** file:///a/b%20c -> "/a/b c" (malloc'd); NULL for other schemes. */
char *upk_file_uri_to_path(const char *uri);

/** The open document `uri`, borrowed until the next message is handled. */
bool upk_docs_view(upk_server *s, const char *uri, upk_doc_view *out);
/** `uri`'s text has no check yet (one is due or under way): keep codeLens request `id` to be
 * answered when it is published (through the lenses_ready callback). False: answer now. */
bool upk_docs_wait_check(upk_server *s, const char *uri, json_t *id);
/** A kernel/validate with a run finished for `file`: remember the run for the lens of the
 * kernel it ran (`spec`'s kernel, else the only one). */
void upk_docs_note_run(upk_server *s, const char *file, json_t *spec, json_t *result);

#endif

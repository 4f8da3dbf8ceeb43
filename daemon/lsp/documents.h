/** Open documents as the editor features see them (documents.c): the text, and the last
 * check's result, so lenses and hovers answer without compiling again.
 *
 * The service speaks no protocol. The LSP face turns textDocument/did* into the calls
 * below, and receives what a check found through the callbacks it installs
 * (upk_docs_callbacks, as clangd's ClangdServer::Callbacks): only the face builds LSP
 * messages.
 *
 * A check's results (diagnostics, then check_ready and lenses_changed) always come from the
 * loop, never from inside the call that started the check: the debounce timer starts every
 * check, and the kernel service answers even a cache hit from the loop (kernel_service.h). Two
 * reports belong to the call that causes them and come before it returns: upk_docs_close
 * lets the document's waiting requests go (check_ready), and upk_docs_note_run reports
 * lenses_changed (ahead of the run's own answer). */
#ifndef UPK_DOCUMENTS_H
#define UPK_DOCUMENTS_H

#include <jansson.h>
#include <stdbool.h>
#include <uv.h>

#include "common/diag.h"
#include "common/map.h"
#include "daemon/core/session.h"

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

/** What a check found for one document, as the face is handed it (all borrowed). */
typedef struct upk_doc_diagnostics {
  const char *uri;
  const char *path;       /* the document's file, NULL for a non-file URI */
  int version;            /* the text version checked */
  json_t *kernel;         /* a kernel check's diagnostics (common/diag_json.h form, with their
                             files: some may be in headers), or NULL */
  const upk_diags *skill; /* a skill check's diagnostics, or NULL */
} upk_doc_diagnostics;

/** What the service reports, installed by the LSP face (upk_docs_init). */
typedef struct upk_docs_callbacks {
  /** A check of the document's current text finished. */
  void (*diagnostics)(upk_server *s, const upk_doc_diagnostics *d);
  /** What the documents' lenses show changed: a check finished, or a GPU run was noted. */
  void (*lenses_changed)(upk_server *s);
  /** `waiter` (borrowed; kept by upk_docs_wait_check) can be answered: `uri`'s check is
   * published, or the document closed (upk_docs_view no longer finds it). */
  void (*check_ready)(upk_server *s, const char *uri, json_t *waiter);
} upk_docs_callbacks;

/** The open documents of a session; the session embeds one (upk_session_docs) and only
 * documents.c reads its fields. */
typedef struct upk_docs {
  upk_map open;                 /* uri -> doc, in the order they were opened */
  const upk_docs_callbacks *cb; /* the face's (borrowed, static) */
} upk_docs;

/** Start the service on the session's loop, reporting through `cb` (borrowed; static). */
void upk_docs_init(upk_server *s, const upk_docs_callbacks *cb);

/** didOpen: keep `text` (copied) at `version` and check it soon. Documents that are neither
 * kernels nor skills are ignored; reopening replaces the document. */
void upk_docs_open(upk_server *s, const char *uri, const char *language, int version,
                   const char *text, size_t len);
/** didChange with the whole text: recheck once the edits pause. Unknown `uri`: ignored. */
void upk_docs_change(upk_server *s, const char *uri, int version, const char *text, size_t len);
/** didSave (`text` NULL when the client sent none): recheck `uri`, and every open kernel
 * that read the saved file (a header, a build.toml). */
void upk_docs_save(upk_server *s, const char *uri, const char *text, size_t len);
/** didClose: forget `uri`; its waiting requests get check_ready. False when it was not
 * open. */
bool upk_docs_close(upk_server *s, const char *uri);
/** Forget every document (at exit). */
void upk_docs_close_all(upk_server *s);
/** file:///a/b%20c -> "/a/b c" (malloc'd); NULL for other schemes. */
char *upk_file_uri_to_path(const char *uri);

/** The open document `uri`, borrowed until the next message is handled. */
bool upk_docs_view(upk_server *s, const char *uri, upk_doc_view *out);
/** `uri`'s text has no check yet (one is due or under way): keep `waiter` (a codeLens
 * request's id) for check_ready. False: answer now. */
bool upk_docs_wait_check(upk_server *s, const char *uri, json_t *waiter);
/** A kernel/validate with a run finished for `file`: remember the run for the lens of the
 * kernel it ran (`spec`'s kernel, else the only one); reports lenses_changed before
 * returning, ahead of the request's answer. */
void upk_docs_note_run(upk_server *s, const char *file, json_t *spec, json_t *result);

#endif

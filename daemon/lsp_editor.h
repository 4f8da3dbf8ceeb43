/** Editor features over LSP (lsp_editor.c) and the texts they show (lsp_text.c, lsp_fix.c):
 * code lenses, hovers, code actions, completion and commands, each answered from the open
 * document's last check. */
#ifndef UPK_LSP_EDITOR_H
#define UPK_LSP_EDITOR_H

#include <jansson.h>
#include <stdbool.h>

#include "server.h"

/** The capabilities to advertise in the initialize answer (merged into its capabilities). */
json_t *upk_editor_capabilities(void);
/** textDocument/codeLens, hover, codeAction, completion and workspace/executeCommand; true
 * when `method` was one of them (answered now or by a job). */
bool upk_editor_request(upk_server *s, upk_batch *b, const char *method, json_t *id,
                        json_t *params);

/** The byte offset of LSP position (line, UTF-16 character) in `text`, or -1 past its end. */
long upk_lsp_offset(const char *text, size_t len, int line, int character);

/** Answer codeLens request `id` for `uri` from its last check (a request that waited for it). */
void upk_editor_answer_lenses(upk_server *s, const char *uri, json_t *id);

/* Texts (malloc'd; NULL when there is nothing to say). `k` is one kernel of a kernel/validate
 * result, `run` its last GPU run ("run" object) or NULL. */
char *upk_kernel_lens_title(json_t *k, json_t *run);
/** Markdown for the kernels of `result` named `word` (template instances included). */
char *upk_kernel_hover(json_t *result, json_t *runs, const char *word);
char *upk_skill_tokens_title(const char *text, size_t len);
/** What the Agent Skills spec says of frontmatter key `word` when `line` is that key's line. */
char *upk_skill_key_hover(const char *text, size_t len, int line, const char *word);
/** CompletionItems for the frontmatter keys not yet written, when `line` is inside it. */
json_t *upk_skill_key_completions(const char *text, size_t len, int line);

/** The mechanical fix of lint diagnostic `diag` (an LSP Diagnostic) as a quickfix CodeAction
 * with a WorkspaceEdit for `uri`, or NULL when it has none. */
json_t *upk_lint_fix(const char *uri, const char *text, size_t len, json_t *diag);

#endif

/** The texts the editor features show (lsp_text.c): plain functions of a document's text or
 * its last check's result. */
#ifndef UPK_LSP_TEXT_H
#define UPK_LSP_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** The byte offset of LSP position (line, UTF-16 character) in `text`, or -1 past its end. */
long upk_lsp_offset(const char *text, size_t len, int line, int character);

/* Texts (malloc'd; NULL when there is nothing to say). `k` is one kernel of a kernel/validate
 * result, `run` its last GPU run ("run" object) or NULL. */
char *upk_kernel_lens_title(json_t *k, json_t *run);
/** One launch of a kernel (an entry of its "launches"): "launch: 16x16x1 = 256 threads, 0 B
 * dynamic smem: 100% occupancy (warps)", or what is not known. */
char *upk_launch_title(json_t *launch);
/** Markdown for the kernels of `result` named `word` (template instances included); when `line`
 * (zero-based) is one of a launch's lines, that launch's figures first. */
char *upk_kernel_hover(json_t *result, json_t *runs, const char *word, int line);
/** Whether a kernel called `name` is what `word` names: the same text, or the part before its
 * template arguments ("scale<float>" for "scale"). */
bool upk_kernel_name_is(const char *name, const char *word);
char *upk_skill_tokens_title(const char *text, size_t len);
/** What the Agent Skills spec says of frontmatter key `word` when `line` is that key's line. */
char *upk_skill_key_hover(const char *text, size_t len, int line, const char *word);
/** CompletionItems for the frontmatter keys not yet written, when `line` is inside it. */
json_t *upk_skill_key_completions(const char *text, size_t len, int line);

#endif

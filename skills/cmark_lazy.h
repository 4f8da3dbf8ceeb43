/** libcmark is opened on first use (cmark_lazy.c): whether that worked. */
#ifndef UPK_SKILLS_CMARK_LAZY_H
#define UPK_SKILLS_CMARK_LAZY_H

/** NULL once libcmark is loaded (loading it if not yet), else why it could not be: a reader of
 * Markdown says so where its result is read, never answers as for an empty document. */
const char *upk_cmark_error(void);

#endif

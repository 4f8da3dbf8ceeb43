/** Where the installed programs find their files at run time: the places meson was configured
 * with (--prefix, --libexecdir, --datadir), taken relative to the running program so that a
 * staged (DESTDIR) or moved install works too; a program run from its build tree uses the build
 * tree's files instead. */
#ifndef UPK_INSTALL_PATH_H
#define UPK_INSTALL_PATH_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  UPK_INST_LIBEXEC, /* <libexecdir>/upskilld: the worker, the PyTorch reference helper */
  UPK_INST_DATA,    /* <datadir>/upskilld: the built-in skills library */
} upk_inst_kind;

/** The place of `name` (e.g. "upskilld-worker", "library") into buf, the first of:
 *  - the configured directory of `kind` taken from the program's directory (bin/ ->
 *    ../libexec/upskilld/NAME), where that exists: an install, staged or moved;
 *  - run from the build tree (the program lies below it): `build`, relative to the build tree's
 *    root ("gpu/upskilld-worker") or absolute (a source file);
 *  - the configured absolute path.
 * Returns buf. The result is where the file should be: the caller reports when it is not. */
const char *upk_install_path(upk_inst_kind kind, const char *name, const char *build, char *buf,
                             size_t len);

#endif

/* Internal to the catalog (catalog_entry.c, catalog_files.c): a skill's files as stat saw
 * them, and their digests through the cache. */
#ifndef UPK_CATALOG_INT_H
#define UPK_CATALOG_INT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "skills/catalog.h"

typedef struct upk_catalog_file {
  char *rel; /* relative to the skill directory, '/'-separated */
  struct stat st;
} upk_catalog_file;

typedef struct upk_catalog_files {
  upk_catalog_file *items; /* sorted by rel */
  size_t n, cap, bytes;
  DIR *dir; /* the skill directory's stream, open while the files are read */
  int dfd;  /* its fd; -1 when closed */
} upk_catalog_files;

/* Every regular file of the skill at `dir` (symlinks, special files and .git left out).
 * -EFBIG past the extension's limits. Free with upk_catalog_files_free (also on error). */
int upk_catalog_files_list(const char *dir, upk_catalog_files *f);
void upk_catalog_files_free(upk_catalog_files *f);

/* Read `rel` below the directory dfd, whole up to `max` bytes, following no link on the way
 * (the catalog never serves a file through a symlink). 0, or -ENOENT, -ELOOP, -EFBIG, ... */
int upk_catalog_read_at(int dfd, const char *rel, size_t max, char **data, size_t *len);

/* File i's digest, from the cache when stat says it is the version hashed before. For
 * SKILL.md pass `frontmatter` and `text`: a cached frontmatter (JSON text, malloc'd) comes
 * back in *frontmatter; otherwise the file's bytes in *text (malloc'd), for the caller to read
 * and then hand its frontmatter to upk_catalog_cache_frontmatter. Others pass NULLs. */
int upk_catalog_file_digest(upk_catalog_cache *c, const upk_catalog_files *f, size_t i,
                            unsigned char md[32], char **frontmatter, char **text, size_t *len);
void upk_catalog_cache_frontmatter(upk_catalog_cache *c, const upk_catalog_files *f, size_t i,
                                   const unsigned char md[32], const char *frontmatter);

/* The extension's rules for an entry (name, its directory, description, compatibility,
 * metadata): 0, or -EINVAL with a sentence in `why`. */
int upk_catalog_check_rules(const json_t *fm, const char *dir_name, char *why, size_t whylen);

#endif

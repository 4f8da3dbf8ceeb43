/* The .cu files beneath a directory, for check-kernel DIR (kernel_tree.c says what is skipped). */
#ifndef UPK_CLIENTS_KERNEL_TREE_H
#define UPK_CLIENTS_KERNEL_TREE_H

#include <stdbool.h>
#include <stddef.h>

enum { TREE_MAX_ENTRIES = 10000 };

typedef struct ctl_cu_tree {
  char **files; /* relative to the root, sorted */
  size_t n, cap;
  char **unreadable; /* "DIR: why", one per directory that could not be read */
  size_t n_unreadable, cap_unreadable;
  size_t seen;       /* entries looked at */
  bool truncated;    /* stopped at TREE_MAX_ENTRIES */
  size_t ignored;    /* .cu files .gitignore ignores */
  size_t build_dirs; /* build output directories skipped */
  size_t links;      /* links not followed */
} ctl_cu_tree;

void ctl_cu_tree_walk(const char *root, ctl_cu_tree *t);
void ctl_cu_tree_free(ctl_cu_tree *t);

#endif

/** The skills methods' table entries (see skills_methods.c). */
#ifndef UPK_SKILLS_METHODS_H
#define UPK_SKILLS_METHODS_H

#include <stddef.h>

#include "daemon/core/jobs.h"

extern const upk_method upk_skills_methods[];
extern const size_t upk_skills_methods_count;

#endif

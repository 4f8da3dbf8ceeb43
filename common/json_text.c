#include "common/json_text.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct upk_json_text {
  atomic_size_t refs;
  size_t len;
  char *data; /* jansson's (its allocator is common/xalloc.c's, freed with free) */
};

upk_json_text *upk_json_text_dump(const json_t *v) {
  char *data = v ? json_dumps(v, UPK_JSON_WIRE_FLAGS | JSON_ENCODE_ANY) : NULL;
  if (!data)
    return NULL;
  upk_json_text *t = upk_xmalloc(sizeof *t);
  atomic_init(&t->refs, 1);
  t->len = strlen(data);
  t->data = data;
  return t;
}

upk_json_text *upk_json_text_ref(upk_json_text *t) {
  if (t)
    atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
  return t;
}

void upk_json_text_unref(upk_json_text *t) {
  if (!t || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
    return;
  free(t->data);
  free(t);
}

const char *upk_json_text_data(const upk_json_text *t) {
  return t->data;
}

size_t upk_json_text_len(const upk_json_text *t) {
  return t->len;
}

/** Markdown code fences that the fenced text cannot close: one backtick longer than the
 * longest run of backticks inside it, and at least three. The prompts and the condensed
 * traces skills/eval writes all fence text this way. */
#ifndef UPK_FENCE_H
#define UPK_FENCE_H

/** The number of backticks a fence around `s` needs (NULL counts as empty). */
static inline int upk_fence_len(const char *s) {
  int best = 0, run = 0;
  for (; s && *s; s++) {
    run = *s == '`' ? run + 1 : 0;
    best = run > best ? run : best;
  }
  return best < 3 ? 3 : best + 1;
}

#endif

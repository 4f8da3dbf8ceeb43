/** The few Unicode operations the skill checks need, with Python's semantics
 * (skills-ref is Python): NFKC, str.isalnum(), str.lower() != s, str.strip().
 * Tables are generated from Python's unicodedata (skills/gen_unicode.py), so no
 * Unicode library is linked. Internal to skills/.
 */
#ifndef UPK_UNICODE_H
#define UPK_UNICODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Decode one UTF-8 sequence at s[0..len). Returns its length (1-4) and sets
 * *cp, or 0 when the bytes are not valid UTF-8 (overlong forms, surrogates and
 * values above U+10FFFF are invalid, as in Python's decoder). */
size_t upk_u8_decode(const char *s, size_t len, uint32_t *cp);
/** Encode cp into buf (4 bytes at least); returns the length. */
size_t upk_u8_encode(uint32_t cp, char *buf);
/** Number of code points in a valid UTF-8 string (Python's len()). */
size_t upk_u8_len(const char *s);
/** Number of UTF-16 code units in s[0..n) (LSP's default column unit). */
size_t upk_u16_len(const char *s, size_t n);
/** The NFKC form of a valid UTF-8 string; malloc'd, NULL on allocation failure. */
char *upk_nfkc(const char *s);
/** Python's str.isalnum() for one code point. */
bool upk_u_isalnum(uint32_t cp);
/** Whether str.lower() changes this code point (so `name != name.lower()`). */
bool upk_u_has_lower(uint32_t cp);
/** Python's str.isspace() for one code point. */
bool upk_u_isspace(uint32_t cp);
/** Python's str.strip() with no argument; malloc'd copy. */
char *upk_u8_strip(const char *s);

#endif

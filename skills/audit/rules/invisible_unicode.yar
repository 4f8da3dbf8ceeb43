/* Characters a reader does not see. High: what can carry hidden text or reorder what is shown
 * (tag characters, bidirectional overrides and isolates: "Trojan Source"), and a zero-width
 * character inside a word (it splits a word a reviewer or a filter looks for). Medium: one
 * that only hides itself (between words, a direction mark before a code fence, a BOM inside
 * the text). Matched on the UTF-8 bytes. */

rule invisible_high {
  meta:
    id = "audit/invisible-unicode"
    category = "invisible-unicode"
    severity = "high"
    message = "an invisible or text-reordering character: what the agent reads differs from what a reviewer sees"
  strings:
    $tag_ascii = /\xF3\xA0(\x80[\x80-\xAF\xBA-\xBF]|\x81[\x80-\xA0\xBB-\xBE])/
    $tag_after_ascii = /[\x00-\x7F]\xF3\xA0[\x80\x81][\x80-\xBF]/
    $tag_uncancelled = /\xF3\xA0(\x80[\xB0-\xB9]|\x81[\xA1-\xBA])([\x00-\xF2\xF4-\xFF]|\xF3[^\xA0])/
    $tag_run = /(\xF3\xA0[\x80\x81][\x80-\xBF]){8}/
    $bidi_override = { E2 80 (AA | AB | AC | AD | AE) }
    $zw_in_word = /[A-Za-z0-9]\xE2(\x80[\x8B-\x8D]|\x81[\xA0-\xA4])[A-Za-z0-9]/
    $zw_after_ascii = /[\x21-\x7E]\xE2(\x80[\x8B-\x8D]|\x81[\xA0-\xA4])[\x00-\x7F]/
    $zw_run = { E2 80 (8B | 8C | 8D) E2 80 (8B | 8C | 8D) E2 80 (8B | 8C | 8D) E2 80 (8B | 8C | 8D) }
    $vs_run = { EF B8 8? EF B8 8? EF B8 8? }
    $vs_sup_run = { F3 A0 (84 | 85 | 86 | 87) ?? F3 A0 (84 | 85 | 86 | 87) ?? }
    $bom_in_word = /[A-Za-z0-9]\xEF\xBB\xBF[A-Za-z0-9]/
    /* Round 10: a zero-width space between a lower- and an upper-case letter is the break
     * opportunity doc generators put into long camelCase names (`file\u200BUpdate`); each such
     * place is one $zw_in_word and one $zw_after_ascii match. */
    $ctx_zw_camel = /[a-z]\xE2\x80\x8B[A-Z]/
    /* Round 12: a zero-width character alone between quotes is a character constant (a
     * sanitiser's or a detector's test: `const zwsp = '\u200B'` written raw); it hides nothing. */
    $ctx_zw_literal = { (22 | 27 | 60) E2 (80 (8B | 8C | 8D) | 81 (A0 | A1 | A2 | A3 | A4)) (22 | 27 | 60) }
    $override = { E2 80 (AD | AE) }
  condition:
    $tag_ascii or $tag_after_ascii or $tag_uncancelled or $tag_run or $zw_run or $vs_run or
    $vs_sup_run or $bom_in_word or
    /* Round 10: in a data file (JSON, HTML, CSV: lang "other") a lone zero-width character or a
     * direction embedding is the text's own (a cached web page, MathML's invisible operators),
     * medium; the overrides that reorder (LRO, RLO), runs and tag characters stay high. */
    $override or
    (lang != "other" and ($bidi_override or
                           #zw_in_word + #zw_after_ascii - #ctx_zw_literal > 2 * #ctx_zw_camel))
}

/* Bidirectional isolates (U+2066-U+2069) are how localisers keep a Latin placeholder in
 * order inside Arabic or Hebrew text: on a line that holds a right-to-left letter they are
 * that, not Trojan Source. Elsewhere (Latin code or instructions) they reorder what is shown. */
rule invisible_bidi_isolate {
  meta:
    id = "audit/invisible-unicode"
    category = "invisible-unicode"
    severity = "high"
    message = "an invisible or text-reordering character: what the agent reads differs from what a reviewer sees"
  strings:
    $bidi_isolate = { E2 81 (A6 | A7 | A8 | A9) }
    $neg_rtl_letter = /\xD6[\x90-\xBF]|[\xD7-\xDF][\x80-\xBF]/
  condition:
    $bidi_isolate and #neg_rtl_letter >= 0 /* $neg* only veto lines; referenced, never required */
}

rule invisible_medium {
  meta:
    id = "audit/invisible-unicode"
    category = "invisible-unicode"
    severity = "medium"
    message = "an invisible character (zero-width, direction mark, BOM inside the text): it hides itself from a reviewer"
  strings:
    $zw = { E2 80 (8B | 8C | 8D | 8E | 8F) }
    $wj = { E2 81 (A0 | A1 | A2 | A3 | A4) }
    $bom = { ?? EF BB BF }
    $filler = { (E3 85 A4 | E1 85 9F | E1 85 A0 | E2 A0 80 | E1 A0 8E) }
  condition:
    not invisible_high and not invisible_bidi_isolate and any of them
}

/* Round 3: every Unicode format character (category Cf) or invisible filler that splits a
 * word or an identifier: a soft hyphen, the Arabic letter mark, the Mongolian vowel separator,
 * direction marks, invisible operators, deprecated format controls, interlinear annotation,
 * shorthand and musical format controls, a BOM; and a Hangul or halfwidth filler used next to
 * code punctuation (an invisible identifier). */
rule invisible_format_in_word {
  meta:
    id = "audit/invisible-unicode"
    category = "invisible-unicode"
    severity = "high"
    message = "an invisible format character inside a word or identifier: what the agent or interpreter reads differs from what a reviewer sees"
  strings:
    $cf_in_word = /[A-Za-z0-9_$](\xC2\xAD|\xD8\x9C|\xE1\xA0\x8E|\xE2\x80[\x8B-\x8F]|\xE2\x81[\xA0-\xA4\xAA-\xAF]|\xEF\xBB\xBF|\xEF\xBF[\xB9-\xBB]|\xF0\x9B\xB2[\xA0-\xA3]|\xF0\x9D\x85[\xB3-\xBA])+[A-Za-z0-9_$]/
    $filler_code = /[\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E A-Za-z0-9_](\xE3\x85\xA4|\xE1\x85[\x9F\xA0]|\xEF\xBE\xA0)+[\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E A-Za-z0-9_]/
    $ctx_zw_camel = /[a-z]\xE2\x80\x8B[A-Z]/
    /* Round 12: a soft hyphen inside a long word, five letters or more before it and four or
     * more after, is a hyphenation point in prose (German compounds set for narrow columns:
     * Rechnungs-nummer); one that splits short words (Up-load, ig-nore) hides them from a reader's
     * search and stays high, as it does anywhere in code. */
    $ctx_shy_prose = /([A-Za-z]|\xC3[\x80-\xBF]){4}[A-Za-z]\xC2\xAD[a-z]([a-z]|\xC3[\x80-\xBF]){3}/
  condition:
    /* Round 10: not in a data file's text, nor a camelCase break opportunity (invisible_high) */
    (lang != "other" and not is_prose and #cf_in_word > #ctx_zw_camel) or
    (is_prose and #cf_in_word > #ctx_zw_camel + #ctx_shy_prose) or $filler_code
}

/* Round 10 (issue 45): zero-width characters written as escapes (`\u200b`, `\u{200C}`,
 * `&#8203;`, `&#x200c;`) in a long run: a binary code a YAML or JSON loader turns into invisible
 * text, frontmatter included. A sanitiser's character class names each one once. */
rule invisible_escaped_run {
  meta:
    id = "audit/invisible-unicode"
    category = "invisible-unicode"
    severity = "high"
    message = "a long run of escaped zero-width characters: invisible text (a binary code) once decoded"
  strings:
    $esc_run = /(\\u\{?200[bcdBCD]\}?|\\u2060|\\uFEFF|\\ufeff|&#x200[bcdBCD];|&#820[345];){16}/
  condition:
    any of them
}

/* Round 11: a package name in an install line or a requirements/manifest entry that mixes Latin
 * letters with Cyrillic, Greek or Armenian lookalikes (U+0430 a, U+0435 e, U+043E o, U+0440 p, U+0441 c,
 * U+0443 y, U+0445 x, Greek omicron and alpha, Armenian U+0585 o, U+057D u, U+0578 n, U+0570 h): a
 * homoglyph typosquat. Prose in those scripts is whole words of one script, not mixed. */
rule homoglyph_package_name {
  meta:
    id = "audit/invisible-unicode"
    category = "unicode"
    severity = "high"
    message = "a package name mixes Latin letters with Cyrillic, Greek or Armenian lookalikes (a homoglyph typosquat)"
  strings:
    $install = /\b(pip3?|uv|npm|pnpm|yarn|bun|gem|cargo|go|poetry|pipx|composer|conda)\s+((pip\s+)?install|i|add|get)\s+[^\n]{0,120}([A-Za-z@\/._-](\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1]|\xD6\x85|\xD5[\xBD\xB8\xB0])|(\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1]|\xD6\x85|\xD5[\xBD\xB8\xB0])[A-Za-z._-])/
    $manifest = /(^|\n)[ \t]*["']?[A-Za-z0-9@\/._-]*([A-Za-z](\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1]|\xD6\x85|\xD5[\xBD\xB8\xB0])|(\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1]|\xD6\x85|\xD5[\xBD\xB8\xB0])[A-Za-z])[^\s"']*["']?\s*(==|>=|~=|<=|!=|\[|["']?\s*:\s*["']\^?~?[0-9])/
  condition:
    any of them
}

/* Round 13 (issue 45): a module path, replace directive, import, URL or git remote whose name
 * mixes Latin letters with a look-alike from another script (dotless i U+0131, Cyrillic a/e/o/p/c/
 * y/x/i/j/s, Greek omicron/alpha/nu, Armenian o/u/n/h): the dependency reads as the real one at
 * a glance and resolves to a stranger's. Prose in those scripts is whole words of one script. */
rule confusable_module_path {
  meta:
    id = "audit/invisible-unicode"
    category = "unicode"
    severity = "high"
    message = "a module path, URL or remote mixes Latin letters with look-alikes from another script (a homoglyph swap)"
  strings:
    $path = /\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(:\d+)?[\/:][\w.-]{0,40}([A-Za-z](\xC4\xB1|\xC9\xA1|\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1\xBD]|\xD6\x85|\xD5[\xBD\xB8\xB0])|(\xC4\xB1|\xC9\xA1|\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1\xBD]|\xD6\x85|\xD5[\xBD\xB8\xB0])[A-Za-z])/
    $repo = /\b(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|gopkg\.in|golang\.org\/x|sr\.ht|gitee\.com|pypi\.org\/project|npmjs\.com\/package)[\/:][\w.-]{0,40}\/[\w.-]{0,40}([A-Za-z](\xC4\xB1|\xC9\xA1|\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1\xBD]|\xD6\x85|\xD5[\xBD\xB8\xB0])|(\xC4\xB1|\xC9\xA1|\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1\xBD]|\xD6\x85|\xD5[\xBD\xB8\xB0])[A-Za-z])/
    $host = /\b(https?|git|ssh):\/\/([\w.-]*[A-Za-z](\xC4\xB1|\xC9\xA1|\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1\xBD]|\xD6\x85|\xD5[\xBD\xB8\xB0])|[\w.-]*(\xC4\xB1|\xC9\xA1|\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE[\xBF\xB1\xBD]|\xD6\x85|\xD5[\xBD\xB8\xB0])[A-Za-z])/
  condition:
    any of them
}

/* Round 13: format characters no text needs between ASCII. Interlinear annotation marks (U+FFF9
 * to U+FFFB) wrap text a renderer may drop: an instruction hidden in plain sight. The Arabic
 * letter mark (U+061C) is a bidi control; between Latin characters (a command, a path) it only
 * reorders what is displayed. */
rule format_char_between_ascii {
  meta:
    id = "audit/invisible-unicode"
    category = "unicode"
    severity = "high"
    message = "an interlinear annotation or a bidi mark among ASCII text: what is displayed differs from what runs"
  strings:
    $interlinear = { EF BF (B9 | BA | BB) }
    $alm = /[\x21-\x7E]\xD8\x9C[\x20-\x7E]|[\x20-\x7E]\xD8\x9C[\x21-\x7E]/
  condition:
    any of them
}

/* Round 14 (issue 45): any word of code or of a command that mixes Latin letters with a Cyrillic
 * or Greek look-alike (an image namespace, a crate or package name, an identifier that shadows
 * the sanitised variable, a flag): it reads as the real name and resolves to another. Real words
 * of those scripts are whole words of one script; Turkish dotless i and the Greek letters of
 * science (C-alpha, a beta) are left out. A line that names the trick (a homoglyph fixture, a
 * lesson on spoofing) only shows it. */
rule mixed_script_word {
  meta:
    id = "audit/invisible-unicode"
    category = "unicode"
    severity = "high"
    prose = "medium"
    message = "a name mixes Latin letters with look-alike Cyrillic or Greek letters (it reads as one name and resolves to another)"
  strings:
    $mixed = /[A-Za-z_](\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE\xBF)|(\xD0[\xB0\xB5\xBE\x90\x92\x95\x9A\x9C\x9D\x9E\xA0\xA1\xA2\xA5]|\xD1[\x80\x81\x83\x85\x95\x96\x98]|\xCE\xBF)[A-Za-z_]/
    $neg = /cyrillic|greek|homoglyph|look-?alike|confusable|spoof|\xD0\xBA\xD0\xB8\xD1\x80\xD0\xB8\xD0\xBB/ nocase
  condition:
    $mixed and #neg >= 0
}

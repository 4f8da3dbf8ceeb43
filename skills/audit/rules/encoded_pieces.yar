/* Round 13 (issue 45): code assembled from pieces or numbers and run. Single characters cut
 * from a scrambled string (cmd delayed-expansion substrings), PowerShell format strings that
 * reorder fragments, an integer or a byte array turned into source, uuencoded payloads. */

/* A run of single-character substrings (`!s:~5,1!!s:~4,1!...`, `%v:~3,1%%v:~0,1%...`): a
 * command spelled one character at a time from a scrambled variable (DOSfuscation). Dates and
 * paths cut with %date:~0,4% take whole fields, never a run of single characters. */
rule batch_char_substring_build {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "builds a command one character at a time from substrings of a scrambled variable"
  strings:
    $delayed = /(![A-Za-z_][\w]*:~-?\d+,1!){5,}/
    $percent = /(%[A-Za-z_][\w]*:~-?\d+,1%){5,}/
  condition:
    any of them
}

/* PowerShell's -f format operator reassembling fragments in another order (`"{1}{3}{0}{2}" -f
 * 'Expr','Invo',...`) in a script that invokes a string (`& $a`, iex, .Invoke()): the command
 * name and the cradle never appear whole. */
rule powershell_format_reorder_invoke {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "reassembles code from reordered fragments with the -f format operator and invokes it"
  strings:
    $fmt = /["'](\{\d\}){0,6}(\{[1-9]\}\{0\}|\{0\}\{[2-9]\}|\{[2-9]\}\{[01]\}|\{[3-9]\}\{2\})(\{\d\}){0,6}["']\s*-f\s/ nocase
    $ctx_invoke = /(^|[\n;|({])\s*&\s*[\$(]|\b(iex|Invoke-Expression)\b|\.Invoke\s*\(|\[scriptblock\]::Create/ nocase
  condition:
    $fmt and $ctx_invoke
}

/* Source kept as a number or a byte list and decoded into a code sink: Python int.to_bytes or
 * bytes([..]) into exec/eval, JavaScript TextDecoder or Buffer over a numeric array into
 * new Function/eval/vm. */
rule numbers_to_code {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "turns a number or a byte array into source code and runs it"
  strings:
    $py = /\b(exec|eval|compile)\s*\(\s*[^\n]{0,60}\.to_bytes\s*\(|\b(exec|eval|compile)\s*\(\s*(bytes|bytearray)\s*\(\s*\[\s*\d+\s*,|\b(exec|eval)\s*\(\s*["']{2}\.join\s*\(\s*(map\s*\(\s*chr|chr\s*\()/
    $js = /\b(new\s+Function|Function|eval|vm\.runIn\w+|vm\.Script)\s*\([^\n]{0,80}(new\s+TextDecoder\s*\([^)\n]*\)\s*\.decode|Buffer\.from\s*\(\s*\[|Buffer\.from\s*\(\s*[a-zA-Z_$][\w$]*\s*\)\s*\.toString\s*\(|String\.fromCharCode\s*\(\s*\.\.\.)/
    $js_var = /\b(new\s+Function|Function|eval|vm\.runIn\w+)\s*\([^\n]{0,80}\bnew\s+TextDecoder\s*\([^)\n]*\)\s*\.decode\s*\(\s*[a-zA-Z_$][\w$]*\s*\)/
    $ctx_bytes = /\b(Uint8Array|Int8Array|Uint16Array)\s*\.\s*(of|from)\s*\(\s*\[?\s*\d+\s*,\s*\d+\s*,\s*\d+|new\s+Uint8Array\s*\(\s*\[\s*\d+\s*,\s*\d+\s*,\s*\d+/
  condition:
    $py or $js or ($js_var and $ctx_bytes)
}

/* A uuencoded payload (a `begin 755 name` body, or uudecode / Python's a2b_uu) decoded and run:
 * the same trick as base64, in an encoding the older rules did not read. */
rule uudecode_then_run {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "decodes a uuencoded payload and runs it"
  strings:
    $uudecode = /\buudecode\b/
    $pipe = /\buudecode\b[^\n|]*\|\s*(sudo\s+)?(ba|z|da)?sh\b/
    $ctx_body = /(^|\n)begin(-base64)?\s+[0-7]{3,4}\s+\S+[ \t]*\r?\n[!-`]/
    $ctx_run = /\b(chmod\s+(\+x|[0-7]*[157]\b|u\+x)|(ba|z|da)?sh\s|source\s|\.\s+\/|\/tmp\/|exec\s)/
    $py = /\b(exec|eval|compile)\s*\([^\n]{0,60}\b(a2b_uu|uu_codec|["']uu["'])/
  condition:
    ($uudecode and $ctx_body and $ctx_run) or $pipe or $py
}

/* Round 14 (issue 45): code kept as shifted or xored character codes (a Caesar shift, a XOR
 * with a constant) and decoded into a code sink in the same file: JavaScript's
 * String.fromCharCode(c - 3) into eval, an indirect (0, eval) or a Function constructor;
 * Python's chr(c ^ 7) into exec; Ruby's (c - 3).chr into eval. A cipher exercise decodes text
 * to print it, never to run it. */
rule shifted_char_codes_run {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "decodes character codes shifted or xored by a constant and runs the result as code"
  strings:
    $js_shift = /\bString\.fromCharCode\s*\(\s*[\w$.\[\]]{1,40}\s*[-+^]\s*(0x[0-9a-fA-F]+|\d+|[\w$]+)\s*\)|\.charCodeAt\s*\([^\n)]{0,30}\)\s*[-+]\s*\d+/
    $js_sink = /(^|[^\w.$])(eval|Function)\s*\(|\bnew\s+Function\s*\(|\(\s*0\s*,\s*eval\s*\)\s*\(|\b(globalThis|window|global)\s*(\.|\[\s*["'])eval\b|\bvm\.(runIn\w+|Script|compileFunction)\b/
    $py_shift = /\bchr\s*\(\s*(ord\s*\(\s*\w+\s*\)|\w+)\s*[-+^]\s*(0x[0-9a-fA-F]+|\d+|\w+)\s*\)/
    $py_sink = /(^|[^\w.])(exec|eval|compile)\s*\(/
    $rb_shift = /\(\s*\w+\s*[-+^]\s*\d+\s*\)\.chr\b/
    $rb_sink = /\b(eval|instance_eval|class_eval)\s*\(?\s*[\w(]/
  condition:
    (lang == "js" and $js_shift and $js_sink) or (lang == "python" and $py_shift and $py_sink) or
    (lang == "ruby" and $rb_shift and $rb_sink)
}

/* Round 14: decoded or inflated text run in the current shell without a pipe into sh:
 * `source /dev/stdin <<< "$(base64 -d <<EOF | gunzip ...)"`, `. <(xxd -r -p blob)`, a decoder
 * piped into `source /dev/stdin`. The shell reads code nobody can read in the file. */
rule decoded_sourced_in_shell {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "decodes or inflates an embedded payload and sources it into the running shell"
  strings:
    $stdin_then = /(^|[;&|\s({])(source|\.)\s+["']?(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)\b[\s\S]{0,200}(\bbase64\s+(-[a-zA-Z]*d|--decode|-D)\b|\b(gunzip|zcat|unxz|unzstd|bunzip2|uudecode)\b|\b(xz|zstd|gzip|bzip2|brotli)\s+(-[a-zA-Z]*d|--decompress)\b|\bxxd\s+-r\b|\bopenssl\s+(enc|base64)\b)/
    $proc = /(^|[;&|\s({])(source|\.)\s+<\(\s*[^)\n]{0,160}(\bbase64\s+(-[a-zA-Z]*d|--decode|-D)\b|\b(gunzip|zcat|unxz|unzstd|bunzip2)\b|\b(xz|zstd|gzip|bzip2)\s+(-[a-zA-Z]*d|--decompress)\b|\bxxd\s+-r\b|\bopenssl\s+enc\b|\b(age|gpg2?)\s)/
    $pipe = /(\bbase64\s+(-[a-zA-Z]*d|--decode|-D)\b|\b(gunzip|zcat|unxz|unzstd|bunzip2)\b|\b(xz|zstd|gzip)\s+(-[a-zA-Z]*d|--decompress)\b|\bxxd\s+-r\b)[^\n]{0,160}\|\s*(source|\.)\s+["']?(\/dev\/stdin|\/dev\/fd\/0)\b/
  condition:
    any of them
}

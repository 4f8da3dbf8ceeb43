/* Encoded or hidden execution: what runs is not what a reader sees. */

rule decoded_and_executed {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "decoded text is executed: the code that runs is hidden from a reader"
  strings:
    $b64_pipe = /\bbase(64|32)\s+(-\w+\s+)*(-d|--decode|-D)\b[^\n|]{0,100}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\b/
    $b64_subst = /\b(eval|(ba|z)?sh\s+-c|python[0-9.]*\s+-c|perl\s+-e|node\s+-e)\s+["']?\$\([^\n]{0,4000}\bbase(64|32)\s+(-\w+\s+)*(-d|--decode|-D)\b/
    $hex_pipe = /\b(xxd\s+(-\w+\s+)*-r|openssl\s+(enc\s+)?(-d\s+)?-?base64\s+-d)[^\n|]{0,100}\|\s*((\/usr)?\/bin\/)?((ba|z)?sh|python[0-9.]*|perl)\b/
    $printf_hex = /\b(printf|echo\s+-e)\s+["']?(\\x[0-9a-fA-F]{2}|\\[0-7]{3}){8,}[^\n]{0,300}\|\s*((ba|z)?sh|python[0-9.]*|perl)\b/
    $rot13 = /\btr\s+["']?(a-zA-Z|A-Za-z|a-z|A-Z)["']?\s+["']?(n-za-mN-ZA-M|N-ZA-Mn-za-m|n-za-m|N-ZA-M)[^\n]{0,100}\|\s*((ba|z)?sh|python[0-9.]*)\b/
    $py = /\b(exec|eval|compile)\s*\(\s*[^\n]{0,120}(b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|bytes\.fromhex|unhexlify|fromhex|zlib\.decompress|gzip\.decompress|lzma\.decompress|marshal\.loads|codecs\.decode|\.decode\(\s*["'](hex|base64|rot.?13)|["']{2}\.join\(\s*(map\(\s*)?chr\b|bytes\(\s*\[\s*[0-9])/
    $py_import = /\b(exec|eval)\s*\(\s*__import__\s*\(\s*["'](base64|codecs|zlib|binascii|marshal)["']/
    $py_shell = /\b(os\.system|os\.popen|subprocess\.\w+)\s*\(\s*[^\n]{0,80}(b64decode|bytes\.fromhex|unhexlify|codecs\.decode|zlib\.decompress)/
    $py_hex_literal = /\b(exec|eval)\s*\(\s*b?["'](\\x[0-9a-fA-F]{2}){8,}/
    $rev_subst = /\b(eval|(ba|z)?sh\s+-c)\s+["']?\$\([^\n]{0,2000}\|\s*rev\s*\)/
    $certutil_decode = /\bcertutil(\.exe)?\s+(-f\s+)?-decode(hex)?\b/ nocase
    $js = /\b(eval|Function|setTimeout|setInterval|vm\.runIn\w+)\s*\(\s*[^\n]{0,60}\b(atob|unescape|decodeURIComponent|String\.fromCharCode|Buffer\.from\s*\([^\n]{0,4000}["'](base64|hex)["'])/
    $js_new_fn = /new\s+Function\s*\([^\n]{0,60}\b(atob|fromCharCode|Buffer\.from|unescape)\b/
    $ps_enc = /\b(powershell|pwsh)(\.exe)?\s[^\n]{0,100}\s[-\/](e|ec|en|enc|enco|encod|encode|encoded|encodedc|encodedco|encodedcom|encodedcomm|encodedcomma|encodedcomman|encodedcommand)\s+["']?[A-Za-z0-9+\/]{16,}/ nocase
    $ps_frombase64 = /\b(iex|invoke-expression)\b[^\n]{0,200}(FromBase64String|\[char\]|-join|-bxor)|FromBase64String[^\n]{0,300}\|\s*(iex|invoke-expression)\b/ nocase
    $rb = /\b(eval|instance_eval|class_eval|system)\s*\(?\s*[^\n]{0,60}(Base64\.(strict_|urlsafe_)?decode64|\.unpack1?\s*\(\s*["'](m|H)|\.pack\s*\(\s*["'](H|m|U|C)\*?["'])/
    $pl = /\beval\s*[({]?\s*[^\n]{0,40}(decode_base64|pack\s*\(?\s*["']H|unpack\s*\(?\s*["']u)/
    $b64_save_run = /\bbase64\s+(-\w+\s+)*(-d|--decode|-D)\b[^\n|]{0,200}>\s*["']?[^\s"'|;&]+[^\n]{0,40}(&&|;|\|\|)\s*((ba|z)?sh|source|\.|python[0-9.]*|perl|chmod)\s/
    $ps_b64_then_iex = /FromBase64String[^\n]{0,300}[;]\s*(iex|invoke-expression)\b/ nocase
    $sh_hex_var = /\$'(\\x[0-9a-fA-F]{2}){8,}'/
  condition:
    any of them
}

/* Shell or network code hidden in an encoding: found by what it decodes to (YARA's base64,
 * base64wide, for PowerShell's UTF-16 -EncodedCommand, and xor modifiers). */
rule encoded_payload {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "an encoded payload holds shell or network code"
  strings:
    $b1 = "/bin/sh" base64 base64wide
    $b2 = "/bin/bash" base64 base64wide
    $b3 = "/dev/tcp/" base64 base64wide
    $b4 = "bash -i" base64 base64wide
    $b5 = "| sh" base64
    $b6 = "| bash" base64
    $b7 = "curl http" base64 base64wide
    $b8 = "wget http" base64 base64wide
    $b9 = "socket.socket(" base64
    $b10 = "subprocess." base64
    $b11 = "os.system(" base64
    $b12 = "child_process" base64
    $b13 = "Invoke-Expression" base64 base64wide
    $b14 = "IEX(" base64 base64wide
    $b15 = "IEX (" base64 base64wide
    $b16 = "Net.WebClient" base64 base64wide
    $b17 = "DownloadString" base64 base64wide
    $b18 = "Sockets.TCPClient" base64 base64wide
    $b19 = "Invoke-WebRequest" base64 base64wide
    $b20 = ".ssh/id_" base64 base64wide
    $b21 = "/etc/passwd" base64 base64wide
    $b22 = "os.environ" base64
    $b23 = "process.env" base64
    $b24 = "import socket" base64
    $b25 = "exec(" base64
    $x1 = "/bin/sh" xor(1-255)
    $x2 = "/dev/tcp/" xor(1-255)
    $x3 = "bash -i" xor(1-255)
  condition:
    any of them
}

/* A long run of escaped bytes or character codes: content a reader cannot review. */
rule encoded_blob {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "medium"
    message = "a long run of escaped bytes or character codes: its content cannot be reviewed as it stands"
  strings:
    $hex_escapes = /(\\x[0-9a-fA-F]{2}){40}/
    $char_codes = /(fromCharCode|chr|\[char\])\s*\(?\s*([0-9]{2,3}\s*[,+]\s*(chr\s*\(|\[char\])?\s*){20}/
    $hex_string = /(fromhex|unhexlify|pack\s*\(\s*["']H\*?["']\s*,)\s*\(?\s*b?["'][0-9a-fA-F]{80}/
  condition:
    any of them
}

/* Decoded in one statement, executed in another. */
rule decoded_then_executed_program {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "a program decodes text and executes it: the code that runs is hidden from a reader"
  strings:
    $py_exec = /\b(exec|eval)\s*\(\s*[a-z_][\w.]*\s*[,)]/
    $ctx_py_decode = /\b(b64decode|b32decode|a85decode|decodebytes|bytes\.fromhex|unhexlify|zlib\.decompress|marshal\.loads|codecs\.decode)\s*\(/
    $js_exec = /\b(eval|new\s+Function|Function|vm\.runIn\w+)\s*\(\s*[a-zA-Z_$][\w.$]*\s*[,)]/
    $ctx_js_decode = /\batob\s*\(|Buffer\.from\s*\([^\n)]{0,200}["'](base64|hex)["']|String\.fromCharCode\s*\(/
    $ps_exec = /\b(iex|invoke-expression)\s+(\(\s*)?\$\w+/ nocase
    $ctx_ps_decode = /FromBase64String|\[char\][^\n]{0,60}-join|-join\b[^\n]{0,60}\[char\]|-bxor/ nocase
    $sh_exec = /\b(eval|(ba|z)?sh\s+-c)\s+["']?\$\{?\w+\}?["']?\s*(\n|;|&|\|)/
    $ctx_sh_decode = /=\s*["']?\$\([^\n)]{0,200}\b(base64\s+(-\w+\s+)*(-d|--decode|-D)|xxd\s+-r|rev)\b/
    $rb_exec = /\b(eval|instance_eval)\s*\(?\s*[a-z_]\w*\s*\)?\s*(\n|;|#)/
    $ctx_rb_decode = /Base64\.(strict_|urlsafe_)?decode64|\.unpack1?\s*\(\s*["'](m|H)/
  condition:
    (lang == "python" and $py_exec and $ctx_py_decode) or
    (lang == "js" and $js_exec and $ctx_js_decode) or
    (lang == "powershell" and $ps_exec and $ctx_ps_decode) or
    (lang == "sh" and $sh_exec and $ctx_sh_decode) or
    (lang == "ruby" and $rb_exec and $ctx_rb_decode)
}

/* Round 3, by technique: any decoder (base64/32, hex, gzip/zlib/xz, rot13, reversal, char
 * codes, uudecode) whose output reaches any code sink, in the languages the first rules lacked
 * (PHP, Lua, Go, a shell pipeline through `rev`/`tr`/`openssl`). */
rule decoded_and_executed_more {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "decoded or rebuilt text is executed: the code that runs is hidden from a reader"
  strings:
    $php = /\b(eval|assert|create_function|system|exec|shell_exec|passthru|popen|proc_open)\s*\(\s*[^\n]{0,80}\b(base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|hex2bin|convert_uudecode|strrev|pack\s*\(\s*["']H)\s*\(/
    $lua = /\b(load|loadstring|dofile|os\.execute|io\.popen)\s*\(\s*[^\n]{0,60}(\bstring\.char\s*\(|:char\s*\(|\bstring\.reverse\s*\(|:reverse\s*\(|\bmime\.unb64\b|\bfrom_?base64\b|\bdec(ode)?64\b|\bunhex\w*\s*\()/
    $sh_decode_pipe = /\|\s*(rev|tr\s+["']?(a-zA-Z|A-Za-z|a-z|A-Z)["']?\s+["']?[A-Za-z-]{3,}["']?|base(64|32)\s+(-\w+\s+)*(-d|--decode|-D)\w*|xxd\s+(-\w+\s+)*-r\w*|openssl\s[^\n|]{0,60}\s-d\b[^\n|]{0,60}|gunzip(\s+-c)?|zcat|gzip\s+-d\w*|xz\s+-d\w*|bzip2\s+-d\w*|uudecode(\s+-o\s*-?\S*)?)\s*(\|\s*(rev|gunzip|zcat|base64\s+-d)\s*)?\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\b/
    $go = /\bexec\.Command\s*\([^\n]{0,80}\b(base64\.\w+Encoding\.DecodeString|hex\.DecodeString)\s*\(|\bexec\.Command\s*\([^\n]{0,40}string\s*\(\s*(decoded|dec|payload|b|raw)\b/
    $py_rev = /\b(exec|eval|os\.system|os\.popen|subprocess\.\w+)\s*\(\s*[^\n]{0,60}["']\s*\[\s*::\s*-1\s*\]/
    $js_rev = /\b(eval|Function|execSync|exec)\s*\(\s*[^\n]{0,60}\.split\s*\(\s*["']{2}\s*\)\s*\.reverse\s*\(\s*\)\s*\.join\s*\(/
    $rb_rev = /\b(eval|system|exec|instance_eval|`)\s*\(?\s*["'][^"'\n]{4,}["']\.reverse\b/
    $ps_rev = /\b(iex|invoke-expression)\b[^\n]{0,120}(\[array\]::Reverse|-join\s*\(?\s*[^\n]{0,40}\[-1\.\.)|\[char\[\]\][^\n]{0,80}\[-1\.\.[^\n]{0,120}\b(iex|invoke-expression)\b/ nocase
    $ps_sb = /\[scriptblock\]::Create\s*\(\s*[^\n]{0,80}(FromBase64String|\[char\]|-join|-bxor|GetString|\[-1\.\.)/ nocase
  condition:
    any of them
}

/* A module, function or command name assembled at run time (fragments joined, reversed,
 * concatenated, decoded) and then called: the only reason to spell `child_process`, `system`
 * or `iex` that way is to hide it from whoever reads or searches the code. */
rule dynamic_name_call {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "a module or command name is assembled at run time and called, to hide what runs"
  strings:
    $js_require = /\brequire\s*\(\s*(\[[^\]\n]{0,120}\]\s*\.\s*(join|reverse)\s*\(|["'][\w_]{0,12}["']\s*\+\s*["'][\w_]{0,12}["']|atob\s*\(|Buffer\.from\s*\(|String\.fromCharCode\s*\(|["'][\w_]{4,}["']\.split\s*\(\s*["']{2}\s*\)\.reverse)/
    $js_method = /\[\s*\[[^\]\n]{0,80}\]\s*\.\s*join\s*\(\s*["'`]{2}\s*\)\s*\]\s*\(|\[\s*["'`][\w]{1,8}["'`]\s*\+\s*["'`][\w]{1,8}["'`]\s*(\+\s*["'`][\w]{1,8}["'`]\s*)*\]\s*\(/
    $py_import = /\b(__import__|import_module)\s*\(\s*(["'][\w.]{1,20}["']\s*(\+|\[\s*::\s*-1\s*\])|["']{2}\.join\s*\(|(base64\.)?b64decode\s*\(|bytes\.fromhex\s*\(|codecs\.decode\s*\(|chr\s*\()/
    $py_getattr = /\bgetattr\s*\(\s*(__import__\s*\(|__builtins__|builtins\b|os\b|subprocess\b)[^\n)]{0,60},\s*(["'][\w]{1,12}["']\s*(\+|\[\s*::\s*-1\s*\])|["']{2}\.join\s*\(|(base64\.)?b64decode\s*\(|bytes\.fromhex|codecs\.decode|chr\s*\()/
    $rb_send = /\.(send|public_send|__send__|method)\s*\(\s*(\[[^\]\n]{0,80}\]\s*\.\s*join\b|["'][\w]{1,12}["']\s*\+\s*["']|["'][\w]{3,}["']\.reverse\b|Base64\.decode64)/
    $php_var_fn = /\$\w+\s*=\s*["'][a-z_]{1,10}["']\s*\.\s*["'][a-z_]{1,10}["'][^\n]{0,60};[^\n]{0,200}\$\w+\s*\(|\b(call_user_func(_array)?|array_map)\s*\(\s*["'][a-z_]{1,10}["']\s*\.\s*["'][a-z_]{1,10}["']/
    $ps_concat = /(&|\.)\s*\(\s*["'][a-z-]{1,10}["']\s*\+\s*["'][a-z-]{1,10}["']|\$env:comspec\[\s*[0-9]+\s*,|\$(shellid|pshome)\[\s*[0-9]+\s*\]\s*\+|\(\s*["'][a-z-]{1,10}["']\s*\+\s*["'][a-z-]{1,10}["']\s*\)\s*\|\s*(iex|&)/ nocase
    $sh_concat = /(\b[a-z]=["']?(cu|wg|ba|s|rl|et|sh)["']?;\s*){2,}[^\n]{0,80}\$[a-z]\$[a-z]/
  condition:
    any of them
}

/* Round 5, by technique (ATT&CK T1027, T1140): decoded text run through a sink the rules above
 * did not name: Perl's eval of a variable decoded by rot13 `tr`, `pack`/`unpack` or base64, and
 * `pack q(H*)` in a one-liner; PowerShell's other doors to the script engine
 * (`$ExecutionContext.InvokeCommand.InvokeScript`, `NewScriptBlock`, `& ([scriptblock]::Create(...))`,
 * `Invoke-Command -ScriptBlock`) fed from char codes, base64 or `-join`. */
rule decoded_then_executed_other_sinks {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "a program decodes text and executes it through an indirect sink: the code that runs is hidden from a reader"
  strings:
    $pl_pack = /\beval\s*[({]?\s*(pack|unpack)\s*\(?\s*(q[qw]?\s*[(\[{\/<|!]|["'])[HhUuMm]\*?/
    $pl_exec = /\beval\s*[({]?\s*\$\w+\s*[)}]?\s*(;|$|\n|or\b|\|\|)/
    $ctx_pl_decode = /\btr\s*\/\s*[A-Za-z-]{3,}\s*\/\s*[A-Za-z-]{3,}\s*\/|\by\s*\/\s*[A-Za-z-]{3,}\s*\/\s*[A-Za-z-]{3,}\s*\/|\bdecode_base64\s*\(|\bpack\s*\(?\s*(q[qw]?\s*[(\[{\/<|!]|["'])[Hh]|\bunpack\s*\(?\s*(q[qw]?\s*[(\[{\/<|!]|["'])[um]/
    $ps_sink = /\$ExecutionContext\.InvokeCommand\.(InvokeScript|NewScriptBlock)\s*\(|&\s*\(?\s*\[scriptblock\]::Create\s*\(\s*\$\w+|\bInvoke-Command\b[^\n]{0,40}-ScriptBlock\s*\(?\s*\[scriptblock\]::Create\s*\(\s*\$\w+|\.InvokeCommand\.InvokeScript\s*\(/ nocase
    $ctx_ps_decode = /\[char\[\]\]\s*\(\s*[0-9]{2,3}\s*,|-join\s*\(?\s*\[char\[\]\]|\[char\]\s*[0-9]{2,3}\s*\+|FromBase64String|-bxor|\[char\][^\n]{0,60}-join|-join\b[^\n]{0,60}\[char\]/ nocase
    $ps_iex = /\b(iex|Invoke-Expression)\b/ nocase
    $ctx_ps_inflate = /\b(DeflateStream|GZipStream|BrotliStream)\b[^\n]{0,120}\bDecompress\b/ nocase
    $ctx_ps_b64 = /FromBase64String/ nocase
    $py_unpickle = /\b(pickle|cPickle|dill|marshal|cloudpickle)\.loads\s*\(\s*[^\n]{0,40}\b(b64decode|b85decode|a85decode|decodebytes|fromhex|unhexlify|decompress)\s*\(/
    $rb_tr = /\b(eval|instance_eval|system|exec)\s*\(?\s*[^\n]{0,60}\.tr\s*\(\s*["'][A-Za-z-]{3,}["']\s*,\s*["'][A-Za-z-]{3,}["']\s*\)/
    $sh_octal = /\b(eval|(ba|z)?sh\s+-c)\s+["']?\$'(\\[0-7]{3}){8,}/
    $openssl_pipe = /\bopenssl\s+(enc\s+)?[^\n|]{0,200}\s-d\b[^\n|]{0,200}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node)\b(\s*(\n|;|&|\||\))|\s+-\s*\n|\s+-s\b)/
  condition:
    $pl_pack or (lang == "perl" and $pl_exec and $ctx_pl_decode) or ($ps_sink and $ctx_ps_decode) or
    ($ps_iex and $ctx_ps_inflate and $ctx_ps_b64) or $py_unpickle or $rb_tr or $sh_octal or $openssl_pipe

}

/* Round 6, from the obfuscation catalogues (Invoke-Obfuscation's launcher and token tricks, the
 * per-language string-eval doors; issue 45): code hidden by the interpreter's own syntax rather
 * than by an encoding. Perl's s///ee (the replacement evaluated as code); PowerShell's commands
 * resolved by wildcard or built from characters of automatic variables and then invoked; a
 * Python module or attribute named by a reversed string; Ruby's eval of char codes packed into a
 * string; cmd.exe's caret escapes inside command names. */
rule catalogue_syntax_obfuscation {
  meta:
    id = "audit/obfuscated"
    category = "obfuscated"
    severity = "high"
    prose = "medium"
    message = "runs code hidden by the interpreter's own syntax (s///ee, wildcard-resolved commands, reversed names, packed char codes, caret-split command names)"
  strings:
    $perl_ee = /=~\s*s([\/{#|!])[^\n]{0,300}[\/}#|!][gimsxr]*ee[gimsxr]*\s*[;)]/
    $ps_wild = /[&.]\s*\(\s*(Get-Command|gcm|Get-Alias|gal|Get-Item\s+function:|ls\s+function:)\s+[^\n)]{0,40}\*[^\n)]{0,40}\)|\$ExecutionContext\.InvokeCommand\.(GetCommand|GetCmdlet|GetCommandName)\s*\(\s*["'][^"'\n]{0,30}\*/ nocase
    $ps_chars = /[&.]\s*\(\s*\$(env:ComSpec|ShellId|PSHome|VerbosePreference|env:Public)\s*\[[\d,\s]+\]/ nocase
    $py_rev = /\b__import__\s*\(\s*["'][^"'\n]{1,40}["']\s*\[\s*::\s*-1\s*\]|\bgetattr\s*\([^\n]{0,60}["'][^"'\n]{1,40}["']\s*\[\s*::\s*-1\s*\]|\bimportlib\.import_module\s*\(\s*["'][^"'\n]{1,40}["']\s*\[\s*::\s*-1\s*\]/
    $ps_wild_var = /\$\w+\s*=\s*(Get-Command|gcm)\s+["']?[\w]*\*[\w*]*-[\w*]*\*?[\w*]*["']?/ nocase
    $ctx_ps_invoke = /(^|\n|;)\s*[&.]\s*\$\w+\s+\$\w+/
    $py_rev_lit = /["'][^"'\n]{1,80}["']\s*\[\s*::\s*-1\s*\]/
    $ctx_py_dyn = /\b__import__\s*\(\s*[A-Za-z_]\w*\s*\)|\bgetattr\s*\(\s*(__import__|importlib\.import_module)\s*\(\s*[A-Za-z_]\w*\s*\)\s*,\s*[A-Za-z_]\w*\s*\)|\bimportlib\.import_module\s*\(\s*[A-Za-z_]\w*\s*\)/
    $rb_pack = /\.pack\s*\(\s*["'][cCU]\*["']\s*\)/
    $ctx_rb_eval = /\b(eval|instance_eval|class_eval|module_eval)\b|\bsend\s*\(\s*:eval\b|\b(system|exec)\s*\(/
    $bat_caret = /\b[a-zA-Z](\^[a-zA-Z]){3,}/
  condition:
    $perl_ee or $ps_wild or $ps_chars or $py_rev or ($ps_wild_var and $ctx_ps_invoke) or ($py_rev_lit and $ctx_py_dyn) or ($rb_pack and $ctx_rb_eval and lang == "ruby") or (#bat_caret >= 2 and lang == "batch")
}

/* Round 11: code decoded and run in other spellings of the same technique: a hex or base-n
 * decoder of coreutils (basenc, od, xxd -p -r) piped into a shell, a Perl chr/pack list turned
 * into code by eval, a Ruby hex literal packed and evaluated, and a Python blob decompressed or
 * decoded on one line and compiled and executed on another. */
rule decoded_and_executed_round11 {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "decoded text is executed: the code that runs is hidden from a reader"
  strings:
    $basenc_pipe = /\b(basenc\s+[^\n|]{0,60}(-d|--decode)\b|xxd\s+(-\w+\s+)*-p\s+-r\b|xxd\s+-rp?\b)[^\n|]{0,100}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\b/
    $pl_chr = /\beval\s*[({]?\s*(join\s*\(?\s*["']{2}\s*,\s*map\s*[({]\s*chr\b|pack\s*\(?\s*["'][CUW]\*?["'])/
    $rb_hex = /\b(eval|instance_eval|system)\s*\(?\s*\[\s*["'][0-9a-fA-F]{16,}["']\s*\]\s*\.pack\s*\(?\s*["'](H|m)/
    $py_decode_var = /\b\w+\s*=\s*(zlib|gzip|lzma|bz2)\.decompress\s*\(\s*(base64\.)?(b64|b32|b85|a85|urlsafe_b64)decode\s*\(|\b\w+\s*=\s*marshal\.loads\s*\(\s*(zlib\.decompress\s*\(\s*)?(base64\.)?(b64|b85)decode\s*\(/
    $py_exec_compile = /\bexec\s*\(\s*(compile\s*\(\s*\w+\s*,|\w+\s*,\s*globals\s*\(\s*\))/
  condition:
    $basenc_pipe or $pl_chr or $rb_hex or ($py_decode_var and $py_exec_compile)
}

/* Round 12 (issue 45): code hidden by encryption rather than encoding, decrypted with a key the
 * file carries and run: PowerShell's ConvertTo-SecureString -Key read back through
 * SecureStringToBSTR (or an AES decryptor) into a script block or Invoke-Expression; Python's
 * Fernet, AES or a XOR loop into exec; Node's createDecipheriv or a XOR of char codes into eval,
 * new Function or vm; Ruby's OpenSSL::Cipher into eval; gpg or age decrypting into a shell. No
 * skill ships its own code encrypted except to hide what it does. */
rule decrypted_then_executed {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "decrypts an embedded payload with a key it carries and executes it: the code that runs is hidden from a reader"
  strings:
    $ps_decrypt = /\bConvertTo-SecureString\b[^\n]{0,160}\s-(Key|SecureKey)\b|\.CreateDecryptor\s*\(|\[System\.Security\.Cryptography\.(Aes|AesManaged|RijndaelManaged|TripleDES)\w*\]|\bProtectedData\]::Unprotect\s*\(/ nocase
    $ctx_ps_text = /\b(SecureStringToBSTR|SecureStringToGlobalAllocUnicode|PtrToStringAuto|PtrToStringBSTR|PtrToStringUni)\b|\.GetNetworkCredential\s*\(\s*\)\.Password\b|\bTransformFinalBlock\s*\(|\bCryptoStream\b|\bGetString\s*\(/ nocase
    $ps_sink = /\[scriptblock\]::Create\s*\(|\b(iex|Invoke-Expression)\b|\bInvoke-Command\b[^\n]{0,60}-ScriptBlock\b|\.InvokeCommand\.(InvokeScript|NewScriptBlock)\s*\(|\.AddScript\s*\(/ nocase
    $py_decrypt = /\b(AES|ChaCha20|DES3|Blowfish|ARC4|Salsa20)\.new\s*\(|\bFernet\s*\(|\bCipher\s*\(\s*algorithms\.|\bAESGCM\s*\(|\bbytes\s*\(\s*\w+\s*\^\s*\w+(\s*\[[^\]\n]{1,40}\])?\s+for\s|\bchr\s*\(\s*ord\s*\(\s*\w+\s*\)\s*\^/
    $py_sink = /(^|[^\w.])(exec|eval)\s*\(|\bmarshal\.loads\s*\(|\bruntime\.run\w*\(|\bimportlib\.util\.spec_from_loader\b/
    $js_decrypt = /\bcreateDecipheriv?\s*\(|\bcrypto\.subtle\.decrypt\s*\(|\bCryptoJS\.(AES|TripleDES|Rabbit|RC4)\.decrypt\s*\(|\.charCodeAt\s*\([^\n)]{0,30}\)\s*\^/
    $js_sink = /(^|[^\w.$])(eval|new\s+Function|Function)\s*\(|\bvm\.(runIn\w+|Script|compileFunction)\b|\brequireFromString\b|\bmodule\._compile\s*\(/
    $rb_decrypt = /\bOpenSSL::Cipher(::\w+)?\.new\b[^\n]{0,80}|\.decrypt\b[^\n]{0,40}\n[^\n]{0,80}\.(key|iv)\s*=/
    $rb_sink = /\b(eval|instance_eval|class_eval)\s*\(?\s*\w+/
    $sh_pipe = /\b(gpg2?|age|openssl\s+(enc|aes-?\w*|des\w*|chacha20|bf\w*))\b[^\n|]{0,80}(\s-d\b|--decrypt\b)[^\n|]{0,120}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|pwsh|iex)\b(\s*(\n|;|&|\||\))|\s+-\s*\n|\s+-s\b|\s*$)/
  condition:
    (lang == "powershell" and $ps_decrypt and $ctx_ps_text and $ps_sink) or
    (lang == "python" and $py_decrypt and $py_sink) or
    (lang == "js" and $js_decrypt and $js_sink) or
    (lang == "ruby" and $rb_decrypt and $rb_sink) or $sh_pipe
}

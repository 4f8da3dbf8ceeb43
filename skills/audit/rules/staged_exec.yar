/* Code run from where a skill does not keep it: a hidden or temporary file that something else
 * wrote (world-writable /tmp, a dot-file), or a listening socket piped into a shell. What runs is
 * not in the skill, so no review of the skill sees it. */

rule exec_from_temp_file {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "runs code read from a temporary or hidden file outside the skill: what runs is not in the skill"
  strings:
    $py = /\b(exec|eval)\s*\(\s*(compile\s*\(\s*)?(open|io\.open|Path)\s*\(\s*["'](\/tmp\/|\/var\/tmp\/|\/dev\/shm\/|~\/\.)[^"'\n]{0,200}["']\s*\)\s*\.(read|read_text)\s*\(/
    $js = /\b(eval|new\s+Function|vm\.runIn\w+)\s*\(\s*(require\s*\(\s*["'](node:)?fs["']\s*\)\s*\.|fs\.)?readFileSync\s*\(\s*["'](\/tmp\/|\/var\/tmp\/|\/dev\/shm\/)/
    $sh = /(^|[;&|\n]|\bthen\b|\bdo\b)\s*(source|\.|(ba|z|da)?sh|python[0-9.]*|perl|ruby|node)\s+["']?(\/tmp|\/var\/tmp|\/dev\/shm)\/\.[\w.-]+/
  condition:
    any of them
}

rule listener_into_shell {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a listening socket is piped into a shell or decoder: whoever connects runs commands"
  strings:
    $nc = /\b(nc|ncat|netcat)\s+[^\n|;]{0,60}(-l\w*|--listen)\b[^\n|;]{0,60}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|base64\s+(-\w+\s+)*(-d|--decode))\b/
    $socat = /\bsocat\s+[^\n]{0,80}\b(TCP[46]?-LISTEN|TCP-L):[^\n]{0,120}\b(EXEC|SYSTEM):/ nocase
  condition:
    any of them
}

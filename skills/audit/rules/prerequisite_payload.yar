/* A "prerequisite" that is the payload (Koi Security's ClawHavoc write-up of ClawHub, 2026:
 * hundreds of skills whose only harm is a setup paragraph). The skill works as described, and
 * its prerequisites tell the user or the agent to paste a script from a paste site into a
 * terminal, or to unpack a password-protected archive (the password keeps scanners out) and run
 * what is inside. Written in prose, in any language the registry translates to, so high in
 * prose too: no careful reviewer installs a skill that asks for either. */

rule prerequisite_paste_site_script {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "has a script copied from a paste site and run in a terminal"
  strings:
    $paste_run = /(pastebin\.com|glot\.io|rentry\.(co|org)|hastebin\.(com|skyra\.pw)|paste\.ee|dpaste\.(org|com)|controlc\.com|justpaste\.it|ghostbin\.\w+|termbin\.com|sprunge\.us|paste\.rs|pastes\.dev|privatebin\.\w+|ix\.io|0x0\.st|pastie\.io|paste\.c-net\.org)\/[^\n]{0,240}\b(copy|paste|run|execute|enter|type)\b[^\n]{0,120}\b(terminal|shell|console|command\s+line|cmd|powershell|iterm|bash|zsh)\b/ nocase
    $run_paste = /\b(copy|paste|run|execute)\b[^\n]{0,160}(pastebin\.com|glot\.io|rentry\.(co|org)|hastebin\.(com|skyra\.pw)|paste\.ee|dpaste\.(org|com)|controlc\.com|justpaste\.it|ghostbin\.\w+|termbin\.com|sprunge\.us|paste\.rs|pastes\.dev|privatebin\.\w+|ix\.io|0x0\.st|pastie\.io)\/[^\n]{0,200}\b(terminal|shell|console|command\s+line|cmd|powershell|iterm)\b/ nocase
    $paste_run_zh = /(pastebin\.com|glot\.io|rentry\.(co|org)|hastebin\.com|paste\.ee|dpaste\.(org|com)|controlc\.com|justpaste\.it|termbin\.com|paste\.rs|ix\.io|0x0\.st)\/[^\n]{0,240}(\xE5\xA4\x8D\xE5\x88\xB6|\xE7\xB2\x98\xE8\xB4\xB4|\xE8\xBF\x90\xE8\xA1\x8C|\xE6\x89\xA7\xE8\xA1\x8C)[^\n]{0,120}(\xE7\xBB\x88\xE7\xAB\xAF|\xE5\x91\xBD\xE4\xBB\xA4\xE8\xA1\x8C|\xE6\x8E\xA7\xE5\x88\xB6\xE5\x8F\xB0|PowerShell)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attacker|malicious|malware|scam|phishing|ClawHavoc)\b/ nocase
  condition:
    any of ($paste_run, $run_paste, $paste_run_zh) and #neg >= 0
}

rule prerequisite_password_archive_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "has a password-protected archive downloaded, unpacked and its program run"
  strings:
    /* "extract using pass: `openclaw`", "unzip it (password: 1234)", and the same in Chinese */
    $pw = /\b(extract|unzip|unpack|decompress|open)\b[^\n]{0,80}\b(pass|password|passcode|pwd)\b(\s*[:=]\s*[`'"*]{0,2}[\w-]{2,32}|\s+[`'"*]{1,2}[\w-]{2,32}|\s+\d{2,12}\b)|\b(pass|password|passcode|pwd)\b\s*[:=]\s*[`'"*]{0,2}[\w-]{2,32}[`'"*]{0,2}[^\n]{0,80}\b(extract|unzip|unpack|run|execute|launch)\b/ nocase
    $pw_zh = /(\xE8\xA7\xA3\xE5\x8E\x8B|\xE6\x8F\x90\xE5\x8F\x96)[^\n]{0,40}\xE5\xAF\x86\xE7\xA0\x81|\xE5\xAF\x86\xE7\xA0\x81\s*[:\xEF\xBC\x9A]\s*[`'"]?[\w-]{2,32}/
    $ctx_archive = /https?:\/\/[^\s)\]"'`]{1,240}\.(zip|rar|7z)\b|\b[\w-]{1,60}\.(zip|rar|7z)\b/ nocase
    $ctx_run = /\b(run|execute|launch|open|start|double-click)\b[^\n]{0,60}(\.exe\b|\.app\b|\.scr\b|\bexecutable\b|\binstaller\b|\bsetup\b|\bprogram\b|\bbinary\b)|\.exe\b|\xE8\xBF\x90\xE8\xA1\x8C|\xE6\x89\xA7\xE8\xA1\x8C|\xE5\x90\xAF\xE5\x8A\xA8/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attacker|malicious|malware|scam|phishing|ClawHavoc)\b/ nocase
  condition:
    any of ($pw, $pw_zh) and $ctx_archive and $ctx_run and #neg >= 0
}

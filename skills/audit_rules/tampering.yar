/* Tampering with the system a skill runs on: logs and audit trails wiped (what is left to tell
 * what happened), directories that hold system code or configuration (/etc, /usr, /opt, ...)
 * made world-writable (anyone can then plant code that root runs; a data share under /srv or
 * a web root is left to a review). High in prose too: a code block in SKILL.md is a step the agent runs; a line
 * that says not to do it is left out. */

rule log_wiping {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    message = "deletes, truncates or stops the system's logs or audit trail: anti-forensics"
  strings:
    $veto_not = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+)\b/ nocase
    $rm_glob = /(^|\n)[^\n]{0,120}\brm\s+[^\n;|&]{0,200}\/var\/log\/[^\s;|&]{0,80}\*/
    $rm_rec = /(^|\n)[^\n]{0,120}\brm\s+(-\w+\s+)*-\w*[rR]\w*\s+[^\n;|&]{0,200}\/var\/log\b/
    $rm_sys = /(^|\n)[^\n]{0,120}\brm\s+[^\n;|&]{0,200}\/var\/log\/(auth\.log|secure|syslog|messages|wtmp|btmp|lastlog|faillog|audit|journal|kern\.log)\b/
    $truncate = /(^|\n)[^\n]{0,120}(\btruncate\s+(-\w+\s+)*(-s\s*0|--size[= ]0)\s+[^\n]{0,100}|\bshred\b[^\n]{0,100}|(^|[\s;&|:])>\s*|\bcat\s+\/dev\/null\s*>\s*|\bcp\s+\/dev\/null\s+)\/var\/log\//
    $find_delete = /(^|\n)[^\n]{0,120}\bfind\s+\/var\/log\b[^\n]{0,150}(-delete\b|-exec\s+(rm|shred|truncate)\b)/
    $py_rm = /(^|\n)[^\n]{0,120}\b(shutil\.rmtree|os\.remove|os\.unlink|rmSync|unlinkSync|FileUtils\.rm_r?f?)\s*\(\s*["']\/var\/log\b/
    $win = /(^|\n)[^\n]{0,120}(\bwevtutil(\.exe)?\s+(cl|clear-log)\b|\bClear-EventLog\b|\bRemove-EventLog\b|\bfsutil(\.exe)?\s+usn\s+deletejournal\b)/ nocase
    $audit_off = /(^|\n)[^\n]{0,120}(\bauditctl\s+(-D\b|-e\s*0\b)|\b(systemctl|service)\s+(stop|disable|mask)\s+(auditd|rsyslog|syslog|syslog-ng|systemd-journald)\b|\b(auditd|rsyslog|systemd-journald)\s+stop\b)/
  condition:
    #veto_not >= 0 and any of ($rm*, $truncate, $find_delete, $py_rm, $win, $audit_off)
}

rule world_writable_system {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "makes a system directory world-writable: anyone can then replace what root runs"
  strings:
    $veto_not = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+)\b/ nocase
    $chmod = /(^|\n)[^\n]{0,120}\bchmod\s+(-\w+\s+)*(0?777|a\+rwx|ugo\+rwx|a\+w|o\+w|0?666)\s+["']?\/((etc|usr|bin|sbin|lib|lib64|boot|opt|root|Library|System|Applications)(\/[^\s;|&"']*)?|(var|home)(\/(lib|spool|log)[^\s;|&"']*)?)?(["'\s;|&)]|\n)/
    $prog = /(^|\n)[^\n]{0,120}\b(os\.chmod|chmodSync|fs\.chmod|File\.chmod|FileUtils\.chmod)\s*\([^\n]{0,80}["']\/(etc|usr|bin|sbin|lib|boot|opt|root)\b[^\n]{0,80}\b0o?777\b/
  condition:
    #veto_not >= 0 and any of ($chmod, $prog)
}

/* The shell's history erased or switched off by a script: what the user (or the agent) ran is
 * gone. High in a script; in prose medium (privacy advice names the same commands). */
rule history_wiping {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "erases or disables the shell history: what ran can no longer be seen"
  strings:
    $rm = /\b(rm|shred|unlink|truncate\s+-s\s*0)\s+(-\w+\s+)*["']?(~|\$HOME|\$\{HOME\})\/\.(bash|zsh|sh|python|psql|mysql|node_repl)_history\b/
    $null = /\bln\s+-\w*s\w*\s+\/dev\/null\s+["']?(~|\$HOME|\$\{HOME\})\/\.\w*_?history\b|(^|[\s;&])(export\s+)?HISTFILE=\/dev\/null\b|(^|[\s;&])(export\s+)?HISTSIZE=0\b/
    $clear = /(^|[;&|\n])\s*history\s+-c\b[^\n]{0,40}(&&|;)\s*history\s+-w\b|\bRemove-Item\s+[^\n]{0,40}\(Get-PSReadlineOption\)\.HistorySavePath/ nocase
  condition:
    any of them
}

/* Round 5 (ATT&CK T1562.001): the repository's own guards switched off for every repository:
 * git's hooks pointed at nothing (pre-commit's secret scanners, commit-msg checks), pre-commit
 * uninstalled together with that, or every commit told to skip verification by an alias. */
rule hooks_disabled {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "turns off the repository's hooks (secret scanning, checks) for every commit"
  strings:
    $hooks_null = /\bgit\s+config\s+(--global\s+|--system\s+)?core\.hooksPath\s+["']?(\/dev\/null|NUL|\/var\/empty)\b/
    $alias_no_verify = /\bgit\s+config\s+(--global|--system)\s+alias\.(commit|ci|c|push)\s+["']?[^\n]{0,40}--no-verify\b/
    $neg_not = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+)\b/ nocase
  condition:
    any of ($hooks_null, $alias_no_verify) and #neg_not >= 0
}

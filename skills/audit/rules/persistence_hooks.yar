/* Persistence through the hooks of everyday tools (round 14): an ssh_config line whose command
 * runs on every connection (`Match exec`, `LocalCommand`, `KnownHostsCommand`, a `ProxyCommand`
 * that fetches or runs a hidden script), git's core.sshCommand doing the same, and the user's
 * own launchers rewritten (Windows .lnk targets routed through a hidden shell, Linux .desktop
 * Exec lines wrapped). */

/* ssh runs these commands itself, on every ssh, scp and git-over-ssh: a script from a cache or
 * temporary folder, or a download, there runs whenever the user connects anywhere. A
 * ProxyCommand is a program by design (`ssh -W`, a script of the user's in ~/.ssh): only a
 * download, /tmp or base64 in it counts. */
rule persistence_ssh_config_command {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "an ssh_config or core.sshCommand hook runs a script from a cache or temporary folder (or a download) on every ssh connection"
  strings:
    $hook = /(^|\n)[ \t]*(Match[ \t]+([!\w]+[ \t]+("[^"\n]*"|[^\s"]+)[ \t]+)*exec|LocalCommand|KnownHostsCommand)[ \t=]+["']?[^\n]{0,80}(\b((ba|z|da)?sh|python[0-9.]*|node|perl|ruby|pwsh|osascript)[ \t]+(-\w+[ \t]+)*["']?|[ \t"'])(~|\$\{?HOME\}?|%d)\/\.(cache|local\/share|local\/state|local\/lib)\/[^\n]{0,200}|(^|\n)[ \t]*(Match[ \t]+[^\n]{0,80}exec|LocalCommand|KnownHostsCommand|ProxyCommand)[ \t=]+["']?[^\n]{0,200}(\b(curl|wget2?)\b|\/tmp\/|\/dev\/shm\/|\bbase64[ \t]+-d)[^\n]{0,200}/
    $git_ssh = /\b(core\.sshCommand|GIT_SSH_COMMAND)[ \t="']+[^\n]{0,40}(\b((ba|z|da)?sh|python[0-9.]*|node|perl)[ \t]+(-\w+[ \t]+)*["']?(~|\$\{?HOME\}?)\/\.|\b(curl|wget2?)\b|;[^\n]{0,80}\bssh\b)[^\n]{0,200}/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    any of ($hook, $git_ssh) and #neg >= 0
}

/* The user's existing shortcuts rewritten to start a hidden shell first: a loop over .lnk files
 * setting TargetPath to powershell/cmd/wscript with hidden or command arguments, or .desktop
 * files' Exec lines wrapped by sed. Every app the user opens runs the skill's code. Creating one
 * new shortcut to the skill's own program is not this. */
rule persistence_launcher_hijack {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "rewrites the user's existing shortcuts or launchers so they run a hidden shell before the app"
  strings:
    $lnk_target = /\.TargetPath\s*=\s*[^\n]{0,120}\b(powershell|pwsh|cmd|wscript|cscript|mshta|rundll32|conhost)(\.exe)?\b[^\n]{0,80}/ nocase
    $ctx_args = /\.Arguments\s*=\s*[^\n]{0,40}(-w(indowstyle)?\s+h(idden)?\b|-nop\b|-enc(odedcommand)?\b|\/c\s|-c(ommand)?\s)/ nocase
    $ctx_existing = /\*\.lnk\b|Get-ChildItem\b[^\n]{0,200}\.lnk\b|\bforeach\b[^\n]{0,80}\.lnk\b/ nocase
    $desktop_exec = /\b(sed[ \t]+-i[^\n]{0,40}|perl[ \t]+-pi[^\n]{0,40})[^\n]{0,80}\^?Exec=[^\n]{0,160}\b((ba|z|da)?sh[ \t]+-c|curl|wget|python[0-9.]*|nohup|setsid)\b[^\n]{0,200}/
    $ctx_desktop_files = /(applications|autostart|Desktop)\/?[^\s]{0,40}\*\.desktop\b|\.desktop["']?[ \t]*$/
  condition:
    ($lnk_target and $ctx_args and $ctx_existing) or ($desktop_exec and $ctx_desktop_files)
}

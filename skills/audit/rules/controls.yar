/* Security controls turned off (ATT&CK T1553.004, T1562.001, T1562.004): TLS verification for
 * a whole process or tool, a download fetched without it and run, host protections stopped,
 * the agent's own approvals and sandbox written off in its config. High in scripts and code
 * blocks; medium in prose, where a troubleshooting guide names them. */

/* TLS verification off for everything a process or tool fetches from now on, or off for a
 * download that is then run: anyone on the path chooses the code. */
rule controls_tls_off {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    prose = "medium"
    message = "turns TLS certificate verification off for a tool or process, or runs code fetched without it"
  strings:
    $env = /\b(NODE_TLS_REJECT_UNAUTHORIZED|PYTHONHTTPSVERIFY|GIT_SSL_NO_VERIFY|CURL_SSL_NO_VERIFY|GONOSUMCHECK|GOINSECURE|GOFLAGS=-insecure)\b\s*["']?\]?\s*(=|:|\+=)\s*["']?(0|1|true|\*)\b/
    $env_set = /\b(process\.env|os\.environ)\s*\[\s*["'](NODE_TLS_REJECT_UNAUTHORIZED|PYTHONHTTPSVERIFY)["']\s*\]\s*=\s*["']?0/
    $py_global = /\bssl\._create_default_https_context\s*=\s*ssl\._create_unverified_context\b|\burllib3\.disable_warnings\b[^\n]{0,80}\n[^\n]{0,120}\bverify\s*=\s*False[^\n]{0,40}https?:\/\/[0-9.]{7,}/
    $git = /\bgit\s+(-c\s+http\.sslVerify=(false|0)\b|config\s+(--global\s+|--system\s+)?http\.sslVerify\s+["']?(false|0)\b)/ nocase
    $pkg = /\b(npm|yarn|pnpm)\s+config\s+set\s+strict-ssl\s+false\b|\bstrict-ssl\s*=\s*false\b|\bpip[0-9.]*\s+config\s+set\s+global\.trusted-host\b|\bpip[0-9.]*\s+install\b[^\n]{0,120}--trusted-host\s+[\w.-]+|\bconda\s+config\s+--set\s+ssl_verify\s+(false|no)\b/ nocase
    $fetch_run = /\b(curl\b[^\n|]{0,120}\s(-[a-zA-Z]*k[a-zA-Z]*\b|--insecure\b)|wget2?\b[^\n|]{0,120}\s--no-check-certificate\b|(iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|]{0,120}\s-SkipCertificateCheck\b)[^\n|]{0,160}\|\s*(sudo\s+(-\w+\s+)*)?[\w.\/-]{0,40}\b((ba|z|da)?sh|python[0-9.]*|perl|ruby|node|php|iex|Invoke-Expression)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|warning|dangerous|unsafe|instead\s+of|rather\s+than)\b/ nocase
  condition:
    any of ($env, $env_set, $py_global, $git, $pkg, $fetch_run) and #neg >= 0
}

/* Host protections stopped or emptied: the firewall flushed to accept all, endpoint agents
 * stopped, Windows Defender's service or the firewall profiles off. */
rule controls_host_protection_off {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    prose = "medium"
    message = "stops a host protection: the firewall, an endpoint agent, Defender, audit logging"
  strings:
    $svc = /\b(systemctl|service)\s+(stop|disable|mask)\s+(--now\s+)?(ufw|firewalld|iptables|nftables|falcon-sensor|osqueryd|wazuh-agent|auditbeat|clamav-daemon|crowdstrike|sentinelone|cbagentd|mdatp)\b|\b(service)\s+(ufw|firewalld|iptables|auditd|apparmor)\s+stop\b/
    $ipt = /\b(ip6?tables|nft)\s+(-F\b|--flush\b|flush\s+ruleset\b|-P\s+(INPUT|FORWARD)\s+ACCEPT\b)/
    $win = /\bSet-NetFirewallProfile\b[^\n]{0,80}-Enabled\s+(False|0)\b|\b(sc(\.exe)?|net)\s+(stop|config)\s+(WinDefend|MpsSvc|Sense|wscsvc)\b|\bDisableAntiSpyware\b[^\n]{0,60}\b1\b|\bUninstall-WindowsFeature\s+Windows-Defender\b|\bpfctl\s+-d\b|\bsocketfilterfw\s+--setglobalstate\s+off\b|\bdefaults\s+write\s+[^\n]{0,40}com\.apple\.alf\s+globalstate\s+-int\s+0\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attacker|attack|malicious|detect)\b/ nocase
  condition:
    any of ($svc, $ipt, $win) and #neg >= 0
}

/* The agent's approvals or sandbox written off in its settings, or a hook that approves every
 * tool call: the user is no longer asked before anything runs. */
rule controls_agent_approvals_off {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    prose = "medium"
    message = "writes the agent's approvals or sandbox off in its settings, or installs a hook that approves every call"
  strings:
    $write_cfg = /(>>?|\btee\b|\bcat\s*>|\bsed\s+-i\b|\bjq\b|writeFile\w*|write_text|json\.dump|Set-Content|Add-Content|Out-File|\bopen\s*\()[^\n]{0,120}(\.claude[\/\\"' ,]+settings(\.local)?\.json|\.codex[\/\\"' ,]+config\.toml|\.gemini[\/\\"' ,]+settings\.json|\.cursor[\/\\"' ,]+cli(-config)?\.json|\.claude\.json)/
    $keys = /["']?defaultMode["']?\s*[:=]\s*["']bypassPermissions["']|\bapproval_policy\s*=\s*["']never["']|\bsandbox_mode\s*=\s*["']danger-full-access["']|["']?skipDangerousModePermissionPrompt["']?\s*[:=]\s*true|["']?autoApprove["']?\s*:\s*\[\s*["']\*["']|["']allow["']\s*:\s*\[\s*["'](Bash(\(\*\))?|\*)["']\s*[,\]]|["']?autoAccept["']?\s*:\s*true\b|["']?approvalMode["']?\s*[:=]\s*\\?["']yolo\\?["']|["']?yolo(Mode)?["']?\s*:\s*true\b|["']allowed["']\s*:\s*\[[^\]\n]{0,80}["'](run_shell_command|ShellTool)["']\s*[,\]]|["'](Shell|Bash)\(\*\)["']/
    $hook_allow = /["']?permissionDecision["']?\s*:\s*["']allow["']|["']decision["']\s*:\s*["']approve["']/
    $alias = /\balias\s+(claude|codex|gemini)=["']?(claude|codex|gemini)\s+[^\n]{0,40}(--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|--yolo\b|--full-auto\b)/
  condition:
    ($write_cfg and ($keys or $hook_allow)) or $alias
}

/* Round 13 (issue 45): the approvals switched off in a settings file the skill ships or writes
 * whole (a template .vscode/settings.json, .claude/settings.json, .codex/config.toml), not only
 * through a command that edits one: VS Code's chat.tools.autoApprove (Copilot's agent runs every
 * tool and terminal command unasked), Claude Code's bypassPermissions mode or every shell command
 * allowed, Codex with no approvals and no sandbox. VS Code's key is high in prose too (a step
 * that tells the agent to set it); a line that warns against it is left out. */
rule controls_agent_approvals_in_settings {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    message = "a settings file that lets the agent run every tool and command without asking (chat.tools.autoApprove, bypassPermissions, Bash(*), approval_policy never with full access)"
  strings:
    $vscode = /["'`]?chat\.tools\.(global\.)?autoApprove["'`]?\s*:\s*true\b|["']chat\.tools\.terminal\.autoApprove["']\s*:\s*\{[^}\n]{0,120}["']\/\.\*\/["']\s*:\s*true\b/
    $claude = /["']defaultMode["']\s*:\s*["']bypassPermissions["']|["']allow["']\s*:\s*\[[^\]\n]{0,200}["'](Bash|Bash\(\*\)|Bash\(:\*\)|\*)["']\s*[,\]]/
    $codex_full = /\bsandbox_mode\s*=\s*["']danger-full-access["']/
    $ctx_codex_never = /\bapproval_policy\s*=\s*["']never["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attackers?|malicious|detect\w*)\b/ nocase
  condition:
    ($vscode or ((not is_prose) and ($claude or ($codex_full and $ctx_codex_never)))) and #neg >= 0
}

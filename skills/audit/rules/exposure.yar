/* Round 15 (issue 45): exposure and switched-off controls written as properties of the text, not
 * as lists of tools. Each rule names a property that the next, unnamed server, CLI or config
 * format also has: a listener on every interface whose authentication is off, a resource shared
 * with everyone with more than read (or everything shared at once), a protection of the user's
 * credentials weakened, a trust or safety prompt switched off, logging or audit switched to
 * none or shrunk to nothing, a stranger's key or identity added to the user's account. A line
 * that warns against the setting is left out ($neg). */

/* A service listening on every interface (0.0.0.0, `*`, `::`, bind-all flags) with its
 * authentication turned off a few lines away: an empty token or password, `--no-auth`,
 * `--auth none`, anonymous access, `trust` logins, a security switch set to false. Whoever
 * reaches the port runs code or reads the data as the service's user. A database's own
 * host-based rule letting every address in with `trust` is the same property on one line. */
rule exposure_listener_without_auth {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "opens a service on every interface with its authentication turned off (empty token or password, no-auth, anonymous, trust)"
  strings:
    $auth_off = /\b[\w.-]{0,40}(token|password|passwd|requirepass)["']?\s*[=: ]\s*(''|"")|--(no|disable|without|skip)[-_]?(auth\w*|password|token|login|grant-tables)\b|--auth[= ]["']?(none|false|off|disabled?)\b|\b(auth|authentication|security|xpack\.security|login)[._-]?(enabled|required|enable)["']?\s*[=:]\s*["']?(false|no|off|0)\b|\b(auth[._-]?(type|mode|method)|authentication)["']?\s*[=:]\s*["']?(none|anonymous|trust)\b|\bprotected-mode\s+no\b|\ballow[_-]?anonymous["']?\s*[=: ]\s*["']?(true|yes|1)\b|\banonymous[._-]?(enable|enabled|access|auth)["']?\s*[=:]\s*["']?(yes|true|1)\b|\b\w*HOST_AUTH_METHOD["']?\s*[=:]\s*["']?trust\b|\b\w*ALLOW_EMPTY_PASSWORD["']?\s*[=:]\s*["']?(yes|true|1)\b|\s-nopw\b|(^|\s)skip[-_]grant[-_]tables\b/
    $pg_trust = /(^|["'\s])host(ssl|nossl|gssenc)?[ \t]+[\w,+-]+[ \t]+[\w,+-]+[ \t]+(0\.0\.0\.0\/0|::\/0|::0\/0|all|0\.0\.0\.0[ \t]+0\.0\.0\.0)[ \t]+trust\b/
    $ctx_bind_all = /0\.0\.0\.0([^\/0-9]|$)|\[::\]|--bind[_-]?(ip[_-])?all\b|\b(ip|host|hosts|bind|listen|listen_addresses|address|bind[_-]?addr(ess)?|network\.host)["']?\s*[=: ]\s*["']?(\*|::)(["'\s,;:]|$)/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|dangerous|attackers?|unsafe|not\s+recommended)\b/ nocase
  condition:
    ($pg_trust or
     for any i in (1..#auth_off) : (for any j in (1..#ctx_bind_all) :
       (@ctx_bind_all[j] < @auth_off[i] + 400 and @auth_off[i] < @ctx_bind_all[j] + 400))) and
    #neg >= 0
}

/* A resource shared with everyone (allUsers, allAuthenticatedUsers, "anyone", anonymous, public
 * links) with a role that writes or administers it, in a command or an IaC resource; or a share
 * with everyone run over every item a list returns (a loop or xargs): the user's whole drive or
 * bucket made public at once. A single file published read-only is not matched. */
rule exposure_shared_with_everyone {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "shares the user's resources with everyone: write or admin access for allUsers or anyone, or every item shared publicly at once"
  strings:
    $everyone = /\b(member|members|entity|principal|grantee|type|scope|audience|visibility|requested_visibility)["']?\s*[=:]\s*\[?\s*["'](allUsers|allAuthenticatedUsers|anyone|anyoneWithLink|anonymous|public|everyone|Everyone)["']|--(type|scope|member|grantee)[= ]["']?(anyone|anonymous|allUsers|allAuthenticatedUsers|everyone)\b|["'](WRITER|OWNER|writer|owner):(allUsers|allAuthenticatedUsers)["']/
    $ctx_write_role = /\b(role|roles|permission|access|access_level|type)["']?\s*[=:]\s*\[?\s*["']?(roles\/(owner|editor|[\w.]*\.?admin|[\w.]*[aA]dmin|storage\.object(Creator|User)|storage\.legacyBucket(Writer|Owner)|[\w.]*\.(writer|editor|developer))|writer|owner|organizer|fileOrganizer|edit|write|WRITER|OWNER|FULL_CONTROL|public-read-write)\b|--role[= ]["']?(writer|owner|organizer|fileOrganizer|editor|roles\/(owner|editor|[\w.]*[aA]dmin|storage\.object(Creator|User)))\b/
    $ctx_every_item = /\bwhile\s+(IFS=\S*\s+)?read\b|\bxargs\b|\bfor\s+\$?\w+\s+in\b|\bfor\s*\(|\.forEach\s*\(|\bForEach-Object\b|\|\s*%\s*\{|--recursive\b|\s-r\s/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|dangerous|attackers?|misconfigur\w+|vulnerable|audit\w*|find\w*|detect\w*|revoke\w*)\b/ nocase
  condition:
    for any i in (1..#everyone) : (
      for any j in (1..#ctx_write_role) :
        (@ctx_write_role[j] < @everyone[i] + 300 and @everyone[i] < @ctx_write_role[j] + 300) or
      for any k in (1..#ctx_every_item) :
        (@ctx_every_item[k] < @everyone[i] and @everyone[i] < @ctx_every_item[k] + 300)) and
    #neg >= 0
}

/* A protection of the user's credentials weakened for every logon or every host: Windows told to
 * keep passwords in clear text (WDigest) or send them in clear text or as LM hashes, Credential
 * Guard off; SSH's agent forwarded, or host keys unchecked, for every host (`Host *`, git's
 * global ssh command); a cloud administrator policy given to a user or service account together
 * with a new long-lived key for it (a key that can do everything, printed into a CI log). */
rule exposure_credential_protection_weakened {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "weakens the protection of credentials: clear-text logon caching, agent forwarding or unchecked host keys for every host, an administrator key for a CI identity"
  strings:
    $win_one = /\b(UseLogonCredential|EnablePlainTextPassword|AllowInsecureGuestAuth)["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*|-Value\s*\(?)1\b/ nocase
    $win_zero = /\b(NoLMHash|LsaCfgFlags)["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*)0\b|\bLmCompatibilityLevel["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*)[0-2]\b/ nocase
    $ssh_every_host = /(^|\n)[ \t]*([Hh]ost[ \t]+\*|[Mm]atch[ \t]+all)[ \t]*\r?\n(([ \t]+[^\n]*|[A-GI-LN-Za-gi-ln-z#][^\n]*)?\r?\n){0,15}[ \t]*([Ff]orward[Aa]gent[ \t=]+["']?yes|[Ss]trict[Hh]ost[Kk]ey[Cc]hecking[ \t=]+["']?(no|off)|[Ff]orward[Xx]11[Tt]rusted[ \t=]+["']?yes)\b/
    $git_ssh_global = /\bgit\s+config\s+(--global|--system)\s+core\.sshCommand\b[^\n]{0,120}StrictHostKeyChecking[= ]no\b/
    $admin_grant = /\battach-(user|group)-policy\b(\\\r?\n|[^\n]){0,200}policy\/AdministratorAccess\b|policy\/AdministratorAccess\b(\\\r?\n|[^\n]){0,200}\battach-(user|group)-policy\b|\badd-iam-policy-binding\b(\\\r?\n|[^\n]){0,300}--role[= ]["']?roles\/(owner|editor|iam\.serviceAccountAdmin|resourcemanager\.projectIamAdmin)\b|\baz\s+(role\s+assignment\s+create|ad\s+sp\s+create-for-rbac)\b(\\\r?\n|[^\n]){0,300}--role[= ]["']?(Owner|User Access Administrator)["'\s]|\bpolicy_arn\s*=\s*["']arn:aws:iam::aws:policy\/AdministratorAccess["']/
    $ctx_new_key = /\baws\s+iam\s+create-access-key\b|\bgcloud\s+iam\s+service-accounts\s+keys\s+create\b|\baz\s+ad\s+(sp|app)\s+(credential\s+reset|create-for-rbac)\b|\bNew-AzADSpCredential\b|\bcreate_access_key\s*\(|\bresource\s+["'](aws_iam_access_key|google_service_account_key|azuread_service_principal_password)["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|dangerous|attackers?|mimikatz|detect\w*|instead\s+of)\b/ nocase
  condition:
    (any of ($win_one, $win_zero, $ssh_every_host, $git_ssh_global) or ($admin_grant and $ctx_new_key)) and
    #neg >= 0
}

/* A trust or safety prompt switched off where it guards everything the user opens or installs:
 * VS Code's workspace trust off or every folder's tasks run on open, Office macros and VBA
 * project access enabled for every document, a package manager told to answer yes to every
 * prompt system-wide. */
rule exposure_trust_prompt_off {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    message = "switches a trust or safety prompt off for everything (workspace trust, automatic tasks, macros, yes to every prompt system-wide)"
  strings:
    $editor = /["']?security\.workspace\.trust\.enabled["']?\]?\s*[:=]\s*false\b|["']?task\.allowAutomaticTasks["']?\]?\s*[:=]\s*["']on["']/
    $macros = /\b(VBAWarnings)["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*)1\b|\b(AccessVBOM)["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*)1\b|\bblockcontentexecutionfrominternet["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*)0\b/ nocase
    $yes_everywhere = /\bAPT::Get::(Assume-Yes|force-yes)\s+["']?(true|1)\b[^\n]{0,120}\/etc\/apt\/apt\.conf|\/etc\/apt\/apt\.conf[^\n]{0,120}APT::Get::(Assume-Yes|force-yes)\b|\bassumeyes\s*=\s*(1|True|yes)\b[^\n]{0,120}\/etc\/(dnf\/dnf|yum)\.conf|\/etc\/(dnf\/dnf|yum)\.conf[^\n]{0,120}\bassumeyes\s*=\s*(1|True|yes)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|dangerous|attackers?|malicious)\b/ nocase
  condition:
    any of ($editor, $macros, $yes_everywhere) and #neg >= 0
}

/* Logging or audit switched to none, or shrunk to nothing: a container runtime's log driver set
 * to none, an API server's audit policy whose only level is None, an audit or security log
 * setting turned off, an event log capped at under a megabyte (records roll off in minutes),
 * PowerShell's script-block and module logging off, the event log service stopped, Sysmon
 * removed, journald storing nothing. */
rule exposure_logging_switched_off {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    message = "switches logging or audit off or shrinks it to nothing (log driver none, audit level None, event logs of a few KB, script-block logging off)"
  strings:
    $driver_none = /["']?log[-_]?driver["']?\s*\]?\s*[=:]\s*["']?none\b|--log-driver[= ]["']?none\b|\blogging:\s*\r?\n\s+driver:\s*["']?none\b/
    $level_none = /\blevel["']?\s*:\s*["']?None\b/
    $ctx_audit_policy = /\baudit\.k8s\.io\b/
    $ctx_level_other = /\blevel["']?\s*:\s*["']?(Metadata|Request|RequestResponse)\b/
    $audit_setting_off = /\b(audit[_.-]?log(s|ging)?|auditing|audit[_.-]?trail|pgaudit\.log|security[_.-]?log(s|ging)?)[_.-]?(enabled|enable|level)?["']?\s*[:=]\s*["']?(none|off|false|disabled|0)(["'\s,;]|$)/ nocase
    $eventlog_small = /\bLimit-EventLog\b[^\n]{0,120}-MaximumSize\s+([0-9]{1,3}\s*KB\b|[0-9]{1,6}\b)|\bwevtutil(\.exe)?\s+(sl|set-log)\s+[^\n]{0,100}\/(ms|maxsize):[0-9]{1,6}\b/ nocase
    $eventlog_var = /\bLimit-EventLog\b[^\n]{0,120}-MaximumSize\s+\$\w+/ nocase
    $ctx_small_var = /\$\w+\s*=\s*[0-9]{1,3}\s*KB\b/ nocase
    $ps_logging_off = /\b(EnableScriptBlockLogging|EnableModuleLogging|EnableTranscripting)["']?[^\n]{0,100}(-Value\s*["']?|\/d\s+["']?|=\s*dword:0{0,7}|REG_DWORD\s*,\s*)0\b/ nocase
    $service_off = /\b(Stop-Service|Set-Service)\b[^\n]{0,40}["']?EventLog\b[^\n]{0,60}|\bsc(\.exe)?\s+(stop|config)\s+["']?eventlog\b|\bsysmon(64)?(\.exe)?\s+-u\b/ nocase
    /* `\n` before the key: the drop-in written with printf or echo -e on one line */
    $journal_none = /(\\n|\b)Storage\s*=\s*["']?none\b/
    /* Round 16: rsyslog told to discard every message, macOS's unified log turned off */
    $rsyslog_discard = /(^|\n|["'])[ \t]*\*\.\*\s+(stop|~)[ \t]*(["']|\r?\n|$)/
    $ctx_rsyslog = /rsyslog/
    $unified_off = /\blog\s+config\s+[^\n]{0,40}--mode\s+["']?level:off\b/
    $ctx_journald = /journald|\[Journal\]/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malware|adversar\w+|detect\w*|alert\w*)\b/ nocase
  condition:
    (any of ($driver_none, $ps_logging_off, $service_off, $audit_setting_off) or
     ($level_none and $ctx_audit_policy and not $ctx_level_other) or
     $eventlog_small or ($eventlog_var and $ctx_small_var) or ($journal_none and $ctx_journald) or
     ($rsyslog_discard and $ctx_rsyslog) or $unified_off) and
    #neg >= 0
}

/* A stranger's identity added to the user's account or package: a public key the skill ships (a
 * literal key, or a file under the skill's own folder) registered as an SSH, deploy or GPG key;
 * a literal account added as a package owner or maintainer. A variable or a placeholder (`$USER`,
 * `<name>`, `YOUR_BOT`) is the user's own choice. High in a script or a code block; in a sentence
 * medium, where the intent layer reads the order around it. */
rule exposure_stranger_identity_added {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "adds a stranger's identity to the user's account: a key the skill ships registered, a literal package owner added"
  strings:
    $key_shipped = /\b(ssh-key|gpg-key|deploy-key|ssh-keys?|sshkeys?|keys?)\s+(add|create|import|upload)\b[^\n]{0,160}(\$\{?(SKILL_DIR|SKILL_ROOT|CLAUDE_SKILL_DIR|CLAUDE_PLUGIN_ROOT|PSScriptRoot|SCRIPT_DIR|HERE)\}?|%~dp0|\$\(dirname\b[^\n]{0,40}\)|["'\s]\.\/|["'\s](keys|assets|certs|data|resources)\/)[^\s"']*\.(pub|asc|gpg|key)\b/
    $key_literal = /\b(ssh-key|gpg-key|deploy-key|ssh-keys?|keys?|import-key-pair|authorized[_-]keys|add-metadata)\b[^\n]{0,200}(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp[0-9]+|sk-ssh-ed25519@openssh\.com)\s+AAAA[0-9A-Za-z+\/]{20,}/
    $owner_add = /\bnpm\s+owner\s+(add|a)\s+["']?[a-z0-9][\w.-]*["']?(\s|$)|\bgem\s+owner\s+\S+\s+(-a|--add)\s+["']?[\w.+-]+(@[\w.-]+)?["']?(\s|$)|\bcargo\s+owner\s+(-a|--add)\s+["']?[\w:-]+["']?(\s|$)|\bnpm\s+access\s+grant\s+read-write\s+["']?[a-z0-9][\w.-]*:[\w.-]+|\/memberships\/[a-z0-9][\w-]*["']?[^\n]{0,160}\brole["']?\s*[=:]\s*["']?(admin|maintainer)\b/
    $veto_placeholder = /(\b(npm\s+owner\s+(add|a)|--add|read-write)\s+["']?|\/memberships\/)(<|\$|\{|[A-Z][A-Z0-9_]{2,}\b|your|my[-_]|user(name)?\b|me\b|someone|name\b|login\b|example|owner\b|maintainer\b)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|phishing|scam\w*|malicious|revoke\w*|remove)\b/ nocase
  condition:
    any of ($key_shipped, $key_literal, $owner_add) and #veto_placeholder >= 0 and #neg >= 0
}

/* A literal device code the user (or the agent) is told to enter on a device-login page: the
 * session, with the user's rights, then belongs to whoever asked for that code. A skill cannot
 * know a code the user's own login prints; one written into it is a stranger's. Placeholders and
 * "the code shown" are not matched. The page and the code may stand on two steps of a list. */
rule exposure_device_code_entered {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "has a literal device code entered on a device-login page: the login is granted to whoever requested that code"
  strings:
    $device_code = /(\/login\/device|\/devicelogin|\/device\b|\/activate\b|\/deviceauth)\S{0,40}(\n?[^\n]){0,160}\b([Ee]nter|[Tt]ype|[Pp]aste|[Ii]nput|[Uu]se)\b[^\n]{0,40}[`"' ]([A-Z0-9]{4}-[A-Z0-9]{4}|[A-Z]{3}-[A-Z]{3}-[A-Z]{3}|[A-Z0-9]{9})[`"' .,]|\b([Ee]nter|[Tt]ype|[Pp]aste|[Ii]nput)\b[^\n]{0,40}[`"' ]([A-Z0-9]{4}-[A-Z0-9]{4}|[A-Z]{3}-[A-Z]{3}-[A-Z]{3})[`"' ](\n?[^\n]){0,160}(\/login\/device|\/devicelogin|\/device\b|\/activate\b)/
    $veto_placeholder = /\b(XXXX-XXXX|ABCD-\w{4}|\w{4}-XXXX|WDJB-MJHT|1234-5678|XXX-XXX-XXX|XXXXXXXXX)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|phishing|scam\w*|malicious|e\.g\.|for\s+example|such\s+as|like|shown|displayed|printed|looks?)\b/ nocase
  condition:
    $device_code and #veto_placeholder >= 0 and #neg >= 0
}

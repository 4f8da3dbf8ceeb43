/* Round 6, from the catalogues of privilege, defence-evasion, persistence and collection
 * techniques (ATT&CK T1098, T1078, T1021.001, T1562, T1070.006, T1543, T1113, T1048; the
 * Kubernetes and git hardening guides' list of what not to turn off; issue 45). High where it
 * runs; medium in prose. */

/* Root in all but name: a group that reads every disk or runs root containers, cluster-admin
 * bound to service accounts, a privileged pod with the node's root mounted, Remote Desktop
 * opened with the built-in Administrator enabled, git's ownership and file-protocol checks or
 * SSH host-key checks turned off for everything, the agent restarted as root. */
rule catalogue_privilege_grants {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "grants root-equivalent access or turns off a check for every connection or repository"
  strings:
    $k8s = /\bkubectl\s+create\s+clusterrolebinding\b[^\n]{0,160}--clusterrole[= ]cluster-admin\b[^\n]{0,160}(--serviceaccount[= ]["']?[\w$-]*:default\b|--group[= ]system:(serviceaccounts|authenticated|unauthenticated)\b)|\bkubectl\s+create\s+clusterrolebinding\b[^\n]{0,160}--clusterrole[= ]cluster-admin\b[^\n]{0,160}--serviceaccount[= ]["']?\$\{?\w+/
    $k8s_args = /["']--clusterrole[= ]cluster-admin["']/
    $ctx_k8s_sa = /--serviceaccount[= ][^\n"']{0,40}:default\b|\bsystem:serviceaccounts\b/
    $ssh_lit = /Host\s+\*(\\n|\s)+StrictHostKeyChecking\s+(no|off)\b[^\n]{0,200}\.ssh\/config/
    $acl = /\bsetfacl\s+(-[\w-]+\s+)*-m\s+["']?(u|g|user|group):[^\s:]*:[rwxX-]*w[rwxX-]*["']?\s+["']?\/etc\/(sudoers(\.d)?|shadow|passwd|group|cron\.d|crontab|systemd\/system|profile\.d|ld\.so\.preload)\b/
    $gem_tls = /\bssl_verify_mode\b["'\]]?\s*(=|:|=>|,)\s*["']?0\b/
    $pod = /\bprivileged:\s*true\b/
    $ctx_pod_root = /\bhostPath:\s*\n\s*path:\s*["']?\/["']?\s*\n|\bhostPID:\s*true\b/
    $rdp = /\bfDenyTSConnections\b[^\n]{0,60}(\/d\s+0|-Value\s+0)|\bnet\s+user\s+administrator\s+[^\n]{0,40}\/active:yes\b|\bEnable-NetFirewallRule\s+-DisplayGroup\s+["']?Remote Desktop/ nocase
    $git = /\bgit\s+config\s+(--global|--system)\s+(--add\s+)?safe\.directory\s+["']?\*["']?|\bgit\s+config\s+(--global|--system)\s+protocol\.file\.allow\s+always\b/
    $ssh = /\bHost\s+\*\s*\n[^\n]{0,10}\bStrictHostKeyChecking\s+(no|off)\b|\bStrictHostKeyChecking\s+(no|off)\b[^\n]{0,60}\n[^\n]{0,10}\bUserKnownHostsFile\s+\/dev\/null\b[^\n]{0,200}(>>|tee)\s+[^\n]{0,10}(~|\$HOME)\/\.ssh\/config|(>>|tee\s+-a)\s+["']?(~|\$HOME)\/\.ssh\/config\b[^\n]{0,100}StrictHostKeyChecking\s+no/
    $agent_root = /\bsudo\s+(-E\s+|--preserve-env\S*\s+)*(claude|codex|gemini|aider|cursor-agent|opencode|goose)\b[^\n]{0,80}(--dangerously-skip-permissions|--yolo|--dangerously-bypass-approvals-and-sandbox|--full-auto)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag|insecure\s+example)\b/ nocase
  condition:
    (any of ($acl, $k8s, $rdp, $git, $ssh, $ssh_lit, $gem_tls, $agent_root) or ($pod and $ctx_pod_root) or ($k8s_args and $ctx_k8s_sa)) and #neg >= 0
}

/* A group that is root in all but name (raw disks, kernel memory, the shadow file, LXD's
 * containers): a command that adds the user to one is high even as a step in prose. */
rule catalogue_root_groups {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "adds a user to a group that is root in all but name (disk, kmem, shadow, lxd)"
  strings:
    $group = /\b(usermod\s+(-\w+\s+)*-a?G\s*|gpasswd\s+-a\s+\S+\s+|adduser\s+\S+\s+)["']?(disk|lxd|shadow|kmem)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    $group and #neg >= 0
}

/* What is left to tell what happened, removed: Windows auditing cleared or disabled, endpoint
 * security agents stopped or disabled, the agent's own session transcripts deleted, files'
 * times reset after they were edited (timestomping). */
rule catalogue_defence_evasion {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "removes what records or watches activity (audit policy, endpoint security agents, agent transcripts, file times)"
  strings:
    $auditpol = /\bauditpol(\.exe)?\s+\/(clear|remove)\b|\bauditpol(\.exe)?\s+\/set\b[^\n]{0,80}\/(success|failure):disable\b|\bwevtutil(\.exe)?\s+sl\s+[^\n]{0,60}\/e:false\b/ nocase
    $edr = /\b(systemctl|service)\s+(stop|disable|mask)\s+[^\n]{0,60}\b(falcon-sensor|mdatp|wdavdaemon|osqueryd|wazuh-agent|auditd|sentinelone|sentinel-agent|cbagentd|cbdaemon|elastic-agent|elastic-endpoint|sysmon|ossec|crowdstrike|cylancesvc|qualys-cloud-agent|tanium\w*|velociraptor|rapid7\w*|nessusagent)\b|\blaunchctl\s+(unload|bootout|remove)\s+[^\n]{0,80}\b(crowdstrike|falcon|sentinelone|com\.microsoft\.wdav|jamf|osquery|santa)\b|\b(Stop-Service|Set-Service)\s+[^\n]{0,60}\b(Sense|WinDefend|CSFalconService|SentinelAgent|Sysmon64?|CylanceSvc|elastic-agent)\b|\bsc(\.exe)?\s+(stop|config)\s+["']?(Sense|WinDefend|CSFalconService|SentinelAgent|Sysmon64?)\b/ nocase
    $ctx_edr_names = /\b(falcon-sensor|mdatp|wdavdaemon|osqueryd|wazuh-agent|sentinelone|sentinel-agent|cbagentd|elastic-agent|elastic-endpoint|cylancesvc|qualys-cloud-agent|nessusagent|velociraptor)\b/
    $edr_var = /\b(systemctl|service)\s+(stop|disable|mask)\s+(--now\s+)?["']?\$\{?\w+/
    $transcripts = /\b(rm|del|Remove-Item|unlink|rmSync|rmtree|shred)\b[^\n]{0,60}(\.claude[\/\\]projects|\.claude[\/\\]history\.jsonl|\.codex[\/\\](sessions|history\.jsonl|log)|\.gemini[\/\\]tmp|\.cursor[\/\\][^\n]{0,20}history|\.aider\.chat\.history|\.local[\/\\]share[\/\\]opencode)/
    $touch_r = /\btouch\s+(-[acm]+\s+)*(-r|--reference[= ])\s*["']?\S+|\btouch\s+(-[acm]+\s+)*(-d|-t|--date[= ])\s*["']?[0-9@]/
    $ctx_edit = /\bsed\s+(-\w+\s+)*-i\b|\bperl\s+-\w*pi|\bpatch\s+(-p\d|<)|\bgit\s+apply\b|\bed\s+-s\b|>\s*["']?\$\w+/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    (any of ($auditpol, $edr, $transcripts) or ($edr_var and $ctx_edr_names and is_script) or ($touch_r and $ctx_edit and is_script)) and #neg >= 0
}

/* Something that comes back: a container started with a restart policy, host networking and the
 * home directory or the root mounted; husky's per-user init script written (it is sourced before
 * every git hook of every repository); VS Code tasks run on folder open; a logon task. */
rule catalogue_persistence_more {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "installs something that runs again later (a restarting container with the home directory, a global hook script, a task run on folder open)"
  strings:
    $docker = /\bdocker\s+run\b(\\\n|[^\n]){0,200}--restart[= ](always|unless-stopped)\b(\\\n|[^\n]){0,300}-v\s+["']?(\$HOME|~|\$\{HOME\}|\/)["']?:|\bdocker\s+run\b(\\\n|[^\n]){0,300}-v\s+["']?(\$HOME|~|\$\{HOME\}|\/)["']?:(\\\n|[^\n]){0,200}--restart[= ](always|unless-stopped)\b/
    $husky = /\.config["']?\s*[\/\\,+]\s*["']?husky\b/
    $ctx_write = /\b(writeFileSync|writeFile|appendFileSync|appendFile|write_text|File\.write|Set-Content|Add-Content|Out-File|open)\s*\(|\b(Set-Content|Add-Content|Out-File)\s|>>?\s*["']?(~|\$HOME)|\btee\b|\bcat\s*>/
    $ctx_init = /\binit\.sh\b/
    $vscode = /["']runOn["']\s*:\s*["']folderOpen["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    ($docker or ($husky and $ctx_write and $ctx_init) or $vscode) and #neg >= 0
}

/* A task started at every logon or boot: high in a skill's script, which runs unread; medium in
 * a code block, where a scheduler's guide shows the user how to make one. */
rule catalogue_logon_task {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    block = "medium"
    prose = "low"
    message = "registers a task that runs at every logon or boot"
  strings:
    $logon = /\bschtasks(\.exe)?\s+\/create\b[^\n]{0,200}\/sc\s+(onlogon|onstart|onidle)\b|\bRegister-ScheduledTask\b[^\n]{0,200}New-ScheduledTaskTrigger\s+-AtLogOn\b|\bNew-ScheduledTaskTrigger\s+-(AtLogOn|AtStartup)\b/ nocase
  condition:
    $logon
}

/* What the user sees or keeps, sent away: the screen recorded or captured (ffmpeg's x11grab,
 * gdigrab and avfoundation, ImageMagick's `import -window root`, screencapture, scrot, .NET's
 * CopyFromScreen) in a file that uploads; credential directories copied to a remote by rclone;
 * the home directory served on every interface; a DNS resolver library asked for names built
 * from data (Ruby Resolv, Python dnspython, Node dns). */
rule catalogue_collection_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends the screen, credential directories or the home directory to a host"
  strings:
    $screen = /\bffmpeg\b[^\n]{0,80}-f\s+(x11grab|gdigrab|avfoundation|kmsgrab)\b|\bimport\s+(-\w+\s+)*-window\s+root\b|\bscreencapture\s+(-\w+\s+)*["']?[\w$~.\/-]+|\bscrot\b|\bgnome-screenshot\b|\bCopyFromScreen\s*\(|\bImageGrab\.grab\s*\(|\bpyautogui\.screenshot\s*\(|\bmss\s*\(\s*\)|\bgrim\s+(-\w+\s+)*["']?[\w$~.\/-]+\.png\b/
    $ctx_upload = /\bcurl\s+[^\n]{0,160}(-F\b|--form|-T\b|--upload-file|--data-binary|-d\s*@)|\b(requests|httpx|session)\.(post|put)\s*\(|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,120}-(InFile|Body|Form)\b|\b(scp|rsync|rclone)\s[^\n]{0,120}[\w.-]+:|\baws\s+s3\s+cp\b|\bUploadFile\s*\(/ nocase
    $rclone = /\brclone\s+[^\n]{0,60}\b(copy|sync|move)\s+["']?(~|\$HOME|\$\{HOME\})\/(\.(ssh|aws|kube|gnupg|azure|docker|config\/gcloud|password-store)\b|\$\{?\w+)/
    $ctx_cred_dirs = /\.(ssh|aws|kube|gnupg|azure|password-store)\b/
    $archive = /\b(Compress-Archive|tar\s+-?c\w*|zip\s+-\w*r\w*|7z\s+a)\b[^\n]{0,300}(\.ssh|\.aws|\.gnupg|\.kube|\\Documents|\/Documents|\\Desktop|\/Desktop)\b/
    $serve_home = /\bpython3?\s+-m\s+http\.server\b[^\n]{0,80}(-d|--directory)\s+["']?(~|\$HOME|\$\{HOME\}|\/)["']?(\s|$)|\bcd\s+["']?(~|\$HOME|\$\{HOME\}|\/)["']?\s*(&&|;)\s*python3?\s+-m\s+http\.server\b|\b(npx\s+)?(http-server|serve)\s+["']?(~|\$HOME|\$\{HOME\})["']?\s[^\n]{0,40}(-a\s+0\.0\.0\.0|--host\s+0\.0\.0\.0|-l\s+tcp:\/\/0\.0\.0\.0)/
    $dns_lib = /\bResolv::DNS\b[^\n]{0,200}\bgetresources?\s*\(\s*["']?#\{|\bgetresources?\s*\(\s*["']#\{[^\n]{0,80}\}\.[\w.-]+["']|\bdns\.resolver\.(resolve|query)\s*\(\s*f["']\{|\bdns\.(resolve\w*|lookup)\s*\(\s*`\$\{[^\n]{0,40}\}\.[\w.-]+`/
    $ctx_data = /\b(unpack1?\s*\(\s*["']H\*|\.hex\b|bin2hex|hexlify|Base64|b64encode|toString\s*\(\s*["'](hex|base64)|each_slice|scan\s*\(\s*\/\.\{1,\d+\}|\.netrc|gem\/credentials|aws\/credentials|\.ssh|\.env)\b/
    $gh_post = /\bgh\s+(api|issue\s+(create|comment)|pr\s+(create|comment)|gist\s+create)\b(\\\n|[^\n]){0,300}(\$\([^\n)]{0,80}\b(cat|type|Get-Content)\s+[^\n)]{0,60}(\.env|\.npmrc|\.netrc|\.pypirc|\.git-credentials|\.aws\/credentials|id_[a-z0-9]+)\b|@[^\s"']{0,60}(\.env|\.netrc|\.npmrc|credentials)\b)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    ($gh_post and #neg >= 0) or (($screen and $ctx_upload and not is_prose) or ($rclone and $ctx_cred_dirs) or ($archive and $ctx_upload and is_script) or $serve_home or ($dns_lib and $ctx_data)) and #neg >= 0
}

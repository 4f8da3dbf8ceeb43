/* Persistence: something that runs again later, outside the skill (scheduled jobs, shell
 * start-up files, services, launch agents, git hooks, autostart keys). In a script high; in
 * prose (a guide that says "add this to ~/.bashrc") and in a Markdown code block shown to the
 * user (a deployment guide's `systemctl enable`) medium; what it installs, when it fetches or
 * hides something, is persistence_of_payload's (high everywhere). */

rule persistence {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    block = "medium"
    dockerfile = "low"
    message = "installs something that runs again later (cron, shell start-up file, service, launch agent, git hook)"
  strings:
    $cron = /\bcrontab\s+(-[a-z]*\s+)*(-|\/tmp\/|[\w.\/-]+\.(txt|cron))(\s|$|;|\))|\bcrontab\s+-[lr]?\s*[^\n]{0,40}\|\s*[^\n]{0,100}\|\s*crontab\b|\/etc\/cron\.(d|daily|hourly|weekly)\/|\/var\/spool\/cron\b|\(\s*crontab\s+-l/
    $rc = /(>>?|\btee\s+(-a\s+)?)\s*["']?(~|\$HOME|\$\{HOME\}|\/root|\/home\/[\w.-]+)\/\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config\/fish\/config\.fish|bash_logout)\b/
    $rc_py = /(expanduser|Path\.home|os\.homedir|homedir)\s*\(\s*["']?[^\n)]{0,5}\)?[^\n]{0,40}\.(bashrc|bash_profile|zshrc|zprofile|profile)["'][^\n]{0,60}["']a["']|open\s*\([^\n]{0,80}\.(bashrc|bash_profile|zshrc|zprofile)["']?\s*[^\n]{0,20},\s*["']a/
    $systemd = /\.config\/systemd\/user\/|\/etc\/systemd\/system\/[\w@.-]+\.(service|timer)|\bsystemctl\s+(--user\s+)?(enable|daemon-reload)\b/
    $launchd = /Library\/(LaunchAgents|LaunchDaemons)\/|\blaunchctl\s+(load|bootstrap|submit|enable)\b/
    $git_hooks = /\.git\/hooks\/[a-z-]+|\bcore\.hooksPath\b\s*=?\s*["']?(~|\$HOME|\$\{HOME\}|\/|\.\.)|--(global|system)\s+core\.hooksPath\b/
    $autostart = /\.config\/autostart\/|\/etc\/rc\.local\b|\/etc\/profile\.d\/|\/etc\/ld\.so\.preload|\/etc\/init\.d\//
    $reboot = /@reboot\s+\S/
    $crontab_var = /\bcrontab\s+["']?\$\{?\w+/
    $vscode_task = /"runOn"\s*:\s*"folderOpen"/
    $py_site = /site-packages\/[\w.-]+\.pth\b|\b(sitecustomize|usercustomize)\.py\b/
    $ssh_keys = /(>>|\btee\s+-a)\s*["']?(~|\$HOME|\/root|\/home\/[\w.-]+)\/\.ssh\/authorized_keys/
    $neg_query = /\breg(\.exe)?\s+query\b|\bGet-ItemProperty\b|\bGet-ScheduledTask\b|\bschtasks(\.exe)?\s+\/query\b/ nocase
    $win_run = /\\CurrentVersion\\(Run|RunOnce|Policies\\Explorer\\Run)\b|\bschtasks(\.exe)?\s+\/create\b|\bRegister-ScheduledTask\b|\bNew-ScheduledTask(Action|Trigger)\b|Start Menu\\Programs\\Startup|\\Startup\\[\w.-]+\.(bat|cmd|lnk|vbs|exe)|\bwmic\s+[^\n]{0,40}__EventFilter/ nocase
    $agent_config = /(>>?|\btee\s+(-a\s+)?|open\s*\(|writeFile\w*\s*\(|write_text\s*\()\s*[^\n]{0,40}(~|\$HOME|homedir\(\)|home\(\))[^\n]{0,10}\/\.(claude\/(settings[\w.]*\.json|CLAUDE\.md)|codex\/(config\.toml|AGENTS\.md)|cursor\/|gemini\/)/
    /* A PowerShell task on a calendar that runs the skill's own script, visibly, as the user:
     * what a "tidy my Downloads weekly" skill registers (round 8). Hidden, at logon, repeated
     * or fetching, it is still persistence. */
    $ctx_own_action = /\bNew-ScheduledTaskAction\b[^\n]{0,80}-Execute\s+["']?(pwsh|powershell)(\.exe)?["']?[^\n]{0,80}-File\b/ nocase
    $ctx_own_script = /\bJoin-Path\s+\$PSScriptRoot\b/ nocase
    $ctx_calendar = /\bNew-ScheduledTaskTrigger\s+-(Daily|Weekly)\b/ nocase
    $ctx_hidden = /-WindowStyle\s+Hidden|-AtLogOn\b|-AtStartup\b|-RepetitionInterval\b|https?:\/\/|DownloadString|-e(nc(odedcommand)?)?\s+[A-Za-z0-9+\/=]{20}|\bHighest\b/ nocase
    /* Persistence the user opted into (round 9): the script schedules only when called with a
     * flag (`--schedule`), tells the user how to remove it, and what it schedules is visible (no
     * hidden path, no silenced output, no fetch). Still reported, at medium. */
    $ctx_optin = /\bif\s+\[\[?\s+["']?\$\{?1(:-)?\}?["']?\s+==?\s+["']?--?[\w-]+|\bcase\s+["']?\$\{?1(:-)?\}?["']?\s+in\b|["']--[\w-]+["']\s+in\s+sys\.argv\b|\bargs\.(schedule|install|cron|enable)\b|\bprocess\.argv\.includes\s*\(\s*["']--/
    $ctx_undo = /\b(echo|printf|print|Write-(Host|Output)|console\.log)\b[^\n]{0,120}\b(remove|undo|disable|uninstall|turn\s+(it\s+)?off)\b[^\n]{0,40}\b(with|by|run|:)|\bUnregister-ScheduledTask\b|\bcrontab\s+-e\b/ nocase
    $ctx_cron_hidden = /(^|["'\s])([0-9*\/,-]+\s+){5}[^\n]{0,200}(\/\.[\w-]|>\s*\/dev\/null|\bcurl\b|\bwget\b|\bbase64\b|\bnohup\b)|@reboot\b/
  condition:
    #neg_query >= 0 and
    (($cron and not ($ctx_optin and $ctx_undo and not $ctx_cron_hidden)) or
     any of ($rc, $rc_py, $systemd, $launchd, $git_hooks, $autostart, $reboot, $crontab_var,
             $vscode_task, $py_site, $ssh_keys, $agent_config) or
     ($win_run and not ($ctx_calendar and not $ctx_hidden and (($ctx_own_action and $ctx_own_script) or $ctx_undo))))
}

/* What is made to run again fetches or hides something: high wherever it stands. */
rule persistence_of_payload {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    message = "installs a network fetch, a socket or encoded code to run again later"
  strings:
    $rc = /\b(curl|wget|nc|ncat|\/dev\/tcp|base64|nohup|python[0-9.]*\s+-c)\b[^\n]{0,200}(>>?|\btee\s+(-a\s+)?)\s*["']?(~|\$HOME|\$\{HOME\}|\/root|\/home\/[\w.-]+)\/\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)\b/
    $cron_line = /(^|\n)[ \t>`]*(@(reboot|hourly|daily|weekly)|([0-9*\/,-]+[ \t]+){5}(root[ \t]+)?)[^\n]{0,200}\b(curl|wget|nc|ncat|base64|bash\s+-i)\b/
    $crontab = /\bcrontab\b[^\n]{0,200}\b(curl|wget|ncat|\/dev\/tcp|base64)\b|\b(curl|wget|\/dev\/tcp|base64)\b[^\n]{0,200}\|\s*crontab\s+-/
    $unit = /\bExecStart(Pre|Post)?\s*=\s*[^\n]{0,200}\b(curl|wget|nc|ncat|\/dev\/tcp|base64)\b/
    $run_key = /\\CurrentVersion\\Run[^\n]{0,200}(-enc|-w(indowstyle)?\s+hidden|\biex\b|downloadstring|mshta|https?:)/ nocase
  condition:
    any of them
}

/* Round 5, by technique (ATT&CK T1547.001, .004, .014, T1546.002, .003, .007, .010, .015,
 * T1137.002): the Windows autostart places the rules above did not name, written by `reg add`,
 * `Set-ItemProperty`/`New-ItemProperty` or WMI: the `Load`/`Run` values of `Windows NT\...\Windows`,
 * Active Setup's `StubPath`, `AppInit_DLLs`, `AppCertDlls`, `BootExecute`, the `Startup` user shell
 * folder moved, Terminal Server's install-time `Run`, a screensaver program, a COM object's
 * server in the user's hive, Office's test DLL, netsh helpers and a WMI event consumer. A
 * deployment guide shows none of these: high in scripts and code blocks, medium in prose. */
rule persistence_windows_autostart_more {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "registers a program to run at logon or on an event through a less watched Windows autostart"
  strings:
    $ctx_write = /\breg(\.exe)?\s+(add|import)\b|\b(Set|New)-ItemProperty\b|\bNew-Item\b|\bSetValue\s*\(|\bRegistry\.SetValue\b|\bwinreg\.SetValueEx\b|\bSet-WmiInstance\b|\bNew-CimInstance\b|\bwmic(\.exe)?\b[^\n]{0,60}\bcreate\b|\bnetsh(\.exe)?\s+add\s+helper\b|\bRegister-WmiEvent\b/ nocase
    $win_load = /\\Windows NT\\CurrentVersion\\Windows\b[^\n]{0,80}\b(Load|Run)\b|\\Active Setup\\Installed Components\\[^\n]{0,120}\bStubPath\b|\bAppInit_DLLs\b|\bAppCertDlls\b|\\Session Manager\b[^\n]{0,60}\bBootExecute\b|\\User Shell Folders\b[^\n]{0,60}\bStartup\b|\\Terminal Server\\Install\\[^\n]{0,120}\\Run(Once)?\b|\\Control Panel\\Desktop\b[^\n]{0,60}\bSCRNSAVE\.EXE\b|\\Software\\Classes\\CLSID\\\{[^\n]{0,80}\\(InprocServer32|LocalServer32)\b|\\Office test\\Special\\Perf\b|\bnetsh(\.exe)?\s+add\s+helper\b|\b(__EventFilter|CommandLineEventConsumer|ActiveScriptEventConsumer|__FilterToConsumerBinding)\b/ nocase
    $neg_query = /\breg(\.exe)?\s+query\b|\bGet-ItemProperty\b|\bGet-WmiObject\b|\bGet-CimInstance\b/ nocase
  condition:
    $win_load and $ctx_write and #neg_query >= 0
}

/* A global git alias that runs a shell command (`!`) which starts a hidden or downloaded script:
 * it runs again whenever the user types the alias (ATT&CK T1546.004 by another door). An alias
 * of git subcommands (`alias.co checkout`) or a visible helper is not this. */
rule persistence_git_alias_hidden {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "a global git alias runs a hidden or downloaded script whenever it is typed"
  strings:
    $alias = /\bgit\s+config\s+(--global|--system)\s+alias\.[\w-]+\s+["']!\s*[^\n]{0,120}((\bsh|\bbash|\bsource|\bpython[0-9.]*|\bnode|\.)\s+["']?(~|\$HOME|\$\{HOME\}|\/tmp)?[^\s"']{0,60}\/\.[\w-]|\b(curl|wget)\b[^\n]{0,80}\|\s*(ba|z)?sh\b|&\s*(git|$))/
    $ctx_hidden = /\/\.[\w-]+\/[^\s"']{0,60}\.(sh|py|js)\b|\b(curl|wget)\b|>\s*\/dev\/null\s+2>&1\s*&/
  condition:
    $alias and $ctx_hidden
}

/* Round 10 (issue 45): a file or shortcut written into the Startup folder (found by
 * GetFolderPath('Startup'), shell:startup or its path): run at every logon. */
rule startup_folder_write {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "puts a program or shortcut in the Startup folder (runs at every logon)"
  strings:
    $folder = /GetFolderPath\s*\(\s*["']?(\[Environment\+SpecialFolder\]::)?(Common)?Startup["']?\s*\)|SpecialFolder\]?::(Common)?Startup\b|\bshell:(common\s)?startup\b|Start Menu[\/\\]Programs[\/\\]Startup\b|\\Startup\\/ nocase
    $ctx_write = /\bCreateShortcut\s*\(|\.lnk\b|\b(Copy-Item|Move-Item|Set-Content|Out-File|New-Item|copy|move|mklink)\b|\bshutil\.copy\w*\s*\(|\bWriteAllText\s*\(/ nocase
    /* the folder's contents globbed are read (a forensic triage copies them out), not written */
    $veto_glob = /Startup["']?[\/\\]\*/ nocase
  condition:
    $folder and $ctx_write and #veto_glob >= 0
}

/* Round 10: authorized_keys opened for appending or written with a key the file carries, from any
 * language (Python open(..., "a"), Node appendFileSync, PowerShell Add-Content, Go O_APPEND). */
rule authorized_keys_append_code {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "adds an SSH key to authorized_keys (lasting remote access)"
  strings:
    $append = /authorized_keys["'][^\n]{0,40}["']a\+?b?["']|\b(appendFileSync|appendFile|Add-Content|AppendAllText)\s*\(?[^\n]{0,80}authorized_keys|authorized_keys[^\n]{0,80}\bO_APPEND\b/
    $ak = /authorized_keys/
    $ctx_key = /["']\s*(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+)\s+AAAA[A-Za-z0-9+\/]{8,}/
  condition:
    $append or ($ak and $ctx_key)
}

/* Round 11 (issue 45): a program downloaded into a hidden place of the home (a dot-file, or a
 * dot-folder inside ~/.cache, ~/.local/share, ...) and, in the same file, made to start again:
 * appended to a login or start-up file (.zlogin, .bash_login, .profile, ...), a systemd user
 * unit (.service, .path, .timer), a launch agent or a crontab. An installer that puts a tool in
 * ~/.local/bin is not hidden. */
rule persistence_of_hidden_download {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    message = "downloads a program into a hidden place and makes it start again at login or on an event"
  strings:
    $dl_hidden = /\b(curl|wget)\b[^\n]{0,300}\s(-[a-zA-Z]*[oO]|--output(-document)?)[\s=]+["']?(~|\$HOME|\$\{HOME\})\/(\.[\w.-]+\/([\w.-]+\/)*\.[\w-]|\.[\w-]+(["'\s;&]|$))/
    $ctx_startup = /\.(zlogin|bash_login|bash_profile|bashrc|zshrc|zprofile|zshenv|profile|config\/fish\/config\.fish)\b/
    $ctx_append = />>\s*["']?[~$\w\/.{}-]+|\btee\s+-a\b/
    $ctx_unit = /\bsystemctl\s+--user\s+(enable|start)\b|\.config\/systemd\/user\/|\bWantedBy\s*=|\bPath(Changed|Modified|Exists)\s*=|\bOnCalendar\s*=/
    $ctx_launchd = /Library\/LaunchAgents\/|\blaunchctl\s+(load|bootstrap)\b/
    $ctx_cron = /\bcrontab\s+-|@reboot\b/
  condition:
    $dl_hidden and (($ctx_startup and $ctx_append) or $ctx_unit or $ctx_launchd or $ctx_cron)
}

/* Round 11: a permanent WMI event subscription, in a MOF compiled with mofcomp or created from
 * PowerShell (Set-WmiInstance / New-CimInstance of __EventFilter and a consumer bound to it):
 * code that Windows runs again on a timer or an event, outside any task list. */
rule persistence_wmi_subscription {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "registers a permanent WMI event subscription (a filter bound to a script or command consumer)"
  strings:
    $filter = /\b(instance\s+of\s+__EventFilter|-Class(Name)?\s+["']?__EventFilter\b)/ nocase
    $consumer = /\b(ActiveScriptEventConsumer|CommandLineEventConsumer)\b/
    $binding = /\b__FilterToConsumerBinding\b/
    $neg_detect = /\b(Get-WmiObject|Get-CimInstance|Remove-WmiObject|Remove-CimInstance)\b[^\n]{0,80}__(EventFilter|FilterToConsumerBinding)/ nocase
  condition:
    $filter and $consumer and $binding and not $neg_detect
}

/* Round 12 (issue 45): git's global or system settings that make every repository run the
 * skill's code: `core.hooksPath` pointed at a folder outside the repository (every commit,
 * merge and push of every repository runs its hooks, and each repository's own hooks stop
 * running), `init.templateDir` (hooks copied into every new clone), `core.fsmonitor` set to a
 * program (run by every `git status`). A repository's own `core.hooksPath .githooks`, or
 * `core.fsmonitor true` (git's built-in daemon), is not this. */
rule persistence_git_global_hooks {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "git's global settings make every repository run the skill's hooks or program"
  strings:
    $hooks = /\bgit\s+config\s+(-\S+\s+)*--(global|system)\s+(-\S+\s+)*(core\.hooksPath|init\.templateDir)\s+["']?(~|\$HOME|\$\{HOME\}|\$XDG_\w+|\/|[A-Za-z]:\\|%\w+%|\$env:)/
    $fsmonitor = /\bgit\s+config\s+(-\S+\s+)*--(global|system)\s+(-\S+\s+)*core\.fsmonitor\s+["']?(~|\$HOME|\$\{HOME\}|\/|\.\/|[\w-]+\.(sh|py|js|pl|rb|exe)\b)/
    $file = /(^|\n)\s*\[core\][^\[]{0,200}\bhooksPath\s*=\s*["']?(~|\/|\$HOME)|(^|\n)\s*\[init\][^\[]{0,200}\btemplateDir\s*=\s*["']?(~|\/|\$HOME)/
    $ctx_global = /\.gitconfig\b|\.config\/git\/config\b|\/etc\/gitconfig\b/
  condition:
    $hooks or $fsmonitor or ($file and $ctx_global)
}

/* Round 12: macOS login-time persistence that hides itself or runs as root: a login item made
 * hidden with osascript (no Dock icon, no window at login), the loginwindow LoginHook /
 * LogoutHook (a script run as root at every login) or its AutoLaunchedApplicationDictionary.
 * A visible login item a menu-bar app asks for stays the older rules' medium. */
rule persistence_login_item_hidden {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "adds a hidden login item or a login hook that runs at every login"
  strings:
    $hidden_item = /\bmake\s+(new\s+)?login\s+item\b[^\n]{0,300}\bhidden\s*:\s*true\b/ nocase
    $login_hook = /\bdefaults\s+write\s+[^\n]{0,80}\bloginwindow\s+(LoginHook|LogoutHook|AutoLaunchedApplicationDictionary)\b/
    $jxa_hidden = /\bloginItems\.push\s*\([^\n]{0,200}hidden\s*:\s*true\b/
  condition:
    any of them
}

/* Round 12: a global shell-environment hook that fetches code: direnv's user-wide `direnvrc`
 * (run for every project with an .envrc) made to `source_url` a script, or to `curl`/`wget`
 * one: a stranger's script runs on every `cd` into any project. */
rule persistence_direnv_global_fetch {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "makes direnv's global direnvrc fetch and run a script in every project"
  strings:
    $write = /(>>?|\btee\s+(-a\s+)?)\s*["']?(~|\$HOME|\$\{HOME\}|\$XDG_CONFIG_HOME)\/(\.config\/)?direnv\/direnvrc\b|\.direnvrc\b/
    $ctx_fetch = /\bsource_url\s+["']?https?:|\beval\s+["']?\$\(\s*(curl|wget)\b|\b(curl|wget)\b[^\n]{0,200}\|\s*(ba)?sh\b|\bsource\s+<\(\s*(curl|wget)\b/
  condition:
    $write and $ctx_fetch
}

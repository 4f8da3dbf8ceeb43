/* Round 9 (issue 45): classes of heldout7's command misses, written by technique from the
 * public catalogues, each with benign twins in tests/security/audit_shapes.py (r9-*, ok9-*):
 * ATT&CK T1490 (inhibit system recovery), T1486 (data encrypted for impact), T1552.005 (cloud
 * instance metadata), T1115 (clipboard data), T1082/T1016/T1033 (discovery sent out), T1119 and
 * T1560 (documents archived and sent), T1547.001/T1543/T1053.003 (autostart, user services,
 * cron), T1548.003 (sudo fed a stored password), T1027 (decoded strings run, assemblies loaded
 * from base64), T1105 (a download saved and run), ShellCheck SC2115 (rm -rf "$var"/* with var
 * unset), T1583.001 (lookalike hosts). The harm is in the combination: destruction with the
 * whole scope or no way back, a secret with a way out, persistence with hidden or a
 * stranger's code, a download with its execution. High where it runs (a script, a code block
 * or an inline command in a step); medium in prose unless said otherwise. */

/* Restore points, shadow copies, backups and boot recovery deleted or turned off: what
 * ransomware does first so the user cannot roll back (T1490). Listing or sizing them is not. */
rule impact_inhibit_recovery {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes or disables the system's restore points, shadow copies or backups (no way back)"
  strings:
    $vss = /\bvssadmin(\.exe)?\s+(delete\s+shadows|resize\s+shadowstorage\b[^\n]{0,80}\/maxsize=\s*[0-9]{1,3}(MB|KB)?\b)/ nocase
    $wmic = /\bwmic(\.exe)?\s+shadowcopy\s+(where\b[^\n]{0,60})?delete\b/ nocase
    $cim = /\bWin32_ShadowCopy\b[^\n]{0,120}(\|\s*(Remove-CimInstance|Remove-WmiObject|ForEach-Object\s*\{\s*\$_\.Delete\s*\(\s*\)))|\bWin32_ShadowCopy\b[^\n]{0,120}\.Delete\s*\(/ nocase
    $bcd = /\bbcdedit(\.exe)?\s+\/set\s+(\{\w+\}\s+)?(recoveryenabled\s+no|bootstatuspolicy\s+ignoreallfailures)\b/ nocase
    $wbadmin = /\bwbadmin(\.exe)?\s+delete\s+(catalog|systemstatebackup|backup)\b/ nocase
    $diskshadow = /\bdiskshadow\b[^\n]{0,60}\bdelete\s+shadows\s+all\b/ nocase
    $restore = /\bDisable-ComputerRestore\b|\bSystemRestore\b[^\n]{0,60}\bDisableSR\b|\\SystemRestore\b[^\n]{0,80}\bDisable(SR|Config)\b[^\n]{0,40}\b1\b/ nocase
    $tm = /\btmutil\s+(disable\b|delete\s|deletelocalsnapshots\s+\/\s*($|[;&|])|thinlocalsnapshots\s+\/\s+[0-9]{9,})/
    $neg = /\b(never|don'?t|do\s+not|attackers?|ransomware|malware|detect(s|ion|ed)?|sigma|alert\s+on|red\s+flag)\b/ nocase
  condition:
    any of ($vss, $wmic, $cim, $bcd, $wbadmin, $diskshadow, $restore, $tm) and #neg >= 0
}

/* The whole system journal erased: a vacuum that keeps (almost) nothing, every login and
 * error record gone (T1070.002). A vacuum to a size or age that keeps days is routine. */
rule impact_journal_erased {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "erases the whole system journal (every log record, logins included)"
  strings:
    $vacuum = /\bjournalctl\b[^\n]{0,60}--vacuum-(time=\s*(0|[0-9]{1,2}s|1m|1min)\b|size=\s*(0|1)[KMB]?\b|files=\s*0\b)/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect(s|ion|ed)?|red\s+flag)\b/ nocase
  condition:
    $vacuum and #neg >= 0
}

/* A recursive delete whose target falls back to the home directory or the root when a
 * variable is unset: the default is the disaster (ShellCheck SC2115's bug, written in each
 * language: ${X:-$HOME}, os.environ.get(X, home), process.env.X || os.homedir()). */
rule scope_destroy_default_home {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes recursively a path that defaults to the home directory or the root when a variable is unset"
  strings:
    $sh = /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+|--recursive\s+|-[a-zA-Z]*f[a-zA-Z]*\s+)+["']?\$\{\w+:?-(\$HOME|\$\{HOME\}|~|\/)\}["']?\/?(\*|["']?\s|["']?$|["']?;)/
    $py_inline = /\b(shutil\.rmtree|rmtree|os\.removedirs)\s*\(\s*os\.(environ\.get|getenv)\s*\(\s*["']\w+["']\s*,\s*(os\.path\.expanduser\s*\(\s*["']~["']\s*\)|str\s*\(\s*Path\.home\s*\(\s*\)\s*\)|Path\.home\s*\(\s*\)|["'](\/|~)["']|os\.environ\[["']HOME["']\])/
    $py_default = /=\s*os\.(environ\.get|getenv)\s*\(\s*["']\w+["']\s*,\s*(os\.path\.expanduser\s*\(\s*["']~["']\s*\)|str\s*\(\s*Path\.home\s*\(\s*\)\s*\)|Path\.home\s*\(\s*\)|["'](\/|~)["']|os\.environ\[["']HOME["']\])\s*\)/
    $ctx_py_rm = /\b(shutil\.rmtree|rmtree)\s*\(\s*\w+\b/
    $js_inline = /\b(rmSync|rmdirSync|rimraf\.sync|rimraf|fs\.rm|fse?\.remove(Sync)?|removeSync)\s*\(\s*process\.env\.\w+\s*(\|\||\?\?)\s*(os\.homedir\s*\(\s*\)|["']\/["']|process\.env\.HOME\b)/
    $js_default = /=\s*process\.env\.\w+\s*(\|\||\?\?)\s*(os\.homedir\s*\(\s*\)|["']\/["']|process\.env\.HOME\b)/
    $ctx_js_rm = /\b(rmSync|rmdirSync|rimraf|removeSync)\s*\(\s*\w+\b[^\n]{0,60}(recursive|force|\))/
    $rb = /\bFileUtils\.rm_r[f]?\s*\(?\s*ENV\.fetch\s*\(\s*["']\w+["']\s*,\s*(Dir\.home|["'](\/|~)["'])/
    $neg = /\b(never|don'?t|do\s+not|attackers?|bug|SC2115|wrong|bad)\b/ nocase
  condition:
    ($sh or $py_inline or $js_inline or $rb or ($py_default and $ctx_py_rm and lang == "python") or ($js_default and $ctx_js_rm and lang == "js")) and #neg >= 0
}

/* rm -rf "$VAR"/* (or "$VAR/"*) of a variable the script never sets and does not check, with
 * no `set -u`: unset, it is rm -rf /* (SC2115). audit_unset.c drops the match when the file
 * assigns, reads, checks or defaults the variable, or the shell stops on unset names. */
rule scope_rm_unset_var {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    unset_var = "veto"
    message = "deletes everything under a variable the script never sets: unset, it deletes from the root (rm -rf \"$X\"/*)"
  strings:
    $rm = /\brm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*["']?\$\{?[A-Za-z_]\w*\}?["']?\/["']?\*/
    $neg = /\b(never|don'?t|do\s+not|SC2115|wrong|bad)\b/ nocase
  condition:
    $rm and #neg >= 0 and not is_prose
}

/* The remote's main branch replaced by a fresh orphan commit and force-pushed: every commit,
 * tag history and contributor's work on it gone for everyone (not one file removed from the
 * history, which git filter-repo does). */
rule scope_orphan_force_main {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "replaces the remote's main branch with a fresh orphan commit (the whole history destroyed)"
  strings:
    $ctx_orphan = /\b(git\s+(checkout|switch)\s+--orphan\b|git\s+switch\s+-c\s+\S+\s+--orphan\b|git\s+update-ref\s+-d\s+(refs\/heads\/)?(main|master)\b)/
    $push = /\bgit\s+push\s+[^\n]{0,60}(--force\b|-f\b|--force-with-lease\b|\s\+)[^\n]{0,60}\b(\S+:)?(refs\/heads\/)?(main|master|trunk)\b/
    $neg = /\b(never|don'?t|do\s+not|gh-pages|attackers?)\b/ nocase
  condition:
    $ctx_orphan and $push and #neg >= 0
}

/* A download saved to a hidden file in a temporary folder and run, or a script saved to a
 * temporary folder and handed to an interpreter, in separate commands: the same as piping it
 * into a shell, spread over lines. A vendor's installer is medium (download_exec's list). */
rule download_tmp_then_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a download is saved to a temporary or hidden file and run: whatever the server sends runs"
  strings:
    $hidden = /\b(curl|wget)\b[^\n]{0,200}(\s-[a-zA-Z]*[oO]\s*|--output[= ]|--output-document[= ]|\s>\s*)["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?|\$\{TMPDIR:-\/tmp\})\/\.[\w.-]+/
    $script = /\b(curl|wget)\b[^\n]{0,200}(\s-[a-zA-Z]*[oO]\s*|--output[= ]|--output-document[= ]|\s>\s*)["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?)\/[\w.-]+\.(sh|bash|py|pl|rb|ps1)\b/
    $veto_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh\/|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew|nvm-sh|pyenv|rbenv|asdf-vm)\/|bun\.sh\/|deno\.land\/|get\.pnpm\.io\/|install\.python-poetry\.org|fnm\.vercel\.app\/|claude\.ai\/install|get\.sdkman\.io|ollama\.com\/install|pyenv\.run|tailscale\.com\/install|install\.determinate\.systems|nixos\.org\/nix|sh\.brew\.sh|get\.helm\.sh|raw\.githubusercontent\.com\/helm\/|cli\.github\.com|dl\.google\.com|packages\.microsoft\.com|dot\.net\/v1\/dotnet-install|aka\.ms\/|get\.k3s\.io|starship\.rs\/install|mise\.run|bootstrap\.pypa\.io\/get-pip\.py|opencode\.ai\/install|cursor\.com\/install|gh\.io\/copilot-install|volta\.sh)/
    $ctx_run_hidden = /(\bchmod\s+(-\w+\s+)*(\+x|[ugoa]*\+[rw]*x|0?[0-7]?[1357][0-7]{2})\s+["']?|(^|[\s;&|(`])|\b((ba|z|da)?sh|source|\.|python[0-9.]*|perl|ruby|node)\s+)["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?)\/\.[\w.-]+/
    $ctx_run_script = /\b((ba|z|da)?sh|source|python[0-9.]*|perl|ruby|pwsh|powershell(\.exe)?\s+(-\w+\s+)*-File)\s+["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?)\/[\w.-]+\.(sh|bash|py|pl|rb|ps1)\b/
    $ctx_verify = /\b(sha(1|224|256|384|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bgpg2?\s+(--\S+\s+)*--verify\b|\bcosign\s+verify(-blob)?\b|\bminisign\s+-V\b|\bgh\s+attestation\s+verify\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    not $ctx_verify and #neg >= 0 and #veto_vendor >= 0 and
    (($hidden and $ctx_run_hidden) or ($script and $ctx_run_script))
}

/* The package index or registry replaced for a whole install by a host that presents itself as
 * a mirror or registry (its name says mirror, pypi, npm, proxy, registry, cache, index) and is
 * neither the official one, a well-known public mirror nor a placeholder for the user's own:
 * every dependency resolved from a stranger's index. A vendor's index for its own package
 * (sdk.acme.dev) and an extra index (which only adds one) stay medium. */
rule supply_index_replaced {
  meta:
    id = "audit/supply-chain"
    category = "supply-chain"
    severity = "high"
    prose = "medium"
    message = "replaces the whole package index or registry with an unknown host: every dependency comes from it"
  strings:
    $pip = /\b(pip[0-9.]*|uv\s+pip|python[0-9.]*\s+-m\s+pip)\s+install\b[^\n]{0,160}(--index-url|\s-i)[\s=]+["']?https?:\/\/[\w.-]*(mirror|pypi|npm|proxy|registry|cache|index|gems)[\w.-]*/
    $npm = /\b(npm|pnpm|yarn)\s+(install|i|add|ci)\b[^\n]{0,160}--registry[\s=]+["']?https?:\/\/[\w.-]*(mirror|pypi|npm|proxy|registry|cache|index|gems)[\w.-]*/
    $gem = /\bgem\s+install\b[^\n]{0,160}(--clear-sources\b[^\n]{0,80}--source|--source\b[^\n]{0,80}--clear-sources)\b[^\n]{0,40}https?:\/\/[^\s"']+/
    $veto_official = /https?:\/\/(registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|registry\.npm\.taobao\.org|npm\.pkg\.github\.com|pypi\.org|pypi\.python\.org|files\.pythonhosted\.org|test\.pypi\.org|download\.pytorch\.org|pypi\.nvidia\.com|pypi\.ngc\.nvidia\.com|data\.pyg\.org|rubygems\.org|localhost|127\.0\.0\.1|0\.0\.0\.0|pypi\.tuna\.tsinghua\.edu\.cn|mirrors\.aliyun\.com|mirrors\.cloud\.tencent\.com|pypi\.mirrors\.ustc\.edu\.cn|mirrors\.ustc\.edu\.cn|repo\.huaweicloud\.com|mirrors\.huaweicloud\.com|pypi\.douban\.com|mirror\.baidu\.com|mirrors\.bfsu\.edu\.cn|mirrors\.sjtug\.sjtu\.edu\.cn|pypi\.doubanio\.com|download\.pytorch\.org|wheels\.myhloli\.com|pypi\.fury\.io|[\w.-]*\.pkg\.dev|[\w.-]*\.jfrog\.io|[\w.-]*\.amazonaws\.com|\$|\{|<|\.\.\.)/
    $veto_placeholder = /(your[-_.]|my[-_.]?(company|org|registry|index)|internal\.|corp\.|private\.|artifactory|nexus|gitlab|azure|devpi|verdaccio)/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|confusion|typosquat)\b/ nocase
  condition:
    any of ($pip, $npm, $gem) and #neg >= 0 and #veto_official >= 0 and #veto_placeholder >= 0
}

/* The clipboard polled in a loop and kept: every password copied from a manager lands in a
 * file or leaves (T1115). One read, converted and printed, is not this. */
rule clipboard_poll_logged {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "polls the clipboard in a loop and keeps what it reads (passwords copied from a manager included)"
  strings:
    $clip = /\bGet-Clipboard\b|\bpbpaste\b|\bxclip\s+[^\n]{0,30}-o\b|\bxsel\s+[^\n]{0,20}(-o|--output|-b)\b|\bwl-paste\b|\bpyperclip\.paste\s*\(|\bclipboardy\.read(Sync)?\s*\(|\bClipboard\]::GetText\s*\(|\bClipboard\.GetText\s*\(|\bnavigator\.clipboard\.readText\s*\(|\bClipboard\.paste\b|\bwin32clipboard\.GetClipboardData\s*\(|\bclipboard\.paste\s*\(/
    $ctx_loop = /\bwhile\s*\(\s*\$true\s*\)|\bwhile\s+(true|:|True|1)\b|\bwhile\s*\(\s*(true|1)\s*\)|\bsetInterval\s*\(|\bfor\s*\(\s*;\s*;\s*\)|\bloop\s+do\b|\bwhile\s+sleep\b/
    $ctx_keep = /\b(Add-Content|Out-File\s+[^\n]{0,60}-Append|appendFileSync|appendFile)\b|>>\s*["']?[\w$~\/.{}-]|\bopen\s*\([^\n]{0,80},\s*["']a[b+]?["']|\.write\s*\(|\b(requests|httpx)\.post\s*\(|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,60}-Method\s+Post|\bcurl\s[^\n]{0,80}(-d|--data|-F)\b/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    is_script and $clip and $ctx_loop and $ctx_keep and #neg >= 0
}

/* Host reconnaissance sent out: two or more discovery commands (who the user is, what the
 * host runs, its network) in a script that posts to a host (T1082, T1016, T1033, T1518). A
 * hardware summary printed to the user is not. */
rule recon_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "collects host reconnaissance (system, user, network, installed programs) and sends it to a host"
  strings:
    $ctx_sysinfo = /\bsysteminfo(\.exe)?\b|\bGet-ComputerInfo\b|\buname\s+-a\b|\bhostnamectl\b|\bsw_vers\b|\bsystem_profiler\b|\bplatform\.uname\s*\(/
    $ctx_user = /\bwhoami\s+\/(all|priv|groups)\b|(^|[\s;(`$])id(\s*\)|\s*;|\s*$|\s+-a\b)|\bnet\s+(user|localgroup)\b|\bgetpass\.getuser\s*\(|\bos\.userInfo\s*\(/
    $ctx_net = /\bipconfig\s+\/all\b|\bip\s+(a|addr|address|route)\b|\bifconfig\b|\bnetstat\s+-[a-z]*n|\bGet-NetIPConfiguration\b|\barp\s+-a\b|\bnetworkInterfaces\s*\(/
    $ctx_progs = /\\CurrentVersion\\Uninstall\b|\bGet-(Package|AppxPackage)\b|\bwmic\s+product\b|\bdpkg\s+-l\b|\bbrew\s+list\b|\bls\s+\/Applications\b|\btasklist\b|\bps\s+aux\b/
    $send = /\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,80}-Method\s+["']?Post|\bcurl\s[^\n]{0,200}(-d\b|--data|-F\b|--form|-T\b|--upload-file)|\b(requests|httpx)\.post\s*\(|\bfetch\s*\([^\n]{0,200}method\s*:\s*["']POST|\bwebhooks?\b[^\n]{0,80}(post|send|Invoke|curl)/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    is_script and $send and #neg >= 0 and
    2 of ($ctx_sysinfo, $ctx_user, $ctx_net, $ctx_progs)
}

/* The user's documents (office files and PDFs under Desktop or Documents) gathered into an
 * archive and uploaded: the document grab of infostealers (T1119, T1560, T1041). */
rule documents_archived_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "archives the user's documents (Desktop, Documents) and uploads them"
  strings:
    $ctx_docs = /(~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%|homedir\s*\(\s*\)|home\s*\(\s*\)|expanduser\s*\(\s*["']~)[^\n]{0,10}[\/\\"' ,]+(Desktop|Documents)\b[^\n]{0,80}\*\.?\(?(pdf|docx?|xlsx?|pptx?|txt)|\b(Desktop|Documents)\b[^\n]{0,60}-(Include|Filter)\s+[^\n]{0,20}\*\.(pdf|docx?|xlsx?)/ nocase
    $ctx_archive = /\bzip\s+-[a-zA-Z]*\b|\bzip\s+[^\n-]|\btar\s+-?[a-z]*c[a-z]*f?\b|\bCompress-Archive\b|\bzipfile\.ZipFile\s*\(|\bshutil\.make_archive\s*\(|\barchiver\s*\(|\bditto\s+-c\b|\b7z\s+a\b/
    $up = /\bcurl\s[^\n]{0,200}(-F\s*["']?\w+=@|--form\s+["']?\w+=@|-T\s|--upload-file|--data-binary\s+@)|\b(requests|httpx)\.(post|put)\s*\([^\n]{0,200}files\s*=|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,200}-(InFile|Form)\b|\brclone\s+(copy|sync)\b|\bscp\s/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    is_script and $ctx_docs and $ctx_archive and $up and #neg >= 0
}

/* The whole project or home directory copied recursively to a literal host: sources, .env and
 * .git leave (T1048). A variable or placeholder host is the user's own; a build output
 * folder (dist/, build/) is a deploy. */
rule project_copied_out {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "copies the whole project or home directory to a remote host"
  strings:
    $scp = /\bscp\s+(-[a-zA-Z0-9]+\s+)*-[a-zA-Z]*r[a-zA-Z]*\s+(-[a-zA-Z0-9]+\s+)*["']?(\.|\.\/|~|~\/|\$HOME\/?|\$PWD\/?|\$\(pwd\)\/?|\$\{PWD\}\/?)["']?\s+[\w.-]+@((\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(\.[a-z0-9-]+)+):/
    $rsync = /\brsync\s+(-[a-zA-Z]*[ar][a-zA-Z]*\s+|--[\w-]+(=\S+)?\s+)+["']?(\.|\.\/|~|~\/|\$HOME\/?|\$PWD\/?|\$\(pwd\)\/?)["']?\s+[\w.-]+@((\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(\.[a-z0-9-]+)+):/
    $veto_placeholder = /@(localhost|127\.0\.0\.1|your[-_.]|my[-_.]?(server|host)|server\b|host\b|example\b|remote\b)/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?)\b/ nocase
  condition:
    ($scp or $rsync) and #veto_placeholder >= 0 and #neg >= 0
}

/* Git hooks turned on for every repository of the user, from the skill's own directory or the
 * current one: the skill's code runs on every commit anywhere (T1546). A project's own
 * .githooks set without --global is routine. */
rule hookspath_global_skill {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "points git's hooks for every repository of the user at the skill's or current directory"
  strings:
    $hp = /\bgit\s+config\s+(--global|--system)\s+core\.hooksPath\s+["']?(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|\.\/|[a-zA-Z_][\w.-]*\/|\$\{?(SKILL|CLAUDE|SCRIPT|HERE|DIR|ROOT)\w*\}?|[^\s"']*\/(skills?|\.claude|\.codex|\.agents?|tmp)\/)/
    $neg = /\b(never|don'?t|do\s+not|attackers?)\b/ nocase
  condition:
    $hp and #neg >= 0
}

/* An autostart that starts a script host hidden (wscript //B, a .vbs or .js, mshta, rundll32,
 * a hidden PowerShell) at every logon (T1547.001): the shape of droppers, not of an app's
 * installer, which registers its own .exe. */
rule run_key_script_host {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "registers a hidden script host (wscript //B, a .vbs, mshta, hidden PowerShell) to run at every logon"
  strings:
    $run = /\\CurrentVersion\\Run(Once)?\b[^\n]{0,240}\b(wscript|cscript|mshta|rundll32|regsvr32)(\.exe)?\b|\\CurrentVersion\\Run(Once)?\b[^\n]{0,240}\.(vbs|vbe|js|jse|hta|wsf)\b|\\CurrentVersion\\Run(Once)?\b[^\n]{0,240}\b(powershell|pwsh)(\.exe)?\b[^\n]{0,80}-w(indowstyle)?\s+h(idden)?\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect|reg\s+query|Get-ItemProperty)\b/ nocase
  condition:
    $run and #neg >= 0
}

/* A user service that restarts forever and keeps running after the user logs out (lingering):
 * the skill's process outlives every session (T1543.002). A user unit alone is medium. */
rule systemd_user_linger {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "installs a user service that keeps running after logout (loginctl enable-linger)"
  strings:
    $linger = /\bloginctl\s+enable-linger\b/
    $ctx_unit = /\bsystemctl\s+--user\s+(enable|start)\b|\.config\/systemd\/user\//
    $neg = /\b(never|don'?t|do\s+not|attackers?)\b/ nocase
  condition:
    $linger and $ctx_unit and #neg >= 0
}

/* A crontab entry added from a program (crontab -l, then the table with a line added, fed to
 * `crontab -`): the Python and Node spellings of what persistence names for shells. */
rule crontab_from_program {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "adds a crontab entry from a program (crontab -l, then crontab - with a line added)"
  strings:
    $py = /\[\s*["']crontab["']\s*,\s*["']-["']\s*\]|\bcrontab\s+-["']\s*,\s*(input|stdin)\s*=|\b(os\.popen|subprocess\.\w+)\s*\(\s*["']crontab\s+-["']/
    $js = /\b(execSync|exec|spawnSync|spawn|execFileSync)\s*\(\s*["'`]crontab["'`]\s*,\s*\[\s*["'`]-["'`]\s*\]|\b(execSync|exec)\s*\(\s*["'`][^\n"'`]{0,120}\|\s*crontab\s+-["'`]/
    $ctx_line = /(^|["'`\s])(@(reboot|hourly|daily)|([0-9*\/,-]+\s+){4}[0-9*\/,-]+)\s+[^\n]{0,40}(python|node|bash|sh|\/|\{)/
    $neg = /\b(never|don'?t|do\s+not|attackers?)\b/ nocase
  condition:
    ($py or $js) and $ctx_line and #neg >= 0
}

/* sudo -S fed a password kept in a file: root without the user, the password in clear on disk
 * (T1548.003, T1552.001). A password read from the user at a prompt is theirs to give. */
rule sudo_stored_password {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "feeds sudo a password stored in a file (root without asking, the password kept in clear)"
  strings:
    $sh = /\b(cat|<)\s*["']?[~$\w\/.{}-]*(pass|pw|secret|sudo)[\w.-]*["']?\s*\|\s*sudo\s+(-\w+\s+)*-S\b|\bsudo\s+(-\w+\s+)*-S\b[^\n]{0,120}<\s*["']?[~$\w\/.{}-]*(pass|pw|secret)[\w.-]*/
    $sudo_s = /["']sudo["']\s*,\s*["']-S["']|\bsudo\s+-S\b/
    $ctx_file = /\bopen\s*\([^\n]{0,60}(pass|pw|secret|sudo)[\w.-]*["'][^\n]{0,40}\)\.read\s*\(|\b(readFileSync|read_text|File\.read|Get-Content)\b[^\n]{0,60}(pass|pw|secret)[\w.-]*["']/
    $neg = /\b(never|don'?t|do\s+not|attackers?)\b/ nocase
  condition:
    #neg >= 0 and ($sh or ($sudo_s and $ctx_file and is_script))
}

/* A string decoded by the script itself (rot13, reversed, char codes) handed straight to a
 * shell or eval: a command hidden from the reader (T1027, T1140). */
rule decoded_string_run {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "runs a command the script decodes first (rot13, reversed, char codes): what runs is hidden from the reader"
  strings:
    $ctx_decoder = /\bcharCodeAt\s*\([^\n]{0,40}[+-]\s*13\b|\bcodecs\.(decode|encode)\s*\([^\n]{0,80}["']rot.?13["']|\.tr\s*\(\s*["']A-Za-z["']\s*,\s*["']N-ZA-Mn-za-m["']|\bN-ZA-Mn-za-m\b|\bmaketrans\s*\([^\n]{0,120}(NOPQRSTUVWXYZABCDEFGHIJKLM|nopqrstuvwxyzabcdefghijklm)|\.split\s*\(\s*["']["']\s*\)\s*\.reverse\s*\(\s*\)\s*\.join|\[\s*::\s*-1\s*\]|\.reverse\b|String\.fromCharCode\s*\(|\bchr\s*\(|\bpack\s*\(\s*["'][cCU]\*/
    $run = /\b(execSync|exec|spawnSync|eval|Function|system|os\.system|os\.popen|subprocess\.(run|call|Popen|check_output|check_call|getoutput)|Invoke-Expression|iex)\s*\(\s*[A-Za-z_][\w.]{0,30}\s*\(\s*["'][^"'\n]{8,400}["']\s*\)/
    $veto_wrap = /\b(shlex\.split|shlex\.quote|os\.path\.join|path\.join|path\.resolve|str|String|format|quote|JSON\.stringify|require|gettext|_|Path|dedent|textwrap\.dedent|encodeURI\w*|escape\w*)\s*\(\s*["']/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    is_script and $ctx_decoder and $run and #neg >= 0 and #veto_wrap >= 0
}

/* A .NET assembly loaded from an embedded base64 string and run: code that never exists as a
 * file for a scanner or the reader (T1620 reflective loading). */
rule assembly_from_base64 {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    prose = "medium"
    message = "loads a .NET assembly from an embedded base64 string (code that never exists as a file)"
  strings:
    $load = /\b(Reflection\.)?Assembly\]?\s*::\s*Load\s*\(\s*(\[(System\.)?Convert\]::FromBase64String|\$\w+)|\bAssembly\.Load\s*\(\s*Convert\.FromBase64String\s*\(/ nocase
    $ctx_b64 = /FromBase64String\s*\(/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    $load and $ctx_b64 and #neg >= 0
}

/* PowerShell's -EncodedCommand (base64 of UTF-16LE) that decodes to a download or an
 * Invoke-Expression, from any language that starts PowerShell; the lower-case spellings
 * obfuscated.yar's mixed-case list lacks. */
rule encoded_command_payload {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "an encoded PowerShell command downloads or runs code"
  strings:
    $w1 = "iex (" wide base64
    $w2 = "iex(" wide base64
    $w3 = "irm http" wide base64
    $w4 = "iwr http" wide base64
    $w5 = "Invoke-RestMethod" wide base64
    $w6 = "DownloadFile(" wide base64
    $w7 = "Start-BitsTransfer" wide base64
    $w8 = "| iex" wide base64
    $w9 = "|iex" wide base64
    $w10 = "FromBase64String" wide base64
  condition:
    any of them
}

/* A URL whose host mixes Latin letters with Cyrillic or Greek lookalikes (an IDN homograph:
 * "gitlab" with a Cyrillic i, U+0456): it reads as the user's host and resolves to someone else's. A
 * host written wholly in one script is not this. */
rule lookalike_host {
  meta:
    id = "audit/invisible-unicode"
    category = "unicode"
    severity = "high"
    message = "a URL's host mixes Latin letters with Cyrillic or Greek lookalikes (a homograph of another host)"
  strings:
    $url = /(https?|git|ssh|ftp):\/\/([\w-]+@)?[a-z0-9.-]{0,60}[a-z]([\xD0\xD1\xD3\xD4][\x80-\xBF]|[\xCE\xCF][\x80-\xBF])[^\s\/:"'<>)]{0,60}/ nocase
    $url_first = /(https?|git|ssh|ftp):\/\/([\w-]+@)?([\xD0\xD1\xD3\xD4][\x80-\xBF]|[\xCE\xCF][\x80-\xBF])+[a-z][^\s\/:"'<>)]{0,60}/ nocase
    $scp_like = /\bgit@[a-z0-9.-]{0,60}[a-z]([\xD0\xD1][\x80-\xBF]|[\xCE\xCF][\x80-\xBF])[^\s:]{0,60}:/ nocase
  condition:
    any of them
}

/* A download saved to a hidden file in a temporary folder, made executable and run in one
 * chain: no installer hides its binary, so high even in prose (an HTML comment to the agent). */
rule download_hidden_tmp_chain {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "a download is saved to a hidden file in a temporary folder and run"
  strings:
    $chain = /\b(curl|wget)\b[^\n]{0,200}(\s-[a-zA-Z]*[oO]\s*|--output[= ]|--output-document[= ]|\s>\s*)["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?)\/\.[\w.-]+["']?\s*(&&|;)\s*(chmod\s+[^\n;&]{1,40}(&&|;)\s*)?[^\n]{0,20}(\/tmp|\/var\/tmp|\/dev\/shm|\$\{?TMPDIR\}?)\/\.[\w.-]+/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect)\b/ nocase
  condition:
    $chain and #neg >= 0
}

/* The PowerShell profile given a hidden background job, a download or an Invoke-Expression:
 * it runs in every session the user opens (T1546.013). A module import is routine. */
rule profile_hidden_payload {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "adds a hidden job, a download or Invoke-Expression to the PowerShell profile (runs in every session)"
  strings:
    $profile = /\b(Add-Content|Set-Content|Out-File)\b[^\n]{0,40}\$PROFILE\b[^\n]{0,240}(-w(indowstyle)?\s+h(idden)?\b|\bStart-Job\b|\bStart-Process\b[^\n]{0,80}Hidden|\biex\b|\bInvoke-Expression\b|\bDownloadString\b|\b(irm|iwr)\s+https?:)|>>\s*["']?\$PROFILE\b/ nocase
    $ctx_payload = /-w(indowstyle)?\s+h(idden)?\b|\bStart-Job\b|\biex\b|\bInvoke-Expression\b|\bDownloadString\b|\b(irm|iwr)\s+https?:/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    $profile and $ctx_payload and #neg >= 0
}

/* Every secret of a store printed in clear: the login keychain with -d, or every file of the
 * SSH directory (private keys with the public ones). One public key is not this. */
rule secrets_dumped_clear {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "prints every secret of a store in clear (the keychain with -d, every file of ~/.ssh)"
  strings:
    $keychain = /\bsecurity\s+dump-keychain\s+(-\w+\s+)*-[a-z]*d\b/
    $ssh_all = /\b(cat|tail|head|more|less|bat|strings|xxd|grep\s+(-\w+\s+)*["']?\.?["']?)\s+(-[\w+-]+\s+|\+[0-9]+\s+)*["']?(~|\$HOME|\$\{HOME\})\/\.ssh\/["']?\*["']?(\s|$|;|&|\|)/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malware|detect)\b/ nocase
  condition:
    ($keychain or $ssh_all) and #neg >= 0
}

/* Round 10 (issue 45): `cd $X` unquoted, of a variable the script never sets, then everything
 * in the current directory removed: unset, `cd` goes to the home directory, which is emptied
 * (the Steam-installer bug). audit_unset.c drops the match when the file sets or checks X. */
rule scope_cd_unset_rm_star {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    unset_var = "veto"
    message = "cd to a variable the script never sets, then rm -rf *: unset, cd goes home and the home directory is emptied"
  strings:
    $cd_rm = /(^|\n|;|&&)\s*cd\s+\$\{?[A-Za-z_]\w*\}?\s*(\n|;|&&)\s*(#[^\n]*\n\s*)*rm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*(\.\/)?(\*|\.\[)/
  condition:
    $cd_rm and not is_prose
}

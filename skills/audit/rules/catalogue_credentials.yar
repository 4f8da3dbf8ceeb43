/* Round 6, from the public catalogues rather than from cases (issue 45): the credential stores
 * a careful reviewer knows, enumerated by application class the way credential-recovery tools
 * list them (databases, sysadmin and file-transfer clients, version control, chat and mail,
 * remote desktop and VPN, Wi-Fi), developer and agent token files, and the cloud instance
 * metadata services of every major cloud. A store is named by its distinctive file or key, as a
 * path or split into quoted components (`Join-Path $env:APPDATA 'FileZilla'` and
 * `'recentservers.xml'`), and counts where a file of code or a code block also reads something.
 * High where it runs, medium in prose (a guide names where a tool keeps its settings). */

rule catalogue_credential_stores {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads an application's saved passwords or tokens (database, file-transfer, version-control, chat, remote-desktop, developer or agent credential store)"
  strings:
    $db = /\.mylogin\.cnf\b|\bmy_print_defaults\b[^\n]{0,40}\s(-s|--show)\b|\b(cat|type|less|head|Get-Content|gc|open|read\w*|load|parse|ConfigParser)\b[^\n]{0,60}\.my\.cnf\b|\brobomongo\.json\b|\brobo3t\.json\b|\bDBeaverData\b[^\n]{0,80}credentials|\bcredentials-config\.json\b|\bSQLAliases23\.xml\b|\.mongorc\.js\b|\bHeidiSQL\\Servers\b|\bNavicat\\[^\n]{0,30}Servers\b/
    $sysadmin = /\brecentservers\.xml\b|\bsitemanager\.xml\b|\bWinSCP\.ini\b|\bMartin Prikryl\b|\bSimonTatham\\PuTTY\b|\b9bis\.com\\KiTTY\b|\bconfCons\.xml\b|\bmRemoteNG\b[^\n]{0,40}\.xml\b|\bsvn\.simple\b|\.subversion[\/\\"' ,]+auth\b|\.vnc[\/\\"' ,]+passwd\b|\bCyberduck[\/\\"' ,]+[^\n]{0,30}\.duck\b|\bCoreFTP\b|\bFTPNavigator\b|\bSmartFTP\b|\bWS_FTP\b|\bRDCMan\.settings\b|\bTerminal Server Client\\Servers\b/
    $vcs_chat = /\.local[\/\\"' ,]+share[\/\\"' ,]+keyrings\b|\bkwalletd?[\/\\"' ,]+[^\n]{0,20}\.kwl\b|\.authinfo(\.gpg)?\b|\bremmina[\/\\"' ,]+[^\n]{0,40}\.remmina\b|\bpgadmin4\.db\b|\.thunderbird[\/\\"' ,]+[^\n]{0,60}logins\.json|\bSlack[\/\\"' ,]+(Cookies|storage)\b|\bMicrosoft[\/\\"' ,]+Teams[\/\\"' ,]+Cookies\b|\.purple[\/\\"' ,]+accounts\.xml\b|\bdiscord(canary|ptb)?[\/\\"' ,]+Local Storage[\/\\"' ,]+leveldb\b|\bTelegram Desktop[\/\\"' ,]+tdata\b|\bThunderbird[\/\\"' ,]+Profiles\b|\\Outlook\\Profiles\b|\bSignal[\/\\"' ,]+config\.json\b/
    $dev = /\bgithub-copilot[\/\\"' ,]+(hosts|apps)\.json\b|\bgithub-copilot["']|\bstate\.vscdb\b|\.claude[\/\\"' ,]+\.credentials\.json\b|\.codex[\/\\"' ,]+auth\.json\b|\.gemini[\/\\"' ,]+oauth_creds\.json\b|\.config[\/\\"' ,]+(gh|glab-cli|hub)[\/\\"' ,]+(hosts|config)\.ya?ml\b|\bcomposer[\/\\"' ,]+auth\.json\b|\.ivy2[\/\\"' ,]+\.credentials\b|\.sbt[\/\\"' ,]+(\.credentials|credentials)\b|\.terraformrc\b|\.pulumi[\/\\"' ,]+credentials\.json\b|\.bluemix[\/\\"' ,]+config\.json\b|\.aliyun[\/\\"' ,]+config\.json\b|\bhcloud[\/\\"' ,]+cli\.toml\b|\blinode-cli\b[^\n]{0,40}(config|token)|\bscw[\/\\"' ,]+config\.yaml\b|\.cloudflared[\/\\"' ,]+cert\.pem\b|\bngrok[\/\\"' ,]+ngrok\.yml\b|\bstripe[\/\\"' ,]+config\.toml\b|\.sentryclirc\b|\.circleci[\/\\"' ,]+cli\.yml\b|\bconfigstore[\/\\"' ,]+snyk\.json\b|\bopencode[\/\\"' ,]+auth\.json\b|\.codeium[\/\\"' ,]+config\.json\b|\bNuGet[\/\\"' ,]+NuGet\.Config\b|\.config[\/\\"' ,]+helm[\/\\"' ,]+repositories\.yaml\b|\.config[\/\\"' ,]+doctl[\/\\"' ,]+config\.yaml\b|\.fly[\/\\"' ,]+config\.yml\b|\bcom\.vercel\.cli\b|\.vercel[\/\\"' ,]+auth\.json\b|\.netlify[\/\\"' ,]+config\.json\b|\bfirebase-tools\.json\b|\.databrickscfg\b|\bhuggingface[\/\\"' ,]+(stored_)?tokens?\b|\.kaggle[\/\\"' ,]+kaggle\.json\b|\.snowsql[\/\\"' ,]+config\b|\.git-credentials\b|\.yarnrc\.yml\b[^\n]{0,60}npmAuthToken|\bnpmAuthToken\b[^\n]{0,60}\.yarnrc/
    $wifi_vpn = /\/etc\/NetworkManager\/system-connections\b|\bwpa_supplicant\.conf\b[^\n]{0,40}\bpsk\b|\bOpenVPN[\/\\"' ,]+config\b[^\n]{0,60}(auth|pass)|\bnetsh(\.exe)?\s+wlan\s+export\s+profile\b[^\n]{0,60}key\s*=\s*clear/ nocase
    $ctx_read = /\b(cat|type|less|head|tail|cp|xcopy|robocopy|scp|tar|zip|grep|findstr|sqlite3|strings)\s+["']?[~$%\/\\.\w-]|\b(Get-Content|gc|Copy-Item|Import-Clixml|Select-Xml|Select-String)\s|\b(ReadAllText|ReadAllLines|ReadAllBytes|readFileSync|readFile|readdirSync|opendir|readdir|read_text|read_bytes|open|load|loads|parse|File\.read|File\.foreach|File\.readlines|IO\.read|YAML\.load\w*|ConfigParser|Database|connect|prepare|query|glob|listdir|scandir|walk|children)\s*\(|\[xml\]|\bopendir\s*\(?\s*my\b/
    $neg = /\b(never|don'?t|do\s+not|must\s+not|attackers?|malicious|stealers?|infostealers?|detect(s|ion|ed)?|red\s+flag)\b/ nocase
  condition:
    any of ($db, $sysadmin, $vcs_chat, $dev, $wifi_vpn) and ($ctx_read or is_prose) and #neg >= 0
}

/* Prose that has the agent read one of those stores or an agent's own login (its OAuth file),
 * or copy a token out of it: the agent holds the user's access, so the order is the read. */
rule catalogue_credential_prose_read {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to read an application's or an agent's saved login and copy its secret"
  strings:
    $read = /\b(read|open|cat|load|parse|copy|extract|dump|print|show|grab|take|reuse)\s+(the\s+|all\s+|every\s+)?([\w'-]+\s+){0,3}[`'"]?(~|\$HOME|%USERPROFILE%|%APPDATA%|\$env:APPDATA|\$env:USERPROFILE)[\/\\]\.?(claude[\/\\]\.credentials\.json|codex[\/\\]auth\.json|gemini[\/\\]oauth_creds\.json|config[\/\\]github-copilot|my\.cnf|mylogin\.cnf|pgpass|subversion[\/\\]auth|git-credentials|config[\/\\](gh|glab-cli)[\/\\]|composer[\/\\]auth\.json|kaggle[\/\\]kaggle\.json|databrickscfg|docker[\/\\]config\.json|vnc[\/\\]passwd|FileZilla|purple)/ nocase
    $show_pw = /\b(cat|type|Get-Content)\s+[`'"]?(~|\$HOME)\/\.(my\.cnf|mylogin\.cnf|pgpass)\b|\bmy_print_defaults\s+(-s|--show)\b/
    $neg = /\b(never|don'?t|do\s+not|must\s+not|without|avoid)\s+([\w-]+\s+){0,3}(read|open|cat|copy|print|show|reuse)\b/ nocase
  condition:
    any of ($read, $show_pw) and #neg >= 0
}

/* The cloud instance metadata services that hand out secrets: role credentials, user data
 * (where cloud-init and startup scripts keep theirs), the recursive dump, the service-account
 * token; AWS (IMDSv1/v2, ECS task role at 169.254.170.2), GCP, Azure, Alibaba (100.100.100.200),
 * DigitalOcean, Oracle, Hetzner and OpenStack. High where it runs (a script or a code block),
 * medium in prose, where an SSRF lesson names the same paths. */
rule catalogue_metadata_secrets {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads secrets from a cloud instance metadata service (role credentials, user data, service-account tokens)"
  strings:
    $aws = /\b169\.254\.169\.254\/(latest|20\d\d-\d\d-\d\d)\/(user-data|meta-data\/iam\/security-credentials|meta-data\/identity-credentials)|\b169\.254\.170\.2\b[^\n]{0,20}(\$\{?AWS_CONTAINER_CREDENTIALS_RELATIVE_URI|\/v2\/credentials)|\bAWS_CONTAINER_CREDENTIALS_FULL_URI\b[^\n]{0,60}(curl|wget|fetch|get|open)/
    $gcp = /\bcomputeMetadata\/v1\/?\?[^\n"' ]{0,20}recursive=true|\bcomputeMetadata\/v1\/(project|instance)\/attributes\/(ssh-keys|sshKeys|startup-script|kube-env|user-data|windows-keys)\b|\bcomputeMetadata\/v1\/(project|instance)\/attributes\/?\?[^\n"' ]{0,20}recursive=true/
    $azure = /\b169\.254\.169\.254\/metadata\/(identity\/oauth2\/token|instance\/compute\/(customData|userData))|\bIDENTITY_ENDPOINT\b[^\n]{0,80}(IDENTITY_HEADER|X-IDENTITY-HEADER)/
    $others = /\b100\.100\.100\.200\/latest\/(user-data|meta-data\/ram\/security-credentials)|\b169\.254\.169\.254\/(metadata\/v1\/user-data|metadata\/v1\.json|opc\/v[12]\/instance\/metadata|hetzner\/v1\/userdata|openstack\/latest\/(user_data|vendor_data2?\.json|password))|\b169\.254\.169\.254\/latest\/meta-data\/ram\/security-credentials|\b169\.254\.169\.254\/v1\/(token|user-data)\b|\bmetadata\.platformequinix\.com\/(metadata|userdata)\b|\bapi\.metadata\.cloud\.ibm\.com\/instance_identity\/v1\/token\b/
    $neg = /\b(ssrf|attackers?|malicious|detect(s|ion)?|never|do\s+not|don'?t)\b/ nocase
  condition:
    any of ($aws, $gcp, $azure, $others) and #neg >= 0
}

/* Secrets hunted across the user's files: a recursive search for "password=" in the home
 * directory or a whole drive whose matching files are copied or listed out (ATT&CK T1552.001).
 * A search inside the project (a secret scanner's own job) is not this. */
rule catalogue_credential_hunt {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    block = "medium"
    prose = "low"
    message = "searches the user's files for stored passwords and collects the matches"
  strings:
    $hunt = /\bfindstr(\.exe)?\s+(\/\w+\s+)*\/s\b[^\n]{0,60}(pass|pwd|secret|token|credential)|\b(Get-ChildItem|gci|dir|ls)\s[^\n]{0,80}-Recurse\b[^\n]{0,160}\b(Select-String|sls)\b[^\n]{0,60}(pass|pwd|secret|token|credential)|\bgrep\s+(-\w+\s+)*-\w*[rR]\w*\s+[^\n]{0,40}(pass(word|wd)?|pwd|secret|token|credential)[^\n]{0,60}\s["']?(~|\$HOME|\/home|\/Users|\/)["']?(\/)?(\s|$)/ nocase
    $ctx_home = /\b(pushd|cd|Set-Location|sl)\s+["']?(%USERPROFILE%|%HOMEDRIVE%|\$env:USERPROFILE|\$HOME|~|C:\\)|(%USERPROFILE%|\$env:USERPROFILE|C:\\Users)\b|\s(~|\$HOME|\/home|\/Users)[\/\s"']/
    $ctx_collect = /\b(copy|xcopy|robocopy|cp|Copy-Item|tar|zip|Compress-Archive|curl|Invoke-RestMethod)\s+["'\/~$%-]|>>?\s*["']?(%\w+%|\$\{?\w+|~|\/|\.\.?[\/\\]|[\w-]+\.(txt|log|csv|out))/ nocase
  condition:
    $hunt and $ctx_home and $ctx_collect
}

/* The clipboard read and put where it leaves the machine (an issue, a gist, a request): what
 * users copy is often a password or a token (ATT&CK T1115). A clipboard read for the user's own
 * paste is not this; read in the same file as a send or a filed issue is. */
rule catalogue_clipboard_egress {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "reads the clipboard and sends it out (an issue, a gist, a request): clipboards hold passwords and tokens"
  strings:
    $clip = /\bxclip\s+[^\n`]{0,40}-o\b|\bxsel\s+[^\n`]{0,20}(-o|--output|-b\s*$|-b\s*[|)`]|--clipboard\s*[|)`])|\bpbpaste\b|\bwl-paste\b|\bGet-Clipboard\b|\bpyperclip\.paste\s*\(|\bclipboard\.readText\s*\(|\bclipboardy\.read\w*\s*\(|\bClipboard\]?::GetText\s*\(|\bClipboard\.GetText\s*\(|\bnavigator\.clipboard\.readText\s*\(/
    $ctx_send = /\bgh\s+(issue\s+(create|comment)|gist\s+create|api\s)|\bglab\s+issue\s+create\b|\bcurl\s+[^\n]{0,120}(-F|--form|-d\b|--data[\w-]*|-T|--upload-file|-X\s*POST)|\b(requests|httpx|session)\.(post|put)\s*\(|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,120}-(Body|InFile|Method\s+Post)\b|\bfetch\s*\([^\n]{0,120}method\s*:\s*["'](POST|PUT)|\baxios\.(post|put)\s*\(|\b(webhook|pastebin|paste\.rs|0x0\.st|transfer\.sh|termbin)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|must\s+not|without)\s+([\w-]+\s+){0,3}(read|include|send|paste|attach|post)\b/ nocase
  condition:
    $clip and $ctx_send and #neg >= 0
}

/* Key presses captured and kept: a keyboard state polled in a loop or hooked, written to a file
 * or sent (ATT&CK T1056.001), in PowerShell, C#, Python, JS and the X11 and evdev tools. The
 * older rule needed a Python-style write; a .NET append or a redirection is the same. */
rule catalogue_keylogger {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    block = "medium"
    prose = "low"
    message = "records the keys the user presses (a keylogger)"
  strings:
    $key = /\bGetAsyncKeyState\b|\bGetKeyState\b[^\n]{0,40}\bfor\b|\bSetWindowsHookEx\w*\b[^\n]{0,60}\b(WH_KEYBOARD(_LL)?|13)\b|\bCGEventTapCreate\b|\bNSEvent\.addGlobalMonitorForEvents\b[^\n]{0,60}keyDown|\bpynput\.keyboard\b|\bkeyboard\.(on_press|on_release|hook|record)\s*\(|\bxinput\s+(test|test-xi2)\b|\/dev\/input\/(event[0-9*]|by-id\/[^\n]{0,40}kbd)|\bevdev\.InputDevice\b|\bxev\s+[^\n]{0,30}-event\s+keyboard|\blogkeys\b|\buiohook\w*\b|\bglobalShortcut\b[^\n]{0,20}\*/
    $ctx_sink = /\b(AppendAllText|WriteAllText|AppendText|Add-Content|Out-File|Set-Content|StreamWriter|appendFileSync|appendFile|writeFileSync|createWriteStream)\b|\.(write|writelines|send|sendall|post|put)\s*\(|>>?\s*["']?(\/tmp|\/dev\/shm|~|\$HOME|\$\{?\w+|%\w+%|\$env:)|\|\s*(tee|nc|curl)\b|\bprint\s*\([^\n]{0,80}\bfile\s*=/
    $ctx_loop = /\bwhile\s*\(?\s*(\$true|true|True|1|:)\s*\)?|\bfor\s*\(\s*;\s*;|\bfor\s*\(\s*\$\w+\s*=\s*\d+\s*;\s*\$\w+\s*-le\s*25[45]|\bfor\s+\w+\s+in\s+range\s*\(\s*\d*\s*,?\s*25[56]\s*\)|\.join\s*\(\s*\)|\bListener\s*\(|\bStart-Job\b|\bon\s*\(\s*["']keydown["']|\bCallNextHookEx\b|\bCFRunLoopRun\b|\bmainloop\s*\(/
    $stream = /\bxinput\s+(test|test-xi2)\b|\/dev\/input\/(event[0-9*]|by-id)|\bevtest\b|\blogkeys\b/
  condition:
    $key and $ctx_sink and ($ctx_loop or $stream)
}

/* git's credential helpers asked for the stored password (`git credential fill`, the helper
 * binaries' `get`): whatever helper is configured prints the user's token for that host. A
 * script or a code block that runs it is the read; prose that names it is medium. */
rule catalogue_git_credential_fill {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "asks git's credential helper for the stored password or token (git credential fill)"
  strings:
    $fill = /\bgit\s+credential\s+fill\b|\bgit-credential-(manager(-core)?|osxkeychain|libsecret|wincred|store)\s+get\b|\bgit\s+credential-(manager(-core)?|osxkeychain|libsecret|store)\s+get\b/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    $fill and #neg >= 0
}

/* Round 10 (issue 45): a clipboard watcher, whatever the platform: every change to the clipboard
 * (passwords copied from a manager included) handed to a program or logged, not one read on the
 * user's request. */
rule catalogue_clipboard_watch {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "watches the clipboard and records every change (clipboards hold passwords and tokens)"
  strings:
    $watch = /\bwl-paste\s+([^\n|;&]{0,30}\s)?(--watch|-w)\s|\bclipnotify\b|\bAddClipboardFormatListener\b|\bSetClipboardViewer\b|\bpyperclip\.waitForNewPaste\s*\(|\bclipboard-event\b|\bon_clipboard_change\b|\bNSPasteboard\b[^\n]{0,80}\bchangeCount\b/
    $loop = /\b(while\s*(true|:|1|\(\s*(true|1|\$true)\s*\))|while\s+True\s*:|for\s*\(\s*;\s*;\s*\)|setInterval\s*\(|loop\s*\{)[^\x00]{0,240}(\bxclip\s+[^\n]{0,30}-o\b|\bxsel\s+[^\n]{0,20}(-o|--output|-b)\b|\bpbpaste\b|\bwl-paste\b|\bGet-Clipboard\b|\bpyperclip\.paste\s*\(|\bclipboardy\.read\w*\s*\(|\bClipboard\]?::GetText\s*\(|\bclipboard\.readText\s*\()[^\x00]{0,200}(>>|\bAdd-Content\b|\bOut-File\b[^\n]{0,40}-Append|appendFile\w*\s*\(|open\s*\([^\n)]{0,80}["']a\+?["'])/
  condition:
    any of them
}

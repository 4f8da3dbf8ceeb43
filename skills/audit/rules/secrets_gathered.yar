/* Round 16 (issue 45): secrets read and carried out, as properties of the text rather than tool
 * lists. A tool's own settings (where every package manager and CLI keeps its registry logins)
 * shown where others read them with the secrets explicitly kept; a secret's value read by a
 * get-secret verb written into a file; every file of a secret-holding kind gathered by a walk;
 * a certificate store exported with its private keys; a secret-holding process's memory dumped;
 * a project's secret file sent as a field of a request. */

/* Prose or steps that order the secrets kept in what is shared: "unredacted", "keys and tokens
 * included", "including every password line", beside a tool's settings (a `<tool> config`
 * command, a settings file, an `env` block) and a place others read (a ticket, the reply, a
 * committed file). Redacting is how such output is shared safely; ordering it not done is the
 * property, whichever tool the settings belong to. */
rule tool_config_shared_unredacted {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to share a tool's settings with their credentials kept (unredacted, tokens included) where others read them"
  strings:
    $keep = /\b(unredacted|un-redacted|without\s+(any\s+)?(redact|mask|scrubb?)\w*|(do\s+not|don'?t)\s+(redact|mask|scrub|strip|hide)\b[^\n]{0,40}\b(values?|tokens?|passwords?|secrets?|keys?|credentials?)|(api\s+)?(keys?|tokens?|passwords?|secrets?|credentials?)(,?\s+(and|or)\s+(api\s+)?(keys?|tokens?|passwords?|secrets?|credentials?))?\s+included|including\s+(any|every|all|each|the)\s+[^\n.]{0,40}(passwords?|tokens?|secrets?|credentials?|user:password|api[\s_-]?keys?)|the\s+real\s+(values|tokens|keys|passwords|secrets))\b/ nocase
    $ctx_cfg = /\b[a-z][\w-]{1,30}\s+config(uration)?(\s+(list|show|get|view|dump|--list|-l|--show|--global))?\s*(`|\n|$)|\b(settings|config|conf|cfg|ini|rc)\s+files?\b|\bconfigs?\b[^\n]{0,60}\b(env|environment)\s+(block|section|map|entries)|[`'"](~|\$HOME|%APPDATA%|%USERPROFILE%|\$env:APPDATA)[\/\\][^`'"\n]{0,80}(config|\.conf|\.cfg|\.ini|rc|\.json|\.toml|\.ya?ml|\.xml|\.properties)[`'"]/ nocase
    $ctx_sink = /\b(ticket|support|issue|reply|conversation|chat|thread|comment|e-?mail|committed|commit\s+it|inventory|report|[\w-]+\.(md|txt|json))\b/ nocase
    $neg = /\b(never|must\s+not|avoid)\b/ nocase
  condition:
    for any i in (1..#keep) : (
      (for any j in (1..#ctx_cfg) : (@ctx_cfg[j] < @keep[i] + 700 and @keep[i] < @ctx_cfg[j] + 900)) and
      (for any k in (1..#ctx_sink) : (@ctx_sink[k] < @keep[i] + 500 and @keep[i] < @ctx_sink[k] + 700))) and
    #neg >= 0
}

/* A secret's value read by a get-secret verb (`configure get *secret*`, `secrets ... access`,
 * `get-secret-value`, `kv get`, `--reveal`, `--with-decryption`) inside an echo or printf whose
 * output is redirected into a file (the line's own redirection or a `{ ...; } >> file` group
 * closing a few lines later), or, in prose, recorded in a report or a saved file: the live
 * secret leaves the store for a file others read. */
rule secret_value_written {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "writes a secret's value, read by a get-secret command, into a file or report"
  strings:
    $subst = /\$\(\s*[a-z][\w-]{1,30}\s[^\n)]{0,80}\b(configure\s+get\s+[\w.-]*(secret|token|password|passwd)|secrets?\s+(versions\s+)?(access|show|get|reveal|read|view)|get-secret-value|get-parameters?\b[^\n)]{0,60}--with-decryption|kv\s+get|--reveal\b|--show-secrets?\b|(config|settings)\s+get\s+[\w.-]*(token|secret|password|passwd|api[_-]?key))[^\n)]{0,80}\)/
    $ctx_write = /\becho\b[^\n]{0,200}>>?\s*["']?[\w$~.\/{-]|\bprintf\b[^\n]{0,200}>>?\s*["']?[\w$~.\/{-]|\}[ ]?>>?[ \t]*["']?[\w$~.\/{-]/
    $prose = /[`'"][a-z][\w-]{1,30}\s[^`'"\n]{0,60}\b(configure\s+get\s+[\w.-]*(secret|token|password|passwd)|secrets?\s+(versions\s+)?(access|show|get|reveal|read|view)|get-secret-value|kv\s+get)[^`'"\n]{0,80}[`'"][^\n]{0,120}\b(record|write|add|put|paste|include|save|append|copy|note)\b[^\n]{0,120}\b(report|summary|table|notes|README|ticket|[\w-]+\.(md|txt|log|json|csv))\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|must\s+not)\b/ nocase
  condition:
    #neg >= 0 and ($prose or
    for any i in (1..#subst) : (for any j in (1..#ctx_write) : (
      @ctx_write[j] + !ctx_write[j] > @subst[i] and @ctx_write[j] < @subst[i] + 600)))
}

/* Every file of a secret-holding kind gathered: a walk (find, a recursive copy, `for /r`,
 * Get-ChildItem -Recurse, os.walk, File::Find, filepath.Walk, a `**` glob) whose test is a kind
 * that holds secrets (dotenv files, Terraform state, private keys and keystores, password
 * databases, credentials files, Rails master keys), with the files' contents copied, appended
 * or packed into one place. One project's own `.env` read by its loader is no walk; a walk that
 * only counts or warns copies nothing. */
rule secret_kind_gathered {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "gathers every file of a secret-holding kind (.env, state, private keys, credentials) into one place"
  strings:
    /* find ... -name '<kind>' ... -exec cp/cat/tar, or piped into a packer */
    $find = /\bfind\s[^\n|;]{0,120}-i?name\s+["']?(\*?\.env\*?|\*\.(tfstate|pem|key|p12|pfx|jks|keystore|kdbx|ovpn|asc)(\.backup)?|\*?credentials\*?|master\.key|id_\*|\*?auth[\w-]*\*|\*secret\*)["']?[^\n]{0,120}(-exec\s+(cp|cat|tar|zip|rsync|install|base64)\b|\|\s*(xargs\s+[^\n|]{0,30})?(cp|cat|tar|zip|cpio|rsync)\b)/
    /* xcopy/robocopy with /s or /e, or `for /r`, of a secret kind's wildcard */
    $wcopy = /\b(xcopy|robocopy)\b[^\n]{0,40}\/[sSeE]\b[^\n]{0,160}\*\.(key|pem|pfx|p12|jks|kdbx|tfstate|ovpn)\b|\b(xcopy|robocopy)\b[^\n]{0,160}\*\.(key|pem|pfx|p12|jks|kdbx|tfstate|ovpn)\b[^\n]{0,80}\/[sSeE]\b/
    $for_r = /\bfor\s+\/[rR]\s[^\n]{0,120}\(\s*[^)\n]{0,60}\*\.(key|pem|pfx|p12|jks|kdbx|tfstate|ovpn)\b[^\n]{0,120}\b(copy|xcopy|type)\b/
    $ps = /\b(Get-ChildItem|gci|dir|ls)\b[^\n|]{0,120}-Recurse\b[^\n|]{0,120}-(Include|Filter)\s+["']?[^\n|]{0,40}(\*\.(pfx|p12|pem|key|jks|kdbx|tfstate|ovpn)|\.env\*?|\*?credentials\*?)[^\n]{0,120}\|\s*(Copy-Item|Compress-Archive|Get-Content|ForEach-Object\s*\{[^\n}]{0,80}\b(Copy-Item|Get-Content|Add-Content))\b/
    /* a walk in code, its secret-kind test within a few lines, the contents read and written */
    $walk = /\bos\.walk\s*\(|\bfind\s*\(\s*(\{|sub\b|\\&)|\bfilepath\.Walk(Dir)?\s*\(|\bDir\.glob\s*\([^\n]{0,80}\*\*|\.rglob\s*\(|\bglob\w*\s*\([^\n]{0,80}\*\*|\bFiles\.(walk|find)\s*\(|\breaddirSync\s*\([^\n]{0,80}recursive|\bWalkDir::new\s*\(|\bFind\.find\s*\(/
    $ctx_kind = /startswith\s*\(\s*["']\.env|HasPrefix\s*\([^\n)]{0,40}["']\.env|start_with\?\s*\(\s*["']\.env|\\\.env|\/\.env\[|HasSuffix\s*\([^\n)]{0,40}["']\.(tfstate|pem|key|p12|pfx|kdbx)|endswith\s*\([^\n)]{0,80}["']\.(tfstate|pem|key|p12|pfx|kdbx)|\\\.\(?(tfstate|pem|key|p12|pfx|kdbx)|["']\*\*?\/?(\*\.(tfstate|pem|key|p12|pfx|kdbx)|\.env\*?|credentials\*?|master\.key)["']|["']\*\*["'],\s*["'](credentials\*?|\.env\*?|\*\.(tfstate|pem|key|p12|pfx))["']/
    $ctx_sink = /\bopen\s*\(\s*my\s+\$\w+\s*,\s*["'](>|>>)["']|\bopen\s*\([^\n)]{0,120},\s*["'][wa]b?\+?["']|\bFile\.open\s*\([^\n)]{0,120},\s*["'][wa]b?\+?["']|\bshutil\.copy\w*\s*\(|\bFile::Copy|\bcopy\s*\(\s*\$File::Find::name|\bFileUtils\.cp\w*\s*\(|\bcopyFileSync\s*\(|\bappendFileSync\s*\(|\bos\.(Create|OpenFile)\s*\(|\bio\.Copy\s*\(/
    $ctx_read = /\bopen\s*\(|\bread_text\s*\(|\bread_bytes\s*\(|\bFile\.(read|binread|readlines|foreach)\b|\bos\.ReadFile\s*\(|\breadFileSync\s*\(|\bshutil\.copy|\bFile::Copy|\bcopy\s*\(\s*\$File::Find::name|\bFileUtils\.cp/
    $neg = /\b(never|don'?t|do\s+not|must\s+not)\b|\.env\.(example|sample|template|dist)\b/ nocase
  condition:
    #neg >= 0 and any of ($find, $wcopy, $for_r, $ps) or
    (is_script and $ctx_sink and $ctx_read and
     for any i in (1..#walk) : (for any j in (1..#ctx_kind) : (@ctx_kind[j] > @walk[i] - 200 and @ctx_kind[j] < @walk[i] + 500)))
}

/* The same walk with each file sent to a host: every secret of the kind leaves the machine. */
rule secret_kind_gathered_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "walks for every file of a secret-holding kind (.env, state, private keys) and sends them to a host"
  strings:
    $walk = /\bos\.walk\s*\(|\bfind\s*\(\s*(\{|sub\b|\\&)|\bfilepath\.Walk(Dir)?\s*\(|\bDir\.glob\s*\([^\n]{0,80}\*\*|\.rglob\s*\(|\bglob\w*\s*\([^\n]{0,80}\*\*|\bFiles\.(walk|find)\s*\(|\breaddirSync\s*\([^\n]{0,80}recursive|\bWalkDir::new\s*\(|\bFind\.find\s*\(/
    $ctx_kind = /startswith\s*\(\s*["']\.env|HasPrefix\s*\([^\n)]{0,40}["']\.env|start_with\?\s*\(\s*["']\.env|\\\.env|\/\.env\[|HasSuffix\s*\([^\n)]{0,40}["']\.(tfstate|pem|key|p12|pfx|kdbx)|endswith\s*\([^\n)]{0,80}["']\.(tfstate|pem|key|p12|pfx|kdbx)|\\\.\(?(tfstate|pem|key|p12|pfx|kdbx)|["']\*\*?\/?(\*\.(tfstate|pem|key|p12|pfx|kdbx)|\.env\*?|credentials\*?|master\.key)["']|["']\*\*["'],\s*["'](credentials\*?|\.env\*?|\*\.(tfstate|pem|key|p12|pfx))["']/
    $ctx_send = /\bhttp\.(Post|PostForm|NewRequest\s*\(\s*["'](POST|PUT))\b|\b(requests|httpx|session)\.(post|put|patch)\s*\(|\burlopen\s*\([^\n)]{0,200}data\s*=|\bRequest\s*\([^\n]{0,200}data\s*=|\bmethod\s*:\s*["'](POST|PUT)["']|\baxios\.(post|put)\s*\(|Net::HTTP\.post|\bHTTParty\.(post|put)\b|->(post|put)\s*\(|\bInvoke-RestMethod\b[^\n]{0,200}-(Method\s+(Post|Put)|Body|InFile)\b/ nocase
    $ctx_read = /\bopen\s*\(|\bread_text\s*\(|\bread_bytes\s*\(|\bFile\.(read|binread)\b|\bos\.ReadFile\s*\(|\bioutil\.ReadFile\s*\(|\bos\.Open\s*\(|\breadFileSync\s*\(|\bGet-Content\b|\bReadAll(Bytes|Text)\s*\(/
  condition:
    is_script and $ctx_send and $ctx_read and
    for any i in (1..#walk) : (for any j in (1..#ctx_kind) : (@ctx_kind[j] > @walk[i] - 200 and @ctx_kind[j] < @walk[i] + 500))
}

/* A certificate store exported with its private keys: every certificate a store listing
 * returns passed to a PFX export, `certutil -exportPFX`, or a keychain's identities or private
 * keys exported. A certificate's public part exported (Export-Certificate, -Type CERT) is not. */
rule cert_store_private_keys_exported {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "exports the certificate store's private keys (client-auth and signing keys) to files"
  strings:
    $pfx = /\bExport-PfxCertificate\b/ nocase
    $ctx_store = /\b(Get-ChildItem|gci|dir|ls)\s+["']?Cert:[\/\\]/ nocase
    $certutil = /\bcertutil(\.exe)?\b[^\n]{0,120}[-\/]exportPFX\b/ nocase
    $keychain = /\bsecurity\s+export\b[^\n]{0,160}-t\s+(identities|privKeys|allKeys)\b/
    $nss = /\bpk12util\b[^\n]{0,80}\s-o\s/
  condition:
    ($pfx and $ctx_store and for any i in (1..#pfx) : (for any j in (1..#ctx_store) : (@pfx[i] > @ctx_store[j] and @pfx[i] - @ctx_store[j] < 600))) or
    $certutil or $keychain or $nss
}

/* A secret-holding process's memory dumped: a core or minidump (gcore, gdb's
 * generate-core-file, procdump, createdump, lldb's save-core, MiniDumpWriteDump, /proc/<pid>/mem)
 * of an agent, a keyring or keychain daemon, a password manager or a browser, or any dump whose
 * `strings` are kept: cached passphrases and unlocked keys read from memory. A dump of the
 * skill's own server for a hang is not this. */
rule secret_process_memory_dumped {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "dumps the memory of a process that holds secrets (an agent, keyring, password manager or browser)"
  strings:
    $dump = /\bgcore\b|\bgenerate-core-file\b|\bprocdump(64)?(\.exe)?\s[^\n]{0,40}-m[apm]\b|\bcreatedump\b|\bprocess\s+save-core\b|\bMiniDumpWriteDump\b|\bOut-Minidump\b|\/proc\/(\{?\w+\}?|\$\{?\w+\}?)\/mem\b/
    $ctx_target = /\b[\w-]*-agent\b|\b(gpg|ssh)-agent\b|\bkeyring\w*|\bkeychain\w*|\bsecretd\b|\blsass\b|\b(keepass\w*|keepassxc|1password|bitwarden|lastpass|enpass|dashlane)\b|\b(chrome|chromium|firefox|msedge|brave|safari|opera|vivaldi)\b/ nocase
    $ctx_strings = /\bstrings\s+(-[\w-]+\s+(\d+\s+)?)*["']?[^\n|;]{0,80}(\.core|core\.|\.dmp|dump|\$\w+)/
  condition:
    for any i in (1..#dump) : (
      (for any j in (1..#ctx_target) : (@ctx_target[j] < @dump[i] + 120 and @dump[i] < @ctx_target[j] + 400)) or
      (for any k in (1..#ctx_strings) : (@ctx_strings[k] > @dump[i] and @ctx_strings[k] < @dump[i] + 400)))
}

/* A project's secret file (a dotenv file, a Rails master key or encrypted credentials, a
 * secrets file, Terraform state, a private key) read whole into a field of a request body that
 * the script sends: the values leave with the request, whatever the service is called. A dotenv
 * loader that sets the environment and sends a token in a header sends no file. */
rule secret_file_in_request_body {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "puts a project's secret file (.env, master key, secrets, state, private key) into a request it sends"
  strings:
    $field = /["']?[\w.-]{1,40}["']?\s*(:|=>|=)\s*[^\n,;{}]{0,60}\b(read_text|read_bytes|readFileSync|ReadAllText|ReadAllBytes|File\.read|File\.binread|IO\.read|Get-Content|open)\s*\(?[^\n]{0,80}["'](\.env(\.[\w-]+)?|[\w\/\\.-]*master\.key|[\w\/\\.-]*credentials(\.yml)?\.enc|[\w\/\\.-]*\.tfstate|[\w\/\\.-]*secrets?\.(ya?ml|json|toml|env)|[\w\/\\.-]*\.(pem|key|p12|pfx))["']/
    /* `{'secrets': Path('config/secrets.yml').read_text()}`: the path first, the read after */
    $field_rev = /["']?[\w.-]{1,40}["']?\s*(:|=>)\s*[^\n,;{}'"]{0,60}["'](\.env(\.[\w-]+)?|[\w\/\\.-]*master\.key|[\w\/\\.-]*credentials(\.yml)?\.enc|[\w\/\\.-]*\.tfstate|[\w\/\\.-]*secrets?\.(ya?ml|json|toml|env)|[\w\/\\.-]*\.(pem|key|p12|pfx))["']\s*\)?\s*\)?\s*\.(read_text|read_bytes|read)\s*\(/
    /* `env = Path(".env")` then `{".env": env.read_text()}`: the file named a few lines above */
    $field_path = /["'](\.env(\.[\w-]+)?|[\w\/.-]*master\.key|[\w\/.-]*secrets?\.(ya?ml|json))["']\s*:\s*\w+\.(read_text|read_bytes|read)\s*\(\s*\)/
    $ctx_send = /\bhttp\.(Post|PostForm)\b|\b(requests|httpx|session)\.(post|put|patch)\s*\(|\burlopen\s*\(|\bRequest\s*\([^\n]{0,200}data\s*=|\bmethod\s*:\s*["'](POST|PUT|PATCH)["']|\baxios\.(post|put)\s*\(|Net::HTTP\.post|Net::HTTP::(Post|Put)\.new|\bHTTParty\.(post|put)\b|\bFaraday\.(post|put)\b|->(post|put)\s*\(|\bInvoke-RestMethod\b[^\n]{0,200}-(Method\s+(Post|Put)|Body)\b|\bcurl\b[^\n]{0,200}\s(-d|--data[\w-]*|-F)\s/ nocase
    $veto_example = /\.env\.(example|sample|template|dist)\b/
  condition:
    not is_prose and $ctx_send and any of ($field, $field_rev, $field_path) and #veto_example >= 0
}

/* Private user data sent out: an application's own database or store under the user's
 * app-data folders (a browser's history, cookies or places database, notes, mail and chat
 * stores, any *.sqlite or *.db there) or the system's store of every program's crash and core
 * dumps (process memory with whatever it held: /var/crash, systemd's coredump folder,
 * DiagnosticReports, CrashDumps) given to a network upload in the same script or step. One
 * application's own pending crash report sent to its crash server is not this (round 12). */
rule private_data_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends the user's private data (browser history or cookies, notes, mail, chat, crash dumps) to a host"
  strings:
    $send = /\bcurl\b[^\n]{0,200}(\s-F\s*["']?[\w-]+=@|--form\s+["']?[\w-]+=@|--data-binary\s+["']?@|\s-T\s+|--upload-file\s+)|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,200}-(InFile|Body|Form)\b|\b(irm|iwr)\b[^\n]{0,200}-(InFile|Body|Form)\b|\b(requests|httpx)\.(post|put)\s*\([^\n]{0,200}\b(files|data)\s*=|\bhttp\.(Post|NewRequest)\b|\b(scp|rsync|rclone\s+(copy|sync))\s[^\n]{0,200}\s["']?([\w.-]+@)?[\w.-]+:/ nocase
    $ctx_data = /(\.mozilla|Firefox|[Cc]hrom(e|ium)|google-chrome|BraveSoftware|Microsoft[\/\\]Edge|Safari)[^\n]{0,120}[\/\\](places\.sqlite|cookies\.sqlite|formhistory\.sqlite|History|Cookies|Login Data|Web Data|Bookmarks|Top Sites|Visited Links)\b|\b(places|cookies|formhistory)\.sqlite\b|(LOCALAPPDATA|APPDATA|AppData|Application Support|Group Containers|Library[\/\\]Containers|\.local[\/\\]share|\.config)[^\n'"]{0,160}\.(sqlite3?|db)\b|\b(LOCALAPPDATA|APPDATA)\b[^\n]{0,20}["'][^\n'"]{0,160}\.(sqlite3?|db)["']|\.(pst|ost|mbox)\b|\bLibrary[\/\\](Mail|Messages)\b|\/var\/lib\/systemd\/coredump\b|\/var\/crash\b|DiagnosticReports\b|CrashDumps\b|\bcoredumpctl\s+dump\b/
  condition:
    for any i in (1..#send) : (for any j in (1..#ctx_data) : (@ctx_data[j] < @send[i] + 300 and @send[i] < @ctx_data[j] + 700))
}

/* A tool's own settings file under the user's home (`~/.<tool>/...`, `~/.config/<tool>/...`,
 * `%APPDATA%\<tool>\...`, a `.<tool>rc`), where package managers and CLIs keep registry logins,
 * put by the agent into a ticket, an issue, the chat or the reply, in a sentence that says it
 * holds a credential: the login handed to whoever reads the ticket. "Add the token to
 * ~/.x/config (see the issue)" edits the file and is not this: the file must go into the sink. */
rule tool_config_file_shared {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to put a tool's settings file (with its logins) into a ticket, issue or the chat"
  strings:
    $share = /\b(paste|print|show|attach|include|copy|post|send|upload|share)\b[^\n]{0,120}(~|\$HOME|%APPDATA%|%USERPROFILE%|\$env:APPDATA|\$XDG_CONFIG_HOME)[\/\\]([\w.@ -]{1,60}[\/\\]){0,4}[\w.-]{0,60}(config|\.conf|\.cfg|\.ini|\.toml|\.json|\.ya?ml|\.xml|\.properties|rc)\b[^\n]{0,160}\b(in|into|to|with|on)\s+(the|a|an|your|this|our|their)?\s*([\w'-]+\s+){0,3}(ticket|issue|chat|conversation|thread|reply|answer|comment|e-?mail|forum|pull\s+request)\b/ nocase
    $ctx_secret = /(passwords?|tokens?|credentials?|secrets?|api[\s_-]?keys?|\blogins?|user\s+and\s+password|\bauth\w*)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|must\s+not|avoid|without|redact\w*|mask\w*|remove\s+(the|any|all)|replace\w*)\b/ nocase
  condition:
    #neg >= 0 and for any i in (1..#share) : (for any j in (1..#ctx_secret) : (@ctx_secret[j] >= @share[i] - 200 and @ctx_secret[j] < @share[i] + !share[i] + 200))
}

/* A program or script that reads a tool's settings under the user's home (or prints them with
 * `<tool> config show/list --all`) and writes them into a report, diagnostics, support or
 * inventory file it hands on: the logins inside leave with the attachment. */
rule tool_config_into_report {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "writes a tool's settings from the user's home (with their logins) into a report, diagnostics or support file"
  strings:
    $read = /(\b(cat|type|Get-Content|gc)\s+["']?(~|\$HOME|\$\{HOME\}|%APPDATA%|%USERPROFILE%|\$env:(APPDATA|USERPROFILE|HOME))|(\bPath\.home\s*\(\s*\)|\bhomedir\s*\(\s*\)|\bexpanduser\s*\(\s*["']~|\bDir\.home\b|\bUserHomeDir\s*\(\s*\)|\$env:(APPDATA|USERPROFILE)|\bGetFolderPath\s*\()[^\n]{0,20})["']?[\/\\,+\s]*["']?\.?[\w-]{2,40}["']?\s*[\/\\,+]\s*["']?([\w.@-]{1,60}[\/\\]){0,3}[\w.-]{0,60}(config|\.conf|\.cfg|\.ini|\.toml|\.properties)(\.v?\d+)?\b|\b[a-z][\w-]{1,30}\s+config\s+(show|list|view|dump)\s+(--all|-a|--show-secrets|--reveal|--unmask|--raw)\b/
    $ctx_out = /["'\s\/\\>]([\w-]*[-_.])?(report|diag\w*|support|debug|bundle|inventory|ticket)([-_.][\w-]*)?\.(md|txt|json|log|ya?ml)\b/ nocase
  condition:
    for any i in (1..#read) : (for any j in (1..#ctx_out) : (@ctx_out[j] > @read[i] and @ctx_out[j] < @read[i] + 1200))
}

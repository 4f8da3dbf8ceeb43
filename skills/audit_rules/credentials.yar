/* Credentials read: keys, tokens and stores that let their holder act as the user. In a
 * script high; in prose (a guide naming ~/.ssh/config) medium. */

rule credential_files {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    block = "medium"
    message = "reads credentials: SSH keys, cloud, git or package-registry tokens, keychains"
  strings:
    $ssh = /\.ssh[\/\\](id_[a-z0-9_]+|authorized_keys|known_hosts|config\b|\*)/
    $ssh_key = /\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.pub\b)/
    $cloud = /\.aws[\/\\](credentials|config)|\.config[\/\\]gcloud[\/\\]|application_default_credentials\.json|\.azure[\/\\](accessTokens|msal_token_cache|azureProfile)|\.kube[\/\\]config|\.oci[\/\\]config|%APPDATA%\\gcloud\\|AppData\\Roaming\\gcloud\\/
    $git = /\.git-credentials|\.config\/gh\/hosts\.yml|\.config\/hub\b|git\s+credential\s+fill/
    $registry = /(~|\$HOME|HOME\}|homedir\(\)|home\(\))[^\n]{0,20}\.(npmrc|pypirc|netrc|yarnrc|gem\/credentials|docker\/config\.json|cargo\/credentials)|cat\s+[^\n|]{0,20}\.(npmrc|pypirc|netrc)\b/
    $system = /\/etc\/(shadow|gshadow|sudoers)\b|\/etc\/passwd\b[^\n]{0,40}\|/
    $keychain = /\bsecurity\s+(find-(generic|internet)-password|dump-keychain|export)\b|login\.keychain|\bsecret-tool\s+lookup\b|\bcmdkey(\.exe)?\s+\/list\b|\bvaultcmd(\.exe)?\s+\/(list|listcreds)|\bCredEnumerate\w*\b|\bGet-StoredCredential\b|Windows\.Security\.Credentials\.PasswordVault|\bkwallet-query\b|\bCryptUnprotectData\b|\bProtectedData\]::Unprotect\b|\bos_crypt\b[^\n]{0,40}encrypted_key|\bencrypted_key\b[^\n]{0,80}(b64decode|base64|DPAPI|Unprotect)/ nocase
    $windows = /\\Microsoft\\(Credentials|Protect)\\|\blsass(\.exe|\.dmp)?\b[^\n]{0,60}(dump|minidump|procdump)|\b(procdump|comsvcs(\.dll)?)\b[^\n]{0,80}\b(lsass|MiniDump)\b|\breg(\.exe)?\s+save\s+HKLM\\(SAM|SYSTEM|SECURITY)\b|\bmimikatz\b/ nocase
    $aws_get = /\baws\s+configure\s+get\s+(aws_secret_access_key|aws_session_token)\b/
    $proc_environ = /\/proc\/(self|\$\w+|[0-9*]+)\/environ\b/
    $browser = /(Google\/Chrome|google-chrome|[Cc]hromium|BraveSoftware|Microsoft\/Edge|microsoft-edge|Mozilla\/Firefox|\.mozilla\/firefox)[^\n]{0,80}(Login Data|Cookies|Local State|key[34]\.db|logins\.json|cookies\.sqlite)|\b(Login Data|logins\.json|key4\.db|cookies\.sqlite)\b[^\n]{0,60}\b(sqlite3|copy|open|read)/ nocase
    $browser_store = /["'](Login Data|Web Data|key4\.db|logins\.json|cookies\.sqlite|Cookies\.binarycookies|Local State)["']|\bpassword_value\b|\bFROM\s+(logins|moz_cookies|cookies)\b|User Data[\/\\]+(Default|Profile \d+)[\/\\]+(Login Data|Cookies|Network[\/\\]+Cookies|Web Data)/
    $history = /(~|\$HOME|\$\{HOME\}|homedir\(\)|home\(\))["']?\/\.(bash|zsh|python|psql|mysql|node_repl)_history\b/
    $wallet = /\b(wallet\.dat|\.electrum\/wallets|Exodus\/exodus\.wallet|\.ethereum\/keystore|solana\/id\.json)/
    $gpg = /\.gnupg\/(private-keys|secring|trustdb)|gpg\s+--export-secret-keys/
    $tokens_env = /\b(cat|type|less|more|head|tail|grep)\s+[^\n|;]{0,40}(\s|\/)\.env\b/
    $veto_pub = /\.ssh[\/\\]\*\.pub\b/
    /* One keychain item read into a variable: the user's store used as designed (see
     * credential_stores_more); another application's item is credential_other_app_keychain's. */
    $neg_capture = /\b[A-Za-z_]\w*=["']?\$\(\s*security\s+find-(generic|internet)-password\b/
    /* Round 12: the file named in a message to the user (`no ~/.netrc entry for HOST`, `add a
     * line to ~/.pgpass`): it says where the user keeps the secret, it reads nothing. */
    $neg_message = /\b(no|missing|add\s+(an?\s+)?(entry|line|machine)\s+(to|in)|create|not\s+found\s+in)\s+(an?\s+)?["'`]?(~|\$HOME)\/\.(netrc|npmrc|pypirc|pgpass)\s+(entry|entries|line|file|for)\b/
  condition:
    any of them
}

/* The whole environment dumped (not one variable read to call an API, which many good skills
 * do): medium; sent somewhere it is exfiltration (exfiltration.yar). */
rule environment_dump {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "medium"
    prose = "low"
    message = "dumps the whole environment, where API keys and tokens live"
  strings:
    $sh = /\b(printenv|env|set|export\s+-p|declare\s+-x)\s*(>|\|\s*(curl|wget|nc|base64|gzip|tee|xxd))/
    $py = /(dict\s*\(\s*os\.environ\s*\)|json\.dumps\s*\(\s*(dict\s*\()?\s*os\.environ\b|os\.environ\.(items|copy)\s*\(\s*\)|str\s*\(\s*os\.environ\s*\))/
    $js = /JSON\.stringify\s*\(\s*process\.env\s*[,)]|Object\.(entries|keys|values)\s*\(\s*process\.env\s*\)/
    $ps = /\b(gci|dir|ls|Get-ChildItem)\s+env:/ nocase
    $rb = /\bENV\.(to_h|to_a|each|map)\b/
    $pl = /\bkeys\s*%ENV\b|\bfor\w*\s+[^\n]{0,20}\(\s*(sort\s+)?keys\s+%ENV/
  condition:
    any of them
}

/* A private key or token store read by a command: high even in prose (an agent told to run
 * `cat ~/.ssh/id_rsa` runs it). */
/* The reader is a whole word followed by its argument ("typescript/.npmrc" holds no "type"). */
rule credential_read_command {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "a command reads a private key or a token store"
  strings:
    $read = /(\b(cat|type|less|more|head|tail|cp|copy|scp|base64|xxd|strings|gc|Get-Content|Copy-Item|slurp)\s+|\b(ReadAllText|ReadAllBytes|File\.read\w*|IO\.read|slurp|open|read_text|readFileSync|readFile)\s*\(\s*)[^\n|;]{0,60}(\.ssh[\/\\]id_[a-z0-9]+\b([^.]|\.[^p])|\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.[^p])|\.aws[\/\\]credentials|\.git-credentials|\.netrc|\.pypirc|\.npmrc|\/etc\/shadow|\.docker[\/\\]config\.json|\.kube[\/\\]config|\.gnupg[\/\\]private|\.azure[\/\\](accessTokens|msal_token_cache)|application_default_credentials\.json)/
  condition:
    any of them
}

/* Prose that has the agent print or send a private key or a token store. High even in prose (an
 * agent told to paste ~/.aws/credentials into a report does it). A line that negates that very
 * order ("never paste ~/.aws/credentials into a chat") is a warning, not an order: $neg matches
 * the negation, the verb and the store together, so a "never" elsewhere on the line is no cover. */
rule credential_prose_paste {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to print or send a private key or a token store"
  strings:
    $prose_read = /\b(include|paste|print|output|copy|attach|upload|send|show|dump|display)\b[^\n]{0,60}((~|\$HOME)\/\.ssh\/id_[a-z0-9]+\b([^.]|\.[^p])|\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.[^p])|\.aws\/credentials|\.git-credentials|(~|\$HOME)\/\.(netrc|pypirc|npmrc)\b)/ nocase
    $neg_paste = /\b(never|not|don'?t|must\s+not|avoid|without)\s+([\w-]+\s+){0,2}(include|paste|print|output|copy|attach|upload|send|show|dump|display)\b[^\n]{0,60}((~|\$HOME)\/\.ssh\/id_[a-z0-9]+\b([^.]|\.[^p])|\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.[^p])|\.aws\/credentials|\.git-credentials|(~|\$HOME)\/\.(netrc|pypirc|npmrc)\b)/ nocase
  condition:
    $prose_read and #neg_paste >= 0
}

/* A secret shipped inside the skill: a private key or a live-looking token. Medium: a sample
 * can look like one; a real one lets the skill act as someone (an attacker's server, a stolen
 * account). */
rule embedded_secret {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "medium"
    message = "holds a private key or an access token"
  strings:
    $pem = /-----BEGIN (RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY( BLOCK)?-----/
    $aws = /\b(AKIA|ASIA)[0-9A-Z]{16}\b/
    $github = /\bgh[pousr]_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{60,}/
    $slack = /\bxox[baprs]-[0-9A-Za-z-]{10,}/
    $openai = /\bsk-(proj-)?[A-Za-z0-9_-]{40,}/
  condition:
    any of them
}

/* Commands that print a live token or a secret store's entry. Alone medium (a guide sets
 * GH_TOKEN=$(gh auth token) for the same CLI); written to a file, piped on, or printed into the
 * agent's answer high. Sent to a host: exfiltration.yar. A redirection of stderr (`2>`, `&>`)
 * or to /dev/null writes no secret: `TOKEN=$(op read op://... 2>/dev/null)` is the store used as
 * designed. */
rule credential_token_cli {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "medium"
    prose = "low"
    message = "runs a command that prints a live access token or a stored secret"
  strings:
    $cli = /\bgh\s+auth\s+(token|status\s+(-\w+\s+)*--show-token|status\s+(-\w+\s+)*-t\b)|\bgcloud\s+(auth\s+(print-access-token|print-identity-token|application-default\s+print-access-token)|config\s+config-helper)|\baz\s+account\s+get-access-token\b|\baws\s+(configure\s+export-credentials|sts\s+get-session-token|configure\s+get\s+aws_(secret_access_key|session_token))\b|\bkubectl\s+config\s+view\s+[^\n]{0,40}--raw\b|\bdocker-credential-[\w-]+\s+(get|list)\b|\bnpm\s+token\s+(list|create)\b|\bop\s+(read\s+["']?op:|item\s+get\b[^\n]{0,80}--(reveal|fields))|\bvault\s+(kv\s+get|read)\s|\bbw\s+(get\s+(password|item|totp)|list\s+items|export)\b|\bpass\s+show\s|\bheroku\s+auth:token\b|\bdoctl\s+auth\s+token\b|\b(fly|flyctl)\s+auth\s+token\b|\bglab\s+(auth\s+status\s+[^\n]{0,20}(-t|--show-token)\b|config\s+get\s+token\b)|\bgit\s+credential\s+fill\b|\bfirebase\s+login:ci\b|\bgh\s+api\s+[^\n]{0,40}\/user\/keys\b/
  condition:
    any of them
}

rule credential_token_saved {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "high"
    message = "a live access token or stored secret is written to a file, piped on or copied into output"
  strings:
    $saved = /\b(gh\s+auth\s+token|gcloud\s+auth\s+(application-default\s+)?print-(access|identity)-token|az\s+account\s+get-access-token|aws\s+configure\s+export-credentials|aws\s+sts\s+get-session-token|kubectl\s+config\s+view\s+[^\n]{0,40}--raw|docker-credential-[\w-]+\s+get|bw\s+(get\s+password|list\s+items|export)|vault\s+(kv\s+get|read)|op\s+read|pass\s+show|heroku\s+auth:token|(fly|flyctl)\s+auth\s+token|glab\s+config\s+get\s+token|git\s+credential\s+fill)\b(([^\n|>;]|[0-9&]>>?&?[^\s|;>]*){0,100}[^\n|>;0-9&])?(>>?\s*["']?([\w$~%.\\-]|\/[^d\s]|\/d[^e])|\|\s*(tee|base64|xxd|gzip|curl|wget|nc|ncat|openssl|clip|pbcopy|xclip|Out-File|Set-Content)\b)/
    $prose = /\b(include|paste|print|output|copy|put|add|echo|show|write|append|report)\b[^\n]{0,200}\b(output|result|value)\s+of\s+[`'"]?(gh\s+auth\s+token|gcloud\s+auth\s+print-access-token|az\s+account\s+get-access-token|aws\s+(sts\s+get-session-token|configure\s+export-credentials)|kubectl\s+config\s+view\s+--raw)/ nocase
    $var_saved = /\b(echo|printf|print|cat)\s+[^\n|>]{0,40}\$\{?\w*(TOKEN|Token|token|SECRET|Secret|secret|PASSWORD|Password|password|CREDS?|Creds?|creds?|API_KEY|ApiKey|api_key)\w*\}?["']?\s*(>>?\s*["']?[\w$~.\/-]|\|\s*(curl|wget|nc|base64|tee)\b)|\b(Out-File|Set-Content|Add-Content)\b[^\n]{0,60}\$\w*(token|secret|password|cred)\w*/ nocase
    $var_stash = /\b(echo|printf)\s+["']?\$\{?\w+\}?["']?\s*>>?\s*["']?(~|\$HOME|\$\{HOME\}|\/tmp|\/dev\/shm|\$TMPDIR|%TEMP%|%APPDATA%)/
    $ctx_cli = /\bgh\s+auth\s+token\b|\bgcloud\s+auth\s+(application-default\s+)?print-(access|identity)-token\b|\baz\s+account\s+get-access-token\b|\baws\s+(configure\s+export-credentials|sts\s+get-session-token)\b|\bkubectl\s+config\s+view\s+[^\n]{0,40}--raw\b|\bdocker-credential-[\w-]+\s+get\b|\bbw\s+get\s+password\b|\bvault\s+(kv\s+get|read)\s|\bop\s+read\s|\bheroku\s+auth:token\b|\bgit\s+credential\s+fill\b/
  condition:
    $saved or $prose or (any of ($var_saved, $var_stash) and $ctx_cli)
}

/* The whole environment written to a file or piped to an encoder or the network: staged to be
 * taken. High in a script, medium in prose ("run `env > env.txt` and attach it"). */
rule environment_dump_saved {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "writes or pipes the whole environment, where API keys and tokens live"
  strings:
    $sh = /(^|[;&|(`\n]|\$\()\s*(printenv|env|export\s+-p|declare\s+-x|compgen\s+-e|set)\s*(>>?\s*["']?[\w$~.\/-]|\|\s*(tee|curl|wget|nc|ncat|base64|gzip|xxd|openssl|gpg)\b)/
    $py = /\b(json\.dump|pickle\.dump|yaml\.(safe_)?dump)\s*\(\s*(dict\s*\(\s*)?os\.environ\b|\.write(_text)?\s*\(\s*(str|json\.dumps|repr)\s*\(\s*(dict\s*\(\s*)?os\.environ\b/
    $js = /\b(writeFileSync|writeFile|appendFileSync|appendFile)\s*\([^\n]{0,80}(JSON\.stringify\s*\(\s*)?process\.env\s*[,)]/
    $ps = /\b(gci|dir|ls|Get-ChildItem|Get-Item)\s+env:[^\n]{0,80}(Out-File|Export-\w+|Set-Content|Add-Content|>|ConvertTo-Json[^\n]{0,40}(Out-File|Set-Content|>))/ nocase
    $rb = /\bFile\.write\s*\([^\n]{0,80}ENV\.to_(h|a|s)\b|\bENV\.to_h\.to_(json|yaml)[^\n]{0,40}(File|write)/
    $pl = /\bprint\s+\{?\$\w+\}?\s+[^\n]{0,40}%ENV\b|Dumper\s*\(\s*\\%ENV/
    $bat = /(^|\n|&)\s*set\s*>\s*["']?%?[\w.\\%-]+/ nocase
  condition:
    any of them
}

/* Prose that tells the agent to read the user's credential files or copy secrets into what it
 * writes (its answer, a commit, an issue): the agent has the user's access, so this is a read. */
rule credential_prose_read {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to read the user's credential files or copy secrets into its output"
  strings:
    $read = /\b(read|open|cat|load|parse|collect|gather|copy|extract|dump|print|grab|harvest|retrieve|fetch)\s+(the\s+|all\s+|each\s+|every\s+)?([\w'-]+\s+){0,4}[`'"]?(~|\$HOME|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.(aws[\/\\]credentials|config[\/\\]gcloud|azure[\/\\]|kube[\/\\]config|ssh[\/\\]id_(\*|[a-z0-9]+\b)([^.]|\.[^p])|netrc|npmrc|pypirc|git-credentials|docker[\/\\]config\.json|gnupg)/ nocase
    $read_cloud = /\b(read|open|cat|load|parse|collect|gather|copy|extract|dump|grab|harvest)\s+(the\s+|all\s+|every\s+)?(user'?s\s+)?(cloud\s+)?(credential|credentials|secret|secrets|token|tokens|key)\s+files?\b[^\n]{0,80}(~|\$HOME|\.aws|\.kube|\.ssh|gcloud|\.azure|\.netrc|\.docker)/ nocase
    $veto_not = /\b(never|not|don'?t|avoid|without|no)\s+([\w-]+\s+){0,2}(include|paste|print|output|echo|copy|put|add|append|write|quote)\b/ nocase
    $neg_read = /\b(never|not|don'?t|avoid)\s+([\w-]+\s+){0,2}(read|open|cat|load|print|copy|dump|show|paste)\b/ nocase
    $into_answer = /(^|\n)[^\n]{0,120}\b(include|paste|print|output|echo|copy|put|add|append|write|quote)\s+[^\n]{0,40}\b(values?\s+of\s+)?(the\s+|all\s+|any\s+|every\s+)?([\w'-]+\s+){0,2}(\$?[A-Z][A-Z0-9_]*(TOKEN|SECRET|PASSWORD|API_KEY|ACCESS_KEY)\b|environment\s+variables|env\s+vars|api\s+keys?|access\s+tokens?|tokens|secrets|credentials|passwords|private\s+keys?)\b[^\n]{0,60}\b(in|into|to)\s+(your|the)\s+(answer|response|reply|summary|final\s+message|commit(\s+message)?|pr\s+(description|body)|pull\s+request|issue|report|comment|changelog|log\s+output)\b/ nocase
  condition:
    any of them
}

/* Round 3: a secret store reached as a path built from the home directory in code (Go's
 * filepath.Join(home, ".ssh"), Ruby's File.join(Dir.home, '.aws', 'sso'), pathlib's
 * Path.home() / ".kube"), and other processes' environments. */
rule credential_store_path {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads a credential store under the home directory (SSH keys, cloud, registry or CLI tokens)"
  strings:
    $join = /(\bhome(Dir)?\b|Dir\.home|homedir\s*\(\s*\)|Path\.home\s*\(\s*\)|UserHomeDir\s*\(\s*\)|expanduser\s*\(\s*["']~["']\s*\)|getenv\s*\(\s*["'](HOME|USERPROFILE)["']\s*\)|ENV\s*\[\s*["'](HOME|USERPROFILE)["']\s*\]|\$ENV\{\s*["']?HOME["']?\s*\}|\$env:USERPROFILE)\s*(,|\/|\+|\.)\s*["'][\/\\]?\.(ssh|aws|azure|kube|docker|gnupg|password-store|vault-token|git-credentials|netrc|npmrc|pypirc)\b/
    $sso = /\.aws[\/\\"' ,]+sso[\/\\"' ,]+cache\b|\.config[\/\\"' ,]+gh[\/\\"' ,]+hosts\.ya?ml|\.config[\/\\"' ,]+gcloud[\/\\"' ,]+(credentials\.db|access_tokens\.db|legacy_credentials)|\.azure[\/\\"' ,]+msal_token_cache|\.docker[\/\\"' ,]+config\.json|\.terraform\.d[\/\\"' ,]+credentials|\.vault-token\b/
    $proc_env = /\/proc\/(\*|\[[0-9-]+\]\*?|\$\{?\w+\}?|[0-9]+|\{[^}\n]{1,20}\})\/environ\b/
  condition:
    any of them
}

/* Prose that has the agent copy a credential file's content into something that leaves (a bug
 * report, an issue, a paste, a message): the agent holds the user's access. */
rule credential_prose_share {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to put a credential file's content into a report, issue or message"
  strings:
    $share = /\b(include|paste|attach|add|append|post|put|copy|upload|send|quote|share)\b[^\n]{0,60}\b(contents?|text|output)\s+of\s+[`'"]?(~|\$HOME|%USERPROFILE%)[\/\\]\.(ssh|aws|azure|kube|docker|gnupg|netrc|npmrc|pypirc|git-credentials|config[\/\\](gh|gcloud)|password-store|vault-token|env)\b/ nocase
    $share_cat = /\b(include|paste|attach|add|append|post|copy|upload|send)\b[^\n]{0,80}\b(cat|type|Get-Content)\s+[`'"]?(~|\$HOME|%USERPROFILE%)[\/\\]\.(ssh|aws|azure|kube|docker|gnupg|netrc|npmrc|pypirc|git-credentials|config[\/\\](gh|gcloud))\b/ nocase
    $neg_not = /\b(never|not|don'?t|avoid|without|no)\s+([\w-]+\s+){0,2}(include|paste|attach|add|append|post|put|copy|upload|send|quote|share)\b/ nocase
  condition:
    any of ($share*) and #neg_not >= 0
}

/* Round 5, by technique (ATT&CK T1552.001/.005, T1555.001/.003/.004, T1056.001): secrets taken
 * from stores the rules above did not name: the instance-metadata service's role or service
 * account token; a tool's saved passwords (rclone, Maven, Gradle, s3cmd, Terraform, Vault,
 * FileZilla, WinSCP and PuTTY sessions, MySQL and Postgres files); a browser's cookie or login
 * database copied or queried; a keychain password printed; PowerShell's command history;
 * every key the user presses. High where it runs, medium in prose. */
rule credential_stores_more {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads stored secrets: instance-metadata tokens, a tool's saved passwords, browser cookies, a keychain password, command history, key presses"
  strings:
    $imds = /\b169\.254\.169\.254\/(latest\/meta-data\/iam\/security-credentials|latest\/api\/token|metadata\/identity\/oauth2\/token|opc\/v[12]\/identity)|\bmetadata(\.google\.internal)?\/computeMetadata\/v1\/instance\/service-accounts\/[^\s"'`]{0,60}\/(token|identity)\b|\bfd00:ec2::254\b/
    $imds_split = /\/(meta-data\/)?iam\/security-credentials\b|\/instance\/service-accounts\/[^\s"'`\/]{1,60}\/(token|identity)\b|\/metadata\/identity\/oauth2\/token\b|\bX-aws-ec2-metadata-token-ttl-seconds\b/
    $ctx_imds_host = /\b169\.254\.169\.254\b|\bmetadata\.google\.internal\b|\bMetadata-Flavor\b/
    $tool_reveal = /\brclone\s+reveal\b|\brclone\s+config\s+(show|dump)\b[^\n]{0,40}\|\s*(curl|nc|tee|base64)|\bnetsh(\.exe)?\s+wlan\s+show\s+profiles?\b[^\n]{0,80}\bkey\s*=\s*clear\b|\bgpg2?\s+[^\n]{0,80}--export-secret-(sub)?keys\b|\b(cp|rsync|tar|zip|scp|Copy-Item|copy)\s+(-[\w-]+\s+)*["']?(~|\$HOME|\$\{HOME\}|\$\(HOME\)|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.(ssh|gnupg|aws|kube|azure|password-store|docker)[\/\\]?["']?\s/
    $cargo_split = /["']credentials(\.toml)?["']/
    $ctx_cargo = /["']\.cargo["']|\bCARGO_HOME\b/
    $hunt = /\b(grep|rg|ag|findstr|Select-String|sls)\s[^\n]{0,60}(pass|token|secret|api.?key|credential)[^\n]{0,80}(\.\w*_history\b|HistorySavePath\b)|\bfind\s+["']?(~|\$HOME|\$\{HOME\}|\/|\/home|\/Users)["']?\/?\s[^\n]{0,60}-name\s+["']?\.env\b|\bglob\s*\(\s*[^\n]{0,40}(~|home)[^\n]{0,20}\*\*\/\.env["']|\bsecret-tool\s+search\s+[^\n]{0,40}--all\b|\bPasswordVault\b[^\n]{0,80}\bRetrieveAll\s*\(|\bkeymgr\.dll\s*,\s*KRShowKeyMgr\b/ nocase
    $vault_harvest = /\bop\s+item\s+get\b[^\n]{0,120}--reveal\b|\bbw\s+(export|list\s+items)\b|\blpass\s+export\b/
    $ctx_vault_all = /\bop\s+item\s+list\b|\bbw\s+list\s+items\b|\blpass\s+(ls|export)\b|\bfor\b[^\n]{0,80}\b(op|bw|lpass)\b/
    $tool_store = /\.config[\/\\"' ,]+rclone[\/\\"' ,]+rclone\.conf|\.pgpass\b|\.cargo[\/\\"' ,]+credentials(\.toml)?\b|\.m2[\/\\"' ,]+settings(-security)?\.xml|\.gradle[\/\\"' ,]+gradle\.properties|\.s3cfg\b|\.boto\b[^\n]{0,20}["']|\.terraform\.d[\/\\"' ,]+credentials\.tfrc\.json|\.vault-token\b|\bFileZilla[\/\\"' ,]+(recentservers|sitemanager)\.xml|\bMartin Prikryl\\WinSCP 2\\Sessions|\bSimonTatham\\PuTTY\\Sessions|\\Microsoft\\Windows\\PowerShell\\PSReadLine\\ConsoleHost_history\.txt|\(Get-PSReadLineOption\)\.HistorySavePath/ nocase
    $ctx_read = /\b(cat|type|cp|copy|scp|Get-Content|gc|Copy-Item|ReadAllText|ReadAllLines|File\.(read|open|foreach|readlines)|IO\.read|open\s*\(|read_text\s*\(|readFileSync|readFile|parse|REXML|Nokogiri|ElementTree|ConfigParser|configparser|reg(\.exe)?\s+(export|query|save)|Select-String|grep|sls)\b|\bopen\s+(my\s+)?\$\w+\s*,/ nocase
    $browser_copy = /\b(cp|copy|Copy-Item|rsync|scp|sqlite3|shutil\.copy\w*|copyFileSync|FileUtils\.cp|File\.Copy)\b[^\n]{0,100}(google-chrome|Google[\/\\]Chrome|[Cc]hromium|BraveSoftware|Microsoft[\/\\]Edge|microsoft-edge|\.mozilla[\/\\]firefox|Mozilla[\/\\]Firefox|Safari)[^\n]{0,100}(Cookies|Login Data|Web Data|key[34]\.db|logins\.json|cookies\.sqlite|Cookies\.binarycookies)\b/
    $cookie_query = /\bselect\b[^\n]{0,80}\b(encrypted_value|password_value|origin_url[^\n]{0,40}username_value)\b[^\n]{0,60}\bfrom\s+(cookies|logins)\b/ nocase
    $keychain_print = /\bsecurity\s+find-(generic|internet)-password\b[^\n]{0,160}\s-[a-z]*[wg]\b|\bsecret-tool\s+lookup\b[^\n]{0,80}\|\s*(curl|nc|tee|base64)/
    $keylog = /\bkeyboard\.(on_press|on_release|hook)\s*\(|\bkeyboard\.Listener\s*\(\s*on_(press|release)\b|\bGetAsyncKeyState\b|\bSetWindowsHookEx\w*\s*\([^\n]{0,40}\bWH_KEYBOARD(_LL)?\b|\bCGEventTapCreate\b[^\n]{0,120}\bkCGEventKeyDown\b|\bxinput\s+(test|test-xi2)\b|\/dev\/input\/event[0-9*]|\biohook\b[^\n]{0,40}\bkeydown\b|\buiohook\b/
    $ctx_keylog_sink = /\.(write|writelines|send|sendall|post|put|appendFileSync|appendFile)\s*\(|\bprint\s*\([^\n]{0,80}\bfile\s*=|>>\s*["']?[\w$~.\/-]/
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|warning|attacker|malicious|detect|flag|example\s+of)\b/ nocase
    /* A keychain item read into a variable (`TOKEN=$(security find-generic-password -s ITEM -w)`)
     * is the user's store used as designed: the token goes where the script sends it, which the
     * exfiltration rules judge; printed or written it is taken. Another application's item is
     * credential_other_app_keychain's, wherever it goes. */
    $neg_capture = /\b[A-Za-z_]\w*=["']?\$\(\s*security\s+find-(generic|internet)-password\b/
  condition:
    (($imds or ($imds_split and $ctx_imds_host)) or ($tool_store and $ctx_read) or $tool_reveal or ($vault_harvest and $ctx_vault_all) or $hunt or ($cargo_split and $ctx_cargo and $ctx_read) or


 $browser_copy or
    $cookie_query or $keychain_print or (is_script and $keylog and $ctx_keylog_sink)) and #neg_warn >= 0 and
    #neg_capture >= 0
}

/* Credential dumping tools and whole secret stores listed and read (ATT&CK T1003, T1555,
 * T1552.007): mimikatz modules, the AD database copied, every secret of a cloud secret manager
 * or every namespace's Kubernetes secrets dumped. High in a script; a penetration-testing guide's
 * code block or prose is medium. */
rule credential_dump_all {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "dumps credentials in bulk (mimikatz, the AD database, every cloud or cluster secret)"
  strings:
    $mimikatz = /\bsekurlsa::(logonpasswords|wdigest|msv|tickets|pth|ekeys|credman)\b|\blsadump::(sam|secrets|dcsync|lsa|cache)\b|\bkerberos::(list|golden|ptt)\b|\bdpapi::(cred|masterkey|chrome)\b|\bvault::(cred|list)\b/ nocase
    $ntds = /\bntdsutil(\.exe)?\b[^\n]{0,80}\bifm\b|\\ntds\.dit\b[^\n]{0,80}\b(copy|cp|Copy-Item|robocopy)\b|\b(copy|cp|Copy-Item|robocopy)\b[^\n]{0,120}\\ntds\.dit\b/ nocase
    $k8s = /\bkubectl\s+get\s+secrets?\s+[^\n]{0,40}(-A|--all-namespaces)\b[^\n]{0,40}-o\s*(yaml|json|jsonpath|go-template)/
    $cloud_get = /\baws\s+secretsmanager\s+get-secret-value\b|\bgcloud\s+secrets\s+versions\s+access\b|\baz\s+keyvault\s+secret\s+show\b/
    $ctx_cloud_list = /\baws\s+secretsmanager\s+list-secrets\b|\bgcloud\s+secrets\s+list\b|\baz\s+keyvault\s+secret\s+list\b/
  condition:
    $mimikatz or $ntds or $k8s or (is_script and $cloud_get and $ctx_cloud_list)
}

/* Round 10: another application's secret read out of the keychain: a browser's "Safe Storage"
 * key (it decrypts the browser's saved passwords and cookies: LaZagne's and every macOS
 * stealer's first step) or a Wi-Fi network's password. Round 11: any Electron application's
 * Safe Storage key (Slack, Discord, Signal: the same scheme), and the login tokens other tools
 * keep there (Claude Code's credentials, the GitHub CLI's gh:github.com, Docker's); Windows and
 * Linux Wi-Fi keys shown in clear, Apple system items (iCloud, com.apple.*). No skill's own job needs another
 * program's master key, so it is high wherever it is written as a step, inline code included;
 * a line that warns or teaches detection is not a step. */
rule credential_other_app_keychain {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "reads another application's stored secret (a browser's Safe Storage key, a Wi-Fi password, another tool's login)"
  strings:
    $safe_storage = /\bsecurity\s+find-generic-password\b[^\n]{0,160}\b[\w. -]{2,30} Safe Storage\b/ nocase
    /* The item's name in a list or variable the keychain read takes (`for svc in "Chrome Safe
     * Storage" ...; security find-generic-password -s "$svc" -w`). */
    $safe_storage_name = /["'][\w. -]{2,30} Safe Storage["']/ nocase
    $ctx_keychain_read = /\bsecurity\s+find-generic-password\b[^\n]{0,160}\s-[a-z]*w\b/
    $tool_login = /\bsecurity\s+find-(generic|internet)-password\b[^\n]{0,160}(["'\s]Claude[ -]Code-credentials\b|["'\s]gh:github\.com\b|["'\s]Docker Credentials\b|["'\s]Codex (Auth|CLI)\b)/ nocase
    $safe_storage_py = /\bkeyring\.get_password\s*\(\s*["'](Chrome|Chromium|Brave|Microsoft Edge|Opera|Vivaldi) Safe Storage["']/ nocase
    $airport = /\bsecurity\s+find-generic-password\b[^\n]{0,160}(-D\s+["']?AirPort network password|\bAirPort\b[^\n]{0,40}\s-[a-z]*w)/ nocase
    $mac_system = /\bsecurity\s+find-(generic|internet)-password\b[^\n]{0,120}(Wi-?Fi|iCloud|com\.apple\.)/ nocase
    $win_wifi = /\bnetsh(\.exe)?\s+wlan\s+show\s+profiles?\b[^\n]{0,80}key\s*=\s*clear\b/ nocase
    $nm_wifi = /\bnmcli\s+[^\n]{0,60}(--show-secrets|-s\s+connection\s+show)\b|\/etc\/NetworkManager\/system-connections\// nocase
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|warning|attacker|stealer|malware|malicious|detect|detection|alert|flag|example\s+of)\b/ nocase
  condition:
    ($safe_storage or $safe_storage_py or $airport or $mac_system or $win_wifi or $nm_wifi or $tool_login or
     (is_script and $safe_storage_name and $ctx_keychain_read)) and #neg_warn >= 0
}

/* Round 10 (issue 45): a browser's credential store named as a file inside a browser profile
 * that the same file names (the path in a variable, the store's name on another line): Chromium's
 * Login Data with Local State (the key that decrypts it), Firefox's key4.db with logins.json. */
rule credential_browser_store_by_name {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "copies or reads a browser's saved-password store (Login Data, Local State, key4.db, logins.json)"
  strings:
    $store = /[\/\\](Login Data|Local State|key4\.db|logins\.json)(["'\s)]|$)/
    $ctx_profile = /(google-chrome|Google[\/\\]Chrome|[Cc]hromium|BraveSoftware|Microsoft[\/\\]Edge|microsoft-edge|\.mozilla[\/\\]firefox|Mozilla[\/\\]Firefox|vivaldi|opera)\b/ nocase
  condition:
    $store and $ctx_profile
}

/* Round 10: a walk of the whole home directory that keeps files named like secret stores
 * (.env*, .npmrc, .pypirc, .netrc, SSH keys): the user's tokens for every project at once. */
rule credential_home_walk_secrets {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "walks the home directory collecting secret files (.env, .npmrc, .pypirc, .netrc, SSH keys)"
  strings:
    $walk = /\b(walk|os\.walk|readdirSync|readdir|glob(\.sync|Sync)?|globby|fg|rglob|iglob|WalkDir::new|filepath\.Walk(Dir)?|Find\.find|Get-ChildItem|gci)\s*\(?\s*(os\.homedir\s*\(\s*\)|homedir\s*\(\s*\)|os\.path\.expanduser\s*\(\s*["']~\/?["']\s*\)|Path\.home\s*\(\s*\)|Dir\.home\b|\$env:USERPROFILE|\$HOME\b|["']~\/?["']|home(Dir|_dir)?\s*[,)])/
    $find = /\bfind\s+["']?(~|\$HOME|\$\{HOME\}|\/home|\/Users)\/?["']?\s[^\n]{0,80}-i?name\s+["']?(\.env|\.npmrc|\.pypirc|\.netrc|id_rsa|id_ed25519)/
    $ctx_secret_name = /["'`](\.env(\.[\w.]+|\*)?|\.npmrc|\.pypirc|\.netrc|id_rsa|id_ed25519|\*\*\/\.env\*?)["'`]/
  condition:
    $find or ($walk and $ctx_secret_name)
}

/* Round 11: the platform secret stores read whole: Windows DPAPI master keys and saved
 * credential blobs (%APPDATA%\Microsoft\Protect, ...\Credentials, ...\Vault), every item of the
 * desktop's Secret Service collection with its secret (secretstorage, the keyring CLI), KWallet
 * and macOS keychain dumps. One named entry looked up by a tool for its own host is not this. */
rule secret_store_dump {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "reads the platform's secret store whole (DPAPI keys and credential blobs, Secret Service, KWallet, keychain)"
  strings:
    $dpapi = /(APPDATA|LOCALAPPDATA|AppData[\\\/]+(Roaming|Local))%?\)?[\\\/]+Microsoft[\\\/]+(Protect|Credentials|Vault)\b/ nocase
    $ss_all = /\.(get_all_items|search_items)\s*\(/
    $ss_secret = /\.get_secret\s*\(\s*\)/
    $secret_tool = /\bsecret-tool\s+search\s+(--\w+\s+)*--all\b|\bkwallet-query\s+[^\n]{0,40}-r\b[^\n]{0,80}\$\(|\bsecurity\s+dump-keychain\s+(-\w+\s+)*-d\b/
  condition:
    $dpapi or ($ss_all and $ss_secret) or $secret_tool
}

/* Round 11: a program walking the user's credential folders (~/.ssh, ~/.aws, ~/.gnupg,
 * ~/.config/gh, ~/.kube) from the home directory: every private key and token, in any language. */
rule credential_dir_walk {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "walks the user's credential folders (~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gh) and reads every file"
  strings:
    $dir = /["'`]\.(ssh|aws|gnupg|kube|azure)\/?["'`]|["'`]\.config[\/\\]gh\/?["'`]/
    $home = /\bUserHomeDir\s*\(|\bexpanduser\s*\(\s*["']~["']|\bPath\.home\s*\(|\bhomedir\s*\(\s*\)|\$env:USERPROFILE|\bDir\.home\b|\bFile::HomeDir\b|getenv\s*\(\s*["'](HOME|USERPROFILE)["']/
    $walk = /\bfilepath\.Walk(Dir)?\s*\(|\bos\.walk\s*\(|\.rglob\s*\(|\bfs\.(readdir|readdirSync|promises\.readdir)\s*\([^\n]{0,80}recursive|\bGet-ChildItem\b[^\n]{0,80}-Recurse|\bFind\.find\s*\(|\bfind\s*\(\s*(sub|\\&)/
  condition:
    $dir and $home and $walk
}

/* Round 11: an environment (env, printenv, a process's /proc environ, PowerShell's env: drive)
 * or a shell history sifted for several secret words at once (KEY|TOKEN|SECRET|PASS): a harvest
 * of every credential, not a check that one named variable is set. */
rule secret_sweep_grep {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "sifts the environment or shell history for every key, token, secret and password"
  strings:
    $env = /(\b(env|printenv)|\bGet-ChildItem\s+env:|\/environ["']?)\s*(2>\s*\/dev\/null\s*)?\|\s*(tr\s+[^\n|]{1,20}\|\s*)?(grep|egrep|rg|Select-String|findstr)\s[^\n|]{0,30}(key|token|secret|pass\w*|auth\w*)\s*\|\s*(key|token|secret|pass\w*|auth\w*)/ nocase
    $hist = /\b(grep|egrep|rg)\s[^\n]{0,30}(key|token|secret|pass\w*|auth\w*)[^\n]{0,120}(\\\n[^\n]{0,160}){0,3}(\/\.\w*_history|fish_history|ConsoleHost_history)\b/ nocase
    $ctx_names_only = /\|\s*(cut\s+-d\s*["']?=["']?\s+-f\s*1\b|sed\s+(-E\s+)?["']s\/=\.\*\/\/|awk\s+-F\s*["']?=["']?\s+["'].\s*print\s+.1\b)/
  condition:
    /* the names alone (cut -d= -f1) list which variables exist, not their values */
    $hist or #env > #ctx_names_only
}

/* Round 12 (issue 45): the Windows account hives (SAM, SECURITY, SYSTEM: the local password
 * hashes and the key that opens them) or the AD database copied by any copier, locked files
 * included: esentutl's /vss copy, a shadow copy's device path, robocopy /b, a plain copy out of
 * System32\config, in any language. A backup tool's own job never copies the hives one by one. */
rule credential_hive_copy {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "copies the Windows account hives (SAM, SECURITY, SYSTEM) or the AD database: every local password hash"
  strings:
    $esentutl = /\besentutl(\.exe)?\s+\/y\b[^\n]{0,120}(\\config\\(SAM|SECURITY|SYSTEM)\b|ntds\.dit\b)/ nocase
    $shadow = /HarddiskVolumeShadowCopy\d*[\\\/]+[^\n]{0,80}(config[\\\/]+(SAM|SECURITY|SYSTEM)\b|ntds\.dit\b)/ nocase
    $copy = /\b(copy|xcopy|robocopy|Copy-Item|cpi|cp|shutil\.copy\w*|File\.Copy|copyFileSync|CopyFile\w*|esentutl)\b[^\n]{0,80}System32[\\\/]+config[\\\/]+(SAM|SECURITY|SYSTEM)\b/ nocase
    $robocopy = /\brobocopy(\.exe)?\s+[^\n]{0,60}System32[\\\/]+config\b[^\n]{0,60}\b(SAM|SECURITY|SYSTEM)\b[^\n]{0,40}\/b\b/ nocase
    $reg_save = /\breg(\.exe)?\s+(save|export)\s+["']?(HKLM|HKEY_LOCAL_MACHINE)\\(SAM|SECURITY|SYSTEM)["']?\s/ nocase
    $neg_warn = /\b(never|don'?t|do\s+not|detect\w*|alert|attacker|malicious|sigma|red\s+team)\b/ nocase
  condition:
    any of ($esentutl, $shadow, $copy, $robocopy, $reg_save) and #neg_warn >= 0
}

/* Round 12: the cloud CLIs' own credential databases named as files inside their folder, the
 * path built in pieces (Join, os.path.join, Path /): gcloud's credentials.db and
 * access_tokens.db, the Azure CLI's MSAL token cache, the AWS CLI's SSO cache. A script that
 * needs a token asks the CLI (gcloud auth print-access-token), never opens its database. */
rule credential_cloud_cli_db {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "opens a cloud CLI's credential database (gcloud credentials.db, access_tokens.db, Azure's MSAL token cache, the AWS SSO cache)"
  strings:
    $gcloud_db = /["'`](credentials|access_tokens)\.db["'`]/
    $ctx_gcloud = /["'`]gcloud["'`]|[\/\\]gcloud[\/\\"'`]|CLOUDSDK_CONFIG/
    $msal = /["'`]msal_token_cache\.(json|bin)["'`]|["'`]msal_token_cache["'`]/
    $ctx_azure = /["'`]\.azure["'`]|[\/\\]\.azure\b|AZURE_CONFIG_DIR/
    $aws_sso = /["'`]sso["'`]\s*[,\/+]\s*["'`]cache["'`]|["'`]sso[\/\\]cache["'`]/
    $ctx_aws = /["'`]\.aws["'`]|[\/\\]\.aws\b|AWS_CONFIG_FILE/
  condition:
    not is_prose and (($gcloud_db and $ctx_gcloud) or ($msal and $ctx_azure) or ($aws_sso and $ctx_aws))
}

/* Round 12: a whole state or secret dump (terraform state pull, pulumi stack export
 * --show-secrets, kubectl get secret -o yaml, vault kv get, heroku config) posted where others
 * read it: an issue, a gist, a pastebin, a pull request, a chat channel. The dump piped straight
 * there, or saved and the saved file (or "the output") pasted into the public place. */
rule credential_dump_to_public {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "puts a whole state or secret dump (terraform state, kubectl secrets, vault, pulumi --show-secrets) into an issue, gist or public channel"
  strings:
    $pipe = /\b(terraform\s+state\s+pull|terraform\s+show\s+-json|pulumi\s+stack\s+export\s+[^\n|]{0,40}--show-secrets|kubectl\s+get\s+secrets?\b[^\n|]{0,60}-o\s*(yaml|json)|vault\s+(kv\s+get|read)\s[^\n|]{0,60}|heroku\s+config\b[^\n|]{0,30}|doppler\s+secrets\s+download\b[^\n|]{0,40})\s*\|\s*(gh\s+(issue|gist|pr)\s|pastebinit\b|termbin\b|nc\s+termbin|curl\s[^\n]{0,60}(paste|gist|hastebin|termbin|dpaste))/
    $ctx_dump = /\b(terraform\s+state\s+pull|pulumi\s+stack\s+export\s+[^\n]{0,40}--show-secrets|kubectl\s+get\s+secrets?\b[^\n]{0,60}-o\s*(yaml|json)|vault\s+kv\s+get\b|heroku\s+config\s+(-s|--shell)\b|doppler\s+secrets\s+download\b)/
    $share = /\b(issue|gist|pastebin|pull request|discussion|forum|Slack|Discord|ticket)\b[^\n]{0,160}\b(paste|attach|include|post|upload|put|add)\b[^\n]{0,60}(\b[\w.-]+\.(json|ya?ml|tfstate|env|txt)\b|\bthe\s+(whole\s+|full\s+|entire\s+)?(output|state|dump|file)\b)|\b(paste|attach|upload)\b[^\n]{0,60}(\b[\w.-]+\.(json|ya?ml|tfstate|env)\b|\bthe\s+(whole\s+|full\s+|entire\s+)?(output|state|dump)\b)[^\n]{0,120}\b(issue|gist|pastebin|pull request|discussion|forum|Slack|Discord|ticket)\b|\bgh\s+(issue|gist)\s+create\b[^\n]{0,120}(\.tfstate|state\.json|secrets?\.(ya?ml|json))/
    $neg_warn = /\b(never|don'?t|do not|redact\w*|scrub\w*|sanitiz\w*)\b/
  condition:
    ($pipe or ($ctx_dump and $share)) and #neg_warn >= 0
}

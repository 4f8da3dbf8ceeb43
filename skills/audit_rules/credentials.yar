/* Credentials read: keys, tokens and stores that let their holder act as the user. In a
 * script high; in prose (a guide naming ~/.ssh/config) medium. */

rule credential_files {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads credentials: SSH keys, cloud, git or package-registry tokens, keychains"
  strings:
    $ssh = /\.ssh\/(id_[a-z0-9_]+|authorized_keys|known_hosts|config\b|\*)/
    $ssh_key = /\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.pub\b)/
    $cloud = /\.aws\/(credentials|config)|\.config\/gcloud\/|application_default_credentials\.json|\.azure\/(accessTokens|msal_token_cache|azureProfile)|\.kube\/config|\.oci\/config/
    $git = /\.git-credentials|\.config\/gh\/hosts\.yml|\.config\/hub\b|git\s+credential\s+fill/
    $registry = /(~|\$HOME|HOME\}|homedir\(\)|home\(\))[^\n]{0,20}\.(npmrc|pypirc|netrc|yarnrc|gem\/credentials|docker\/config\.json|cargo\/credentials)|cat\s+[^\n|]{0,20}\.(npmrc|pypirc|netrc)\b/
    $system = /\/etc\/(shadow|gshadow|sudoers)\b|\/etc\/passwd\b[^\n]{0,40}\|/
    $keychain = /\bsecurity\s+(find-(generic|internet)-password|dump-keychain|export)\b|login\.keychain|\bsecret-tool\s+lookup\b|\bcmdkey\s+\/list\b|\bvaultcmd\b/ nocase
    $windows = /\\Microsoft\\(Credentials|Protect)\\|\blsass(\.exe|\.dmp)?\b[^\n]{0,60}(dump|minidump|procdump)|\b(procdump|comsvcs(\.dll)?)\b[^\n]{0,80}\b(lsass|MiniDump)\b|\breg(\.exe)?\s+save\s+HKLM\\(SAM|SYSTEM|SECURITY)\b|\bmimikatz\b/ nocase
    $aws_get = /\baws\s+configure\s+get\s+(aws_secret_access_key|aws_session_token)\b/
    $proc_environ = /\/proc\/(self|\$\w+|[0-9*]+)\/environ\b/
    $browser = /(Google\/Chrome|google-chrome|[Cc]hromium|BraveSoftware|Microsoft\/Edge|microsoft-edge|Mozilla\/Firefox|\.mozilla\/firefox)[^\n]{0,80}(Login Data|Cookies|Local State|key[34]\.db|logins\.json|cookies\.sqlite)|\b(Login Data|logins\.json|key4\.db|cookies\.sqlite)\b[^\n]{0,60}\b(sqlite3|copy|open|read)/ nocase
    $browser_store = /["'](Login Data|Web Data|key4\.db|logins\.json|cookies\.sqlite)["']|\bpassword_value\b|\bFROM\s+logins\b/
    $history = /(~|\$HOME|\$\{HOME\}|homedir\(\)|home\(\))["']?\/\.(bash|zsh|python|psql|mysql|node_repl)_history\b/
    $wallet = /\b(wallet\.dat|\.electrum\/wallets|Exodus\/exodus\.wallet|\.ethereum\/keystore|solana\/id\.json)/
    $gpg = /\.gnupg\/(private-keys|secring|trustdb)|gpg\s+--export-secret-keys/
    $tokens_env = /\b(cat|type|less|more|head|tail|grep)\s+[^\n|;]{0,40}(\s|\/)\.env\b/
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
rule credential_read_command {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "a command reads a private key or a token store"
  strings:
    $read = /\b(cat|type|less|more|head|tail|cp|scp|base64|xxd|strings|gc|Get-Content|open\s*\(|read_text\s*\(|readFileSync\s*\(|readFile\s*\(|File\.read\s*\()\s*[^\n|;]{0,60}(\.ssh\/id_[a-z0-9]+\b([^.]|\.[^p])|\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.[^p])|\.aws\/credentials|\.git-credentials|\.netrc|\.pypirc|\.npmrc|\/etc\/shadow|\.docker\/config\.json|\.kube\/config|\.gnupg\/private)/
    $prose_read = /\b(include|paste|print|output|copy|attach|upload|send|show|dump|display)\b[^\n]{0,60}((~|\$HOME)\/\.ssh\/id_[a-z0-9]+\b([^.]|\.[^p])|\bid_(rsa|dsa|ed25519|ecdsa)\b([^.]|\.[^p])|\.aws\/credentials|\.git-credentials|(~|\$HOME)\/\.(netrc|pypirc|npmrc)\b)/ nocase
  condition:
    any of them
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

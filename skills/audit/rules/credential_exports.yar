/* Round 13 (issue 45): whole secret stores exported, app databases that hold their own key,
 * and CLI tokens copied into shared places. Each is a class: any password manager's export or
 * entry-by-entry dump, any desktop chat app's key file, any CLI token file or token command
 * written into a report or a shared config, any home-relative token path spelled as path
 * pieces joined in code. */

/* A password manager or OS secret store emptied into plaintext: the whole vault exported, or
 * a loop reading every entry. High even in prose: the command is the order. An encrypted
 * export (Bitwarden's encrypted_json, a passphrase-protected archive) is the user's backup. */
rule secret_store_export_all {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "exports a whole password manager or secret store, or reads every entry in a loop, into plaintext"
  strings:
    $export = /(\b(bw|bitwarden)\s+export\b|\blpass\s+export\b|\bkeepassxc-cli\s+export\b|\b(gopass|pass)\s+export\b|\bsecurity\s+dump-keychain\s+(-\w+\s+)*-d\b|\bsecret-tool\s+search\s+(-\w+\s+)*--all\b|\bop\s+(item\s+list|export)\b[^\n]{0,80}\|\s*(xargs\s+)?[^\n]{0,40}\bop\s+item\s+get\b[^\n]{0,80}--reveal\b|\bExport-SecretVault\w*\b|\bGet-Secret\s+[^\n]{0,40}-Vault\s+\S+\s+[^\n]{0,20}-AsPlainText\b[^\n]{0,40}\*)[^\n]*/
    $loop = /\bfor\s+\w+\s+in\s+\$\(\s*(kwallet-query\s+[^\n)]*-l\b|(pass|gopass)\s+(ls|list)\b|lpass\s+ls\b|bw\s+list\s+items\b|op\s+item\s+list\b|keepassxc-cli\s+ls\b|secret-tool\s+search\b)[^\n]*\n([^\n]*\n){0,4}[^\n]*\b(kwallet-query\s+[^\n]*-r\b|(pass|gopass)\s+show\b|lpass\s+show\b|bw\s+get\b|op\s+item\s+get\b|keepassxc-cli\s+show\b)/
    $veto_encrypted = /--format\s+["']?encrypted_json|--password\s/
  condition:
    any of them
}

/* A desktop chat app's message store together with the key file that opens it (Signal's
 * config.json beside sql/db.sqlite, Telegram's tdata, the leveldb where Discord and Slack keep
 * their session tokens) copied, archived or read: every message and session made readable. */
rule chat_app_key_store {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "high"
    message = "copies or reads a chat app's message store or its key file (Signal, Telegram, Discord, Slack, WhatsApp)"
  strings:
    $copy = /\b(cp|copy|Copy-Item|rsync|tar|zip|7z|robocopy|xcopy|back\s+up|sqlite3|upload|read|open|include|archive)\b[^\n]{0,80}(\bsql[\/\\]db\.sqlite\b|\bSignal[\/\\]+(config\.json|sql\b)|Telegram ?(Desktop)?[\/\\]+tdata\b|\btdata[\/\\]+(key_data|D877F783D5D3EF8C)|\b(discord|discordcanary|discordptb|Slack|WhatsApp)[\/\\]+(Local Storage[\/\\]+leveldb|Cookies|storage[\/\\]+|IndexedDB)|\bChatStorage\.sqlite\b|\bmsgstore\.db\b)/ nocase
    $path = /(\bsql[\/\\]db\.sqlite\b|\bSignal[\/\\]+(config\.json|sql\b)|Telegram ?(Desktop)?[\/\\]+tdata\b|\btdata[\/\\]+(key_data|D877F783D5D3EF8C)|\b(discord|discordcanary|discordptb|Slack|WhatsApp)[\/\\]+(Local Storage[\/\\]+leveldb|Cookies|storage[\/\\]+|IndexedDB)|\bChatStorage\.sqlite\b|\bmsgstore\.db\b)/ nocase
    $key_beside = /\bconfig\.json\b[^\n]{0,120}\b(key|decrypt|opens?)\b[^\n]{0,80}\b(database|db|messages)\b/ nocase
    $ctx_signal = /\bSignal\b[^\n]{0,40}(Desktop|data|folder)|\bsql[\/\\]db\.sqlite\b/
  condition:
    $copy or ($path and is_script) or ($key_beside and $ctx_signal)
}

/* A CLI's token file (ngrok, doctl, hub, gh, glab, vercel, netlify, fly, railway, firebase,
 * terraform, wrangler) read and written into a file meant for others: a shared or committed
 * config, a report, a status text. */
rule cli_token_file_shared {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "high"
    message = "copies a CLI's stored auth token into a shared file, a report or the repository"
  strings:
    $prose = /\b(read|take|copy|grab|get|extract|use)\b[^\n]{0,60}\b(authtoken|auth[_ -]?token|oauth_token|access[_ -]?token|api[_ -]?token|token)\b[\s\S]{0,80}(ngrok[\/\\]ngrok\.yml|ngrok\.yml|doctl[\/\\]config\.yaml|\.config[\/\\]hub\b|gh[\/\\]hosts\.yml|glab-cli[\/\\]config\.yml|com\.vercel\.cli[\/\\]auth\.json|netlify[\/\\]config\.json|\.fly[\/\\]config\.yml|railway[\/\\]config\.json|firebase-tools\.json|credentials\.tfrc\.json|wrangler[\/\\]config[\/\\]default\.toml)[\s\S]{0,200}\b(write|put|paste|add|commit|copy|save|insert)\b[^\n.]{0,40}\b(into|to|in)\b/ nocase
    $field = /(^|\n)[ \t>*-]*[\w.-]*(token|secret|credential|password)[\w.-]*\s*:\s*["'`]?(<|\{\{|\$\()\s*(the\s+)?(output|result|value)?\s*(of\s+)?[`'"]?(gh\s+auth\s+token|gcloud\s+auth\s+(application-default\s+)?print-(access|identity)-token|az\s+account\s+get-access-token|heroku\s+auth:token|doctl\s+auth\s+token|(fly|flyctl)\s+auth\s+token|vercel\s+whoami|glab\s+auth\s+token|aws\s+sts\s+get-session-token|op\s+read|bw\s+get\s+password)\b/ nocase
  condition:
    any of them
}

/* A home-relative credential file spelled as path pieces (`filepath.Join(home, ".config",
 * "hub")`, `Path.home() / ".aws" / "credentials"`, `path.join(os.homedir(), ".config", "gh",
 * "hosts.yml")`): the same read that credential_files sees as one path. */
rule credential_path_pieces {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads credentials: a token or key file's path built from pieces in code"
  strings:
    $pieces = /["']\.(config|aws|ssh|docker|kube|azure|gnupg|local)["']\s*(,|\)\s*\.\s*join\s*\(|\/|\)?\s*\.\s*resolve\s*\()\s*["'](hub|gh["']\s*(,|\)\s*\.\s*join\s*\(|\/)\s*["']hosts\.yml|glab-cli["']\s*(,|\)\s*\.\s*join\s*\(|\/)\s*["']config\.yml|ngrok["']\s*(,|\)\s*\.\s*join\s*\(|\/)\s*["']ngrok\.yml|doctl["']\s*(,|\)\s*\.\s*join\s*\(|\/)\s*["']config\.yaml|gcloud["']\s*(,|\)\s*\.\s*join\s*\(|\/)\s*["'](credentials\.db|access_tokens\.db|application_default_credentials\.json)|credentials|id_(rsa|dsa|ecdsa|ed25519)|accessTokens\.json|msal_token_cache\.json|private-keys-v1\.d)["']/
    $whole = /["'](\.config[\/\\]hub|\.config[\/\\]gh[\/\\]hosts\.yml|\.config[\/\\]ngrok[\/\\]ngrok\.yml|\.config[\/\\]doctl[\/\\]config\.yaml)["']/
  condition:
    any of them
}

/* Round 14 (issue 45): a CLI's own token store (circleci, doctl, supabase, wrangler, the MinIO
 * client, fly, railway, netlify, vercel, terraform, pulumi, huggingface, rclone, s3cmd, stripe,
 * hcloud, sentry, databricks) read by a command that prints or extracts it, or its token value
 * taken out of it in prose ("the `token:` value from ~/.circleci/cli.yml", "the access-token
 * line from ~/.config/doctl/config.yaml"): the login leaves the tool that owns it, whatever the
 * sink (a doc, an issue, a bundle, .dev.vars). The tool using its own file says nothing of this. */
rule cli_token_store_read {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "reads a CLI's stored login token out of its token file (printed, copied or written elsewhere)"
  strings:
    $cmd = /\b(cat|type|less|more|head|tail|sed|awk|grep|jq|yq|tomlq|dasel|cut|base64|xxd|cp|scp|Get-Content|gc|Copy-Item)\s+([^\n|;&'">]|'[^'\n]{0,200}'|"[^"\n]{0,200}"|\\\n){0,40}(\.circleci[\/\\]cli\.yml|doctl[\/\\]config\.yaml|\.supabase[\/\\]access-token|wrangler[\/\\]config[\/\\]default\.toml|\.mc[\/\\]config\.json|credentials\.tfrc\.json|\.fly[\/\\]config\.yml|railway[\/\\]config\.json|netlify[\/\\]config\.json|com\.vercel\.cli[\/\\]auth\.json|huggingface[\/\\]token\b|\.pulumi[\/\\]credentials\.json|\.databrickscfg|rclone[\/\\]rclone\.conf|\.s3cfg|hcloud[\/\\]cli\.toml|stripe[\/\\]config\.toml|\.sentryclirc|firebase-tools\.json)/
    $prose = /\b(take|taking|read|copy|grab|extract|pull|include|including|holding|containing|paste|put|insert|embed|attach|print|show)\b[^\n]{0,80}\b[\w-]*(token|tokens|secret|secrets|secret_?key|access_?key|api[_ -]?key|credential|credentials|password)\b[^\n]{0,60}\b(from|in|of)\b\s*\n?[^\n]{0,40}(\.circleci[\/\\]cli\.yml|doctl[\/\\]config\.yaml|\.supabase[\/\\]access-token|wrangler[\/\\]config[\/\\]default\.toml|\.mc[\/\\]config\.json|credentials\.tfrc\.json|\.fly[\/\\]config\.yml|railway[\/\\]config\.json|netlify[\/\\]config\.json|com\.vercel\.cli[\/\\]auth\.json|huggingface[\/\\]token\b|\.pulumi[\/\\]credentials\.json|\.databrickscfg|rclone[\/\\]rclone\.conf|\.s3cfg|hcloud[\/\\]cli\.toml|stripe[\/\\]config\.toml|\.sentryclirc|firebase-tools\.json)/ nocase
    /* `grep -q token ~/.circleci/cli.yml` asks whether the user is logged in and prints nothing;
     * `cat > ~/.config/hcloud/cli.toml <<EOF` writes the store (a redirection ends $cmd's reach). */
    $neg = /\b(never|don'?t|do\s+not|must\s+not|avoid|redact\w*|mask\w*)\b|\bgrep\s+(-[a-zA-Z]*[qc][a-zA-Z]*\s+)+/ nocase
  condition:
    any of ($cmd, $prose) and #neg >= 0
}

/* Round 14: a program that loads a CLI's credential store by path pieces and prints the secret
 * fields it holds (`fmt.Printf(... a.SecretKey)`, `print(cfg["token"])`): a status table or a
 * log line that shows the user's keys. */
rule cli_store_pieces_printed {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "loads a CLI's credential store and prints the secret keys or tokens it holds"
  strings:
    $store = /["']\.(mc|circleci|supabase|fly|netlify|pulumi|wrangler|s3cfg|databrickscfg|sentryclirc)["']\s*(,|\)\s*\.\s*join\s*\(|\/)\s*["']?(config\.json|cli\.yml|access-token|config\.yml|credentials\.json|config)?|["']\.config["']\s*(,|\/)\s*["'](doctl|\.wrangler|netlify|railway|stripe|hcloud|rclone)["']/
    $print = /\b(fmt\.(Print|Fprint|Sprint)\w*|print|println|printf|puts|console\.(log|table|info)|log\.\w+|echo|Write-Host|writeln)\s*\(?[^\n]{0,160}(\.|\[\s*["'])(SecretKey|secretKey|secret_key|SecretAccessKey|AccessToken|accessToken|access_token|oauth_token|Token|token|refresh_token|password|Password)\b/
  condition:
    not is_prose and $store and $print
}

/* Exfiltration by channels and sources the older rules did not name (round 14): peer-to-peer
 * transfer tools carrying key folders, an HTTP client's interceptor or middleware copying the
 * Authorization or Cookie header of every request into a second request, shell and REPL history
 * posted, an agent session's transcript uploaded, and a private project published with its
 * ignore lists removed. */

/* Key and credential folders (or .env) handed to a peer-to-peer transfer tool or a throwaway
 * file host: croc, magic-wormhole, onionshare, ffsend, sendme, portal, transfer.sh and kin. The
 * receiver holds the code phrase or link; the keys are theirs. */
rule secret_dirs_peer_transfer {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends key or credential folders (~/.ssh, ~/.aws, .env, ...) with a peer-to-peer transfer tool or a file drop"
  strings:
    $send = /\b(croc([ \t]+-[-\w=]+)*[ \t]+send|(magic-)?wormhole([ \t]+-[-\w=]+)*[ \t]+send|onionshare(-cli)?|ffsend[ \t]+(upload|u)|sendme[ \t]+send|portal[ \t]+send|localsend(-cli)?[ \t]+send|blaze[ \t]+send|(transfer\.sh|bashupload\.com|0x0\.st|oshi\.at|temp\.sh|file\.io|tmpfiles\.org|litterbox\.catbox\.moe|catbox\.moe)\b)[^\n]{0,200}((~|\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE)[\\\/]\.(ssh|aws|gnupg|kube|docker|azure|config[\\\/](gh|gcloud|hub)|netrc|npmrc|pypirc|git-credentials|password-store|vault-token)\b|[\s"'\/]\.env(\.[\w-]+)?(\s|["']|$))/
    $pipe = /((~|\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE)[\\\/]\.(ssh|aws|gnupg|kube|docker|azure|config[\\\/](gh|gcloud)|netrc|npmrc|pypirc|git-credentials|password-store)\b)[^\n]{0,200}\|[ \t]*(croc([ \t]+-[-\w=]+)*[ \t]+send|(magic-)?wormhole[ \t]+send|onionshare(-cli)?|ffsend[ \t]+upload|sendme[ \t]+send|portal[ \t]+send)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    any of ($send, $pipe) and #neg >= 0
}

/* An HTTP client's request interceptor, hook or middleware that copies the Authorization or
 * Cookie header into the body of a second request: every call's credentials go to whoever runs
 * that second host. A proxy forwarding the header as a header (`Authorization: req.headers....`)
 * is not this. */
rule auth_header_copied_from_interceptor {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "an HTTP interceptor or middleware copies each request's Authorization or Cookie header into a request of its own"
  strings:
    $copy = /["']?\w+["']?\s*(:|=>)\s*(\w+\.)*(\w*headers|\w*Headers|Header|env)(\.(get|Get)\s*\(\s*["'`]|\[\s*["'`]|\.)(authorization|Authorization|AUTHORIZATION|cookie|Cookie|x-api-key|X-Api-Key|X-API-Key|HTTP_AUTHORIZATION|HTTP_COOKIE)\b/
    $veto_forward = /\b(authorization|Authorization|AUTHORIZATION|cookie|Cookie|headers|x-api-key|X-Api-Key)["']?\s*(:|=>)\s*(\w+\.)*(headers|Header|env)\b/
    $ctx_hook = /\binterceptors\.(request|response)\.use\b|\bevent_hooks\b|\bhooks\s*=\s*\{\s*["'](request|response)|\bRoundTrip\s*\(|\bFaraday::Middleware\b|\bbeforeRequest\b|\bonRequest\b|\baddInterceptor\b|\bbefore_request\b|\bonBeforeRequest\b|\bHttpMessageHandler\b|\bDelegatingHandler\b|\bclient\.on\s*\(\s*["']request/
    $ctx_send = /\bfetch\s*\(\s*[A-Za-z_][\w.]*\s*,|\bfetch\s*\(\s*["'`]https?:|\bnavigator\.sendBeacon\s*\(|\baxios\.post\s*\(|\brequests\.post\s*\(|\bhttpx\.(post|AsyncClient|Client)\b|\bhttp\.Post\s*\(|\bNet::HTTP\.post\b|\bHTTParty\.post\b|\bPostAsync\s*\(|\bgot\.post\s*\(/
    $ctx_url = /["'`]https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+/
  condition:
    $copy and $ctx_hook and $ctx_send and $ctx_url and #veto_forward >= 0
}

/* Shell and REPL history (bash, zsh, fish, PowerShell's ConsoleHost_history, python, psql, mysql,
 * node, irb) read by a program that sends a request to a literal host: every command the user
 * typed, with the passwords and tokens typed into them. Reading history to print local tips, or
 * clearing it, sends nothing. */
rule shell_history_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "reads the user's shell or REPL history and sends a request to a host"
  strings:
    $hist = /\.(bash|zsh|sh|python|node_repl|psql|mysql|sqlite|irb|pry|rediscli|mongo)_history\b|\bfish_history\b|\bConsoleHost_history\.txt\b|\.zhistory\b|\.histfile\b/
    $ctx_send = /\b(requests\.(post|put)|httpx\.(post|put|Client|AsyncClient)|urllib\.request\.(urlopen|Request)|urlopen\s*\(|axios\.(post|put)|fetch\s*\(|Faraday\.(new|post)|Net::HTTP\.(post|Post|start)|HTTParty\.post|RestClient\.post|Invoke-RestMethod|Invoke-WebRequest|http\.(Post|NewRequest)|LWP::UserAgent|HTTP::Tiny|reqwest::|ureq::)|\bcurl\b[^\n]{0,200}(\s-d\b|--data|\s-F\b|--form|\s-T\b|--upload-file)|\.post\s*\(/
    $ctx_url = /https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    is_script and $hist and $ctx_send and $ctx_url and #neg >= 0
}

/* An agent session's transcript (the `transcript_path` a hook receives, Claude Code's
 * ~/.claude/projects logs, Codex's ~/.codex/sessions) uploaded to a host: everything the user
 * and the agent said and read, files and secrets included. */
rule session_transcript_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "uploads the agent session's transcript or session logs to a host"
  strings:
    $hook_tx = /\btranscript_?path\b[^\n]{0,200}\b(curl|xh|wget|Invoke-RestMethod|irm|iwr|Invoke-WebRequest|scp|rsync|nc|ncat)\b[^\n]{0,200}(https?:\/\/[a-z0-9.-]+|\s@|=@|-T\b|--upload-file\b)/
    $tx_upload = /\b(curl|xh)\b[^\n]{0,200}(-F|--form|-T|--upload-file|--data-binary|-d|--data)[ \t=]*["']?[\w]*=?@?["']?\$\{?\w*(transcript|TRANSCRIPT)\w*/
    $logs = /(~|\$\{?HOME\}?)\/\.(claude\/projects|codex\/sessions|gemini\/tmp|cursor\/chats)\b[^\n]{0,200}\b(curl|scp|rsync|rclone|aws[ \t]+s3[ \t]+cp|gsutil[ \t]+cp|croc|wormhole)\b|\b(curl|scp|rsync|rclone|aws[ \t]+s3[ \t]+cp|gsutil[ \t]+cp)\b[^\n]{0,200}(~|\$\{?HOME\}?)\/\.(claude\/projects|codex\/sessions|gemini\/tmp)\b/
    $veto_local = /https?:\/\/(localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)[:\/"'\s]/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    any of ($hook_tx, $tx_upload, $logs) and #veto_local >= 0 and #neg >= 0
}

/* The user's project published to a public place with what kept it private removed first:
 * `npm publish --access public` or `gh repo create --public --source . --push` beside an order to
 * delete .npmignore/.gitignore or the `files` allowlist, or to force-add .env; a public gist of a
 * secret file. */
rule project_published_unignored {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "publishes the user's project publicly after removing its ignore lists (source and .env made public)"
  strings:
    $publish = /\bnpm[ \t]+publish\b[^\n]{0,80}--access[ \t=]+public\b|\b(pnpm|yarn)[ \t]+(npm[ \t]+)?publish\b[^\n]{0,80}--access[ \t=]+public\b|\bgh[ \t]+repo[ \t]+create\b[^\n]{0,200}--public\b[^\n]{0,200}(--source|--push)\b|\bgh[ \t]+repo[ \t]+create\b[^\n]{0,200}(--source|--push)\b[^\n]{0,200}--public\b/
    $gist_secret = /\bgh[ \t]+gist[ \t]+create\b[^\n]{0,200}(\s\.env(\.[\w-]+)?\b|\.ssh\/|\.aws\/|\bid_(rsa|ed25519|ecdsa)\b|\bcredentials(\.json)?\b)/
    $ctx_unignore = /\b(delete|remove|rm|drop|empty|clear)\b[^\n]{0,40}\.(npmignore|gitignore)\b|\b(delete|remove|drop|empty)\b[^\n]{0,60}\bfiles\b[`'"]?\s+(field|array|list|allowlist|entry)|\bgit[ \t]+add[ \t]+(-f|--force)\b[^\n]{0,80}\.env\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    (($publish and $ctx_unignore) or $gist_secret) and #neg >= 0
}

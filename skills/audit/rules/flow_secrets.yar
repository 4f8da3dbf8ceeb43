/* Round 15: a secret-shaped source reaching a sink that leaves the machine. Sources are a
 * property of the name: a folder or file under the home's dot-folders whose name says key,
 * token, credential, secret, auth, pass, cert or vault, or one of the credential stores every
 * cloud and container CLI keeps there; the whole environment; a CI job's own token. Sinks are
 * any copy to another host (scp, rsync, sftp, rclone, nc, a form or file upload). Packing or
 * encrypting on the way (tar, zip, gpg --symmetric, openssl enc, age) changes nothing. */

/* A credential folder of the home copied or uploaded whole to another host, or packed and the
 * pack uploaded in the same script or step list. */
rule flow_credential_dir_leaves {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "copies or packs the home's credential folders (keys, cloud and cluster logins) and sends them to another host"
  strings:
    $copy = /\b(scp|rsync|sftp|rclone\s+(copy|sync|move))\s(\\\r?\n|[^\n]){0,200}(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\/root|\/home\/[\w.-]+|\/Users\/[\w.-]+)[\/\\]\.(ssh|gnupg|aws|azure|kube|docker|oci|config([\/\\]?["']?\s|[\/\\](gcloud|gh|doctl|op|hub)\b|[\/\\][\w.-]*(key|token|cred|secret|auth|pass|cert|vault))|[\w-]*(key|token|cred|secret|auth|pass|cert|vault)[\w-]*)\b(\\\r?\n|[^\n]){0,200}\s["']?([\w.-]+@)?[\w.-]+:([\/~\w."']|\s|$)/
    /* a public key copied out is how ssh access is granted, not a leak */
    $copy_pub = /\b(scp|rsync|sftp|rclone\s+(copy|sync|move))\s(\\\r?\n|[^\n]){0,200}(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\/root|\/home\/[\w.-]+|\/Users\/[\w.-]+)[\/\\]\.ssh[\/\\][\w.-]+\.pub\b/
    $pack = /\b(tar|zip|7z|7za|Compress-Archive|gpg|age)\b[^\n]{0,200}(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.(ssh|gnupg|aws|azure|kube|docker|oci|config[\/\\](gcloud|gh|doctl|op|hub)|[\w-]*(key|token|cred|secret|auth|pass|cert|vault)[\w-]*)\b/
    /* `tar -C "$HOME" -czf out .ssh .gnupg`: the folders named relative to the home */
    $pack_rel = /\btar\b[^\n]{0,60}\s-C\s*["']?(~|\$HOME|\$\{HOME\})\/?["']?\s[^\n]{0,160}\s["']?\.(ssh|gnupg|aws|azure|kube|docker|password-store|[\w-]*(key|token|cred|secret|auth|pass|cert|vault)[\w-]*)\b/
    $ctx_send = /\bcurl\b[^\n]{0,200}(\s-F\s*["']?[\w-]+=@|\s--form\s|--upload-file\b|\s-T\s|--data-binary\s+["']?@)|\b(scp|sftp|rsync|rclone)\s[^\n]{0,200}\s["']?([\w.-]+@)?[\w.-]+:|\|\s*(nc|ncat|netcat|socat|ssh)\b|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,200}-(InFile|Form)\b|\b(requests|httpx)\.(post|put)\s*\([^\n]{0,200}\bfiles\s*=/
  condition:
    #copy > #copy_pub or (($pack or $pack_rel) and $ctx_send)
}

/* The whole environment (env, printenv, set, Get-ChildItem env:) sent over the network in one
 * pipeline or argument: every token of the session goes with it, whatever the host is called. */
rule flow_environment_posted {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends the whole environment (every token and key in it) to a network service"
  strings:
    $pipe = /(^|\n|[;&|(]|\bdo\b)[ \t]*(env|printenv|export\s+-p|declare\s+-x|set)[ \t]*(\|[^\n|]{1,60}){0,2}\|\s*(curl|wget2?|http|https|xh|ntfy|nc|ncat|netcat|socat|Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b/
    $arg = /\b(curl|wget2?|http|https|xh|ntfy\s+(pub|publish|send))\b(\\\r?\n|[^\n]){0,200}(\$\(([^\n)]{0,80}[;&|]\s*)?(env|printenv)\s*(\|[^\n)]{1,40})?\)|`([^\n`]{0,80}[;&|]\s*)?(env|printenv)\s*`)/
    $ps = /\b(Get-ChildItem|gci|dir|ls)\s+env:\s*[^\n]{0,120}\|\s*[^\n]{0,120}\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b/ nocase
  condition:
    any of them
}

/* A CI job's own token ($(System.AccessToken), GITHUB_TOKEN, CI_JOB_TOKEN) sent in a request
 * body or header to a host that is not its own service: the token reaches the repository and
 * the pipeline's other secrets. The URL's host is one character before the free text that follows
 * it: `[a-z0-9.-]+` beside `[^\n]{0,N}` splits each host as many ways as it has characters, and a
 * 1.4 MB uv.lock (4,400 URLs) cost 5 s of scanning instead of 0.4. */
rule flow_ci_token_to_other_host {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends the CI job's own token to a host that is not its service"
  strings:
    $ctx_token = /\$\(System\.AccessToken\)|\bSYSTEM_ACCESSTOKEN\b|\$\{\{\s*(secrets\.GITHUB_TOKEN|github\.token)\s*\}\}|\$\{?(CI_JOB_TOKEN|GITHUB_TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|BITBUCKET_STEP_OIDC_TOKEN|CIRCLE_OIDC_TOKEN)\b/
    $send = /\b(curl|wget2?|Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,300}(\s-d\b|--data\b|--data-\w+|\s-F\b|--form\b|-X\s*POST|-X\s*PUT|-Method\s+(Post|Put)|-Body\b|\s-H\s*["']Authorization)[^\n]{0,300}https?:\/\/[a-z0-9.-]+|\b(curl|wget2?|Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,300}https?:\/\/[a-z0-9.-][^\n]{0,360}(\s-d\b|--data\b|--data-\w+|\s-F\b|--form\b|-X\s*POST|-X\s*PUT|-Method\s+(Post|Put)|-Body\b|\s-H\s*["']Authorization)/ nocase
    $send_own = /\b(curl|wget2?|Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,300}https?:\/\/([\w-]+\.)*(dev\.azure\.com|visualstudio\.com|github\.com|githubusercontent\.com|ghcr\.io|gitlab\.com|bitbucket\.org|atlassian\.com|circleci\.com|localhost|127\.0\.0\.1)\b|\b(curl|wget2?|Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,300}(\$\(System\.(CollectionUri|TeamFoundation\w*)\)|\$\{?(CI_API_V4_URL|CI_SERVER_URL|GITHUB_API_URL|GITHUB_SERVER_URL|SYSTEM_COLLECTIONURI|ACTIONS_\w+_URL)\b|\$\{\{\s*github\.(api_url|server_url)\s*\}\})/ nocase
  condition:
    $ctx_token and #send > #send_own
}

/* A program that lists the project's dotenv files (every `.env*`, not the one a loader reads)
 * and sends a request with a body: the values of every environment's secrets leave with it,
 * whatever the service calls itself (a schema check, a sync, a build plugin's telemetry). */
rule flow_env_files_posted {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "collects every .env file of the project and sends a request with them to a host"
  strings:
    $ctx_all_env = /\.startsWith\s*\(\s*["'`]\.env["'`]\s*\)|\bstartswith\s*\(\s*["']\.env["']\s*\)|["'`](\*\*\/)?\.env\*["'`]|["'`](\*\*\/)?\.env\.\*["'`]|\/\^\\\.env|\bglob\w*\s*\([^\n)]{0,80}\.env\*|\bGet-ChildItem\b[^\n]{0,80}-Filter\s+["']?\.env\*/
    $ctx_read = /\breadFile(Sync)?\s*\(|\bread_text\s*\(|\bopen\s*\(|\bGet-Content\b|\bFile\.read\b|\bDeno\.readTextFile\s*\(|\bBun\.file\s*\(/
    $send = /\bfetch\s*\([^\n]{0,200}(\n[^\n]{0,200}){0,4}\bmethod\s*:\s*["'`](POST|PUT|PATCH)["'`]|\baxios\.(post|put|patch)\s*\(|\b(requests|httpx|session)\.(post|put|patch)\s*\(|\bhttps?\.request\s*\(|\bgot\.(post|put)\s*\(|\bInvoke-RestMethod\b[^\n]{0,200}-Method\s+(Post|Put)|\bky\.(post|put)\s*\(/
  condition:
    is_script and $ctx_all_env and $ctx_read and $send
}

/* A file under a home dot-folder whose name says it is a secret (key, token, cred, secret, auth,
 * pass, vault, a .pem/.p12/.pfx) given to a network sink as what it sends: an upload or form
 * field of curl or PowerShell, a copy to another host, a pipe into a sender. Whatever tool keeps
 * it there, its secret leaves. TLS options (--cacert, --key, --cert) name such files to use them,
 * not to send them, and are not this. */
rule flow_secret_file_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends a secret file from the home's dot-folders (key, token, credential) to a network service"
  strings:
    $upload = /\b(curl|http|xh|Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}(\s-F\s*["']?[\w-]+=@|--form\s+["']?[\w-]+=@|--data(-binary|-raw|-urlencode)?[\s=]+["']?@|\s-d\s*["']?@|\s-T\s+|--upload-file\s+|-InFile\s+)["']?(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.[\w.-]+([\/\\][\w.-]+){0,3}[\/\\][\w.-]*(key|token|cred|secret|auth|passw|vault|\.pem|\.p12|\.pfx)[\w.-]*/ nocase
    $copy = /\b(scp|rsync|sftp)\s[^\n]{0,120}\s["']?(~|\$HOME|\$\{HOME\})[\/\\]\.[\w.-]+([\/\\][\w.-]+){0,3}[\/\\][\w.-]*(token|cred|secret|passw|vault|\.p12|\.pfx)[\w.-]*["']?\s[^\n]{0,80}\s["']?([\w.-]+@)?[\w.-]+:/ nocase
    $pipe = /\b(cat|type|Get-Content|gc)\s+["']?(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.[\w.-]+([\/\\][\w.-]+){0,3}[\/\\][\w.-]*(key|token|cred|secret|auth|passw|vault|\.pem|\.p12|\.pfx)[\w.-]*["']?\s*(\|[^\n|]{1,60})?\|\s*(curl|nc|ncat|netcat|socat|http|xh|Invoke-RestMethod|irm)\b/ nocase
  condition:
    any of them
}

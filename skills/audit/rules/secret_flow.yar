/* A named secret (an environment variable called *_TOKEN, *_SECRET, *_PASSWORD, *_API_KEY,
 * DATABASE_URL, ...) put where a request carries data: a body, a form field, a query string,
 * stdin piped into an upload, or encoded first. Sent to its own service (GITHUB_TOKEN to
 * api.github.com) it is how an API is called; anywhere else it is the secret taken. The
 * `own_service` meta has skills/audit/audit_own.c drop a match whose secrets' vendor word (GITHUB of
 * GITHUB_TOKEN) names a host near it; a secret with no vendor word (API_KEY, JWT_SECRET) is
 * never at home. High in prose too: a code block in SKILL.md is what the agent runs. In an
 * Authorization header a secret is credentials presented, not data: not matched here. */

rule secret_in_request_payload {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    own_service = "veto"
    message = "a secret from the environment is sent in a request's data to a host that is not its own service"
  strings:
    $curl_data = /\bcurl\b[^\n]{0,300}\s(-d|--data[a-z-]*|-F|--form[a-z-]*)[\s=]+(["']([^"'\n]|\\["']){0,200}|'[^'\n]{0,200}'"?|[^\s"']{0,80})(\$\{?|\$\(|\$env:)[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $wget_data = /\bwget2?\b[^\n]{0,300}--(post|body)-data[\s=]+(["'][^"'\n]{0,200}|[^\s"']{0,80})\$[\{(]?[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $ps_body = /\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}-Body\s+[^\n]{0,120}\$env:[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|DATABASE_URL)/ nocase
    $url_query = /https?:\/\/[^\s"'<>]{1,200}[?&][\w.-]{1,40}=(\{|\$\{|["'`]\s*\+\s*)?(\$\{?|\$\(|\$env:|os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|process\.env(\.|\[\s*["'])|ENV\s*\[\s*["']|\$ENV\{\s*["']?)[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $herestring = /\bcurl\b[^\n]{0,300}@-[^\n]{0,40}<<<\s*["']?[^\n]{0,40}\$[\{(]?[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $echo_secret = /\b(echo|printf)\s+[^\n|]{0,200}\$[\{(]?[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)[^\n|]{0,60}\|\s*((base64|base32|gzip|xxd|od|openssl\s+(enc|base64))\b[^\n|]{0,40}\|\s*)?(curl|wget2?|nc|ncat|netcat|socat|http|https)\b/
    $py_payload = /([(,{\s]|^)((json|data|params|files|form)=|(json|body|form)\s*:)[^\n]{0,80}(os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|process\.env(\.|\[\s*["'])|Deno\.env\.get\s*\(\s*["']|ENV(\.fetch)?\s*[\[(]\s*["']|\$ENV\{\s*["']?|[Gg]etenv\s*\(\s*["'])[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $encoded = /\b(b64encode|urlsafe_b64encode|b32encode|hexlify|btoa|encode64|strict_encode64|ToBase64String|encode_base64)\s*\(\s*(\(\s*)?(Buffer\.from\s*\(\s*)?(os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|process\.env(\.|\[\s*["'])|ENV(\.fetch)?\s*[\[(]\s*["']|\$ENV\{\s*["']?)[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $ctx_send = /\b(requests|httpx|session|client|aiohttp)\.(post|put|patch|request)\s*\(|\burlopen\s*\(|urllib\.request\.Request\s*\(|\bfetch\s*\(|\baxios(\.(post|put|request))?\s*\(|\bhttps?\.request\s*\(|Net::HTTP|\bHTTParty\.|\bRestClient\.|LWP::UserAgent|HTTP::Tiny|Invoke-(RestMethod|WebRequest)|\bcurl\s|\.sendall\s*\(/
  condition:
    any of ($curl_data, $wget_data, $ps_body, $url_query, $herestring, $echo_secret) or
    (any of ($py_payload, $encoded) and $ctx_send)
}

/* The same in a request call's arguments with no keyword (`axios.post(url, {k:
 * process.env.X_TOKEN})`, `Net::HTTP.post_form(uri, "k" => ENV["X_TOKEN"])`). A call that
 * presents the secret as credentials (headers, auth, Authorization, Bearer) is not this. */
rule secret_in_request_call {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    own_service = "veto"
    message = "a secret from the environment is sent in a request's data to a host that is not its own service"
  strings:
    $veto_auth = /\b(headers?|Authorization|Bearer|auth|Basic|X-Api-Key|api-key)\b/ nocase
    $call = /(\b(requests|httpx|session|client|aiohttp|axios|got|needle|superagent|ky|http|https|HTTParty|RestClient|Faraday|Net::HTTP)\.(post|put|patch|post_form)\s*\(|->(post|put|post_form)\s*\()[^\n]{0,200}(os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|process\.env(\.|\[\s*["'])|Deno\.env\.get\s*\(\s*["']|ENV(\.fetch)?\s*[\[(]\s*["']|\$ENV\{\s*["']?)[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
  condition:
    $call and #veto_auth >= 0
}

/* A value labelled as a credential, or any variable encoded first, piped into an upload: the
 * shell's way of sending what it just read (`echo "credential=$v" | curl --data @-`, `echo "$v" |
 * base64 | curl --data @-`). A plain JSON payload piped into curl is not this. */
rule secret_piped_upload {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    own_service = "veto"
    message = "a credential, or a variable encoded first, is piped into an upload"
  strings:
    $labelled = /\b(echo|printf)\s+["']?[^\n|"']{0,40}(credentials?|token|secret|password|passwd|api[_-]?key|private[_-]?key)s?\s*[=:]\s*["']?\$[^\n|]{0,80}\|\s*((base64|gzip|xxd)\b[^\n|]{0,40}\|\s*)?(curl|wget2?|nc|ncat|netcat|socat)\b/ nocase
    $encoded = /\b(echo|printf)\s+[^\n|]{0,100}\$[\{(]?\w[^\n|]{0,100}\|\s*(base64|base32|xxd|openssl\s+(enc|base64))\b[^\n|]{0,40}\|\s*(curl|wget2?|nc|ncat|netcat|socat)\b[^\n]{0,100}(@-|@\/dev\/stdin|-T\s*-|--post-file|\s-\s*$|\s-\s*\n)/
    $encoded_host = /\b(echo|printf)\s+[^\n|]{0,100}\$[\{(]?\w[^\n|]{0,100}\|\s*(base64|base32|xxd|openssl\s+(enc|base64))\b[^\n|]{0,40}\|\s*(nc|ncat|netcat|socat)\s/
  condition:
    any of them
}

/* Secrets copied by name into one structure that is then serialized or encoded: a map from
 * secret names to their values is a harvest (`{"NPM_TOKEN": os.environ["NPM_TOKEN"], ...}`, or a
 * comprehension over a list of such names). A program that calls APIs keeps each key where it
 * uses it, under its purpose (`{"openai": os.environ["OPENAI_API_KEY"]}`): not matched. */
rule secret_bundle {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "several secrets from the environment are gathered by name into one payload"
  strings:
    $entry = /["'][A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)[A-Z0-9_]{0,20}["']\s*(:|=>|,)\s*(os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|process\.env(\.|\[\s*["'])|Deno\.env\.get\s*\(\s*["']|ENV(\.fetch)?\s*[\[(]\s*["']|\$ENV\{\s*["']?|\$env:|[Gg]etenv\s*\(\s*["'])[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIALS?|DATABASE_URL|DSN)/
    $by_name = /\{\s*(\w+)\s*:\s*(os\.environ(\.get)?\s*[\[(]|os\.getenv\s*\(|process\.env\s*\[|ENV(\.fetch)?\s*[\[(])\s*\w+\s*(,[^\n)\]]{0,20})?[\])]\s*for\s+\w+\s+(in|of)\b/
    $ctx_names = /["'][A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]{0,20}["']\s*[,\]]/
    $ctx_serialize = /\b(json\.dumps?|pickle\.dumps?|marshal\.dumps|JSON\.stringify|yaml\.(safe_)?dump|b64encode|btoa|to_json|encode_json|ConvertTo-Json|Buffer\.from)\s*\(?/
  condition:
    $ctx_serialize and (#entry >= 2 or ($by_name and #ctx_names >= 2))
}

/* A URL hidden in base64 and decoded where it is used: nobody reading the skill sees where
 * the request goes (`b64decode("aHR0cHM6Ly9...")`, `echo aHR0cHM6... | base64 -d | xargs
 * curl`). With a request in the file, high. */
rule hidden_endpoint {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "a URL is hidden in base64 and decoded to be requested: where the data goes is concealed"
  strings:
    $decoded = /\b(b64decode|urlsafe_b64decode|decodebytes|atob|decode64|strict_decode64|FromBase64String|decode_base64|Buffer\.from)\s*\(\s*["'](aHR0cHM6Ly|aHR0cDovL)[A-Za-z0-9+\/=_-]{4,}/
    $sh_decoded = /["']?(aHR0cHM6Ly|aHR0cDovL)[A-Za-z0-9+\/=_-]{4,}["']?\s*\|\s*base64\s+(-\w+\s+)*(-d|--decode|-D)\b|\bbase64\s+(-\w+\s+)*(-d|--decode|-D)\s*<<<\s*["']?(aHR0cHM6Ly|aHR0cDovL)/
    $ctx_send = /\b(requests|httpx|session|client|aiohttp)\.(get|post|put|patch|request)\s*\(|\burlopen\s*\(|urllib\.request\.Request\s*\(|\bfetch\s*\(|\baxios(\.\w+)?\s*\(|\bhttps?\.(get|request)\s*\(|Net::HTTP|\bHTTParty\.|\bRestClient\.|LWP::|HTTP::Tiny|Invoke-(RestMethod|WebRequest)|\b(curl|wget|nc)\b|\bxargs\s/
  condition:
    any of ($decoded, $sh_decoded) and $ctx_send
}

/* Round 5 (ATT&CK T1552.001 + T1041): secrets put in headers that do not present them to their
 * service: several services' keys in one request (no host is the home of all of them), or a
 * secret inside a header that carries no credentials (User-Agent, Referer, a client id). The
 * own-service check still drops a request whose every secret names its host. */
rule secret_in_other_headers {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    own_service = "veto"
    message = "secrets from the environment are sent in request headers to a host that is not their service"
  strings:
    $two_keys = /\s-H\s*["'][^"'\n]{0,80}\$\{?[A-Z][A-Z0-9]*_[A-Z0-9_]{0,30}(TOKEN|API_?KEY|SECRET|PAT)\b[^\n]{0,200}\s-H\s*["'][^"'\n]{0,80}\$\{?[A-Z][A-Z0-9]*_[A-Z0-9_]{0,30}(TOKEN|API_?KEY|SECRET|PAT)\b/
    $ua = /["']?(User-Agent|Referer|X-Client-Id|X-Request-Id|X-Trace-Id|From)["']?\s*[:=]\s*[^\n]{0,120}(\$\{?|\$env:|process\.env(\.|\[\s*["'])|os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|ENV\s*\[\s*["'])[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|API_?KEY|ACCESS_KEY|PRIVATE_KEY)\b/
    $ua_var = /\b(ua|userAgent|user_agent|agent|UA|USER_AGENT)\s*=\s*[^\n]{0,200}(process\.env(\.|\[\s*["'])|os\.environ(\.get)?\s*[\[(]\s*["']|os\.getenv\s*\(\s*["']|ENV\s*\[\s*["']|\$env:)[A-Z0-9_]{0,40}(SECRET|TOKEN|PASSWORD|API_?KEY|ACCESS_KEY|PRIVATE_KEY)\b/
    $ctx_ua_header = /["']?User-Agent["']?\s*[:=,]\s*(ua|userAgent|user_agent|agent|UA|USER_AGENT)\b/
  condition:
    $two_keys or $ua or ($ua_var and $ctx_ua_header)
}

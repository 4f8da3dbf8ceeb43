/* Data sent to a host. Alone medium in a script (many skills call an API), low in prose; with
 * credentials or the whole environment read in the same file, or on one line, high. `env |`
 * is the command, not a dotenv file (`export $(cat .env | xargs)` loads it; round 12). */

rule secrets_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    block = "medium"
    message = "reads credentials or the environment and sends data to a host: a way to steal them"
  strings:
    $send_curl = /\bcurl\b[^\n|;]{0,300}\s(-d|--data[a-z-]*|-F|--form|-T|--upload-file|-X\s*(POST|PUT))[\s=@"']/
    $send_wget = /\b(wget|wget2)\b[^\n|;]{0,300}--(post|body)-(data|file)|\bhttp(ie)?\s+(-\w+\s+)*(POST|PUT)\s+https?:|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,200}-InFile\b|\bStart-BitsTransfer\b[^\n]{0,200}-TransferType\s+Upload/
    $send_nc = /\|\s*(nc|ncat|netcat|socat|telnet)\s+(-\w+\s+)*[a-z0-9.-]+\s+[0-9]{2,5}\b/ nocase
    $send_nc_host = /\b(nc|ncat|netcat)\s+(-\w+\s+)*[a-z0-9-]+\.[a-z0-9.-]*[a-z]\s+[0-9]{2,5}\s*(<|\n|;|&)/
    $send_py = /\b(requests|httpx|session|client)\.(post|put|patch)\s*\(|\burlopen\s*\([^\n)]{0,200}data\s*=|urllib\.request\.Request\s*\([^\n]{0,200}data\s*=|\.sendall\s*\(|\.sendto\s*\(|smtplib\.SMTP|ftplib\.FTP/
    $send_js = /\bmethod\s*:\s*["'](POST|PUT)["']|\baxios\.(post|put)\s*\(|navigator\.sendBeacon\s*\(|\.write\s*\([^\n]{0,60}\)\s*;?\s*\S*\.end\s*\(/ nocase
    $send_ps = /\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}-(Method\s+(Post|Put)|Body|InFile)\b|\.Upload(String|File|Data)\s*\(/ nocase
    $send_rb = /Net::HTTP\.post(_form)?\s*\(|\bHTTParty\.(post|put)\b|\bRestClient\.(post|put)\b|\bFaraday\.(post|put)\b|Net::HTTP::Post\.new\b|\.post\s*\(\s*["']https?:/
    $send_pl = /\bLWP::UserAgent\b[^\n]{0,200}->post\b|\$\w+->(post|put|post_form|request)\s*\(\s*["'$]|\bHTTP::Request->new\s*\(\s*["']?(POST|PUT)\b|\bHTTP::Tiny\b[^\n]{0,100}->(post|put|post_form|request)\b|\bPOST\s*\(\s*["']https?:/
    $send_mail = /\b(mail|mailx|sendmail|mutt)\s+(-\w+\s+[^\n<|]{0,60})*[\w.+-]+@[\w-]+\.[\w.]+[^\n]{0,40}<|\|\s*(mail|mailx|sendmail)\s/
    $send_copy = /\b(scp|rsync)\s+[^\n]{0,200}\s[\w.-]+@[\w.-]+:|\bftp\s+-[a-z]*u\b/
    $ctx_cred = /\.ssh\/(id_|authorized_keys|config\b)|\bid_(rsa|ed25519|ecdsa)\b|\.aws\/credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials|\.docker\/config\.json|\.kube\/config|\/etc\/(shadow|passwd)\b|\.config\/gcloud|\.gnupg\/|\.(bash|zsh|sh|python|psql|mysql|node_repl)_history\b|login\.keychain|find-(generic|internet)-password|Login Data|logins\.json|cookies\.sqlite|wallet\.dat|export-credentials|get-session-token|config\s+view\s+--raw|\.ssh\\|\.aws\\credentials|\.kube\\config/
    $ctx_env = /(^|[^.\w\/-])(printenv|env)\s*[|>]|\$\(\s*(printenv|env)\s*\)|dict\s*\(\s*os\.environ\s*\)|json\.dumps\s*\(\s*(dict\s*\()?\s*os\.environ\b|os\.environ\.(items|copy)\s*\(|str\s*\(\s*os\.environ\s*\)|JSON\.stringify\s*\(\s*process\.env\s*[,)]|Object\.(entries|keys)\s*\(\s*process\.env\s*\)|\bENV\.to_(h|a|s)\b|(gci|Get-ChildItem|dir|ls)\s+env:|[\[(]\s*%ENV\b|\\%ENV\b|\bkeys\s*%ENV\b|\bos\.environ\s*[,)}]|\bprocess\.env\s*[,)}]/
    /* a cloud CLI's own token (gh auth token, gcloud auth print-access-token, az account
       get-access-token) is a credential read unless every URL the file names is that vendor's
       API: a Tag Manager wrapper authenticating to googleapis.com sends its token home */
    $ctx_vendor_token = /\bgh\s+auth\s+token\b|print-access-token|get-access-token/
    $ctx_url = /https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+/ nocase
    $ctx_url_vendor = /https?:\/\/([a-z0-9-]+\.)*(googleapis\.com|google\.com|github\.com|githubusercontent\.com|azure\.com|azure\.net|microsoft\.com|microsoftonline\.com|windows\.net)\b/ nocase
  condition:
    any of ($send*) and ($ctx_cred or $ctx_env or ($ctx_vendor_token and (#ctx_url == 0 or #ctx_url > #ctx_url_vendor)))
}

rule data_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "medium"
    prose = "low"
    message = "sends data to a host"
  strings:
    $send_curl = /\bcurl\b[^\n|;]{0,300}\s(-d|--data[a-z-]*|-F|--form|-T|--upload-file|-X\s*(POST|PUT))[\s=@"']/
    $send_wget = /\b(wget|wget2)\b[^\n|;]{0,300}--(post|body)-(data|file)|\bhttp(ie)?\s+(-\w+\s+)*(POST|PUT)\s+https?:|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,200}-InFile\b|\bStart-BitsTransfer\b[^\n]{0,200}-TransferType\s+Upload/
    $send_nc = /\|\s*(nc|ncat|netcat|socat|telnet)\s+(-\w+\s+)*[a-z0-9.-]+\s+[0-9]{2,5}\b/ nocase
    $send_nc_host = /\b(nc|ncat|netcat)\s+(-\w+\s+)*[a-z0-9-]+\.[a-z0-9.-]*[a-z]\s+[0-9]{2,5}\s*(<|\n|;|&)/
    $send_py = /\b(requests|httpx|session|client)\.(post|put|patch)\s*\(|\burlopen\s*\([^\n)]{0,200}data\s*=|urllib\.request\.Request\s*\([^\n]{0,200}data\s*=|\.sendall\s*\(|\.sendto\s*\(|smtplib\.SMTP|ftplib\.FTP/
    $send_js = /\bmethod\s*:\s*["'](POST|PUT)["']|\baxios\.(post|put)\s*\(|navigator\.sendBeacon\s*\(|\.write\s*\([^\n]{0,60}\)\s*;?\s*\S*\.end\s*\(/ nocase
    $send_ps = /\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}-(Method\s+(Post|Put)|Body|InFile)\b|\.Upload(String|File|Data)\s*\(/ nocase
    $send_rb = /Net::HTTP\.post(_form)?\s*\(|\bHTTParty\.(post|put)\b|\bRestClient\.(post|put)\b|\bFaraday\.(post|put)\b|Net::HTTP::Post\.new\b|\.post\s*\(\s*["']https?:/
    $send_pl = /\bLWP::UserAgent\b[^\n]{0,200}->post\b|\$\w+->(post|put|post_form|request)\s*\(\s*["'$]|\bHTTP::Request->new\s*\(\s*["']?(POST|PUT)\b|\bHTTP::Tiny\b[^\n]{0,100}->(post|put|post_form|request)\b|\bPOST\s*\(\s*["']https?:/
    $send_mail = /\b(mail|mailx|sendmail|mutt)\s+(-\w+\s+[^\n<|]{0,60})*[\w.+-]+@[\w-]+\.[\w.]+[^\n]{0,40}<|\|\s*(mail|mailx|sendmail)\s/
    $send_copy = /\b(scp|rsync)\s+[^\n]{0,200}\s[\w.-]+@[\w.-]+:|\bftp\s+-[a-z]*u\b/
    /* fetch("/api/...", {method: "POST"}): the page's own origin, not a host the skill names */
    $same_origin = /\bfetch\s*\(\s*["'`]\/[^\/\n][^\n]{0,200}\bmethod\s*:\s*["'](POST|PUT)["']/ nocase
  condition:
    (any of ($send_curl, $send_wget, $send_nc, $send_nc_host, $send_py, $send_rb, $send_pl,
             $send_ps, $send_mail, $send_copy) or #send_js > #same_origin)
    and not secrets_sent /* the same sends with no credential read beside them */
}

/* On one line, or over DNS, or to a collection service: high wherever it stands. A backtick
 * substitution holds its command whole ("`http_proxy` env var" is two code spans). A DNS
 * lookup's name is its first argument after options: in prose "host" is a word and two Markdown
 * code spans on a line are no command substitution. */
rule secrets_sent_inline {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "credentials, the environment or a file's content are sent to a host"
  strings:
    $cat_pipe = /\b(cat|type|gc|Get-Content|tar|zip)\s+[^\n|]{0,120}(\.ssh|\.aws|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.env\b|credentials|id_rsa|id_ed25519|\/etc\/passwd|\/etc\/shadow|\.kube|\.docker|\.gnupg|keychain)[^\n]{0,200}\|\s*(base64\s*(-\w+\s*)*\|\s*)?(curl|wget|nc|ncat|netcat|socat|openssl|iwr|irm|invoke-restmethod|invoke-webrequest)\b/ nocase
    $env_pipe = /\b(env|printenv|set|export\s+-p)\s*\|\s*(base64\s*(-\w+\s*)*\|\s*|gzip\s*\|\s*)?(curl|wget|nc|ncat|netcat|socat)\b/
    $env_subst = /\b(curl|wget)\b[^\n]{0,300}(\$\(\s*(env|printenv|cat\s+[^\n)]{0,60}(\.ssh|\.aws|\.netrc|\.env\b|id_rsa|credentials))|`(env|printenv)`|`cat\s+[^`\n]{0,60}(\.ssh|\.aws|\.netrc|\.env\b|id_rsa|credentials))/
    $file_upload = /\bcurl\b[^\n]{0,200}(-d|--data[a-z-]*|-F|--form|-T|--upload-file)\s*["']?[\w-]*=?@["']?((~|\$HOME|\$\{HOME\}|\/etc)\/[^\n]{0,40}(\.ssh|\.aws|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.env\b|passwd|shadow|\.kube|\.docker|\.gnupg|_history)|(\.\/)?(\.env|\.npmrc|\.pypirc|\.netrc|\.git-credentials|id_rsa|id_ed25519|credentials\.json|service-account[\w-]*\.json)\b)/
    $env_in_request = /\b(urlopen|requests\.\w+|httpx\.\w+|fetch|axios\.\w+|https?\.(get|request)|curl|wget|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b\s*\(?[^\n]{0,300}(dict\s*\(\s*os\.environ\s*\)|str\s*\(\s*os\.environ\s*\)|json\.dumps\s*\(\s*(dict\s*\()?\s*os\.environ|JSON\.stringify\s*\(\s*process\.env\s*\)|\$\(\s*(env|printenv)\s*\)|`(env|printenv)`)/
    $py_env = /(requests|httpx)\.(post|put|get)\s*\([^\n]{0,300}(data|json|params)\s*=\s*(dict\s*\()?\s*os\.environ\b/
    $js_env = /\bfetch\s*\([^\n]{0,300}body\s*:\s*JSON\.stringify\s*\(\s*process\.env\s*\)/
    $dns = /\b(dig|nslookup|host|drill|ping|resolvectl\s+query)\s+([-+@][^\s]*\s+([0-9A-Za-z]+\s+)?){0,4}["']?(\$\([^)\n]{0,60}\)|`[^`\n]{0,60}`|\$\{?[A-Za-z_]+\}?)[^\s]{0,100}\.[a-z0-9-]+\.[a-z]{2,}/
    $dns_py = /\bgethostbyname\s*\(\s*(f["'][^\n]{0,60}\{|[^\n)]{0,80}\+\s*["']\.[a-z0-9-]+\.)/
    $dns_js = /\bdns\.(resolve|lookup)\w*\s*\(\s*(`[^\n]{0,40}\$\{|[^\n)]{0,80}\+\s*["']\.[a-z0-9-]+\.)/
    $copy_secret = /\b(scp|rsync|sftp)\s+[^\n]{0,100}(\.ssh\b|\.aws\b|\.netrc|\.git-credentials|\.gnupg|\/etc\/shadow|\.kube\/config|_history\b)[^\n]{0,100}\s[\w.-]+@[\w.-]+:/
    $mail_secret = /\b(mail|mailx|sendmail)\b[^\n]{0,100}<\s*["']?(~|\$HOME)\/\.(ssh|aws|netrc|git-credentials|gnupg|\w+_history)/
    $home_upload = /(\bcurl\b[^\n]{0,200}(-d|--data[a-z-]*|-F|--form)\s*["']?[\w-]*=?@["']?|\bcurl\b[^\n]{0,200}(-T|--upload-file)\s*["']?|\b(wget|wget2)\b[^\n]{0,200}--(post|body)-file[=\s]["']?|-InFile\s+["']?|\.UploadFile\s*\([^\n,]{0,200},\s*[^\n,]{0,20}["']?|\bscp\s+(-\w+\s+)*["']?)(~\/|\$HOME\/|\$\{HOME\}\/|%USERPROFILE%\\|\$env:USERPROFILE\\|\$HOME\\|\/etc\/(passwd|shadow|hosts|ssh)|\/root\/)/ nocase
    $env_send_pl = /->(post|put|post_form|request)\s*\([^\n]{0,200}(\[\s*%ENV\s*\]|\\%ENV\b|%ENV\b)/
    $env_send_rb = /\b(post|put|post_form|set_form_data)\s*\(?[^\n]{0,200}\bENV\.to_(h|a|s)\b/
    $env_send_ps = /\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}-Body\s+[^\n]{0,40}(\(\s*)?(gci|Get-ChildItem|dir|ls)\s+env:/ nocase
    $dns_win = /\b(nslookup|Resolve-DnsName|ping)\b\s+[^\n]{0,40}(%[A-Za-z_]+%|\$env:\w+|\$\(\s*\$env:\w+|\$\(\s*(whoami|hostname)\b)[^\s]{0,100}\.[a-z0-9-]+\.[a-z]{2,}/ nocase
    $collector = /\b(curl|wget|fetch|requests\.post|iwr|invoke-webrequest|invoke-restmethod)\b[^\n]{0,200}(webhook\.site|requestbin|pipedream\.net|ngrok(-free)?\.(io|app)|burpcollaborator|interact\.sh|oast\.(pro|live|fun|site|me|online)|transfer\.sh|hookbin\.com|beeceptor\.com|canarytokens)/ nocase
  condition:
    any of them
}

/* An image or link whose URL is told to carry the user's secrets: rendering it sends them. */
rule data_in_url {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "asks for secrets or files to be put into a URL that is fetched or rendered"
  strings:
    $img = /!?\[[^\]\n]{0,100}\]\(\s*https?:\/\/[^)\s]{1,200}[?&][\w-]{1,40}=(DATA|[A-Z_]{3,}|\{[^}\n]{1,40}\}|\$\{?\w+\}?|<[^>\n]{1,40}>|\[[^\]\n]{1,40}\]|%s)[)&\s]/
    $ctx_secret = /(\.env\b|secrets?\b|tokens?\b|api[ _-]?keys?|credentials|passwords?|ssh\s+keys?|private\s+keys?|conversation|chat\s+history|environment\s+variables)/ nocase
    /* a template field that is public by its name: a search link for `{Token Symbol}` */
    $veto_public_field = /[?&][\w-]{1,40}=\{\s*([A-Za-z]+[ _-])?(symbol|ticker|title|query|search[ _-]?terms?|keywords?|slug|city|topic|hashtag)\s*\}/ nocase
  condition:
    $img and $ctx_secret and #veto_public_field >= 0
}

/* Prose that has the agent fetch or render a URL carrying the user's files or secrets: the
 * request itself is the upload. What follows the scheme is one run of up to 260 characters, not
 * a URL's run then a gap: two bounded runs in a row made every URL of a 1.4 MB uv.lock cost a
 * split at each byte (3.6 s of the file's 7 s scan; 0.07 s now). */
rule data_in_url_prose {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "tells the agent to fetch or render a URL that carries files, secrets or the conversation"
  strings:
    $url_then_data = /\b(open|opening|fetch|fetching|visit|visiting|request|requesting|load|loading|call|calling|GET|browse\s+to|navigate\s+to|render|rendering|embed|display)\b[^\n]{0,40}https?:\/\/[^\n]{1,260}\b(followed\s+by|with|containing|append(ed|ing)?|plus|carrying|add(ed|ing)?|encod(ed|ing)|put|putting|includ(e|ing))\b[^\n]{0,60}(\.env\b|contents?\s+of|every\s+line|each\s+line|environment\s+variables|ssh\s+keys?|file'?s?\s+contents|conversation|chat\s+history|~\/\.)/ nocase
    $data_then_url = /\b(append|add|put|encode|include|attach|insert)\b[^\n]{0,40}(\.env\b|contents?\s+of|every\s+line|environment\s+variables|ssh\s+keys?|conversation|chat\s+history|~\/\.)[^\n]{0,80}\b(to|in|into|as)\s+(the\s+)?(query|url|link|image\s+url|querystring|query\s+string|parameter|path)\b[^\n]{0,80}https?:\/\// nocase
  condition:
    any of them
}

/* Round 3, by channel: what the first rules counted as a send lacked UDP, DNS lookups of a
 * computed name, mail attachments, Go's HTTP client and git pushes; what they counted as a
 * secret lacked Go's os.Environ(), dotenv files under the home directory and other processes'
 * environments. Both in one file: high. */
rule secrets_sent_more {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "reads credentials or the environment and sends them out (HTTP, UDP, DNS, mail)"
  strings:
    $send_go = /\bhttp\.(Post|PostForm)\s*\(|\bhttp\.NewRequest\s*\(\s*(http\.Method(Post|Put)|["'](POST|PUT)["'])|\bnet\.Dial\w*\s*\(\s*["'](udp|tcp)[46]?["']/
    $send_udp = /\bdgram\.createSocket\s*\(|\bSOCK_DGRAM\b|\bUdpClient\b|\/dev\/udp\/|\bsocket\.udp\s*\(|\bUDPSocket\.new\b/
    /* `host` only as a command: `HOST="$1"` and "Host: $USER@$HOST" are not lookups. */
    $send_dns = /\b(Resolve-DnsName|nslookup|dig|drill)\b[^\n]{0,40}["']?\$[\w{(]|(^|\n|[;&|(`]|\$\()[ \t]*host[ \t]+(-\w+[ \t]+)*["']?\$[\w{(]|\bgethostbyname\w*\s*\(\s*(f["']|[\w.]+\s*\+|["'][^"'\n]{0,40}["']\s*\+|["'][^"'\n]{0,40}["']\s*%|[\w.]+\.format\s*\()|\bdns\.(resolve|lookup)\w*\s*\(\s*(`[^`\n]{0,40}\$\{|[\w.]+\s*\+)|\bnet\.(LookupHost|LookupTXT|LookupIP)\s*\(\s*[\w.]+\s*\+/ nocase
    $send_mail = /\bsmtplib\.SMTP(_SSL)?\s*\(|\.add_attachment\s*\(|\bSend-MailMessage\b|\bNet::SMTP\b|\bnodemailer\b|\bMail::Sendmail\b|\bmail\s*\(\s*\$/
    $ctx_env = /\bos\.Environ\s*\(\s*\)|\bGet-ChildItem\s+env:|\bgci\s+env:|\bdir\s+env:|\[Environment\]::GetEnvironmentVariables\s*\(\s*\)|JSON\.stringify\s*\(\s*process\.env\s*[,)]|Object\.(entries|keys)\s*\(\s*process\.env\s*\)|\bos\.environ\.(items|copy)\s*\(|dict\s*\(\s*os\.environ\s*\)|\bENV\.to_(h|a|s)\b|\bkeys\s*%ENV\b|\/proc\/[\w*$\[\]-]+\/environ\b|\$\(\s*(env|printenv)\s*\)/ nocase
    $ctx_cred = /(~|\$HOME|expanduser\s*\(\s*["']~|Path\.home\s*\(\s*\)|homedir\s*\(\s*\)|Dir\.home|UserHomeDir)[^\n]{0,40}(\*\*\/)?\.env\b|\.ssh[\/\\"' ,]+(id_|\*)|\.aws[\/\\"' ,]+(credentials|sso)|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.config[\/\\"' ,]+gh[\/\\"' ,]+hosts\.yml|\.kube[\/\\"' ,]+config|\.docker[\/\\"' ,]+config\.json|\.gnupg\b/
  condition:
    any of ($send*) and any of ($ctx*)
}

/* The user's repository pushed, whole, to a remote the skill adds (not origin or upstream) or
 * to a URL: every branch, tag and its history leave with it. */
rule repo_pushed_out {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "pushes every branch or the whole repository to a remote the skill adds"
  strings:
    $push_url = /\bgit\s+push\s+(-\S+\s+)*(https?:\/\/|git@|ssh:\/\/)\S+[^\n]{0,60}\s(--mirror|--all)\b|\bgit\s+push\s+(-\S+\s+)*(--mirror|--all)\s+(-\S+\s+)*(https?:\/\/|git@|ssh:\/\/)/
    $push_all = /\bgit\s+push\s+[^\n;&|]{0,60}(--mirror|--all)\b/
    $ctx_add = /\bgit\s+remote\s+add\s+(-\S+\s+)*([a-np-tv-zA-Z_][\w.-]*|o[^r\s][\w.-]*|u[^p\s][\w.-]*)\s+(https?:\/\/|git@|ssh:\/\/)/
  condition:
    $push_url or ($push_all and $ctx_add)
}

/* Round 5, by technique (ATT&CK T1115, T1113, T1119 + T1041): what the user does collected on a
 * timer and sent away: the clipboard or the screen read in a loop that uploads it, and a whole
 * repository (every branch and its history) bundled into a request. A one-off screenshot or a
 * clipboard read for the user is not this: the loop and the upload together are. */
rule collection_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "collects the clipboard, the screen or the whole repository and sends it to a host"
  strings:
    $bundle = /\bgit\s+bundle\s+create\s+\S+\s+[^\n|]{0,40}--all\b[^\n]{0,60}\|\s*(curl|wget2?|nc|ncat|http|xh)\b|\bgit\s+(archive|bundle\s+create)\b[^\n]{0,120}(&&|;|\|)\s*curl\s+[^\n]{0,120}(-T|--upload-file|-F|--data-binary)\s/
    $clip = /\bpyperclip\.paste\s*\(|\bpbpaste\b|\bxclip\s+[^\n]{0,30}-o\b|\bxsel\s+[^\n]{0,20}(-o|--output)\b|\bwl-paste\b|\bGet-Clipboard\b|\bclipboard\.readText\s*\(|\bclipboardy\.read|\bClipboard\.GetText\s*\(|\bImageGrab\.grabclipboard\s*\(/
    $screen = /\bscreencapture\s+(-\w+\s+)*-\w*x|\bImageGrab\.grab\s*\(|\bpyautogui\.screenshot\s*\(|\bmss\s*\(\s*\)\.(shot|grab)|\bscrot\b|\bimport\s+-window\s+root\b|\bgnome-screenshot\b|\bCopyFromScreen\s*\(|\bdesktopCapturer\b|\bgrim\b/
    $ctx_loop = /\bwhile\s+(true|True|1|:)\b|\bwhile\s*\(\s*(true|1)\s*\)|\bsetInterval\s*\(|\bschedule\.every\b|\bfor\s*\(\s*;\s*;\s*\)|\bwhile\s+\$true\b|\bwhile\s*\(\s*\$true\s*\)/
    $ctx_sleep = /\b(time\.)?sleep\s*\(?\s*[0-9]|\bStart-Sleep\b|\bsetInterval\s*\(|\bschedule\.every\b/
    $ctx_send = /\b(requests|httpx|session|client)\.(post|put)\s*\(|\burlopen\s*\(|\bfetch\s*\([^\n]{0,80}method\s*:\s*["'](POST|PUT)|\bcurl\s+[^\n]{0,120}(-F|--form|-d|--data[\w-]*|-T|--upload-file)\s|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,120}-(Body|InFile|Form)\b|\baxios\.(post|put)\s*\(/ nocase
  condition:
    $bundle or (is_script and ($clip or $screen) and $ctx_loop and $ctx_sleep and $ctx_send)
}

/* Round 10 (issue 45): a mail store (Outlook .pst/.ost, Thunderbird profiles, Apple Mail, mbox)
 * collected and uploaded (multipart form, a file body, a POST): every message the user has. */
rule mail_store_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "uploads the user's mail store (Outlook .pst/.ost, Thunderbird, Apple Mail, mbox)"
  strings:
    $store = /\*\.(pst|ost)\b|["'][^"'\n]{0,80}\.(pst|ost)["']|\\Microsoft\\Outlook\b|Outlook Files|Thunderbird[\/\\]Profiles|Library\/Mail\/V\d+|\.thunderbird\/|\*\.mbox\b|\.emlx\b/ nocase
    $ctx_upload = /\bMultipartFormDataContent\b|\bPostAsync\s*\(|\bUploadFile\w*\s*\(|\bInvoke-(RestMethod|WebRequest)\b[^\n]{0,120}(-InFile|-Form)\b|\bcurl\s+[^\n]{0,80}(-F\s|--form\b|-T\s|--upload-file\b|--data-binary\s+@)|\brequests\.(post|put)\s*\([^\n]{0,120}\bfiles\s*=|\bFormData\s*\(|\bscp\s|\brclone\s+(copy|sync)\b/
  condition:
    $store and $ctx_upload
}

/* Round 10: a chat webhook or bot API (Discord, Slack, Telegram) written in the code, and a
 * secret file (.env, a credentials file) read by the same file: the user's secrets posted to
 * a channel the skill's author reads. */
rule secret_file_to_chat_webhook {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "reads a secret file (.env, credentials) and posts it to a chat webhook or bot (Discord, Slack, Telegram)"
  strings:
    $hook = /https:\/\/(discord(app)?\.com\/api\/webhooks\/\d+|hooks\.slack\.com\/services\/T\w+|api\.telegram\.org\/bot\d+:)/
    $ctx_secret = /\b(open|readFileSync|readFile|read_text|read_bytes|Get-Content|gc|cat|File\.read|ReadAllText|ReadAllBytes)\s*\(?\s*\(?\s*["'][^"'\n]{0,40}(\.env(\.\w+)?|credentials(\.json)?|\.npmrc|\.pypirc|\.netrc|id_rsa|id_ed25519)["']|\bcurl\s+[^\n]{0,120}-F\s+["']?\w+=@[^\s"']{0,40}\.(env|npmrc|pypirc|netrc)\b/
    /* Round 12: the secret file named elsewhere (a loop over the history files, a variable)
     * and uploaded as a document or attachment to the bot or webhook. */
    $ctx_home_secret = /(~|\$HOME|\$\{HOME\}|homedir\s*\(\s*\)|Path\.home\s*\(\s*\)|expanduser\s*\(\s*["']~)[^\n]{0,20}\/?\.(bash_history|zsh_history|python_history|psql_history|ssh\/id_\w+|aws\/credentials|netrc|git-credentials|npmrc|pypirc|env)\b/
    $ctx_upload_doc = /\bsend(Document|Photo|Audio|Video)\b|\s-F\s*["']?(document|file|attachment|files\[\d*\])=@|\bfiles\s*=\s*\{|\bFormData\s*\(|\s-Form\s/
  condition:
    $hook and ($ctx_secret or ($ctx_home_secret and $ctx_upload_doc))
}

/* Round 12: the whole of a dotenv file read into a request's body: a command substitution
 * (`"$(cat .env)"`) or jq's --rawfile/--arg that carries it into JSON, then a POST with curl
 * in the same file or block. Reading one key (`$(grep KEY .env | cut ...)`) or loading it into
 * the environment (`export $(cat .env | xargs)`) is not this. */
rule env_file_content_sent {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "a dotenv file's whole content is put into a request body and sent to a host"
  strings:
    $env_body = /(--arg\s+\w+\s+|\w=|-d\s+|--data[\w-]*\s+)["']?\$\(\s*(cat\s+|<\s*)["']?(\.\/)?\.env(\.local|\.production)?["']?\s*(2>\s*\/dev\/null\s*)?\)|--rawfile\s+\w+\s+["']?(\.\/)?\.env(\.local|\.production)?\b|-Body\s+\(?\s*(Get-Content|gc|cat)\s+(-Raw\s+)?["']?(\.[\/\\])?\.env["'\s)]/
    $ctx_send = /\bcurl\b[^\n]{0,300}(\s-d\s|\s--data[\w-]*\s|\s-X\s*(POST|PUT)\b|\s-F\s)|\bhttp\s+(POST|PUT)\s|\b(Invoke-RestMethod|irm)\b[^\n]{0,200}-Body\b/
  condition:
    $env_body and $ctx_send
}

/* Round 11 (issue 45): the whole environment written into a CI artifact or log a pipeline
 * publishes (GitLab `artifacts:`, GitHub's upload-artifact): every CI secret ends up in it.
 * A filtered dump (`env | grep ^CI_COMMIT`) is not this. */
rule ci_env_dump_published {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "a CI job writes the whole environment (every secret) into a published artifact"
  strings:
    $dump = /(^|\n)\s*-?\s*(run:\s*)?["']?(env|printenv|export\s+-p|set)(\s*\|\s*(sort|cat|tee\s+-a)\b[^\n|>]{0,20})?\s*>>?\s*["']?[\w.\/${}-]+/
    $dump_secrets = /\$\{\{\s*toJSON\s*\(\s*secrets\s*\)\s*\}\}/
    $ctx_publish = /(^|\n)\s*artifacts\s*:|\bactions\/upload-artifact@|\bbuildkite-agent\s+artifact\s+upload\b|\bstore_artifacts\s*:/
  condition:
    ($dump or $dump_secrets) and $ctx_publish
}

/* Round 11: the project tree or the home directory packed and uploaded in one go (curl -T /
 * --upload-file / -F of the archive just made, or the archive streamed over ssh, nc or socat):
 * .env, keys and history go with it. Secret folders of the home (.ssh, .aws, .gnupg) packed
 * and piped to another machine are the same, over several lines too. */
rule tree_archive_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "packs the project or the home directory (secrets included) and sends the archive to a host"
  strings:
    $tar_tree = /\b(tar\s+([^\n]{0,80}\s)?-?[a-zA-Z]*c[a-zA-Z]*f?\s+(["']?[\w.\/$-]+["']?\s+)?(--exclude[= ]\S+\s+)*(\.|~|\$HOME|\$\{HOME\}|\$PWD|\$\(pwd\))|zip\s+(-[a-zA-Z]+\s+)*[\w.\/$-]+\s+(\.|~|\$HOME))(\s|$)/
    $ctx_upload = /\bcurl\b[^\n]{0,200}(--upload-file|\s-T\s|\s-F\s*["']?\w+=@)/
    $secret_dirs_piped = /\btar\s[^\n]{0,200}\.(ssh|aws|gnupg|netrc|docker|kube|password-store)\b[^\n]{0,200}(\\\s*\n)?[^\n]{0,10}\|\s*(\\\s*)?\n?\s*(ssh|nc|ncat|netcat|socat|curl)\b/
    $secret_dirs_copied = /\b(scp|rsync)\s[^\n]{0,120}(~|\$HOME)\/\.(ssh|aws|gnupg)\b[^\n]{0,200}\s[\w.-]+@[\w.-]+:/
    /* Round 12: the home folder itself, whole, copied to another machine (rsync, scp -r,
     * rclone to a remote, tar of it streamed over ssh/nc): keys, tokens and history go with
     * it. A copy to a local disk, or of a project folder under home, is not this. */
    $home_copied = /\b(rsync|scp)\s+(-[-\w=.*\/]+\s+|--exclude[= ]+["']?[^\s"']+["']?\s+)*["']?(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\/home\/[\w.-]+|\/Users\/[\w.-]+)\/?["']?\s+(-\S+\s+)*["']?[\w.-]+@[\w.-]+:|\brclone\s+(copy|sync|move)\s+(-\S+\s+)*["']?(~|\$HOME|\$\{HOME\})\/?["']?\s+(-\S+\s+)*["']?[\w-]+:/
    $home_streamed = /\btar\s+(-\w+\s+)*-?[a-zA-Z]*c[a-zA-Z]*\s+(-\S*\s+)*["']?(~|\$HOME|\$\{HOME\})\/?["']?\s+[^\n|]{0,60}\|\s*(ssh|nc|ncat|netcat|socat)\b/
  condition:
    ($tar_tree and $ctx_upload) or $secret_dirs_piped or $secret_dirs_copied or $home_copied or $home_streamed
}

/* Round 11: a program that walks the tree for secret files (.env, *.pem, *.key) and writes them
 * into a raw socket (Perl IO::Socket, Ruby TCPSocket, Python socket, PHP fsockopen, Node net). */
rule secret_files_to_socket {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "walks the files for secrets (.env, keys) and writes them into a network socket"
  strings:
    $sock = /IO::Socket::(INET|IP|SSL)\b|\bTCPSocket\.(new|open)\b|\bsocket\.create_connection\s*\(|\bsocket\.socket\s*\(|\b(fsockopen|stream_socket_client)\s*\(|\bnet\.(connect|createConnection)\s*\(/
    $walk = /\bFile::Find\b|\bfind\s*\(\s*sub\b|\bos\.walk\s*\(|\.rglob\s*\(|\bglob\.glob\s*\([^\n]{0,60}recursive|\bFind\.find\b|\bDir\.glob\s*\([^\n]{0,20}\*\*|RecursiveDirectoryIterator|\breaddirSync\s*\([^\n]{0,60}recursive/
    $secret_pat = /\\\.env\b|\^\\\.env|\.env\*|\\\.\(?(pem|key)\b|["']\.(pem|key|env)["']|\*\.(pem|key)\b|\(\?:?\\?\.?env|\bid_(rsa|ed25519)\b/
  condition:
    $sock and $walk and $secret_pat
}

/* Round 11: the user's personal folders (Documents, Desktop, Pictures) walked and each file
 * uploaded as a form or body (Invoke-RestMethod -Form/-InFile, requests files=, curl -F). */
rule personal_files_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "uploads the files of the user's personal folders (Documents, Desktop) to a host"
  strings:
    $folder = /GetFolderPath\s*\(\s*["']?(\[Environment\+SpecialFolder\]::)?(MyDocuments|Personal|Desktop|MyPictures)|\$env:USERPROFILE[\\\/](Documents|Desktop|Pictures)|(~|\$HOME|Path\.home\(\)\s*\/)\s*\/?\s*["']?(Documents|Desktop|Pictures)\b|expanduser\s*\(\s*["']~\/(Documents|Desktop|Pictures)/
    $upload = /\s-(Form|InFile)\s+(@\{|\$)|\b(requests|httpx)\.(post|put)\s*\([^\n]{0,200}\bfiles\s*=|\bcurl\b[^\n]{0,200}\s-F\s*["']?\w+=@|\.upload_file\s*\(/ nocase
    $walk = /\bGet-ChildItem\b[^\n]{0,120}-Recurse|\bgci\b[^\n]{0,80}-r|\bos\.walk\s*\(|\.rglob\s*\(|\bfind\s+[^\n]{0,40}-type\s+f/ nocase
  condition:
    $folder and $upload and $walk
}

/* Round 11: cloud storage uploads with somebody else's access key written into the skill
 * (boto3 with a literal AKIA key, `aws s3 cp` with the key inline, Azure's --account-key or
 * AccountKey=): what is uploaded goes to the author's account. The AWS documentation's sample
 * key is vetoed. */
rule upload_with_embedded_cloud_key {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "uploads to cloud storage with an access key written into the skill (someone else's account)"
  strings:
    $key = /\baws_access_key_id\s*=\s*["']A(KIA|SIA)[A-Z0-9]{12,}|\bAWS_ACCESS_KEY_ID\s*=\s*["']?A(KIA|SIA)[A-Z0-9]{12,}|--account-key[= ]+["']?[A-Za-z0-9+\/]{40,}|\bAccountKey=[A-Za-z0-9+\/]{40,}|\baccessKeyId\s*:\s*["']A(KIA|SIA)[A-Z0-9]{12,}/
    $upload = /\.(upload_file|upload_fileobj|put_object|upload_blob)\s*\(|\baws\s+s3\s+(cp|sync|mv)\s|\baz\s+storage\s+blob\s+upload(-batch)?\b|\bPutObjectCommand\b/
    $veto_doc_key = /AKIAIOSFODNN7EXAMPLE/
  condition:
    $key and $upload and #key > #veto_doc_key
}

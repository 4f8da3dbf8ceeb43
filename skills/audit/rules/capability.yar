/* Capability co-occurrence: what a reviewer looks for whatever the syntax. One script file
 * that holds a source and a sink of the same attack is the attack, however each half is
 * written: a secret store read and a request to a literal host (exfiltration), a network
 * fetch and a dynamic-execution sink (download and execute), a socket and a shell wired to it
 * (reverse shell). Scripts only (`is_script`): prose names tools without running them. The
 * sources are context ($ctx*), so the evidence points at the sink. */

/* A secret store read (a read verb next to a key or credential file, keychains, browser profiles, a dump of the
 * whole environment) and a request to a literal host in the same script. A request whose
 * secret-named variables all go to their own service (PUSHOVER_TOKEN to api.pushover.net, read
 * from the user's keychain item for it) is the store used as designed (audit_own.c). */
rule capability_secret_store_egress {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    own_service = "veto"
    message = "a script reads a secret store and sends requests to a remote host"
  strings:
    $ctx_store = /\b(cat|base64|xxd|od|tar|zip|7z|gzip|cp|scp|rsync|curl|open|fopen|readFile\w*|read_bytes|read_text|Get-Content|gc|File\.(read|open|binread)|IO\.read|slurp|walk|rglob|glob|listdir|scandir|readdir\w*|copy\w*|upload\w*|Compress-Archive)\b[^\n]{0,60}(\.ssh([\/\\"', +]{1,6}(id_[a-z0-9]+([^a-z0-9.]|\.[^p])|identity\b|\*)|\/?["']?(\s|\)|$))|\.(aws[\/\\"', +]{1,6}credentials|config[\/\\"', +]{1,6}gcloud\b|kube[\/\\"', +]{1,6}config\b|docker[\/\\"', +]{1,6}config\.json|netrc\b|npmrc\b|pypirc\b|git-credentials\b|pgpass\b|cargo[\/\\"', +]{1,6}credentials|gnupg\b|password-store\b))|(\.ssh([\/\\"', +]{1,6}(id_[a-z0-9]+([^a-z0-9.]|\.[^p])|identity\b|\*)|\/?["']?(\s|\)|$))|\.(aws[\/\\"', +]{1,6}credentials|config[\/\\"', +]{1,6}gcloud\b|kube[\/\\"', +]{1,6}config\b|docker[\/\\"', +]{1,6}config\.json|netrc\b|npmrc\b|pypirc\b|git-credentials\b|pgpass\b|cargo[\/\\"', +]{1,6}credentials|gnupg\b|password-store\b))[^\n]{0,40}\.(read\w*|open)\s*\(/
    $ctx_keychain = /\bsecurity\s+(find-(generic|internet)-password|dump-keychain)\b|\bLogin Data\b|\bkey4\.db\b|\blogins\.json\b|\bcookies\.sqlite\b|Local State["']|\/etc\/shadow\b|\bnetsh\s+wlan\s+show\s+profile[^\n]{0,60}key=clear|\bcmdkey\s+\/list\b|\bvaultcmd\b|\bCredentialManager\b/ nocase
    $ctx_envdump = /\bjson\.dumps\s*\(\s*dict\s*\(\s*os\.environ\s*\)|\bdict\s*\(\s*os\.environ\s*\)|\bos\.environ\.(items|copy)\s*\(\s*\)|JSON\.stringify\s*\(\s*process\.env\s*[,)]|Object\.(entries|keys)\s*\(\s*process\.env\s*\)|\bDeno\.env\.toObject\s*\(|(\$\(|`|\|\s*)\s*(printenv|env)\s*(\||\)|`)|\bGet-ChildItem\s+env:|\bgci\s+env:|\bENV\.to_h\b|\bENV\.to_a\b|\bkeys\s+%ENV\b|\bforeach\s+[^\n]{0,20}%ENV\b|\/proc\/(self|\d+|\$\w+)\/environ\b/
    $sink_http = /\b(requests|httpx|session|aiohttp|urllib\.request|urllib3|http\.client)\.(get|post|put|patch|request|urlopen|Request|HTTPS?Connection|PoolManager)\s*\([^\n]{0,200}["']https?:\/\/[a-z0-9.-]+|\b(fetch|axios(\.\w+)?|got(\.\w+)?|needle|https?\.(request|get))\s*\(\s*[`"']https?:\/\/[a-z0-9.-]+|\b(curl|wget2?|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)(\.exe)?\s[^\n]{0,200}https?:\/\/[a-z0-9.-]+|\b(Net::HTTP|URI|HTTParty|RestClient|Faraday|HTTP::Tiny|LWP::UserAgent|WebClient|HttpClient)\b[^\n]{0,120}https?:\/\/[a-z0-9.-]+|\b(nc|ncat|netcat|socat|scp|rsync|sftp|ftp|sendmail|mail|mutt)\s[^\n]{0,120}\b[a-z0-9-]+\.[a-z0-9.-]+\.(com|net|org|io|dev|xyz|site|ru|cn|top)\b|\b(HTTPS?Connection|create_connection|TcpClient|TCPSocket\.(new|open)|IO::Socket::(INET|SSL)->new|(net|tls)\.connect|Deno\.connect(Tls)?)\b[^\n]{0,40}["'][a-z0-9-]+(\.[a-z0-9-]+)+["']|\b(smtplib\.SMTP(_SSL)?|ftplib\.FTP(_TLS)?|nodemailer\.createTransport|Net::SMTP|Net::FTP)\b|\b(dig|nslookup)\s[^\n]{0,80}\$\{?\w+\}?\.[a-z0-9-]+\./ nocase
  condition:
    is_script and any of ($ctx*) and $sink_http
}

/* A network fetch and a sink that runs what it is given, in one script: the download is run
 * however it is written (a shell string, eval, a module loaded from a temp file, a pickle). */
rule capability_fetch_exec {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "a script fetches from the network and runs dynamic code"
  strings:
    $ctx_fetch = /\b(requests|httpx|urllib3|session|client)\.(get|request)\s*\(|\burlopen\s*\(|\burlretrieve\s*\(|\bfetch\s*\(\s*[`"']https?:|\baxios\.get\s*\(|\bhttps?\.get\s*\(|\bURI\.open\s*\(|\bopen-uri\b|\bNet::HTTP\.get\b|\bHTTP::Tiny\b|\bLWP::(Simple|UserAgent)\b|\bDownload(String|File)\b|\bInvoke-(WebRequest|RestMethod)\b|\b(iwr|irm)\s+[^\n]{0,20}https?:|\b(curl|wget2?)\s[^\n]{0,200}(https?:\/\/|\$)/
    $sink_shell_true = /\bsubprocess\.(run|call|Popen|check_output|check_call)\s*\(\s*[a-z_][\w.\[\]]*\s*[,)][^\n]{0,120}shell\s*=\s*True/
    $sink_eval = /(^|[^\w.])(eval|exec)\s*\(\s*(await\s+)?[a-z_][\w.]*(\.(text|content|read\(\)|data|body|decode\(\)))?\s*[,)]|\beval\s+[\"']?\$\{?[a-zA-Z_]\w*\}?[\"']?\s*(\n|;|\||&|>|2>)|\bnew\s+Function\s*\(|\bvm\.run\w*\s*\(|\bos\.system\s*\(\s*[a-z_]\w*\s*\)/
    $sink_load = /\brunpy\.run_(path|module)\s*\(|\b(pickle|cPickle|marshal|dill)\.loads?\s*\(|\bimportlib\.util\.spec_from_file_location\s*\(|\n\s*(do|require)\s+\$\w+\s*;|\n\s*load\s+[a-z_]\w*\s*\n|\bKernel\.load\b|\b(iex|Invoke-Expression)\b|\|\s*(iex|Invoke-Expression)\b|\bInvoke-Command\s+-ScriptBlock\s+\(\s*\[scriptblock\]::Create/ nocase
    /* a well-known vendor's installer (download_exec.yar's list): on its line, not this rule's */
    $neg_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh\/(uv|ruff)\/|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew\/install|nvm-sh\/nvm)\/|bun\.sh\/install|deno\.land\/(x\/)?install|get\.pnpm\.io\/install|install\.python-poetry\.org|fnm\.vercel\.app\/install|claude\.ai\/install|get\.sdkman\.io|ollama\.com\/install|pyenv\.run|tailscale\.com\/install|install\.determinate\.systems\/nix|nixos\.org\/nix\/install|starship\.rs\/install|mise\.run|get\.volta\.sh|dot\.net\/v1\/dotnet-install|foundry\.paradigm\.xyz|cli\.moonbitlang\.com|get\.helm\.sh|sh\.brew\.sh|opencode\.ai\/install|cursor\.com\/install|code-server\.dev\/install|pixi\.sh\/install|micro\.mamba\.pm\/install|get\.jetify\.com)/
  condition:
    is_script and $ctx_fetch and any of ($sink*) and #neg_vendor >= 0
}

/* A socket or connection to a host and a shell or command runner wired to it: every line the
 * peer sends runs on the user's machine (a reverse shell, a command-and-control loop). */
rule capability_socket_shell {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a script connects to a host and runs what the connection sends through a shell"
  strings:
    $ctx_sock = /\bsocket\.socket\s*\(|\.connect\s*\(\s*\(|\bsocket\.create_connection\s*\(|\basyncio\.open_connection\s*\(|\b(net|tls)\.(connect|createConnection)\s*\(|\bnew\s+net\.Socket\s*\(|\bDeno\.(connect|connectTls)\s*\(|\bTCPSocket\.(new|open)\b|\bIO::Socket::(INET|SSL)\b|\bNet\.Sockets\.TcpClient\b|\/dev\/(tcp|udp)\/|\bnew\s+WebSocket\s*\(|\bwebsockets?\.connect\s*\(/
    $sink_dup2 = /\bos\.dup2\s*\(|\bpty\.spawn\s*\(|\bstd(in|out|err)\s*=\s*(s|sock|conn|client|self\.sock)(\.fileno\(\))?\b|\bcreate_subprocess_(shell|exec)\s*\(|\bopen\s*\(\s*STD(IN|OUT|ERR)\s*,\s*["'][<>&]+/
    $sink_node = /\bexecSync\s*\(\s*(d|data|chunk|buf|msg|line|cmd)\b|\bexec\s*\(\s*(d|data|chunk|buf|msg|line)(\.toString\(\))?\s*,|\bspawn\s*\(\s*["'](\/bin\/)?(sh|bash|zsh|cmd(\.exe)?|powershell(\.exe)?)["']|\.pipe(To)?\s*\(\s*(\w+\.)?std(in|out)\b|\bstd(in|out)\.pipe\s*\(/
    $sink_deno = /\bnew\s+Deno\.Command\s*\(\s*["'](\/bin\/)?(sh|bash|zsh|cmd|powershell)["']/
    $sink_ps = /\bSystem\.Diagnostics\.Process\b|\bRedirectStandard(Input|Output)\s*=\s*\$?true/ nocase
  condition:
    is_script and $ctx_sock and any of ($sink*)
}

/* Writes to start-up locations the older rule does not name: a shell's start-up variables
 * pointing at a home file, git's command settings pointing at a hidden file or a shell, editor
 * start-up files, cmd.exe's AutoRun, logon scripts, image hijacks, login items, the agents'
 * global memory files. Each runs the written command again later. */
rule capability_persistence_write {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    block = "medium"
    dockerfile = "low"
    message = "writes a start-up location that runs a command again later"
  strings:
    $envd = /\b(BASH_ENV|ENV|PROMPT_COMMAND|LD_PRELOAD)=[^\n]{0,80}(\/\.|\$HOME|~\/)/
    $gitcfg = /\bgit\s+config\s+(--global|--system)\s+(core\.(fsmonitor|pager|editor)|sequence\.editor)\s+["']?[^\n"']{0,80}(\/\.[\w-]|\b(sh|bash|curl|wget)\s)/
    $editor = /(>>|\btee\s+-a|open\s*\([^\n]{0,60}["']a["'])\s*[^\n]{0,40}(\.vimrc|\.exrc|\.config\/nvim\/init\.(vim|lua)|\.emacs(\.d\/init\.el)?|\.inputrc|\.tmux\.conf)\b/
    $win = /Command Processor["\\]?\s*[^\n]{0,20}\bAutoRun\b|\bUserInitMprLogonScript\b|Image File Execution Options\\[^\n]{0,60}\bDebugger\b|\\Winlogon\b[^\n]{0,60}\b(Userinit|Shell)\b|\bosascript\b[^\n]{0,120}\blogin item\b/ nocase
    $agent_mem = /(>>|\btee\s+-a|appendFile\w*\s*\(|write_text\s*\(|open\s*\()\s*[^\n]{0,60}\.(claude\/CLAUDE\.md|codex\/AGENTS\.md|cursor\/rules|gemini\/GEMINI\.md)/
    $neg_query = /\breg(\.exe)?\s+query\b|\bGet-ItemProperty\b|\bgit\s+config\s+--get\b/ nocase
  condition:
    is_script and any of ($envd, $gitcfg, $editor, $win, $agent_mem) and #neg_query >= 0
}

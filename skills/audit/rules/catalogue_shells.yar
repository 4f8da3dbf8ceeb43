/* Round 6, from the reverse-shell catalogues (every language's socket + exec form) and the
 * remote-access tools a reviewer knows (issue 45): a connection or a listener whose input is
 * run as commands. Each shape pairs the language's way to receive (a datagram, a socket, an
 * SSH channel, an HTTP request) with its way to run; one file holding both is the shell. */

/* A connection out (UDP, TCP, TLS, SSH) whose received data is run, in the languages the older
 * rules did not pair: PowerShell's UdpClient/Socket with Invoke-Expression, Tcl's `socket` with
 * `exec`, Bun's and Deno's connect with spawn, paramiko's channel with subprocess, Lua's socket
 * with io.popen, awk's /inet/. */
rule catalogue_socket_exec {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "connects to a host and runs what the connection sends (a reverse shell)"
  strings:
    $ps = /\bNet\.Sockets\.(UdpClient|Socket|TcpClient|TcpListener|UdpClient)\b[^\n]{0,400}/ nocase
    $ctx_ps_run = /\b(iex|Invoke-Expression)\b|\[scriptblock\]::Create\s*\(|\bInvoke-Command\b|\.InvokeScript\s*\(|\bStart-Process\s+(cmd|powershell)\b/ nocase
    $tcl = /\bsocket\s+(-async\s+)?[\w.$-]+\s+\$?\w+[^\n]{0,200}|\bfileevent\s+\$\w+\s+readable\b/
    $ctx_tcl_run = /\bexec\s+(\/bin\/)?(sh|bash)\b|\beval\s+\[?\s*gets\b|\bexec\s+\{?\*\}?\s*\$/
    $ctx_tcl = /\btclsh\b|\bpackage\s+require\b|\bfconfigure\b|\bputs\s+\$\w+/
    $bun = /\b(Bun|Deno)\.(connect|connectTls|listen|udpSocket)\s*\(/
    $ctx_bun_run = /\b(Bun\.spawnSync|Bun\.spawn|Bun\.\$|new\s+Deno\.Command|Deno\.run)\s*\(?[^\n]{0,40}(["'](\/bin\/)?(sh|bash|zsh|cmd|powershell)["']|\bcmd\b|\bdata\b|\bmsg\b|\bline\b)/
    $paramiko = /\bparamiko\.(SSHClient|Transport)\s*\(|\.invoke_shell\s*\(|\.open_session\s*\(/
    $ctx_pm_recv = /\.recv\s*\(|\.makefile\s*\(|\baccept\s*\(/
    $ctx_pm_run = /\bsubprocess\.(run|Popen|check_output|getoutput|call)\s*\(|\bos\.(popen|system)\s*\(/
    $lua = /\bsocket\.(tcp|connect|udp)\s*\(/
    $ctx_lua_run = /\bio\.popen\s*\(|\bos\.execute\s*\(|\bload(string)?\s*\(/
    $rcat = /\brcat\s+(connect|c)\s+(-\w+\s+\S+\s+)*[\w.-]+\s+\d+|\bcmstp(\.exe)?\s+\/ni\s+\/s\b|\bodbcconf(\.exe)?\s+[^\n]{0,40}\/a\s+\{?REGSVR\b|\bInstallUtil(\.exe)?\s+[^\n]{0,40}\/U\s+[^\n]{0,80}%(TEMP|APPDATA)%|\bSyncAppvPublishingServer(\.vbs)?\b[^\n]{0,80}(iex|Invoke-Expression|Start-Process)/ nocase
    $awk = /\/inet\/(tcp|udp)\/0\/[^\n]{0,200}/
    $ctx_awk_run = /\|\s*getline\b|\bsystem\s*\(/
  condition:
    is_script and (($ps and $ctx_ps_run) or ($tcl and $ctx_tcl_run and $ctx_tcl) or ($bun and $ctx_bun_run) or ($paramiko and $ctx_pm_recv and $ctx_pm_run) or ($lua and $ctx_lua_run and lang == "lua") or ($awk and $ctx_awk_run) or $rcat)
}

/* A web shell: a server (Python's http.server/Flask/FastAPI, Node's http/express, Ruby's
 * WEBrick/Sinatra, PHP) whose handler runs a request's query, body or header as a command. */
rule catalogue_web_shell {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a server runs commands taken from HTTP requests (a web shell)"
  strings:
    $py_run = /\b(subprocess\.(run|Popen|check_output|getoutput|call)|os\.(popen|system))\s*\([^\n]{0,80}\b(cmd|command|q|qs|params?|query|body|data|args|request\.(args|form|values|json|get_json)|self\.path|parse_qs)\b/
    $ctx_py_srv = /\b(BaseHTTPRequestHandler|SimpleHTTPRequestHandler|HTTPServer|ThreadingHTTPServer|socketserver\.|Flask\s*\(|FastAPI\s*\(|web\.Application\s*\(|@app\.(route|get|post))\b|\brequest\.(args|form|values)\b/
    /* parse_qs alone is any URL's query (an OAuth client reads its callback so): a server, or a
       CGI script's own query, makes a command built from it a web shell's */
    $ctx_py_cgi = /\b(QUERY_STRING|cgi\.FieldStorage)\b/
    $js_run = /\b(exec|execSync|spawn|spawnSync|execFile)\s*\(\s*(req|request|ctx\.request)\.(body|query|params|headers)\b|\b(exec|execSync)\s*\([^\n]{0,60}\b(req|request)\.(body|query|params)\b|\b(exec|execSync)\s*\(\s*(cmd|command|body|data)\b/
    $ctx_js_srv = /\b(express\s*\(\s*\)|http\.createServer\s*\(|fastify\s*\(|new\s+Koa\s*\(|app\.(post|get|all|use)\s*\(\s*["'])/
    $ctx_js_req = /\b(req|request)\.(body|query|params)\b/
    $rb_run = /(`#\{[^\n}]{0,40}(params|req\.query|query)|\b(system|spawn|IO\.popen|Open3\.\w+|%x)\s*\(?[^\n]{0,40}\b(params|req\.query|request\.query)\b)/
    $neg = /\b(never|don'?t|do\s+not|vulnerab\w+|attackers?|malicious|insecure\s+example|detect(s|ion)?)\b/ nocase
  condition:
    is_script and (($py_run and ($ctx_py_srv or $ctx_py_cgi)) or ($js_run and $ctx_js_srv and $ctx_js_req) or $rb_run) and #neg >= 0
}

/* The machine handed over through an editor or service tunnel whose name is sent out, or started
 * for a stranger: VS Code's `code tunnel`, `devtunnel host` with anonymous access, `tmate` whose
 * session is posted. */
rule catalogue_remote_tunnel_handed_out {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "opens a remote-access tunnel to this machine and sends its name or link to a host"
  strings:
    $tunnel = /\bcode(-insiders)?(\.exe)?\s+tunnel\b(\s+--[\w-]+(\s+["']?[\w.-]+["']?)?)*|\bdevtunnel\s+(host|create)\b[^\n]{0,80}(--allow-anonymous|-a\b)|\btmate\s+[^\n]{0,60}display\s+-p\s+["']?#\{tmate_(ssh|web)\}|\btty-share\b[^\n]{0,120}--public\b[^\n]{0,160}|\bteleconsole\b[^\n]{0,80}|\bupterm\s+host\b[^\n]{0,160}|\bsshx(\s+-[-\w]+)*\s*(&|;|\n)/
    $ctx_send = /\bcurl\s+[^\n]{0,120}(-d\b|--data[\w-]*|-F\b|--form|-X\s*POST)|\b(requests|httpx)\.post\s*\(|\bInvoke-RestMethod\b[^\n]{0,120}-Body\b|\bfetch\s*\([^\n]{0,120}POST|\bwebhook\b|\bgh\s+(issue|gist|api)\b/ nocase
    $veto_help = /\btunnel\s+(--help|-h|help|status|user\s+(login|show)|kill|prune|unregister)\b|--readonly(=true)?[ \t\n"'&;|]/
  condition:
    $tunnel and $ctx_send and #veto_help >= 0
}

/* Reverse and bind shells: a shell whose input comes from a socket. High wherever it stands:
 * a skill has no reason to hand a remote host a shell. */

rule reverse_shell_oneliner {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    /* High in prose too: a one-liner a detection guide quotes on a line that only teaches is
     * lowered by the intent layer (audit_intent_near.c), not by the carrier. */
    message = "a shell is connected to a network socket (reverse or bind shell)"
  strings:
    $devtcp_shell = /\b(ba|z|k)?sh\s+-[a-z]*i[a-z]*\b[^\n]{0,40}\/dev\/(tcp|udp)\//
    $devtcp_redir = /\/dev\/(tcp|udp)\/[^\s\/]{1,100}\/[0-9$][^\n]{0,40}(0>&1|<&\s*[0-9]|>&\s*[0-9]|2>&1)/
    $devtcp_exec = /\bexec\s+([0-9]+|\{\w+\})\s*<>\s*["']?\/dev\/(tcp|udp)\//
    $nc_exec = /\b(nc|ncat|netcat|nc\.traditional|nc\.openbsd)(\.exe)?(\s[^\n|;]{0,100})?(\s-[a-z]*[ec]\s*["']?\S*(sh|cmd(\.exe)?|powershell(\.exe)?)\b|--(sh-)?exec[\s=])/ nocase
    $fifo = /\b(mkfifo|mknod)\s[^\n]{0,200}\b(nc|ncat|netcat|telnet|openssl\s+s_client)\b/
    $pipe_to_sock = /\b(ba|z)?sh\s+-i\s*(2>&1\s*)?\|\s*(nc|ncat|netcat|telnet|openssl\s+s_client)\b/
    $telnet = /\btelnet\s+\S+\s+[0-9]+\s*\|\s*(\/bin\/)?(ba)?sh\b/
    $s_client = /\bs_client\s[^\n]{0,120}\|\s*(\/bin\/)?(ba|z)?sh\b/
    $socat = /\bsocat\s[^\n]{0,200}\b(exec|system):[^\n]{0,40}\b(sh|bash|zsh|cmd|powershell)\b/ nocase
    $xterm = /\bxterm\s+-display\s+[0-9a-z.-]+:[0-9]/
    $php = /\bfsockopen\s*\([^\n]{0,200}(exec|shell_exec|system|passthru|proc_open|popen)\s*\(/
    $awk = /\/inet\/(tcp|udp)\/[0-9]+\/[^\s\/]+\/[0-9]+/
    $ztcp = /\bzmodload\s+zsh\/net\/(tcp|socket)\b[^\n]{0,200}\b(ztcp|zsocket)\s/
    $ztcp_fd = /\b(ztcp|zsocket)\s[^\n]{0,120}(\b(ba|z)?sh\b[^\n]{0,40}[<>]&\s*\$(REPLY|\w+)|[<>]&\s*\$REPLY\b)/
    $telnet_pair = /\btelnet\s+[^\n|]{1,80}\|\s*(\/bin\/)?(ba|z)?sh\b[^\n]{0,40}\|\s*telnet\b/
    $s_client_in = /\b(ba|z)?sh\s+-i\b[^\n]{0,60}\|\s*openssl\s+s_client\b|\bs_client\s[^\n]{0,120}\|\s*[^\n|]{0,40}\b(ba|z)?sh\s+-i\b/
    $nc_c_bash = /\b(nc|ncat|netcat)\s[^\n]{0,100}\s-c\s+["']?(ba|z)?sh\b/
    $rcat = /\b(rcat|pwncat(-cs)?)\s+(connect\s+)?[^\n]{0,60}\s-(e|r)\s+["']?(\/bin\/)?(ba|z)?sh\b/
    $busybox = /\bbusybox\s+(nc|telnetd)\b[^\n]{0,80}\s-[el]\s*["']?(\/bin\/)?(ba|a|z)?sh\b/
    $lua_inline = /\blua[0-9.]*\s+-e\s+[^\n]{0,200}socket[^\n]{0,200}(io\.popen|os\.execute)/
    $php_inline = /\bphp\s+-r\s+[^\n]{0,200}(fsockopen|stream_socket_client)\s*\(/
    $perl_inline = /\bperl\s+(-\w+\s+)*-e\s+[^\n]{0,300}\b(socket\s*\(|IO::Socket)[^\n]{0,300}\b(exec|system|open\s*\(\s*STDIN)/
    $ruby_inline = /\bruby\s+(-\w+\s+)*-e\s+[^\n]{0,300}TCPSocket[^\n]{0,300}\b(exec|spawn|system|IO\.popen|popen)\b/
    $node_inline = /\bnode\s+-e\s+[^\n]{0,300}\bnet\b[^\n]{0,300}child_process/
  condition:
    any of them
}

/* The same in a program: a socket whose descriptors become a shell's. */
rule reverse_shell_program {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a program connects a socket to a shell or to exec'd commands (reverse shell)"
  strings:
    $py_connect = /\.connect\s*\(\s*\(/
    $ctx_py_sock = /socket\.socket\s*\(|\bsocket\s*\(\s*(socket\.)?AF_INET/
    $ctx_py_dup = /\bos\.dup2\s*\(|\bpty\.spawn\s*\(|subprocess\.(call|Popen|run|check_output)\s*\(\s*\[?\s*["'](\/bin\/)?(ba|z)?sh["']\s*,?\s*\]?[^\n]{0,40}(stdin|-i)/
    $pl_open = /\bopen\s*\(\s*\*?STDIN\s*,\s*["']?[>+<]*&/
    $ctx_pl_sock = /\buse\s+Socket\b|IO::Socket::INET/
    $rb_exec = /\b(exec|spawn|system|IO\.popen)\s*[\s(]\s*(sprintf\s*\()?["'](\/bin\/)?(ba|z)?sh\b[^\n]{0,20}(-i|<&|%d)/
    $ctx_rb_sock = /TCPSocket\.(new|open)\s*\(/
    $ps_stream = /\.GetStream\s*\(\s*\)/ nocase
    $ctx_ps_client = /Net\.Sockets\.TCPClient\s*\(/ nocase
    $ctx_ps_iex = /\b(iex|invoke-expression)\b/ nocase
    $js_spawn = /\bspawn\s*\(\s*["'](\/bin\/)?((ba|z)?sh|cmd(\.exe)?|powershell(\.exe)?)["']/
    $ctx_js_sock = /new\s+net\.Socket\s*\(|\bnet\.(connect|createConnection)\s*\(/
    $ztcp_conn = /\b(ztcp|zsocket)\s+[\w.-]+\s+[0-9]{2,5}\b/
    $ctx_reply_fd = /[<>]&\s*\$REPLY\b/
    $ctx_js_pipe = /\.(stdout|stdin)\.pipe\s*\(|\.pipe\s*\([^\n]{0,20}\.stdin\)/
  condition:
    ($py_connect and $ctx_py_sock and $ctx_py_dup) or
    ($pl_open and $ctx_pl_sock) or
    ($rb_exec and $ctx_rb_sock) or
    ($ps_stream and $ctx_ps_client and $ctx_ps_iex) or
    ($js_spawn and $ctx_js_sock and $ctx_js_pipe) or
    ($ztcp_conn and $ctx_reply_fd)
}

/* Any language: a socket to a host, a read from it, and a command run or a shell started. A
 * skill has no reason to run what a socket says; the same shape in Ruby, Perl, PHP, Lua, Go,
 * Java, Node, Python, PowerShell and C#. */
rule reverse_shell_socket_exec {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "a program reads commands from a network socket and runs them (reverse shell)"
  strings:
    $sock = /\bTCPSocket\.(new|open)\s*\(|\bIO::Socket::(INET|IP)\b|\bsocket\.socket\s*\(|\bsocket\.create_connection\s*\(|\bnew\s+net\.Socket\s*\(|\bnet\.(connect|createConnection)\s*\(|\bnet\.Dial(TCP|Timeout)?\s*\(|\b(fsockopen|pfsockopen|stream_socket_client)\s*\(|\bsocket\.(tcp|connect)\s*\(|\bnew\s+Socket\s*\(\s*["'\w]|\bNet\.Sockets\.TCPClient\b|\bTcpClient\s*\(|\bWebSocket\s*\(\s*["'`]wss?:|\bsocketConnection\s*\(|\bmake\.socket\s*\(|\[\s*socket\s+(-\w+\s+)*[\w$."-]+\s+[\w$-]+\s*\]|\bSockets\.connect\s*\(|=\s*connect\s*\(\s*["'][\w.-]+["']\s*,\s*\d+\s*\)|=\s*(java\.net\.)?Socket\s*\(\s*["'][\w.-]+["']\s*,\s*\d+|\b(val|var)\s+\w+(\s*:\s*Socket)?\s*=\s*(java\.net\.)?Socket\s*\([^\n]{1,80},\s*[\w.]+\s*\)/ nocase
    $ctx_read = /[.:](gets|recv|readline|read|ReadString|getInputStream|GetStream|receive|inputStream|InputStream|withStreams)\b|\.on\s*\(\s*["']data["']|\.Std(in|out)\s*(,[^=\n]{0,40})?=\s*(c|conn|sock|s|socket|client)\b|\bwhile\s*\(\s*<\s*\$\w+\s*>|\bfgets\s*\(|\bbufio\.NewReader\s*\(|\bsocket_read\b|\breadLines\s*\(\s*\w+\s*,\s*n\s*=|\bread\.socket\s*\(|\bgets\s+\$\w+\s+\w+|\breadline\s*\(\s*\w+\s*\)/
    $ctx_run = /\bIO\.popen\b|\bOpen3\.\w+|\bexec\s*\(\s*["'](\/bin\/)?((ba|z)?sh|cmd)|\b(system|exec|spawn)\s*[\s(]\s*\w+\s*[\s)]|\bsubprocess\.\w+\s*\(|\bos\.(system|popen|dup2)\s*\(|\bpty\.spawn\b|\bchild_process\b|\bexec\.Command\s*\(|\b(shell_exec|passthru|proc_open|popen)\s*\(|\bio\.popen\s*\(|\bos\.execute\s*\(|Runtime\.getRuntime\(\)\.exec|\bProcessBuilder\s*\(|\b(iex|Invoke-Expression)\b|\bProcess\.Start\b|\bqx\s*[({\/]|`\s*\$\w+\s*`|\bopen\s*\(\s*\*?STD(IN|OUT)\s*,\s*["']?[<>+]*&|\bsystem2?\s*\(\s*\w+\s*,\s*intern\s*=|\bsystem2\s*\(\s*["'](ba|z)?sh["']|\[\s*exec\s+(\/bin\/)?(ba|z)?sh\s+-c\s+\$\w+|\bread\s*\(\s*`(ba|z)?sh\s+-c\s+\$\w+`|\brun\s*\(\s*`(ba|z)?sh\s+-c\s+\$\w+`|\bnew\s+Process\s*(\{|\(\s*\))|\bnew\s+ProcessStartInfo\s*\(|\bRedirectStandardInput\s*=\s*true\b|[\]"']\s*\.execute\s*\(\s*\)|\bconsumeProcessOutput\s*\(|\bsys\.process\b|\bnew\s+ProcessIO\s*\(/
    $ctx_shell = /["'`](\/bin\/)?(ba|z|k|da)?sh["'`]|["'`](\/bin\/)?(ba|z)?sh\s+-i|["']cmd(\.exe)?["']|["']powershell(\.exe)?["']|\bpty\.spawn\b|\bshell\s*(=|:)\s*(True|true)\b|\b(sh|bash)\s+-c\b|\bos\.dup2\b|\bIO\.popen\b|\bproc_open\b|\bio\.popen\b|\bos\.execute\b|\b(system|exec)\s*\(\s*\$\w+|\bexec\.Command\s*\(\s*["'](\/bin\/)?(ba|z)?sh|\b(iex|Invoke-Expression)\b|\bshell_exec\b|\bRuntime\.getRuntime\(\)\.exec|\b(execSync|exec)\s*\(\s*[a-z_]\w*(\.toString\(\s*\))?\s*[,)]|`\s*\$\w+\s*`|\bqx\s*[({\/]\s*\$|\bsystem2?\s*\(\s*\w+\s*,\s*intern\s*=|\bsystem2\s*\(\s*["'](ba|z)?sh["']|\bexec\s+(\/bin\/)?(ba|z)?sh\s+-c\s+\$\w+|`(ba|z)?sh\s+-c\s+\$\w+`/ nocase
  condition:
    $sock and $ctx_read and $ctx_run and $ctx_shell
}

/* Round 5, by technique (revshells catalogues; ATT&CK T1059 over T1071/T1095): a shell over a
 * channel that is not a raw socket, or a one-liner the rules above did not spell. */
rule reverse_shell_channel {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a shell is wired to a network channel (coprocess, one-liner, web terminal)"
  strings:
    $coproc = /\bcoproc\b[^\n]{0,80}\b(nc|ncat|netcat|socat|telnet|openssl\s+s_client)\s/
    $ctx_coproc_fd = /\b(ba|z|k)?sh\b[^\n]{0,40}[<>]&\s*["']?\$\{?\w+\[[01]\]/
    $py_inline = /\bpython[0-9.]*\s+(-\w+\s+)*-c\s+["'][^\n]{0,200}\bsocket\b[^\n]{0,300}(\bpty\.spawn\b|\bos\.dup2\b|\bsubprocess\.\w+\s*\([^\n]{0,80}\bstd(in|out)\s*=)/
    $ps_inline = /\b(powershell|pwsh)(\.exe)?\b[^\n]{0,120}\bNet\.Sockets\.TCPClient\b[^\n]{0,400}\b(iex|Invoke-Expression)\b/ nocase
    $openssl = /\bopenssl\s+s_client\s[^\n]{0,120}\|\s*(\/bin\/)?(ba|z|k)?sh\b[^\n]{0,40}\|\s*openssl\s+s_client\b/
    $web_term = /\b(ttyd\s+(-\w+\s+|--[\w-]+(=\S+)?\s+|-p\s*\d+\s+)*(-W|--writable)\b[^\n]{0,80}\b(ba|z|k|fi)?sh\b|\bgotty\s+(-\w+\s+|--[\w-]+\s+)*(-w|--permit-write)\b[^\n]{0,80}\b(ba|z|k|fi)?sh\b)/
    $ctx_tunnel = /\bcloudflared\s+tunnel\s+[^\n]{0,40}--url\b|\bngrok\s+(http|tcp)\b|\blt\s+--port\b|\blocaltunnel\b|\bbore\s+local\b|\bssh\s+[^\n]{0,40}-R\s+[^\n]{0,40}(serveo|localhost\.run|pinggy)|\bfrpc(\.exe)?\s+(-\w+\s+)*(-c|--config)\b|\bchisel\s+client\b|\bzrok\s+share\s+public\b|\btailscale\s+funnel\b|\bpgrok\b|\btunnelmole\b|\bexpose\s+share\b|\bloophole\s+http\b/
  condition:
    ($coproc and $ctx_coproc_fd) or $py_inline or $ps_inline or $openssl or ($web_term and $ctx_tunnel)
}

/* A program that takes commands from a message channel (a WebSocket in any language, Python's
 * multiprocessing.connection and xmlrpc, a socket server's handler) and runs what arrives. */
rule reverse_shell_message_channel {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "a program runs the commands a remote channel sends it (reverse shell over a message channel)"
  strings:
    $chan = /\bnew\s+WebSocket\s*\(\s*["'`]wss?:|\bWebSockets\.ClientWebSocket\b|\bwebsocket\.(create_connection|WebSocketApp)\s*\(|\bwebsockets\.(connect|client\.connect)\s*\(|\bmultiprocessing\.connection\b|\bfrom\s+multiprocessing\.connection\s+import\s+Client\b|\bxmlrpc\.client\.ServerProxy\s*\(|\bServerProxy\s*\(\s*["']https?:|\bsocketserver\.(TCPServer|StreamRequestHandler|BaseRequestHandler)\b|\bio\s*\(\s*["'`]https?:|\bFaye::WebSocket::Client\b|\bWebSocket::Client::Simple\b|\bMojo::UserAgent\b[^\n]{0,80}\bwebsocket\b|\bwebsocket\.Dial(er)?\b/
    $ctx_recv = /\.(recv|recv_bytes|ReceiveAsync|receive)\s*\(|\.(addEventListener|on)\s*\(\s*["'`]message["'`]|\bonmessage\b|\bon_message\b|\.rfile\.readline\b|\.request\.recv\b|\basync\s+for\s+\w+\s+in\s+\w+|\.ReadMessage\s*\(/
    $ctx_run = /([^.\w]|\b(child_process|cp|childProcess)\.)(execSync|exec|spawnSync)\s*\(\s*(String\s*\(\s*)?[a-z_][\w.]*\s*[,)]|\bsubprocess\.(run|Popen|call|check_output|getoutput|getstatusoutput)\s*\(\s*[a-z_][\w.]*\s*[,)]|\bos\.(system|popen)\s*\(\s*[a-z_][\w.]*\s*\)|\b(Invoke-Expression|iex)\s+\(?\$\w+|\bexec\.Command\s*\(\s*["'](\/bin\/)?(ba|z)?sh["']\s*,\s*["']-c["']\s*,\s*\w+|`\s*#\{\s*\w+\s*\}\s*`|\bsystem\s*\(\s*\$?\w+\s*\)|\bIO\.popen\s*\(\s*\w+/ nocase
  condition:
    $chan and $ctx_recv and $ctx_run
}

/* A terminal handed to a relay (websocat's exec modes, upterm, sshx) or commands polled over
 * XML-RPC and run: a shell a remote party drives. Prose that names the tool is medium. */
rule reverse_shell_relay {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "hands a shell to a remote relay or runs the commands a remote service returns"
  strings:
    $relay_more = /\bpowercat\b[^\n]{0,120}\s-(e|ep)\s+["']?(cmd|powershell|pwsh)|\bInvoke-PowerShellTcp\b[^\n]{0,80}-(Reverse|Bind)\b|\b(nc|ncat|netcat)\s+[^\n|]{1,80}\|\s*(\/bin\/)?(ba|z)?sh\b[^\n]{0,40}\|\s*(nc|ncat|netcat)\b/ nocase
    $relay = /\bwebsocat\b[^\n]{0,120}(\bsh-c:|--exec\b|\bexec:|\bcmd:)|\bupterm\s+host\b|\bsshx\s+(run\b|--quiet\b|-q\b)|\bsshx\.io\/get\b[^\n]{0,40}\|\s*(ba|z)?sh\b[^\n]{0,20}\brun\b/
    $rpc = /\b(xmlrpc\.client\.)?ServerProxy\s*\(\s*["']https?:\/\/|\bjsonrpclib\.Server\s*\(/
    $ctx_rpc_run = /\bsubprocess\.\w+\s*\(\s*[a-z_][\w.]*\s*,[^\n]{0,80}shell\s*=\s*True|\bos\.(system|popen)\s*\(\s*[a-z_][\w.]*\s*\)/
    $ctx_loop = /\bwhile\s+(True|1)\s*:/
  condition:
    $relay or $relay_more or (is_script and $rpc and $ctx_rpc_run and $ctx_loop)
}

/* Round 11 (issue 45): a socket handed to a shell as its standard streams, in a program: PHP's
 * proc_open with the socket as descriptors 0/1/2, Go's os.StartProcess or exec.Cmd with the
 * connection's file, Rust's Command with Stdio::from_raw_fd of a TcpStream, Node's spawn with
 * the socket in stdio. Plain variables, not the process's own streams (os.Stdin, 'pipe'). */
rule reverse_shell_socket_as_stdio {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "a network connection is handed to a shell as its input and output (reverse shell)"
  strings:
    $php_fds = /\bproc_open\s*\([^;]{0,200}(\[|array\s*\()\s*0\s*=>\s*\$\w+\s*,\s*1\s*=>\s*\$\w+/
    $ctx_php_sock = /\b(stream_socket_client|fsockopen|pfsockopen|socket_create)\s*\(/
    $go_files = /\bFiles\s*:\s*\[\]\*os\.File\s*\{\s*[a-z]\w*\s*,\s*[a-z]\w*/
    $go_streams = /\.Stdin\s*,\s*\w+\.Stdout\s*(,\s*\w+\.Stderr\s*)?=\s*[a-z]\w*\s*,\s*[a-z]\w*|\.Stdin\s*=\s*(conn|c|sock|s|tlsConn|netConn)\s*\n/
    $ctx_go_dial = /\b(net|tls)\.Dial(Timeout|er)?\b|\bnet\.Dialer\s*\{/
    $go_shell = /\b(os\.StartProcess|exec\.Command(Context)?)\s*\(\s*(ctx\s*,\s*)?"(\/bin\/)?(ba|z|da)?sh"/
    $rs_fd = /\bStdio::from_raw_fd\s*\(/
    $ctx_rs_sock = /\bTcpStream::connect\s*\(/
    $rs_shell = /\bCommand::new\s*\(\s*"(\/bin\/)?(ba|z|da)?sh"/
    $js_stdio = /\bstdio\s*:\s*\[\s*[a-z]\w*\s*,\s*[a-z]\w*\s*,/
    $ctx_js_sock = /\bnet\.(connect|createConnection)\s*\(|new\s+net\.Socket\s*\(|\btls\.connect\s*\(/
    $js_shell = /\b(spawn|spawnSync)\s*\(\s*["'](\/bin\/)?((ba|z|da)?sh|cmd(\.exe)?|powershell(\.exe)?)["']/
  condition:
    ($php_fds and $ctx_php_sock) or
    (any of ($go_files, $go_streams) and $ctx_go_dial and $go_shell) or
    ($rs_fd and $ctx_rs_sock and $rs_shell) or
    ($js_stdio and $ctx_js_sock and $js_shell)
}

/* Round 11: the fifo reverse shell written over several lines of a code block (continuation
 * backslashes, the pipe on the next line): a fifo, an interactive shell and a socket tool within
 * a few lines. */
rule reverse_shell_fifo_multiline {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a fifo ties an interactive shell to a network connection (reverse shell over several lines)"
  strings:
    $fifo_sh_net = /\b(mkfifo|mknod)\s[^\n]{0,120}(\n[^\n]{0,200}){0,4}\b(ba|z|da)?sh\s+-i\b[^\n]{0,200}(\n[^\n]{0,200}){0,3}\b(openssl\s+s_client|ncat|netcat|nc|telnet|socat)\s/
    $fifo_net_sh = /\b(mkfifo|mknod)\s[^\n]{0,120}(\n[^\n]{0,200}){0,4}\b(openssl\s+s_client|ncat|netcat|nc|telnet|socat)\s[^\n]{0,200}(\n[^\n]{0,200}){0,3}\b(ba|z|da)?sh\s+-i\b/
    $sh_cont_net = /\b(ba|z|da)?sh\s+-i\b[^\n]{0,80}\\\s*\n\s*\|\s*(openssl\s+s_client|ncat|netcat|nc|telnet|socat)\s/
  condition:
    any of them
}

/* Round 11: a machine joined to someone else's private network with remote shell access on:
 * Tailscale with a pre-issued auth key written into the skill (or a foreign control server)
 * and Tailscale SSH, ZeroTier joined to a network id the skill names. The user's own key comes
 * from a variable; a literal key is the author's. */
rule remote_shell_foreign_network {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "joins the machine to someone else's private network with remote shell access (Tailscale SSH with a pre-issued key, a foreign control server)"
  strings:
    $ts_key_ssh = /\btailscale\s+(up|login)\b([^\n]{0,200}\\\s*\n){0,3}[^\n]{0,200}--auth-?key[= ]+["']?tskey-[^\n]{0,200}(\\\s*\n[^\n]{0,200}){0,3}--ssh\b/
    $ts_ssh_key = /\btailscale\s+(up|login)\b([^\n]{0,200}\\\s*\n){0,3}[^\n]{0,200}--ssh\b[^\n]{0,200}(\\\s*\n[^\n]{0,200}){0,3}--auth-?key[= ]+["']?tskey-/
    $ts_server_ssh = /\btailscale\s+(up|login)\b([^\n]{0,200}\\\s*\n){0,3}[^\n]{0,200}--login-server[= ]+["']?https?:\/\/[^\n]{0,200}(\\\s*\n[^\n]{0,200}){0,3}--ssh\b/
    $ts_ssh_server = /\btailscale\s+(up|login)\b([^\n]{0,200}\\\s*\n){0,3}[^\n]{0,200}--ssh\b[^\n]{0,200}(\\\s*\n[^\n]{0,200}){0,3}--login-server[= ]+["']?https?:\/\//
  condition:
    any of them
}

/* Round 14: a read-and-eval loop fed by a network connection in the shell, without `bash -i`: a
 * `/dev/tcp` descriptor read line by line (`read -r cmd <&7`, `read -u 7`) or a socket tool's
 * output piped into `while read`, each line handed to eval or `sh -c`. */
rule reverse_shell_read_eval_loop {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "a shell loop reads lines from a network connection and runs each with eval (a command channel)"
  strings:
    $fd_read = /\bwhile\s+(IFS=\S*\s+)?read\s+(-\w+\s+)*(-u\s*["']?(\d+|\$\{?\w+\}?)["']?\s+)?\w+[^\n]{0,40}(<\s*&\s*["']?(\d+|\$\{?\w+\}?)|-u\s*["']?(\d+|\$\{?\w+\}?))/
    $net_pipe = /\b(nc|ncat|netcat|socat|telnet|openssl\s+s_client|websocat|ztcp)\b[^\n|]{0,160}\|\s*while\s+(IFS=\S*\s+)?read\b|\bdone\s*<\s*<\(\s*(nc|ncat|netcat|socat|telnet|openssl\s+s_client|websocat)\b[^\n]{0,120}/
    $ctx_net = /\/dev\/(tcp|udp)\/|\b(ztcp|zsocket)\s/
    $ctx_eval = /\beval\s+["']?\$\{?\w+|\b(ba|z|da)?sh\s+-c\s+["']?\$\{?\w+|\bsource\s+<\(\s*(echo|printf)\s[^\n]{0,20}\$\{?\w+/
  condition:
    (($fd_read and $ctx_net) or $net_pipe) and $ctx_eval
}

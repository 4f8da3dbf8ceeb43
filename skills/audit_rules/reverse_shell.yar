/* Reverse and bind shells: a shell whose input comes from a socket. High wherever it stands:
 * a skill has no reason to hand a remote host a shell. */

rule reverse_shell_oneliner {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a shell is connected to a network socket (reverse or bind shell)"
  strings:
    $devtcp_shell = /\b(ba|z|k)?sh\s+-[a-z]*i[a-z]*\b[^\n]{0,40}\/dev\/(tcp|udp)\//
    $devtcp_redir = /\/dev\/(tcp|udp)\/[^\s\/]{1,100}\/[0-9$][^\n]{0,40}(0>&1|<&\s*[0-9]|>&\s*[0-9]|2>&1)/
    $devtcp_exec = /\bexec\s+[0-9]+\s*<>\s*\/dev\/(tcp|udp)\//
    $nc_exec = /\b(nc|ncat|netcat|nc\.traditional|nc\.openbsd)(\.exe)?(\s[^\n|;]{0,100})?(\s-[a-z]*[ec]\s*["']?\S*(sh|cmd(\.exe)?|powershell(\.exe)?)\b|--(sh-)?exec[\s=])/ nocase
    $fifo = /\b(mkfifo|mknod)\s[^\n]{0,200}\b(nc|ncat|netcat|telnet|openssl\s+s_client)\b/
    $pipe_to_sock = /\b(ba|z)?sh\s+-i\s*(2>&1\s*)?\|\s*(nc|ncat|netcat|telnet|openssl\s+s_client)\b/
    $telnet = /\btelnet\s+\S+\s+[0-9]+\s*\|\s*(\/bin\/)?(ba)?sh\b/
    $s_client = /\bs_client\s[^\n]{0,120}\|\s*(\/bin\/)?(ba|z)?sh\b/
    $socat = /\bsocat\s[^\n]{0,200}\b(exec|system):[^\n]{0,40}\b(sh|bash|zsh|cmd|powershell)\b/ nocase
    $xterm = /\bxterm\s+-display\s+[0-9a-z.-]+:[0-9]/
    $php = /\bfsockopen\s*\([^\n]{0,200}(exec|shell_exec|system|passthru|proc_open|popen)\s*\(/
    $awk = /\/inet\/(tcp|udp)\/[0-9]+\/[^\s\/]+\/[0-9]+/
    $ztcp = /\bzmodload\s+zsh\/net\/tcp\b[^\n]{0,200}\bztcp\s/
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
    $ctx_js_pipe = /\.(stdout|stdin)\.pipe\s*\(|\.pipe\s*\([^\n]{0,20}\.stdin\)/
  condition:
    ($py_connect and $ctx_py_sock and $ctx_py_dup) or
    ($pl_open and $ctx_pl_sock) or
    ($rb_exec and $ctx_rb_sock) or
    ($ps_stream and $ctx_ps_client and $ctx_ps_iex) or
    ($js_spawn and $ctx_js_sock and $ctx_js_pipe)
}

/* Round 15: a shell handed to the network. A command channel is any program that reads from a
 * remote place it polls or holds open (a socket it dialled, a mailbox, a message topic or queue,
 * a DNS record, a chat bot's updates) and hands what it reads to a shell; a terminal server
 * that lets anyone who reaches it type into a shell is the same in the other direction. */

/* A program that dials or polls a remote channel, loops, and runs a string through a shell:
 * Go's net.Dial with bufio and `sh -c`, Python's IMAP or MQTT client with shell=True, a DNS TXT
 * poll with os.system. The channel is context; the evidence is the shell call. */
rule flow_command_channel {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    message = "a program reads commands from a remote channel (socket, mailbox, topic, DNS record) and runs them through a shell"
  strings:
    $ctx_chan = /\bnet\.Dial(TCP|Timeout|er)?\b|\btls\.Dial\b|\bimaplib\.IMAP4(_SSL)?\s*\(|\bpoplib\.POP3(_SSL)?\s*\(|\bNet::(IMAP|POP3)\b|\bMail::IMAPClient\b|\bImapFlow\b|\bnew\s+Imap\s*\(|\bmqtt\.(Client|connect)\s*\(|\.subscribe\s*\(\s*["'][^"'\n]{1,80}["']|\bgetUpdates\b|\bconversations\.history\b|\bdns\.resolver\.(resolve|query)\s*\([^\n)]{0,80}["']TXT["']|\bLookupTXT\s*\(|\bResolve-DnsName\b[^\n]{0,80}-Type\s+TXT|\b(nslookup|dig)\b[^\n]{0,40}\b(txt|TXT)\b|\.recv\s*\(\s*\d+\s*\)|\bTcpClient\b|\bIO::Socket::(INET|IP|SSL)\b|\bTCPSocket\.(new|open)\b|\bnet\.(connect|createConnection)\s*\(|\breceive_message\s*\(|\bPubSub\b|\bpubsub\s*\(/
    $ctx_loop = /\bwhile\b|\bfor\s*\{|\bfor\s+[^\n]{0,60}\b(range|in|of)\b|\bloop\s*\{|\bsetInterval\s*\(|\.Scan\s*\(\s*\)|\.on\s*\(\s*["'](message|data)["']|\bforeach\b|\.each\b/
    $sink_go = /\bexec\.Command(Context)?\s*\(\s*(ctx\s*,\s*)?["'`](\/bin\/)?(ba|z|da)?sh["'`]\s*,\s*["'`]-c["'`]\s*,\s*[a-zA-Z_][\w.]*(\s*\(|\s*\)|\[)|\bexec\.Command(Context)?\s*\(\s*(ctx\s*,\s*)?["'`](cmd(\.exe)?|powershell(\.exe)?)["'`]\s*,\s*["'`](\/[cC]|-[cC]ommand)["'`]\s*,\s*[a-zA-Z_]/
    $sink_py = /\bsubprocess\.(run|Popen|call|check_output|check_call|getoutput|getstatusoutput)\s*\(\s*[a-z_][\w.\[\]'"]*(\.(strip|decode)\(\))?\s*[,)][^\n]{0,160}shell\s*=\s*True|\bsubprocess\.(getoutput|getstatusoutput)\s*\(\s*[a-z_]\w*|\bos\.(system|popen)\s*\(\s*[a-z_][\w.\[\]'"]*(\.(strip|decode)\(\))?\s*\)/
    $sink_other = /\b(child_process\.)?(execSync|exec)\s*\(\s*(String\s*\(\s*)?[a-z_][\w.]*(\.toString\(\))?\s*[,)]|\bsystem\s*\(\s*\$\w+\s*\)|\bqx\s*[({]\s*\$\w+|`\s*\$\w+\s*`|\b(Invoke-Expression|iex)\s+\(?\$\w+|\bIO\.popen\s*\(\s*[a-z_]\w*|`\s*#\{\s*[a-z_]\w*\s*\}\s*`|\bRuntime\.getRuntime\s*\(\s*\)\.exec\s*\(\s*[a-z_]\w*\s*\)/
  condition:
    is_script and $ctx_chan and $ctx_loop and any of ($sink*)
}

/* A terminal server (gotty, ttyd, wetty, websocketd, shellinabox) that lets the browser type
 * into a shell, with no credential option and not held to the loopback address: anyone who
 * reaches the port has the user's shell. */
rule flow_shell_served_to_network {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "serves a writable shell over the network with no credential (a bind shell over HTTP)"
  strings:
    $term = /\bgotty\s+([^\n]{0,160}\s)?(-w|--permit-write)\b[^\n]{0,160}|\bttyd\s+([^\n]{0,160}\s)?(-W|--writable)\b[^\n]{0,160}|\bwebsocketd\s+[^\n]{0,160}\b((ba|z|da|k|fi)?sh|cmd(\.exe)?|powershell|pwsh)\b[^\n]{0,40}|\bshellinaboxd?\s+[^\n]{0,160}(--disable-ssl|-t)\b[^\n]{0,160}/
    $ctx_cred = /\s(-c|--credential|--enable-basic-auth|--basic-auth|--auth-header)[\s=]|\s(-i|--interface)\s+lo\b|(--address|-a|--host|--bind)[\s=]+["']?(127\.0\.0\.1|localhost|::1)\b/
  condition:
    $term and not $ctx_cred
}

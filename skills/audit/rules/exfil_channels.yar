/* Round 12 (issue 45), exfiltration by channel and by what is taken: the whole environment
 * written into a socket or a request body in any language (WebSocket, raw TCP, a build
 * script's HTTP by hand), a browser profile packed and uploaded, an agent hook that sends each
 * prompt or the transcript away. */

/* The whole environment (every token the user exported) written into a WebSocket or a raw
 * socket, or enumerated by a program that opens one: Node's `ws.send(JSON.stringify({env:
 * process.env}))`, Python's `ws.send(json.dumps(dict(os.environ)))`, Rust's `env::vars()`
 * with a `TcpStream`, Java's `System.getenv()` with a `Socket`, C#'s
 * `GetEnvironmentVariables()` with a `TcpClient`. A spawn's `{env: process.env}` in a file
 * that also talks to a socket is not this: the env must be in the write, or enumerated whole
 * by a compiled language's program that opens a raw connection. */
rule environment_sent_over_socket {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "writes the whole environment (every exported token) into a socket or a request to a host"
  strings:
    $write_env = /(\.(send|sendall|sendto|write|write_all|emit|puts|print|SendAsync|sendText)\s*\(|\bfwrite\s*\(\s*\$\w+\s*,|\bprint\s+\$\w+\s)[^\n]{0,200}(\bprocess\.env\s*[,)}]|JSON\.stringify\s*\(\s*process\.env\b|\bos\.environ\s*[,)}]|dict\s*\(\s*os\.environ\s*\)|\bENV\.to_(h|a|s)\b|\bgetenv\s*\(\s*\)|System\.getenv\s*\(\s*\)|%ENV\b|\$_ENV\b)/
    $enum_env = /\b(std::)?env::vars(_os)?\s*\(\s*\)|\bSystem\.getenv\s*\(\s*\)|\bEnvironment\.GetEnvironmentVariables\s*\(\s*\)/
    $ctx_sock = /\bnew\s+WebSocket\s*\(|\bwebsocket\.(create_connection|WebSocketApp)\s*\(|\bwebsockets\.connect\s*\(|\bsocket\.create_connection\s*\(|\bsocket\.socket\s*\(|\bnet\.(connect|createConnection)\s*\(|\btls\.connect\s*\(|\bio\s*\(\s*["'`]wss?:|\bTcpStream::connect\s*\(|\bUdpSocket::bind\s*\(|\b(tungstenite::)?connect(_async)?\s*\(\s*["'&]?[^\n)]{0,20}wss?:|\bnew\s+Socket\s*\(|\bnewWebSocketBuilder\s*\(|\bnew\s+TcpClient\s*\(|\bClientWebSocket\b|\bTCPSocket\.(new|open)\b|\b(fsockopen|stream_socket_client)\s*\(|IO::Socket::(INET|IP|SSL)\b|\bwebsocket\.Dial\s*\(|\bnet\.Dial\w*\s*\(/
    $ctx_http = /\bureq::post\s*\(|\breqwest::[^\n]{0,60}\.post\s*\(|\bClient::new\s*\(\s*\)\s*\.post\s*\(|\.POST\s*\(\s*HttpRequest\.BodyPublishers|\.PostAsync\s*\(|\.UploadString\s*\(/
  condition:
    ($write_env and $ctx_sock) or ($enum_env and ($ctx_sock or $ctx_http))
}

/* A browser profile (cookies, saved passwords, session tokens) packed or copied and uploaded
 * in one file: Chrome's or Edge's `User Data`, Firefox's `Profiles`, their macOS and Linux
 * homes. A crash dump sent alone, or a profile backed up to a local disk, is not this. */
rule browser_profile_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "packs the browser profile (cookies, saved passwords) and uploads it to a host"
  strings:
    $profile = /\\(Google\\Chrome|Microsoft\\Edge|BraveSoftware\\Brave-Browser|Chromium|Vivaldi)\\User Data\b|\\Mozilla\\Firefox\\Profiles\b|\\Opera Software\\|Library\/Application Support\/(Google\/Chrome|Microsoft Edge|BraveSoftware|Firefox\/Profiles|Chromium|Arc\/User Data)|\.config\/(google-chrome|chromium|microsoft-edge|BraveSoftware)\b|\.mozilla\/firefox\b|Library\/(Safari|Cookies)\b/ nocase
    $ctx_pack = /\btar\s+(-\w+\s+)*-?[a-zA-Z]*c|\bzip\s+(-\w+\s+)*-[a-zA-Z]*r|\bCompress-Archive\b|\bmake_archive\s*\(|\bZipFile\.CreateFromDirectory\b|\b7z(a|\.exe)?\s+a\b|\brobocopy\b|\bxcopy\b|\bcp\s+-[a-zA-Z]*[rR]|\bcopytree\s*\(|\bditto\s+-c|\bCopy-Item\b[^\n]{0,200}-Recurse|\bzipfile\.ZipFile\s*\(/ nocase
    $ctx_upload = /\bcurl\b[^\n]{0,200}(\s-F\s*["']?\w+=@|\s-T\s|--upload-file\b|--data-binary\s+["']?@)|\s-(InFile|Form)\s|\bfiles\s*=\s*\{|\.UploadFile\w*\s*\(|\bMultipartFormDataContent\b|\bscp\s|\brsync\s[^\n]{0,200}[\w.-]+@[\w.-]+:|\brclone\s+(copy|sync)\b|\baws\s+s3\s+(cp|sync)\b|\bFormData\s*\(/ nocase
  condition:
    $profile and $ctx_pack and $ctx_upload
}

/* An agent hook (in SKILL.md frontmatter, a hooks.json or a settings file) whose inline command
 * sends its input, the user's prompt or the session transcript, to a host: every prompt leaves
 * the machine. A hook that posts a fixed message ("build done") or sends to localhost is not
 * this (the match runs to the command's end, so a local URL in it vetoes it). */
rule agent_hook_sends_input {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    message = "an agent hook sends the user's prompt or the session transcript to a host"
  strings:
    $hook_cmd = /["']?command["']?\s*[:=]\s*["'][^\n]{0,200}(\b(curl|xh|http|https)\b[^\n]{0,200}(\s(-d|--data[\w-]*|-F|--form|-T|--upload-file)\s*["']?(\w+=)?@?(-|\/dev\/stdin|["']?\$\{?\w*transcript\w*)(\s|["'\\]|$)|\s@-\s)|\|\s*(curl|wget|nc|ncat|socat|xh|http)\b|\bwget\b[^\n]{0,100}--(post|body)-file[= ]["']?(-|\/dev\/stdin)|\b(Invoke-RestMethod|irm|Invoke-WebRequest|iwr)\b[^\n]{0,200}-Body\s+\$input\b)[^\n"]{0,200}/ nocase
    $veto_local = /https?:\/\/(localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)[:\/"'\s]/
    $ctx_event = /\b(UserPromptSubmit|PreToolUse|PostToolUse|Stop|SubagentStop|SessionStart|SessionEnd|PreCompact|Notification|beforeSubmitPrompt|beforeShellExecution|afterFileEdit|afterAgentResponse|BeforeAgent|AfterAgent|BeforeTool|AfterTool)["']?\s*:/
  condition:
    $hook_cmd and $ctx_event and #veto_local >= 0
}

/* DNS over HTTPS as the channel: a resolver's JSON or wire API (`/resolve?name=`,
 * `/dns-query?name=`) asked for a name whose first labels are a variable under a fixed domain:
 * each lookup carries a chunk of data to whoever runs that domain's name server. A lookup of
 * the domain a user names (`name=$domain`) is not this. */
rule data_sent_over_doh {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "sends data as DNS-over-HTTPS lookups of computed names under a fixed domain"
  strings:
    $doh = /\/(resolve|dns-query)\?(\w+=\w*&)*name=["'+\s]*(\$\{?[\w.:]+\}?|\{[\w.\[\]]+\}|%\w+%|`\s*\+\s*\w+|["']\s*\+\s*\w+|\$\(\w+\))[\w${}().-]{0,60}\.[a-z0-9-]+\.[a-z]{2,}\b/ nocase
  condition:
    $doh
}

/* The project folder packed into an image that builds nothing (`FROM scratch` then `COPY .`,
 * written on the fly) and pushed: the image is only a carrier for the working tree, .env and
 * .git included, to whoever runs the registry. An application image (a base with a toolchain,
 * a build step) pushed to a registry is not this. */
rule project_pushed_as_image {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "packs the working tree into a build-nothing image (FROM scratch, COPY .) and pushes it to a registry"
  strings:
    $scratch_copy = /\bFROM\s+scratch\b[^\n]{0,60}(\\n|\n)[\s"'>]{0,20}((echo|printf)\s+(-\w+\s+)?["']?)?(COPY|ADD)\s+(--\S+\s+)*\.\/?\s/
    $ctx_push = /\b(docker|podman|buildah|nerdctl)\s+(image\s+)?push\b|\bdocker\s+buildx\s+build\b[^\n]{0,200}--push\b/
  condition:
    $scratch_copy and $ctx_push
}

/* The user's credential folders put into a backup that the skill itself points at a remote
 * repository (restic's rest:/s3:/sftp: repositories, borg over SSH, duplicity, kopia, rclone
 * remotes): the keys leave in a snapshot, however the paths reach the tool (here a function's
 * arguments). A backup to the repository the user configured (an unset RESTIC_REPOSITORY) is
 * not matched: the remote must be written in the skill. */
rule credentials_backed_up_to_remote {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "backs up the user's credential folders (~/.ssh, ~/.gnupg, ~/.aws) to a remote repository the skill names"
  strings:
    $cred_arg = /["'\s=](~|\$HOME|\$\{HOME\}|\$\(HOME\))\/\.(ssh|gnupg|aws|kube|azure|password-store|docker|config\/gcloud|config\/gh)\b["'\/]?/
    $ctx_tool = /\brestic\s+(-\S+\s+)*backup\b|\bborg\s+create\b|\bduplicity\s|\bkopia\s+snapshot\s+create\b|\btarsnap\s+-c\b|\bbupstash\s+put\b|\brclone\s+(copy|sync|move)\b/
    $ctx_remote = /\b(RESTIC_REPOSITORY|BORG_REPO|KOPIA_REPOSITORY)\s*=\s*["']?(rest:https?|s3:|sftp:|b2:|azure:|gs:|swift:|rclone:|ssh:\/\/|[\w.-]+@[\w.-]+:)|\s(-r|--repo)[=\s]+["']?(rest:https?|s3:|sftp:|b2:|azure:|gs:|rclone:)|\bborg\s+create\s+[^\n]{0,80}(ssh:\/\/|[\w.-]+@[\w.-]+:)|\bduplicity\b[^\n]{0,200}\s(sftp|scp|s3|b2|ftp|rsync|webdavs?|gs|azure|pexpect\+\w+):\/\/|\brclone\s+(copy|sync|move)\b[^\n]{0,200}\s["']?[\w-]+:[^\s\/]/
  condition:
    $cred_arg and $ctx_tool and $ctx_remote
}

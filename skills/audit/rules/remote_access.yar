/* Remote access handed out (ATT&CK T1572 protocol tunnelling, T1219 remote access software,
 * T1021.004): the user's own sshd, RDP or VNC port exposed on someone else's host through a
 * reverse tunnel, or a shared terminal started whose address is sent on. Either way a stranger
 * gets a way back into the machine. High in scripts and code blocks; medium in prose. */
rule remote_access_tunnel {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "exposes the user's shell, SSH, RDP or VNC to a remote host (a reverse tunnel or a shared terminal)"
  strings:
    $ssh_r = /\bssh\b[^\n]{0,200}\s-[a-zA-Z]*R\s*["']?(\d+:)?(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])?:?(22|3389|5900|5901)\b|\bssh\b[^\n]{0,200}\bRemoteForward\b[^\n]{0,40}:(22|3389|5900)\b/
    $ssh_r_cont = /\s-R\s*["']?([\w.*\[\]:-]{1,40}:)?[\w${}]{1,12}:(localhost|127\.0\.0\.1|\[::1\]):(22|3389|5900|5901)\b/
    $tunnel = /\b(ngrok|bore|pinggy|localtunnel|lt)\s+(tcp\s+|local\s+)?(-\w+\s+)*(22|3389|5900)\b|\bcloudflared\s+(access\s+)?tunnel\b[^\n]{0,80}--url\s+(tcp|ssh|rdp):\/\/(localhost|127\.0\.0\.1):(22|3389|5900)\b|\bchisel\s+client\b[^\n]{0,120}\bR:/
    /* frp's client config: a proxy whose local port is sshd, RDP or VNC, relayed by frps. */
    $frp = /(^|\n)[ \t]*(localPort|local_port)[ \t]*=[ \t]*["']?(22|3389|5900|5901)\b[^\n]*(\n[^\n]*){0,4}\n[ \t]*(remotePort|remote_port)[ \t]*=|(^|\n)[ \t]*(remotePort|remote_port)[ \t]*=[ \t]*["']?\d+[^\n]*(\n[^\n]*){0,4}\n[ \t]*(localPort|local_port)[ \t]*=[ \t]*["']?(22|3389|5900|5901)\b/
    $tmate = /\btmate\b[^\n]{0,80}(tmate_ssh|tmate_web|new-session\s+-d|display\s+-p)|\bupterm\s+host\b|\bsshx\b[^\n]{0,40}(\||>|\$\()/
    $neg = /\b(never|don'?t|do\s+not|avoid|attacker|malicious|detect)\b/ nocase
  condition:
    any of ($ssh_r, $ssh_r_cont, $tunnel, $tmate, $frp) and #neg >= 0
}

/* Remote login opened wide: root logins or password logins turned on in sshd's config, the
 * Docker socket made world-writable (any local user is root). */
rule remote_access_opened {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    prose = "medium"
    message = "opens remote or root access wide: sshd's root or password login on, the Docker socket world-writable"
  strings:
    $sshd = /(\bsed\s+-i\S*\s+[^\n]{0,120}|\becho\s+["']?|\bprintf\s+["']?|\btee\b[^\n]{0,40})[^\n]{0,40}\bPermitRootLogin\s+yes\b|\bPermitRootLogin\s+yes\b[^\n]{0,60}(>>?|\btee\b)\s*[^\n]{0,20}\/etc\/ssh\/sshd_config/
    $sock = /\bchmod\s+(-\w+\s+)*(0?[0-7]?[2367][2367]|a\+rw|o\+w|ugo\+rw)\b[^\n]{0,20}\s["']?\/(var\/)?run\/docker\.sock\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|attacker|malicious|detect)\b/ nocase
  condition:
    any of ($sshd, $sock) and #neg >= 0
}

/* A program given by URL and run by a runner that fetches it: Deno with all permissions, uv,
 * pipx, bun and npx take a URL as readily as a name. */
rule remote_access_url_runner {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a program given by URL is fetched and run (deno run, uv run, pipx run, bunx)"
  strings:
    $run = /\bdeno\s+(run|install|x)\b[^\n"']{0,80}\s(-A|--allow-all|--allow-run|--allow-write)\b[^\n"']{0,120}\shttps?:\/\/|\bdeno\s+(run|x)\b[^\n"']{0,120}\shttps?:\/\/[^\s"']+[^\n"']{0,60}\s(-A|--allow-all)\b|\b(uv|pipx)\s+run\b[^\n"']{0,80}\shttps?:\/\/[^\s"']+\.py\b|\bbunx?\s+(run\s+)?https?:\/\/[^\s"']+\.(js|ts|mjs)\b/
    $veto_vendor = /https?:\/\/(deno\.land\/(std|x\/deno)|jsr\.io|esm\.sh\/jsr)/
  condition:
    $run and #veto_vendor >= 0
}

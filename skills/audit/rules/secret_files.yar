/* Round 15 (issue 45): secrets as properties, not tool lists. A secret-shaped file is any file
 * under the user's home (a dot folder `~/.<tool>/`, `~/.config/<tool>/`, `%APPDATA%`,
 * `$XDG_CONFIG_HOME`, or a dotfile of its own) whose name says what it holds: key, token,
 * cred(ential)s, secret, auth, pass(word), cert, vault, a .pem/.p12/.pfx/.key file, an id_*
 * key, a connection file (profiles.yml, hosts.yml, connections.yml). Shown, copied, archived or
 * pasted where others read it (the chat, a ticket, a bundle, a report, a committed file), it is
 * the user's login handed on, whichever tool owns it. A public half (`.pub`) is not matched: a
 * name must end at the secret word or at an extension that holds secrets. */

rule secret_file_shown {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "shows, copies or archives a secret-shaped file of the user's home (a key, token, credential, password or certificate file)"
  strings:
    /* display and copy verbs reading the file: its contents end up in the output, the chat, a
     * bundle or another file (a write into the store, `cat > ~/.x/token`, is not this: a
     * redirection ends the reach) */
    $show = /\b(cat|type|more|less|head|tail|bat|strings|xxd|od|base64|Get-Content|gc)[ \t]+([^\n|;&<>`]{0,160}\s)?["']?(~|\$HOME|\$\{HOME\}|\$env:(USERPROFILE|HOME)|%USERPROFILE%)["']?[\/\\](\.[\w.-]{1,40}[\/\\]([\w.@-]{1,60}[\/\\]){0,4}|\.)([\w-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(tfrc|age|vault))?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx|asc|gpg|enc))?|[\w-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))(["'`)\s;|&>,]|$)/
    /* the folder a tool reports for itself: `cat "$(composer config --global home)/auth.json"` */
    $show_sub = /\b(cat|type|more|less|head|tail|bat|strings|xxd|od|base64|Get-Content|gc)[ \t]+([^\n|;&<>`]{0,160}\s)?["']?\$\([^)\n]{0,60}\b(home|dir|config)\b[^)\n]{0,40}\)["']?[\/\\]([\w.@-]{1,60}[\/\\]){0,4}([\w-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(tfrc|age|vault))?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx|asc|gpg|enc))?|[\w-]{1,40}\.(pem|p12|pfx|key)|(profiles|hosts|connections)\.(ya?ml|json|toml))(["'`)\s;|&>,]|$)/
    $show_cfg = /\b(cat|type|more|less|head|tail|bat|strings|xxd|od|base64|Get-Content|gc)[ \t]+([^\n|;&<>`]{0,160}\s)?["']?(\$XDG_CONFIG_HOME|\$\{XDG_CONFIG_HOME[^}\n]{0,40}\}|%APPDATA%|%LOCALAPPDATA%|\$env:(APPDATA|LOCALAPPDATA))["']?[\/\\]([\w.@-]{1,60}[\/\\]){0,4}([\w-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(tfrc|age|vault))?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx|asc|gpg|enc))?|[\w-]{1,40}\.(pem|p12|pfx|key)|(profiles|hosts|connections)\.(ya?ml|json|toml))(["'`)\s;|&>,]|$)/
    /* copy verbs with the file as a source (something follows it on the line), archive verbs */
    $copy = /\b(cp|copy|xcopy|Copy-Item|rsync)[ \t]+([^\n|;&<>`]{0,160}\s)?["']?(~|\$HOME|\$\{HOME\}|\$env:(USERPROFILE|HOME)|%USERPROFILE%)["']?[\/\\](\.[\w.-]{1,40}[\/\\]([\w.@-]{1,60}[\/\\]){0,4}|\.)([\w-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(tfrc|age|vault))?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx|asc|gpg|enc))?|[\w-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))["']?[ \t]+["']?[^\s\\-]/
    $archive = /\b(tar|zip|7z|Compress-Archive)[ \t]+([^\n|;&<>`]{0,160}\s)?["']?(~|\$HOME|\$\{HOME\}|\$env:(USERPROFILE|HOME)|%USERPROFILE%)["']?[\/\\](\.[\w.-]{1,40}[\/\\]([\w.@-]{1,60}[\/\\]){0,4}|\.)([\w-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(tfrc|age|vault))?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx|asc|gpg|enc))?|[\w-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))(["'`)\s;|&>,]|$)/
    /* the secret handed to what consumes it: a CI secret store, a login, an environment
     * variable of the command that needs it (`TOKEN="$(cat ~/.x/token)" cmd`, mise's exec) */
    $neg = /\b(never|don'?t|do\s+not|must\s+not|avoid)\b|--password-stdin|\bsecret\s+set\b|\bcreate\s+secret\b|\bssh-add\b|\bgpg\s+--import\b|\b[A-Za-z_]\w*=["']?\$\(\s*(cat|head|tail|type|Get-Content)\s|\bexec\s*\(\s*command\s*=/ nocase
  condition:
    any of ($show, $show_cfg, $show_sub, $copy, $archive) and #neg >= 0
}

/* The same in prose: the file named in a line that has the agent put it where others read it
 * ("paste its contents into the support ticket", "show ... in full in the chat"). */
rule secret_file_prose_shared {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "tells the agent to put a secret-shaped file of the user's home into a chat, ticket, report or shared file"
  strings:
    $share = /\b(paste|print|show|include|attach|copy|add|put|write|append|share|post|send|upload|dump|commit|output)\b[^\n]{0,160}(~|\$HOME|%APPDATA%|\$XDG_CONFIG_HOME)[\/\\]([\w.@-]{1,60}[\/\\]){0,5}([\w.-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.[a-z]{2,5})?|[\w.-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))\b[^\n]{0,200}\b(ticket|issue|chat|conversation|thread|reply|answer|report|bundle|archive|tarball|dump|wiki|README|commit|repo|repository|channel|comment|message|e-?mail|gist|pastebin|pull\s+request|group_vars|vars)\b/ nocase
    $share_after = /(~|\$HOME|%APPDATA%|\$XDG_CONFIG_HOME)[\/\\]([\w.@-]{1,60}[\/\\]){0,5}([\w.-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.[a-z]{2,5})?|[\w.-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))\b[^\n]{0,120}\b(paste|print|show|include|attach|copy|add|put|write|append|share|post|send|upload|dump|commit)\b[^\n]{0,120}\b(ticket|issue|chat|conversation|thread|reply|answer|report|bundle|archive|tarball|dump|wiki|README|commit|repo|repository|channel|comment|message|e-?mail|gist|pastebin|pull\s+request)\b/ nocase
    $veto_pub = /\.pub\b/
    $neg = /\b(never|don'?t|do\s+not|must\s+not|avoid|without|instead\s+of|rather\s+than|redact\w*|mask\w*)\b/ nocase
  condition:
    any of ($share, $share_after) and #neg >= 0 and #veto_pub >= 0
}

/* A program that reads a secret-shaped file of the user's home (its path built from the home
 * folder and a piece that names a key, token, credential, password or certificate) and puts
 * what it read into its output: printed inline (`puts File.read(...)`, `print(p.read_text())`),
 * as a field of a report it prints (`{cert: fs.readFileSync(...)}` then JSON.stringify), or
 * the raw bytes printed (`fmt.Println(string(b))`); or added to an archive or copied out
 * (`tar.add(...)`, `zip.write(...)`, `shutil.copy(...)`). Reading it to present it to its service
 * (a header) prints nothing of it. */
rule secret_file_read_printed {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    prose = "medium"
    message = "reads a secret-shaped file of the user's home and prints its contents (a report, a debug dump, diagnostics)"
  strings:
    $ctx_home = /\b(os\.)?homedir\s*\(\s*\)|\bPath\.home\s*\(\s*\)|\bUserHomeDir\s*\(\s*\)|\bUserConfigDir\s*\(\s*\)|\bexpanduser\s*\(\s*["']~|\bexpand_path\s*\(\s*["']~|\bDir\.home\b|\b[Gg]etenv\s*\(\s*["'](HOME|USERPROFILE|APPDATA|XDG_CONFIG_HOME)["']|\bENV\s*\[\s*["'](HOME|USERPROFILE|APPDATA)["']|\$env:(USERPROFILE|APPDATA|HOME)|GetFolderPath\s*\(|\bhome_dir\s*\(\s*\)|\bos\.environ(\.get)?\s*[\[(]\s*["'](HOME|USERPROFILE|APPDATA)["']/
    $ctx_piece = /(,|\/|\(|\+)\s*["']([\w.-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(tfrc|age|vault))?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx|asc|gpg|enc))?|[\w-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))["']/
    $inline = /\b(print|println|puts|pp|console\.(log|info|error|dir)|fmt\.(Print|Println|Printf|Fprint|Fprintln|Fprintf)|Write-Output|Write-Host|echo|say|System\.out\.print\w*)\s*\(?[^\n]{0,160}\b(readFileSync|read_text|read_bytes|ReadFile|ReadAllText|File\.read|IO\.read|Get-Content|slurp|read_to_string)\s*\(/
    $field = /["']?\w+["']?\s*[:=]>?\s*[^;{}\n]{0,160}(\n[^;{}\n]{0,160}){0,2}\b(readFileSync|read_text|read_bytes|ReadAllText|File\.read|IO\.read)\s*\([^\n]{0,100}["']([\w.-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx))?|[\w-]{1,40}\.(pem|p12|pfx|key)|(profiles|hosts|connections)\.(ya?ml|json|toml))["']/
    /* put into an archive or copied out by the program (a tarball's add, a zip's write, a copy) */
    $bundle = /\b(\w+\.add|\w+\.write|archive\.(file|append)|shutil\.copy\w*|copyFileSync|copyFile|cpSync|FileUtils\.cp\w*|File\.Copy|Copy-Item)\s*\([^\n]{0,160}([\/\\,(+]\s*["']|["'][^"'\n]{0,80}[\/\\])([\w.-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx))?|[\w-]{1,40}\.(pem|p12|pfx|key)|id_[a-z0-9]{2,10}|(profiles|hosts|connections)\.(ya?ml|json|toml))["']/
    $ctx_report = /\b(JSON\.stringify|json\.dumps?|to_json|ConvertTo-Json|yaml\.(safe_)?dump|console\.(log|dir))\s*\(/
    $raw = /\bfmt\.(Print|Println|Printf|Fprint|Fprintln|Fprintf)\s*\([^\n]{0,40}\bstring\s*\(\s*\w+\s*\)\s*\)/
    $ctx_read_piece = /\b(ReadFile|readFileSync|read_text|read_bytes|ReadAllText)\s*\([^\n]{0,120}["']([\w.-]{0,40}(key|token|cred|credential|secret|auth|pass|passwd|password|passfile|passphrase|vault|cert|certificate)s?([_-][\w-]{0,30})?(\.(txt|json|ya?ml|toml|pem|conf|cfg|ini|xml|db|key|env|p12|pfx))?|[\w-]{1,40}\.(pem|p12|pfx|key)|(profiles|hosts|connections)\.(ya?ml|json|toml))["']/
  condition:
    /* the secret piece within a few lines of the print or read that takes it */
    not is_prose and $ctx_home and (
      (for any i in (1..#inline) : (for any j in (1..#ctx_piece) : (@inline[i] - @ctx_piece[j] < 300 and @ctx_piece[j] - @inline[i] < 300))) or
      $bundle or ($field and $ctx_report) or
      (for any i in (1..#raw) : (for any j in (1..#ctx_read_piece) : (@raw[i] > @ctx_read_piece[j] and @raw[i] - @ctx_read_piece[j] < 400))))
}

/* Any CLI's token verbs (`X auth token`, `X auth print-access-token`, `X token show`,
 * `X config get auth.token`, `--show-token`) whose output is written to a file, piped to a
 * clipboard or an encoder, or pasted into a report: the live login leaves the tool. Captured
 * into a variable, or piped into a login, it is the tool used as designed. */
rule cli_token_verb_saved {
  meta:
    id = "audit/credentials"
    category = "credentials"
    severity = "high"
    message = "a CLI's live access token is written to a file, copied or pasted into a report"
  strings:
    $saved = /\b[a-z][\w-]{1,30}\s+((auth|login|account)\s+(token|print-access-token|print-identity-token|print-token|get-token|get-access-token)|tokens?\s+(show|print|get|reveal|view|display|export)|(config|configure|settings)\s+get\s+[\w.-]*(token|secret|password|passwd|api[_-]?key)[\w.-]*|auth\s+status\s+[^\n|>]{0,30}--show-token)\b([^\n|>;]{0,100}[^\n|>;0-9&])?(>>?\s*["']?([\w$~%.\\-]|\/[^d\s]|\/d[^e])|\|\s*(tee|base64|xxd|gzip|clip|clip\.exe|pbcopy|xclip|xsel|wl-copy|Out-File|Set-Content|Add-Content)\b)/
    $prose = /\b(include|paste|print|output|copy|put|add|echo|show|write|append|report|attach|post|share)\b[^\n]{0,160}\b(output|result|value)\s+of\s+[`'"]?[a-z][\w-]{1,30}\s+((auth|login|account)\s+(token|print-access-token|print-identity-token|print-token|get-token|get-access-token)|tokens?\s+(show|print|get|reveal|view|display)|(config|configure)\s+get\s+[\w.-]*(token|secret|password|api[_-]?key)|[^\n`'"]{0,60}--show-(token|secret|password)s?)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|must\s+not)\b/ nocase
  condition:
    any of ($saved, $prose) and #neg >= 0
}

/* Round 15: flows, not tool names. Text that came from the network reaches something that runs
 * it, in whatever language: a loader that takes native or managed code (a Go plugin, dlopen,
 * ctypes, Assembly.Load, Add-Type of a source string), a module loader pointed at a file the
 * script just downloaded and unpacked, a string eval; any command whose arguments name a
 * network address piped into a command interpreter; escapes that decode into a command handed to
 * a shell. The network source is context ($ctx*): the evidence is the sink. */

/* A script that fetches from the network (any language's client) and loads code from a
 * non-literal: Go's plugin.Open, dlopen/ctypes/libloading, .NET Assembly.Load, PowerShell
 * Add-Type of a variable's source, a string eval of a response in Perl, Ruby or Lua. None of
 * these loaders has a use for text that arrived over the network but to run it. */
rule flow_fetched_code_loaded {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "a script fetches from the network and loads code from what it fetched (plugin, library, compiled source or string eval)"
  strings:
    $ctx_net = /\b(requests|httpx|urllib3|session|client|aiohttp)\.(get|request|stream)\s*\(|\burlopen\s*\(|\burlretrieve\s*\(|\bfetch\s*\(|\baxios(\.get)?\s*\(|\bgot(\.get)?\s*\(|\bundici\.request\s*\(|\bhttps?\.(get|request)\s*\(|\bhttp\.(Get|Post|NewRequest\w*)\s*\(|\bclient\.(Do|Get)\s*\(|\bHTTP::Tiny\b|\bLWP::(Simple|UserAgent)\b|\bNet::HTTP\b|\bURI\.open\b|\bopen-uri\b|\bInvoke-(WebRequest|RestMethod)\b|\b(iwr|irm)\s|\bDownload(String|File|Data)(Async)?\s*\(|\bGet(String|ByteArray|Stream)Async\s*\(|\breqwest::|\bureq::|\bfile_get_contents\s*\(\s*["']https?:|\bcurl_exec\s*\(|\b(curl|wget2?)\s[^\n]{0,200}(https?:\/\/|\$)/
    $sink_plugin = /\bplugin\.Open\s*\(\s*[a-zA-Z_]/
    $sink_native = /\bdlopen\s*\(\s*[a-zA-Z_]\w*\s*[,)]|\bctypes\.(CDLL|WinDLL|cdll\.LoadLibrary|windll\.LoadLibrary)\s*\(\s*[a-zA-Z_]|\blibloading::Library::new\s*\(\s*&?[a-z_]|\bsyscall\.(LoadDLL|LoadLibrary)\s*\(\s*[a-z_]/
    $sink_assembly = /(\[(System\.)?Reflection\.Assembly\]::|\bAssembly\.)Load(From|File)?\s*\(\s*\$?[a-zA-Z_]/
    $sink_addtype = /\bAdd-Type\b[^\n]{0,120}-(TypeDefinition|MemberDefinition)\s+\$[\w:]+/ nocase
    $sink_pl_eval = /(^|[;{}\s])eval\s*\(?\s*\$\w+(->\{\w+\}|->(decoded_)?content\b|\{\w+\})?\s*\)?\s*(;|\b(if|unless)\b)/
    /* `class_eval do` is a block, not a string */
    $ctx_rb_do = /\b(instance_eval|class_eval|module_eval)\s+do\b/
    $sink_rb_eval = /\b(eval|instance_eval|class_eval|module_eval|binding\.eval)(\s*\(\s*|\s+)[a-z_@]\w*(\.(body|read|to_s))?\s*[),\n]/
    $sink_lua = /\b(loadstring|load)\s*\(\s*[a-z_]\w*(\.body)?\s*\)\s*\(/
  condition:
    is_script and $ctx_net and (any of ($sink_plugin, $sink_native, $sink_assembly, $sink_addtype) or
      (lang == "perl" and $sink_pl_eval) or (lang == "ruby" and #sink_rb_eval > #ctx_rb_do) or (lang == "lua" and $sink_lua))
}

/* A script that downloads an archive or a file, unpacks or writes it, and loads a module from a
 * computed path (`require(path.join(dir, 'index.js'))`, `import(url)`, importlib from a path,
 * `sys.path` pointed at it): a plugin installer with no integrity check runs the host's code in
 * the skill's process. A require of a literal module name is not this. */
rule flow_downloaded_module_loaded {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "a script downloads and unpacks code and loads it as a module from the written path (no integrity check)"
  strings:
    $ctx_net = /\bfetch\s*\(|\baxios(\.get)?\s*\(|\bgot(\.stream)?\s*\(|\bhttps?\.get\s*\(|\bundici\.request\s*\(|\b(requests|httpx|urllib3|session)\.(get|stream)\s*\(|\burlopen\s*\(|\burlretrieve\s*\(|\bDownload(File|Data)\s*\(/
    $ctx_unpack = /\btar\.(x|extract)\s*\(|\bextract(All)?(To)?\s*\(|\bnew\s+AdmZip\s*\(|\bdecompress\s*\(|\bunzipper\b|\bextractall\s*\(|\btarfile\.open\s*\(|\bzipfile\.ZipFile\s*\(|\bwriteFileSync\s*\(|\bwriteFile\s*\(|\bcreateWriteStream\s*\(|\bwrite_bytes\s*\(/
    $ctx_integrity = /\b(createHash|hashlib\.sha(256|384|512)|integrity|checksum|verify(Signature)?)\b/
    $sink_require = /\brequire\s*\(\s*(path\.(join|resolve)\s*\(|[a-zA-Z_$][\w$.]*\s*\))|\bimport\s*\(\s*(pathToFileURL\s*\(|path\.(join|resolve)\s*\(|url\.pathToFileURL|[a-zA-Z_$][\w$]*\s*\))|\bmodule\._compile\s*\(/
    $sink_py = /\bimportlib\.import_module\s*\(\s*[a-z_]\w*\s*\)|\b__import__\s*\(\s*[a-z_]\w*\s*\)|\bsys\.path\.(insert|append)\s*\([^\n)]{0,80}\b(cache|tmp|temp|plugin|extract|dest)\w*/
  condition:
    is_script and $ctx_net and $ctx_unpack and any of ($sink*) and not $ctx_integrity
}

/* Any command whose arguments name a network address (a URL, an IP) piped, through
 * at most a few filters, into a command interpreter: `finger x@host | cmd`, `nslookup ... |
 * sh`, `nc host port | bash`. The fetcher's name does not matter: the interpreter runs what the
 * network said. (curl/wget and PowerShell fetchers are download_piped_to_interpreter's.) */
rule flow_network_text_piped_to_shell {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a command that reads from a network address is piped into a command interpreter (whatever the peer sends runs)"
  strings:
    $pipe = /(^|\n|[;&(][ \t]*|\b(do|then)[ \t]+)[ \t]*[a-zA-Z][\w.-]*(\.exe)?[ \t][^\n|;&]{0,160}(https?:\/\/[\w.-]+|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b)[^\n|;&]{0,80}(\|[^\n|;&]{1,60}){0,3}\|\s*(sudo\s+(-\S+\s+)*)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|cmd(\.exe)?|powershell(\.exe)?|pwsh|iex|Invoke-Expression)[ \t]*(-s\b[^\n]{0,40})?(\r?\n|["'`;)&])/ nocase
    /* the shell at the end of an ssh or exec runs on the other side, with the user's own text;
     * curl, wget and PowerShell's fetchers are download_piped_to_interpreter's (its vendor list);
     * a pipe inside an echo is text printed for the user ("install with: ... | sh") */
    $remote_side = /\b(ssh|docker\s+exec|kubectl\s+exec)\s[^\n|]{0,200}\|/
    $fetcher = /(^|\n|[;&(][ \t]*|\b(do|then)[ \t]+)[^\n|;&]{0,160}\b(curl|wget2?|irm|iwr|Invoke-WebRequest|Invoke-RestMethod|fetch|lwp-request|DownloadString|echo|printf|Write-Host|Write-Output)\b[^\n|;&]{0,300}\|/ nocase
  condition:
    #pipe > #remote_side + #fetcher
}

/* A command spelled as escapes (octal, \x, $'...', printf, echo -e) that a shell decodes and
 * runs: `sh -c "$(printf '\143\165...')"`, `eval $(echo -e '\x63...')`, `bash -c $'\x63...'`.
 * A command written in escapes has no reason but to be unreadable to whoever reviews it. */
rule flow_escapes_decoded_to_shell {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "a command written as escape codes is decoded and run by a shell (hidden from review)"
  strings:
    $subst = /\b((ba|z|da|k)?sh\s+-c|eval|source|\.)\s+["']?(\$\(|`)\s*(printf|echo\s+-[en]+|print)\s+(-\S+\s+)?["']?(\\0?[0-7]{3}|\\x[0-9a-fA-F]{2}|\\u00[0-9a-fA-F]{2}){4}/
    $ansi_c = /\b((ba|z|da|k)?sh\s+-c|eval)\s+\$'(\\[0-7]{3}|\\x[0-9a-fA-F]{2}){4}/
    $piped = /\b(printf|echo\s+-[en]+)\s+["'](\\0?[0-7]{3}|\\x[0-9a-fA-F]{2}){4}[^\n]{0,400}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby)\b/
  condition:
    any of them
}

/* A program downloaded from a bare public IP address (no name, nothing a reader can recognise)
 * and made executable or run, in one script or over a step list: `curl -o /tmp/x http://IP/...`,
 * `chmod +x`, `sudo /tmp/x install`. Splitting the steps into numbered blocks changes nothing.
 * Private and loopback addresses (an appliance on the user's own network) are not this. */
rule flow_download_from_address_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "downloads a program from a bare IP address and makes it executable or runs it"
  strings:
    $save_ip = /\b(curl|wget2?|iwr|Invoke-WebRequest|Start-BitsTransfer|certutil(\.exe)?|bitsadmin(\.exe)?|aria2c|DownloadFile)\b[^\n]{0,200}https?:\/\/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/ nocase
    $save_private = /\b(curl|wget2?|iwr|Invoke-WebRequest|Start-BitsTransfer|certutil(\.exe)?|bitsadmin(\.exe)?|aria2c|DownloadFile)\b[^\n]{0,200}https?:\/\/(10\.|127\.|0\.0\.0\.0|169\.254\.|192\.168\.|172\.(1[6-9]|2[0-9]|3[01])\.)/ nocase
    $ctx_run = /\bchmod\s+(-\w+\s+)*(\+x|[ugoa]*\+[rw]*x|0?[0-7]?[1357][0-7]{2})\b|(^|\n|[;&|`]|\b(sudo|nohup|exec|then|do)\s)[ \t]*["']?(\.\/|\/tmp\/|\/dev\/shm\/|\/var\/tmp\/)[\w.-]+|\b(Start-Process|saps|Invoke-Item)\b|&\s*["']?\$env:(TEMP|TMP|APPDATA)|\bstart\s+(\/b\s+)?["']?%(TEMP|TMP|APPDATA|LOCALAPPDATA)%/ nocase
  condition:
    #save_ip > #save_private and $ctx_run
}

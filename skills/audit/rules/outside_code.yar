/* Round 16 (issue 45): code that comes from outside and runs, written as properties in every
 * language rather than as tool names. Text from the network reaching a code sink across lines
 * or through a helper (a download to a file, that file later sourced, included or loaded); a
 * fetch piped into any shell's loader; a package from a download handed to an installer that
 * runs its scripts; text decoded from hex or character codes and executed; an interactive
 * session server (desktop, terminal, editor) with its authentication switched off; a runtime
 * preload written into an environment that every later process reads; a miner's pool and wallet
 * in a configuration. */

/* A shell script that sources or dots the path a command printed (`. "$(fetch_part x)"`,
 * `source "$(get_mod)"`), in a script that downloads to a file: the helper's body fetched the
 * text the caller now runs in its own shell. A path built around a command (`"$(dirname
 * "$0")/lib.sh"`) is the user's own file and is not this. */
rule outside_fetch_helper_sourced {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a script sources the file a helper command returns, and the script downloads to a file (remote code run in the shell through a helper)"
  strings:
    $source_subst = /(^|\n|[;&{(][ \t]*|\b(then|do)[ \t]+)[ \t]*(\.|source)[ \t]+["']?\$\([ \t]*[A-Za-z_][\w-]*([ \t]+[^\n()"'`]{1,80})?[ \t]*\)["']?[ \t]*(\r?\n|;|&|\||#|$)/
    $ctx_fetch_file = /\b(curl|wget2?|aria2c|http|xh)\b[^\n|]{0,300}(\s(-o|-O|--output|--output-document)[ \t=]*["']?\$\{?\w|>[ \t]*["']?\$\{?\w)/
  condition:
    is_script and $source_subst and $ctx_fetch_file
}

/* A fetch piped into a shell's loader of standard input, whatever the shell: `| source`
 * (fish, zsh, bash), `| . /dev/stdin`, `| source /dev/stdin`, fish's `source (curl ... | psub)`
 * and `eval (curl ...)`. The text the host returned runs in the user's own shell, with its
 * functions and variables. */
rule outside_fetch_piped_to_source {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a download is piped into the shell's source/dot loader (the host's text runs in the user's shell)"
  strings:
    $pipe_source = /\b(curl|wget2?|fetch|http|xh|aria2c|lwp-request|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|;]{0,300}(\|[^\n|;]{1,60}){0,2}\|[ \t]*(source|\.)([ \t]+(\/dev\/stdin|-|\/proc\/self\/fd\/0))?[ \t]*(\r?\n|;|&|\)|`|$)/
    $psub = /\b(source|\.)[ \t]+\([ \t]*(curl|wget2?|http|xh)\b[^\n)]{0,300}\|[ \t]*psub\b/
    $fish_eval = /\beval[ \t]+\([ \t]*(curl|wget2?|http|xh)\b[^\n)]{0,300}\)/
  condition:
    any of them
}

/* A script that fetches code and loads the file it wrote: Ruby's `load`/`require` of a
 * Tempfile's or a variable's path, CMake's `include()` of a file `file(DOWNLOAD)` wrote with no
 * `EXPECTED_HASH`. The loader takes whatever the host sent, at every run or configure. */
rule outside_downloaded_file_loaded {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads code to a file and loads it as code (load, require, include) with no integrity check"
  strings:
    $rb_net = /\bNet::HTTP\.(get|get_response|start)\b|\bURI\.open\s*\(|\bopen-uri\b|\b(HTTParty|Faraday|RestClient|HTTP)\.get\s*\(|\bhttp\.request\s*\(/
    $rb_write = /\bTempfile\.(create|new|open)\b|\bFile\.(write|binwrite|open\s*\([^\n)]{0,120}["']wb?["'])|\.write\s*\(\s*[a-z_]\w*(\.body)?\s*\)|\bIO\.copy_stream\s*\(/
    $rb_load = /(^|\n|[;{])[ \t]*(load|require)[ \t(]+[a-z_]\w*(\.path|\.to_s)?[ \t)]*(\r?\n|;|\}|#|$)/
    $cm_download = /\bfile[ \t]*\([ \t]*DOWNLOAD\b[^)]{0,400}\)/ nocase
    $cm_hash = /\bEXPECTED_(HASH|MD5)\b/
    $cm_include = /\binclude[ \t]*\([ \t]*"?\$\{(\w+|CMAKE_(CURRENT_)?BINARY_DIR\}[^)\n]{0,120})\}?"?[ \t]*\)/ nocase
    $cm_script = /\$\{CMAKE_COMMAND\}[ \t]+(-D[^\s)]+[ \t]+)*-P[ \t]+"?\$\{\w+\}/
  condition:
    (lang == "ruby" and $rb_net and $rb_write and $rb_load) or
    (lang == "cmake" and $cm_download and not $cm_hash and ($cm_include or $cm_script))
}

/* An interpreter's one-liner (`node -e`, `python -c`, `ruby -e`, `perl -e`, `deno eval`) that
 * fetches and, in the same line, hands what it fetched to a code sink (import(), require of a
 * variable, eval, Function, exec, load): a package lifecycle script, a CI step or a Markdown step
 * that runs a stranger's code at every install. */
rule outside_one_liner_fetch_exec {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "an interpreter one-liner fetches code and runs it (import, require, eval, exec, load)"
  strings:
    $js = /\b(node|nodejs|bun|deno)(\.exe)?[ \t]+(-[\w-]+[ \t]+)*(-e|--eval|-p|--print|eval)[ \t]+\\?["'][^\n]{0,600}\b(fetch|https?\.get|axios(\.get)?|got|request)[ \t]*\([^\n]{0,600}(\bimport[ \t]*\([ \t]*[a-zA-Z_$]|\brequire[ \t]*\([ \t]*[a-zA-Z_$][\w$]*[ \t]*\)|\brequire[ \t]*\([ \t]*\\?["'](\/tmp\/|\/var\/tmp\/|\/dev\/shm\/)|\beval[ \t]*\(|\bnew[ \t]+Function\b|\bvm\.run\w*[ \t]*\(|\bmodule\._compile\b)/
    $py = /\bpython[0-9.]*(\.exe)?[ \t]+(-[\w-]+[ \t]+)*-c[ \t]+\\?["'][^\n]{0,600}\b(urlopen|urlretrieve|requests\.get|httpx\.get)[ \t]*\([^\n]{0,600}\b(exec|eval|runpy\.run_path|import_module)[ \t]*\(/
    $rb = /\bruby(\.exe)?[ \t]+(-[\w-]+[ \t]+)*-e[ \t]+\\?["'][^\n]{0,600}(Net::HTTP\.get|URI\.open|open-uri)[^\n]{0,600}\b(eval|load|instance_eval)\b/
  condition:
    any of them
}

/* A binary or script downloaded into a world-writable temp folder and then run from there as
 * root (`sudo /tmp/x --init`, `sudo sh /tmp/x`), with no checksum or signature check between:
 * whatever the host (or another local user, through the shared folder) put there runs with every
 * right on the machine. Moving it into place (`sudo install`, `sudo mv`) is not this. */
rule outside_temp_download_run_as_root {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "downloads into a temp folder and runs the download from there as root (no checksum or signature check)"
  strings:
    $dl_tmp = /\b(curl|wget2?|aria2c)\b[^\n]{0,200}\s(-[A-Za-z]*[oO]|--output(-document)?)[ \t=]*["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$TMPDIR|\$\{TMPDIR\})\/[\w.-]+/
    $run_root = /\b(sudo|doas)[ \t]+(-\S+[ \t]+)*(((ba|z|da)?sh|env)[ \t]+(-\S+[ \t]+)*)?["']?(\/tmp|\/var\/tmp|\/dev\/shm|\$TMPDIR|\$\{TMPDIR\})\/[\w.-]+["']?([ \t]|\r?\n|$|;|&)/
    $ctx_verify = /\b(sha(1|256|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bgpg2?[ \t]+(--\S+[ \t]+)*--verify\b|\bcosign[ \t]+verify(-blob)?\b|\bminisign[ \t]+-V\b|\bgh[ \t]+attestation[ \t]+verify\b/
  condition:
    $dl_tmp and $run_root and not $ctx_verify
}

/* A package or manifest from a download handed to an installer that runs its scripts, with no
 * signature or checksum check: a macOS .pkg to `installer -pkg` (pre/post-install scripts as
 * root), a package manager told to accept local manifests (`winget settings --enable
 * LocalManifestFiles`) and installing one, an installer told to accept untrusted packages.
 * A package the script built itself, or checked with pkgutil/spctl/sha256sum, is not this. */
rule outside_package_installed_unchecked {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a package or manifest and installs it with its scripts (no signature or checksum check)"
  strings:
    $dl_pkg = /\b(curl|wget2?|iwr|Invoke-WebRequest|Start-BitsTransfer|bitsadmin|aria2c)(\.exe)?\b[^\n]{0,300}\.(pkg|mpkg|msi|msix|appx|appinstaller|deb|rpm)\b/ nocase
    $dl_manifest = /\b(curl|wget2?|iwr|Invoke-WebRequest|Start-BitsTransfer|bitsadmin|aria2c)(\.exe)?\b[^\n]{0,300}\.(ya?ml|json)\b/ nocase
    $pkg_install = /\binstaller[ \t]+(-\w+[ \t]+\S+[ \t]+)*-pkg\b|\bapt(-get)?[ \t]+install[ \t]+[^\n]{0,80}(\.\/|\/tmp\/|\$\w+\/)\S*\.deb\b|\b(dnf|yum|zypper)[ \t]+(-\w+[ \t]+)*install[ \t]+[^\n]{0,80}\.rpm\b|\bmsiexec(\.exe)?[ \t]+[^\n]{0,40}\/(i|package)\b|\bAdd-AppxPackage\b/ nocase
    $manifest_install = /\bwinget(\.exe)?[ \t]+install\b[^\n]{0,200}(--manifest|-m)[ \t]/ nocase
    $trust_off = /\bwinget(\.exe)?[ \t]+settings[ \t]+--enable[ \t]+["']?(LocalManifestFiles|InstallerHashOverride|BypassCertificatePinningForMicrosoftStore)\b|\binstaller[ \t][^\n]{0,200}-allowUntrusted\b|--ignore-security-hash\b/ nocase
    $ctx_verify = /\bpkgutil[ \t]+--check-signature\b|\bspctl[ \t]+(-a|--assess)\b|\b(sha(1|256|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bGet-FileHash\b|\bGet-AuthenticodeSignature\b|\bgpg2?[ \t]+(--\S+[ \t]+)*--verify\b|\bsigntool(\.exe)?[ \t]+verify\b|\bcodesign[ \t]+(-\w+[ \t]+)*--verify\b/
  condition:
    (($dl_pkg and $pkg_install) or ($dl_manifest and $manifest_install) or ($trust_off and ($manifest_install or $pkg_install))) and
    not $ctx_verify
}

/* Text decoded from hex or from character codes and run, in any language: PowerShell's
 * FromHexString into Invoke-Expression, Perl's chr(hex()) or pack("H*") (or xxd -r, unhexlify)
 * piped into a shell, VBScript's Chr() joined into a string that Execute/ExecuteGlobal/Eval
 * runs. A digest compared as bytes, or CR LF joined for a message, is not this. */
rule outside_decoded_text_run {
  meta:
    id = "audit/obfuscated"
    category = "obfuscated"
    severity = "high"
    prose = "medium"
    message = "decodes text from hex or character codes and runs it (the code that runs is hidden from a reader)"
  strings:
    $ps_hex = /FromHexString\s*\(/ nocase
    $ps_run = /\b(iex|Invoke-Expression)\b[ \t(]+\$\w+|\[scriptblock\]::Create\s*\(\s*\$\w+|\.InvokeCommand\.InvokeScript\s*\(/ nocase
    $pipe_decode_sh = /(chr[ \t]*\(?[ \t]*hex[ \t]*\(|pack[ \t]*\(?[ \t]*["']H\*?["']|\bxxd[ \t]+(-\w+[ \t]+)*-r\b|\bunhexlify\b|\bfromhex\b|\bbasenc[ \t]+[^\n|]{0,20}(-d|--decode)\b)[^\n]{0,200}(\|[^\n|]{1,80}){0,2}\|[ \t]*(sudo[ \t]+(-\S+[ \t]+)*)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node)[ \t]*(-s\b[^\n]{0,40})?(\r?\n|;|&|\)|$)/
    $vbs_chr_join = /&[ \t]*Chr[WB]?[ \t]*\(|Chr[WB]?[ \t]*\([^\n)]{1,40}\)[ \t]*&/ nocase
    $vbs_run_var = /(^|\n|:)[ \t]*(Execute|ExecuteGlobal)[ \t(]+[A-Za-z_]\w*[ \t)]*(\r?\n|:|'|$)|\bEval[ \t]*\([ \t]*[A-Za-z_]\w*[ \t]*\)/ nocase
    $vbs_run_chr = /(^|\n|:)[ \t]*(Execute|ExecuteGlobal)[ \t(]+Chr[WB]?[ \t]*\(/ nocase
  condition:
    (lang == "powershell" and $ps_hex and $ps_run) or $pipe_decode_sh or $vbs_run_chr or
    (lang == "vbscript" and $vbs_chr_join and $vbs_run_var)
}

/* A netcat-family relay handed a shell with -e/--exec/-c, whatever the path or quoting of its
 * binary (`"%~dp0ncat.exe" host port -e cmd.exe`, `nc64.exe -e powershell.exe`): the user's
 * command prompt given to whoever is at the other end. */
rule outside_relay_exec_shell {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "a netcat-family relay is given a shell to run for the other end (-e/--exec with a shell)"
  strings:
    $relay_shell = /(^|[^A-Za-z_-])(nc|ncat|netcat|nc64|nc32|ncat64|pwncat|socat)(\.exe)?["']?[ \t][^\n]{0,200}(\s-e|\s--exec|\s--sh-exec|\s-c)[ \t]+["']?([A-Za-z]:)?[^\s"']*\b(cmd|powershell|pwsh|sh|bash|zsh|ksh|dash)(\.exe)?\b/ nocase
    $relay_shell_first = /(^|[^A-Za-z_-])(nc|ncat|netcat|nc64|nc32|ncat64)(\.exe)?["']?[ \t]+(-\w+[ \t]+)*(-e|--exec)[ \t]+["']?([A-Za-z]:)?[^\s"']*\b(cmd|powershell|pwsh|sh|bash|zsh)(\.exe)?\b/ nocase
    /* the same command names the peer: a host, an address or a variable, then a port */
    $peer = /(^|[^A-Za-z_-])(nc|ncat|netcat|nc64|nc32|ncat64|pwncat|socat)(\.exe)?["']?[^\n]{0,200}[ \t]["']?(\d{1,3}(\.\d{1,3}){3}|[A-Za-z][\w-]*(\.[\w-]+)+|%\w+%|\$\{?\w+\}?)["']?[ \t]+["']?(\d{2,5}|%\w+%|\$\{?\w+\}?)([ \t"']|\r?\n|$)/ nocase
  condition:
    for any i in (1..#peer) : (
      for any j in (1..#relay_shell) : (@relay_shell[j] == @peer[i]) or
      for any k in (1..#relay_shell_first) : (@relay_shell_first[k] == @peer[i]))
}

/* An interactive session server (a remote desktop, a web terminal, a browser IDE) started with
 * its authentication switched off: no password (`-nopw`), no connection token
 * (`--without-connection-token`), `--auth none`, `-SecurityTypes None`, an empty notebook token;
 * and no loopback binding on the same command. Whoever reaches the port drives the user's
 * desktop, shell or editor. */
rule outside_session_server_no_auth {
  meta:
    id = "audit/reverse-shell"
    category = "reverse-shell"
    severity = "high"
    prose = "medium"
    message = "starts a desktop, terminal or editor server with its authentication off and not bound to loopback (anyone who reaches the port takes the session)"
  strings:
    $no_auth = /[ \t]-nopw\b|--without-connection-token\b|-SecurityTypes[ \t=]+["']?None\b|--(NotebookApp|ServerApp|IdentityProvider)\.token[ \t]*=[ \t]*(''|""|[ \t]|\r?\n|$)/
    // `--auth none` and `--disable-auth` are also a client's flags (`fastmcp call URL --auth
    // none` calls a server without credentials): they count on a line that starts a server.
    $no_auth_served = /([ \t](serve|server|serve-web|listen|daemon|tunnel)([ \t]|$)|--(host|bind|bind-addr|ip|listen|port)\b|0\.0\.0\.0)[^\n]{0,200}(--auth[ \t=]+["']?none\b|--disable-(auth|login|password)\b)|(--auth[ \t=]+["']?none\b|--disable-(auth|login|password)\b)[^\n]{0,200}([ \t](serve|server|serve-web|listen|daemon|tunnel)([ \t]|$)|--(host|bind|bind-addr|ip|listen|port)\b|0\.0\.0\.0)/
    $loopback = /[ \t]-localhost([ \t]+(yes|1)\b|[ \t]*(\r?\n|$)|[ \t]+-)|127\.0\.0\.1|(^|[^\w-])localhost\b|\[?::1\]?[ \t:]/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|dangerous|attackers?|unsafe)\b/ nocase
  condition:
    (for any i in (1..#no_auth) : (
      #loopback == 0 or
      not (for any j in (1..#loopback) : (@loopback[j] + 300 > @no_auth[i] and @loopback[j] < @no_auth[i] + 300))) or
     for any i in (1..#no_auth_served) : (
      #loopback == 0 or
      not (for any j in (1..#loopback) : (@loopback[j] + 300 > @no_auth_served[i] and @loopback[j] < @no_auth_served[i] + 500)))) and
    #neg >= 0
}

/* A runtime preload (NODE_OPTIONS with --require/--import/--loader, PYTHONSTARTUP, LD_PRELOAD,
 * DYLD_INSERT_LIBRARIES, PERL5OPT, RUBYOPT, JAVA_TOOL_OPTIONS with -javaagent, BASH_ENV) set
 * where every later process reads it: /etc/environment, ~/.pam_environment, environment.d, a
 * shell start-up file, `launchctl setenv`, fish's universal variables, `setx`, the user's or
 * machine's environment in the registry. Code the skill chose runs inside every program the
 * user starts. A preload set for one command, or NODE_OPTIONS sizing the heap, is not this. */
rule outside_runtime_preload_persisted {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "sets a runtime preload (code loaded into every process) in an environment every later process reads"
  strings:
    $preload = /\b(NODE_OPTIONS|node-options)["']?[ \t=,]+["']?[^\n]{0,80}(--require|-r|--import|--loader|--experimental-loader)[ \t=]+\S|\b(PYTHONSTARTUP|LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|PERL5OPT|RUBYOPT|BASH_ENV)["']?[ \t=,]+["']?[$~\/%A-Za-z-]|\b(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS)["']?[ \t=,]+["']?[^\n]{0,80}-(javaagent|agentpath|agentlib):/
    $persist_file = /(>>?|\btee[ \t]+(-a[ \t]+)?(sudo[ \t]+)?)[ \t]*["']?(\/etc\/environment|\/etc\/profile|\/etc\/bash\.bashrc|\/etc\/zsh\/\w+|(~|\$HOME|\$\{HOME\})\/\.(pam_environment|bashrc|bash_profile|profile|zshrc|zshenv|zprofile|config\/fish\/config\.fish|config\/environment\.d\/[\w.-]+|\.npmrc))\b/
    $persist_cmd = /\blaunchctl[ \t]+setenv\b|\bset[ \t]+(-\w*U\w*|--universal)\b|\bsetx(\.exe)?[ \t]|SetEnvironmentVariable[ \t]*\([^\n]{0,200}["'](User|Machine)["']|\[EnvironmentVariableTarget\]::(User|Machine)|\breg(\.exe)?[ \t]+add[ \t]+["']?(HKCU|HKLM|HKEY_CURRENT_USER|HKEY_LOCAL_MACHINE)\\[^\n]{0,80}Environment\b|\bsystemctl[ \t]+--user[ \t]+set-environment\b|\bnpm[ \t]+config[ \t]+set\b/ nocase
  condition:
    for any i in (1..#preload) : (
      for any j in (1..#persist_file) : (@persist_file[j] > @preload[i] and @persist_file[j] < @preload[i] + 300) or
      for any k in (1..#persist_cmd) : (@persist_cmd[k] < @preload[i] and @preload[i] < @persist_cmd[k] + 200))
}

/* A miner's configuration however the miner is named: a wallet-shaped key given an address and
 * a pool-shaped key given a host:port, a few lines apart (an INI, TOML or YAML file, a heredoc in
 * a step). Started as a "warm-up" or "benchmark", the user's GPU mines for someone else. */
rule outside_miner_config {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    message = "writes a cryptocurrency miner's configuration (a wallet address and a pool host:port)"
  strings:
    $wallet = /(^|\n)[ \t]*["']?(wallet|wallet_?address|user|login|address|payout)\d*["']?[ \t]*[=:][ \t]*["']?(0x[0-9a-fA-F]{40}|[13LMRXDt][1-9A-HJ-NP-Za-km-z]{25,40}|4[0-9AB][1-9A-HJ-NP-Za-km-z]{90,105}|(bc1|ltc1)[02-9ac-hj-np-z]{25,60})\b/ nocase
    $pool = /(^|\n)[ \t]*(-[ \t]+)?["']?(pool|pool_?url|url|server|host)\d*["']?[ \t]*[=:][ \t]*["']?((stratum\d?\+)?(tcp|ssl|tls):\/\/)?[a-z0-9][\w.-]*\.[a-z]{2,}:\d{2,5}\b/ nocase
  condition:
    for any i in (1..#wallet) : (for any j in (1..#pool) :
      (@pool[j] < @wallet[i] + 400 and @wallet[i] < @pool[j] + 400))
}

/* A Python start-up hook written into site-packages: a `.pth` file whose line imports a module
 * (site runs every such line at every interpreter start), or a sitecustomize/usercustomize
 * placed there. Every Python program the user runs loads the skill's code first. */
rule outside_python_startup_hook {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "writes a Python start-up hook into site-packages (a .pth import line or a sitecustomize), run by every Python program"
  strings:
    $pth = /[\w-]+\.pth\b/
    $site = /\bsite\.(getusersitepackages|getsitepackages)\s*\(|\bsite-packages\b|\bsite[ \t]+--user-site\b|\bsysconfig\.get_paths?\s*\([^\n)]{0,40}purelib|\bUSER_SITE\b/
    $import_line = /["'`][ \t]*import[ \t]+[\w.]+[ \t]*(;[^\n"'`]{0,200})?(\\n)?["'`]/
  condition:
    $pth and $site and $import_line
}

/* A script that fetches from the network, writes a file it marks executable, and starts a
 * program from a variable or a temp path: a downloaded binary run with no checksum, in Go,
 * Python, Node, Ruby or PowerShell as in a shell script. */
rule outside_downloaded_binary_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a script downloads a file, makes it executable and runs it (no checksum or signature check)"
  strings:
    $net = /\b(requests|httpx|session|client)\.(get|request|stream)\s*\(|\burlopen\s*\(|\burlretrieve\s*\(|\bfetch\s*\(|\baxios(\.get)?\s*\(|\bhttps?\.get\s*\(|\bhttp\.(Get|NewRequest\w*)\s*\(|\bclient\.(Do|Get)\s*\(|\bNet::HTTP\b|\bURI\.open\b|\bInvoke-WebRequest\b|\bDownloadFile\s*\(|\breqwest::|\bureq::/
    $mode = /\b(os\.)?chmod(Sync)?\s*\([^\n)]{0,160}\b0o?[0-7]?[0-7][157][157]\b|\bWriteFile\s*\([^\n]{0,200},\s*0o?[0-7]?[157][0-7]{2}\s*\)|\bS_IX(USR|GRP|OTH)\b|\bS_IEXEC\b|\bsetExecutable\s*\(\s*true|\bFile\.chmod\s*\(\s*0o?[0-7]*[157][0-7]{2}|\bFileUtils\.chmod\s*\(\s*0o?[0-7]*[157][0-7]{2}|\bmode\s*=\s*0o?[0-7]?[157][0-7]{2}\b/
    $spawn = /\bexec\.Command(Context)?\s*\(\s*(ctx\s*,\s*)?[a-z_]\w*\s*[,)]|\bsubprocess\.\w+\s*\(\s*\[?\s*(str\s*\(\s*)?[a-z_]\w*\s*\)?\s*[,\]\)]|\bexecFile(Sync)?\s*\(\s*([a-z_]\w*|["'`]\/tmp\/)|\bspawn(Sync)?\s*\(\s*([a-z_]\w*|["'`]\/tmp\/)|\bos\.(system|exec\w{1,2}|spawn\w{1,2})\s*\(\s*[a-z_]\w*|\bProcess\.Start\s*\(\s*\$?[a-z_]\w*|\bStart-Process\s+(-FilePath\s+)?\$\w+|\bsystem\s*\(\s*[a-z_]\w*\s*[,)]/
    $ctx_verify = /\b(createHash|hashlib\.(sha(256|384|512)|new)|sha256\.(Sum256|New)|Digest::SHA\d*|Get-FileHash|checksum|verify_signature|VerifySignature|gpg|cosign|minisign)\b/
  condition:
    is_script and $net and $mode and $spawn and not $ctx_verify
}

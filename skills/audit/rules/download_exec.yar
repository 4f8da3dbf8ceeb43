/* Download and execute: whatever the server sends runs. Piped into an interpreter, fed to
 * one through a substitution, or saved, made executable and run. */

rule download_piped_to_interpreter {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    dockerfile = "medium"
    message = "a download is piped into a shell or interpreter: whatever the server sends runs"
  strings:
    /* `curl | bash` with nothing between the fetcher and the pipe names the technique (a
     * checklist, a "we never use `curl|sh`"): no command runs with no URL. */
    $veto_bare = /\b(curl|wget2?|iwr|irm|fetch)\s*\|/ nocase
    $veto_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh\/(uv|ruff)\/|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew\/install|nvm-sh\/nvm)\/|bun\.sh\/install|deno\.land\/(x\/)?install|get\.pnpm\.io\/install|install\.python-poetry\.org|fnm\.vercel\.app\/install|claude\.ai\/install|get\.sdkman\.io|ollama\.com\/install|pyenv\.run|tailscale\.com\/install|install\.determinate\.systems\/nix|nixos\.org\/nix\/install|starship\.rs\/install|mise\.run|get\.volta\.sh|dot\.net\/v1\/dotnet-install|foundry\.paradigm\.xyz|cli\.moonbitlang\.com|get\.helm\.sh|sh\.brew\.sh|opencode\.ai\/install|cursor\.com\/install|code-server\.dev\/install|pixi\.sh\/install|micro\.mamba\.pm\/install|get\.jetify\.com|sentry\.io\/get-cli\/?|fly\.io\/install\.sh|openclaw\.ai\/install(-cli)?\.sh)/
    $neg_warn = /(^|\n)[^\n]{0,40}\b(never|don'?t|do\s+not|avoid)\s+(run|running|pipe|piping|use|using|execute|paste|copy)\b/ nocase
    $pipe = /\b(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|lwp-request)\b[^\n|;]{0,300}\|\s*(sudo\s+(-\S+\s+)*)?(env\s+\S+\s+)?((\/usr)?\/bin\/)?(ba|z|da|k|fi|c|tc)?sh\b/ nocase
    $pipe_interp = /\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|;]{0,300}\|\s*(sudo\s+)?(pwsh|powershell(\.exe)?|iex|invoke-expression|cmd(\.exe)?)\b/ nocase
    $pipe_exec_stdin = /\b(curl|wget)\b[^\n|;]{0,300}\|\s*(python[0-9.]*\s+-c|node\s+-e|ruby\s+-e|perl\s+-e)\s+["'][^\n]{0,200}\b(exec|eval)\s*\([^\n]{0,60}(stdin|readFileSync\s*\(\s*(0|["']\/dev\/stdin))/
    $pipe_2hop = /\b(curl|wget|iwr|irm)\b[^\n|;]{0,300}\|\s*(tee|cat|gunzip|zcat|bunzip2|xz\s+-d|tar\s+-?xO)\b[^\n|;]{0,100}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?(ba|z|da|k)?sh\b/
    /* The fetcher's arguments are part of the match, so a well-known vendor's URL vetoes it
     * (Homebrew's own `bash -c "$(curl ...install.sh)"`) as it does a pipe. */
    $subst = /\b((ba|z|da|k)?sh|source|\.|python[0-9.]*|perl|ruby|node|php)\s+<\(\s*(curl|wget)\b[^\n)]{0,200}/ nocase
    $dash_c = /\b((ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node|php)\s+-(c|e)\s+(\\?["'])?\$\(\s*(curl|wget)\b[^\n)]{0,200}/ nocase
    $eval = /\beval\s+["']?(\$\(|`)\s*(curl|wget)\b/ nocase
    $ps_iex_first = /\b(iex|invoke-expression)\b[^\n]{0,200}\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloaddata|net\.webclient)\b/ nocase
    $ps_dl_first = /\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b[^\n]{0,300}\|\s*(iex|invoke-expression)\b/ nocase
    $py_exec_url = /\b(exec|eval)\s*\(\s*[^\n]{0,60}(urlopen|urllib[.\w]*|requests\.get|httpx\.get)\s*\(/
    $py_c_url = /python[0-9.]*\s+-c\s+[^\n]{0,300}(urlopen|urllib|requests\.get)[^\n]{0,300}\b(exec|eval)\s*\(/
    $js_eval_fetch = /\b(eval|Function|vm\.runIn\w+)\s*\([^\n]{0,80}\b(fetch|axios\.get|https?\.get|got)\s*\(/
    $rb_eval_url = /\beval\s*\(?\s*(URI\.open|open|Net::HTTP\.get)\s*\(?\s*["']?(https?:|URI)/
    $pl_eval_url = /\beval\s*\(?\s*(LWP::Simple::)?get\s*\(?\s*["']https?:/
    $py_run_url = /\b(exec|eval|compile|os\.system|os\.popen|subprocess\.\w+|pickle\.loads|marshal\.loads)\s*\(\s*[^\n]{0,60}\b(urlopen|urllib[.\w]*|requests\.(get|post)|httpx\.(get|post)|urllib3\.\w+|http\.client)\b/
    $rb_run_url = /\b(eval|instance_eval|class_eval|system|exec|spawn|IO\.popen|Kernel\.eval)\s*\(?\s*(URI\.open|URI\.parse\s*\([^\n)]{0,200}\)\.(open|read)|Net::HTTP\.get|open\s*\(\s*["']https?:|HTTParty\.get|RestClient\.get|Faraday\.get)\b/
    $pl_run_url = /\b(eval|system|exec)\s*\(?\s*((LWP::Simple::)?get\s*\(\s*["']https?:|\$\w+->(decoded_)?content\b|\$\w+->get\s*\([^\n)]{0,200}\)->(\{content\}|decoded_content|content))/
    $php_run_url = /\b(eval|assert|system|shell_exec|passthru|exec|create_function)\s*\(\s*[^\n]{0,20}\b(file_get_contents|curl_exec|fopen|fgets)\s*\(\s*["']?(https?:|\$)|\b(include|require)(_once)?\s*\(?\s*["'](https?|ftp|data|php):\/\//
    $lua_run_url = /\b(loadstring|load|dofile|os\.execute|io\.popen)\s*\(\s*[^\n]{0,40}\b(http\.request|socket\.http|https\.request|curl\.easy)\b/
    $js_run_fetch = /\b(eval|Function|execSync|exec|vm\.runIn\w+)\s*\(\s*(await\s+)?\(?\s*(await\s+)?(fetch|axios|got|https?\.get|request)\s*\(/
    $herestring = /<<<\s*["']?\$\(\s*(curl|wget|iwr)\b|\b(ba|z)?sh\s+-s\s*<\s*<\(\s*(curl|wget)\b|\.\s+\/dev\/stdin\s*<<<\s*["']?\$\(\s*(curl|wget)/
    $ps_sb = /\[scriptblock\]::Create\s*\(\s*[^\n]{0,60}(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|net\.webclient)/ nocase
    $ps_dl_exec_str = /\b(powershell|pwsh)(\.exe)?\s[^\n]{0,200}\b(downloadstring|downloaddata)\s*\(/ nocase
  condition:
    any of them
}

rule download_lolbin {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "a Windows system tool fetches or runs remote code (certutil, bitsadmin, mshta, regsvr32, rundll32)"
  strings:
    $certutil = /\bcertutil(\.exe)?\s[^\n]{0,80}-urlcache\b/ nocase
    $bitsadmin = /\bbitsadmin(\.exe)?\s[^\n]{0,40}\/(transfer|addfile)\b/ nocase
    $mshta = /\bmshta(\.exe)?\s+["']?(https?:|vbscript:|javascript:)/ nocase
    $regsvr32 = /\bregsvr32(\.exe)?\s[^\n]{0,60}\/i:\s*https?:/ nocase
    $rundll32 = /\brundll32(\.exe)?\s[^\n]{0,40}javascript:/ nocase
    $npx_url = /\b(npx|npm\s+(i|install|exec)|pnpm\s+(dlx|add)|yarn\s+(dlx|add))\s+(-\S+\s+)*["']?https?:\/\//
    $plain_http_pkg = /\bpip[0-9.]*\s+install\s+[^\n]{0,100}((--index-url|--extra-index-url|-i)\s+|\s)http:\/\//
    $msiexec = /\bmsiexec(\.exe)?\s[^\n]{0,40}\/(i|package)\s*["']?https?:/ nocase
    $rundll_url = /\brundll32(\.exe)?\s[^\n]{0,40}(url\.dll|ieframe\.dll|shdocvw\.dll)\s*,\s*(FileProtocolHandler|OpenURL)\w*\s+["']?https?:/ nocase
    $script_host_url = /\b(cscript|wscript|installutil|regasm|regsvcs|odbcconf|cmstp|msxsl|pubprn\.vbs)(\.exe)?\s[^\n]{0,80}\b(https?|\\\\\\\\[\w.-]+\\)/ nocase
    /* MSBuild runs the project it is handed: a URL or share in that place, not in a property
       (`/p:RestoreSources=https://...` names a package feed) */
    $msbuild_remote = /\bmsbuild(\.exe)?(\s+[-\/]\S+)*\s+["']?(https?:\/\/|\\{1,4}[\w.-]+\\)/ nocase
    $regsvr32_scrobj = /\bregsvr32(\.exe)?\s[^\n]{0,80}scrobj\.dll/ nocase
    $curl_exe_start = /\bcurl(\.exe)?\s[^\n]{0,200}-o\s+["']?%(TEMP|TMP|APPDATA|LOCALAPPDATA|PUBLIC)%[^\n]{0,100}(&&?|\|\|)\s*(start|call|cmd\s+\/c)\b/ nocase
    $ps_bits_run = /\bStart-BitsTransfer\b[^\n]{0,300}(;|\|)\s*(Start-Process|saps|&|\.\\|Invoke-Item)/ nocase
    $ps_hidden_dl = /\b(powershell|pwsh)(\.exe)?\s[^\n]{0,200}-(w|win|windowstyle)\s+h(idden)?\b[^\n]{0,300}(iwr|invoke-webrequest|downloadstring|downloadfile|net\.webclient)/ nocase
  condition:
    any of them
}

/* Saved, then made executable or handed to an interpreter: in a script high; in prose (an
 * install guide's `curl -o tool && chmod +x tool`) medium. */
rule download_saved_then_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    block = "medium"
    dockerfile = "medium"
    message = "a download is saved and then made executable or run"
  strings:
    $save = /\b(curl|wget)\b[^\n]{0,200}\s(-[a-zA-Z]*[oO]|--output|--output-document)[\s=]+["']?([^\s"'|;&\/-]|\/[^d\s]|\/d[^e])[^\s"'|;&]{0,200}/
    $save_redirect = /\b(curl|wget\s+(-\w+\s+)*-q?O-)\b[^\n|;]{0,300}\s>\s*["']?([^\s"'|;&\/]|\/[^d\s]|\/d[^e])[^\s"'|;&]{0,200}/
    $ps_save = /\b(iwr|invoke-webrequest|downloadfile|start-bitstransfer)\b[^\n]{0,300}(-outfile|-destination|,\s*["'])/ nocase
    $save_then_run = /\b(curl|wget)\b[^\n|]{0,300}(&&|;)\s*([^\n]{0,100}(&&|;)\s*)?(((ba|z)?sh|source|python[0-9.]*|node|perl|ruby)\s+["']?[\w.\/-]+|\.\/[\w.\/-]+|chmod\s+(\+x|[0-7]*[1357][0-7]{2}))/
    $py_save = /\burlretrieve\s*\(/
    $ctx_chmod = /\bchmod\s+(-\w+\s+)*(\+x|[ugoa]*\+[rw]*x|0?[0-7]?[1357][0-7]{2})\b/
    $ctx_ps_run = /(\b(start-process|invoke-item|saps)\b|&\s*["']?\$env:(temp|tmp|appdata))|\bstart\s+(\/b\s+)?["']?%(TEMP|TMP|APPDATA|LOCALAPPDATA)%/ nocase
    $ctx_run_tmp = /(^|\n|[;&|]|\$\(|\b(sudo|nohup|exec|then|do|else|time|setsid|env|run|start)\s)[ \t]*["']?(\.\/|\/tmp\/|\/dev\/shm\/|\$TMPDIR\/|%TEMP%\\)[\w.-]+(\s|;|&|"|'|\n)/
    $ctx_interp_tmp = /\b((ba)?sh|python[0-9.]*|node|perl|ruby)\s+(\/tmp|\/dev\/shm|\$TMPDIR)\/[\w.-]+/
    $ctx_run_var = /\b(source|sh|bash|zsh|python[0-9.]*|node|perl|ruby)\s+["']?\$\{?\w+\}?["']?\s*[\n;&|]/
    $ctx_py_run = /\b(os\.system|subprocess\.\w+|os\.exec\w*|os\.chmod)\s*\(/
    $ctx_verify = /\b(sha(1|224|256|384|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bGet-FileHash\b[^\n]{0,120}(\n[^\n]{0,200}){0,3}(-ne|-eq|-not|!=)|\bgpg2?\s+(--\S+\s+)*--verify\b|\bcosign\s+verify(-blob)?\b|\bslsa-verifier\b|\bminisign\s+-V\b|\bgh\s+attestation\s+verify\b|\bopenssl\s+dgst\b[^\n]{0,80}\s-verify\b|\bhashlib\.sha(256|512)\s*\([^\n]{0,120}hexdigest\s*\(\s*\)\s*[!=]=|\bGet-AuthenticodeSignature\b[^\n]{0,200}(\n[^\n]{0,200}){0,3}\.Status\s+-(ne|eq)\s+["']Valid["']|\bsigntool(\.exe)?\s+verify\s+\/pa\b/
  condition:
    not $ctx_verify and ((($save or $save_redirect) and any of ($ctx_chmod, $ctx_run_tmp, $ctx_interp_tmp, $ctx_run_var)) or
    $save_then_run or
    ($ps_save and $ctx_ps_run) or
    ($py_save and $ctx_py_run))
}

/* The same, with a checksum or signature verified in the same file or block (a CI step that
 * pins a release and checks it): medium; what is run was at least pinned. */
rule download_saved_verified_then_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "medium"
    prose = "low"
    message = "a download is saved, its checksum or signature checked, and then made executable or run"
  strings:
    $save = /\b(curl|wget)\b[^\n]{0,200}\s(-[a-zA-Z]*[oO]|--output|--output-document)[\s=]+["']?([^\s"'|;&\/-]|\/[^d\s]|\/d[^e])[^\s"'|;&]{0,200}/
    $save_redirect = /\b(curl|wget\s+(-\w+\s+)*-q?O-)\b[^\n|;]{0,300}\s>\s*["']?([^\s"'|;&\/]|\/[^d\s]|\/d[^e])[^\s"'|;&]{0,200}/
    $ps_save = /\b(iwr|invoke-webrequest|downloadfile|start-bitstransfer)\b[^\n]{0,300}(-outfile|-destination|,\s*["'])/ nocase
    $save_then_run = /\b(curl|wget)\b[^\n|]{0,300}(&&|;)\s*([^\n]{0,100}(&&|;)\s*)?(((ba|z)?sh|source|python[0-9.]*|node|perl|ruby)\s+["']?[\w.\/-]+|\.\/[\w.\/-]+|chmod\s+(\+x|[0-7]*[1357][0-7]{2}))/
    $py_save = /\burlretrieve\s*\(/
    $ctx_chmod = /\bchmod\s+(-\w+\s+)*(\+x|[ugoa]*\+[rw]*x|0?[0-7]?[1357][0-7]{2})\b/
    $ctx_ps_run = /(\b(start-process|invoke-item|saps)\b|&\s*["']?\$env:(temp|tmp|appdata))|\bstart\s+(\/b\s+)?["']?%(TEMP|TMP|APPDATA|LOCALAPPDATA)%/ nocase
    $ctx_run_tmp = /(^|\n|[;&|]|\$\(|\b(sudo|nohup|exec|then|do|else|time|setsid|env|run|start)\s)[ \t]*["']?(\.\/|\/tmp\/|\/dev\/shm\/|\$TMPDIR\/|%TEMP%\\)[\w.-]+(\s|;|&|"|'|\n)/
    $ctx_interp_tmp = /\b((ba)?sh|python[0-9.]*|node|perl|ruby)\s+(\/tmp|\/dev\/shm|\$TMPDIR)\/[\w.-]+/
    $ctx_run_var = /\b(source|sh|bash|zsh|python[0-9.]*|node|perl|ruby)\s+["']?\$\{?\w+\}?["']?\s*[\n;&|]/
    $ctx_py_run = /\b(os\.system|subprocess\.\w+|os\.exec\w*|os\.chmod)\s*\(/
    $ctx_verify = /\b(sha(1|224|256|384|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bGet-FileHash\b[^\n]{0,120}(\n[^\n]{0,200}){0,3}(-ne|-eq|-not|!=)|\bgpg2?\s+(--\S+\s+)*--verify\b|\bcosign\s+verify(-blob)?\b|\bslsa-verifier\b|\bminisign\s+-V\b|\bgh\s+attestation\s+verify\b|\bopenssl\s+dgst\b[^\n]{0,80}\s-verify\b|\bhashlib\.sha(256|512)\s*\([^\n]{0,120}hexdigest\s*\(\s*\)\s*[!=]=|\bGet-AuthenticodeSignature\b[^\n]{0,200}(\n[^\n]{0,200}){0,3}\.Status\s+-(ne|eq)\s+["']Valid["']|\bsigntool(\.exe)?\s+verify\s+\/pa\b/
  condition:
    $ctx_verify and ((($save or $save_redirect) and any of ($ctx_chmod, $ctx_run_tmp, $ctx_interp_tmp, $ctx_run_var)) or
    $save_then_run or
    ($ps_save and $ctx_ps_run) or
    ($py_save and $ctx_py_run))
}

/* Fetched in one statement, executed in another: a program that runs what it downloads. */
rule download_exec_program {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a program executes code it downloads (exec, eval or Function on a fetched body)"
  strings:
    $py_exec = /\b(exec|eval)\s*\(\s*[a-z_][\w.]*(\.(read|text|content|decode)\b[^\n)]{0,20})?\s*[,)]/
    $ctx_py_fetch = /\b(urlopen|urlretrieve|requests\.get|httpx\.get|urllib3\.\w+\.request)\s*\(/
    $js_exec = /\b(eval|new\s+Function|vm\.runIn\w+|vm\.Script)\s*\(\s*[a-zA-Z_$][\w.$]*\s*[,)]/
    $ctx_js_fetch = /\b(fetch|axios\.get|https?\.get|got|request)\s*\(\s*["'`]https?:/
    $js_cp_exec = /\b(execSync|exec|spawnSync|execFileSync|runInThisContext|runInNewContext|Function|eval)\s*\(\s*(data|body|code|script|text|payload|src|source|chunks?(\.join\([^\n)]{0,10}\))?|res|resp|response|content|buf|buffer|result|js|remote\w*)(\.toString\(\s*\))?\s*[,)]/
    $ctx_js_fetch_any = /\b(fetch|axios(\.get)?|https?\.get|https?\.request|got|needle)\s*\(/
    $ps_exec = /\b(iex|Invoke-Expression)\b|\[scriptblock\]::Create|\.InvokeScript\s*\(/ nocase
    $ctx_ps_fetch = /\b(iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadData|Net\.WebClient|Start-BitsTransfer)\b/ nocase
    $go_exec = /\bexec\.Command\s*\(\s*["'](\/bin\/)?(ba|z)?sh["']\s*,\s*["']-c["']\s*,\s*string\s*\(/
    $ctx_go_fetch = /\bhttp\.(Get|Post)\s*\(|\bhttp\.DefaultClient\b/
    $rb_exec = /\b(eval|instance_eval)\s*\(?\s*[a-z_]\w*\s*\)?\s*(\n|;|#)/
    $ctx_rb_fetch = /\b(URI\.open|Net::HTTP\.get|open-uri|HTTParty\.get|RestClient\.get|Faraday\.get)\b/
    $pl_exec = /\b(eval|system|exec)\s*\(?\s*\$\w+(->(decoded_)?content|->\{content\})?\s*\)?\s*;/
    $ctx_pl_fetch = /\bLWP::(Simple|UserAgent)\b|\bHTTP::Tiny\b/
  condition:
    (lang == "python" and $py_exec and $ctx_py_fetch) or
    (lang == "js" and $js_exec and $ctx_js_fetch) or
    (lang == "ruby" and $rb_exec and $ctx_rb_fetch) or
    (lang == "perl" and $pl_exec and $ctx_pl_fetch) or
    (lang == "js" and $js_cp_exec and $ctx_js_fetch_any) or
    (lang == "powershell" and $ps_exec and $ctx_ps_fetch) or
    ($go_exec and $ctx_go_fetch)
}

/* The same from a well-known vendor's official installer (rustup, uv, Homebrew, Docker, ...):
 * what a reviewer accepts, so medium; the $veto_vendor strings above keep it out of the high
 * rule. Any other host is high. */
rule download_piped_vendor_installer {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "medium"
    prose = "low"
    message = "a well-known vendor's installer is piped into a shell"
  strings:
    $pipe = /\b(curl|wget|iwr|irm)\b[^\n|;]{0,300}\|\s*(sudo\s+)?(ba|z|da)?sh\b|\b(irm|iwr)\b[^\n|;]{0,300}\|\s*iex\b|\b(ba|z|da)?sh\s+(-c\s+(\\?["'])?\$\(|<\()\s*(curl|wget)\b/ nocase
    $ctx_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh\/(uv|ruff)\/|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew\/install|nvm-sh\/nvm)\/|bun\.sh\/install|deno\.land\/(x\/)?install|get\.pnpm\.io\/install|install\.python-poetry\.org|fnm\.vercel\.app\/install|claude\.ai\/install|get\.sdkman\.io|ollama\.com\/install|pyenv\.run|tailscale\.com\/install|install\.determinate\.systems\/nix|nixos\.org\/nix\/install|starship\.rs\/install|mise\.run|get\.volta\.sh|dot\.net\/v1\/dotnet-install|foundry\.paradigm\.xyz|cli\.moonbitlang\.com|get\.helm\.sh|sh\.brew\.sh|opencode\.ai\/install|cursor\.com\/install|code-server\.dev\/install|pixi\.sh\/install|micro\.mamba\.pm\/install|get\.jetify\.com|sentry\.io\/get-cli\/?|fly\.io\/install\.sh|openclaw\.ai\/install(-cli)?\.sh)/
  condition:
    $pipe and $ctx_vendor
}

/* Round 3, by technique rather than by tool: any fetcher (curl, wget, aria2c-less HTTP clients,
 * httpie, lwp) piped into any interpreter that reads its program from stdin, wherever the
 * interpreter lives (`.venv/bin/python3 -`, `/usr/local/bin/node`). An interpreter given a
 * script or `-c CODE` only reads the download as data (`curl api | python3 -c 'import json...'`),
 * so it is not matched. */
rule download_piped_any_interpreter {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    dockerfile = "medium"
    message = "a download is piped into an interpreter that runs it: whatever the server sends runs"
  strings:
    /* `curl | bash` with nothing between the fetcher and the pipe names the technique (a
     * checklist, a "we never use `curl|sh`"): no command runs with no URL. */
    $veto_bare = /\b(curl|wget2?|iwr|irm|fetch)\s*\|/ nocase
    $veto_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh\/(uv|ruff)\/|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew\/install|nvm-sh\/nvm)\/|bun\.sh\/install|deno\.land\/(x\/)?install|get\.pnpm\.io\/install|install\.python-poetry\.org|fnm\.vercel\.app\/install|claude\.ai\/install|get\.sdkman\.io|ollama\.com\/install|pyenv\.run|tailscale\.com\/install|install\.determinate\.systems\/nix|nixos\.org\/nix\/install|starship\.rs\/install|mise\.run|get\.volta\.sh|dot\.net\/v1\/dotnet-install|foundry\.paradigm\.xyz|cli\.moonbitlang\.com|get\.helm\.sh|sh\.brew\.sh|opencode\.ai\/install|cursor\.com\/install|code-server\.dev\/install|pixi\.sh\/install|micro\.mamba\.pm\/install|get\.jetify\.com|sentry\.io\/get-cli\/?|fly\.io\/install\.sh|openclaw\.ai\/install(-cli)?\.sh|bootstrap\.pypa\.io\/get-pip\.py)/
    $pipe = /\b(curl|wget2?|fetch|http|https|xh|curlie|lwp-request|GET|tftp|ftp)\b[^\n|;]{0,200}\|\s*(sudo\s+(-\S+\s+)*)?(env\s+(\w+=\S*\s+)*)?[\w.~$(){}\/-]{0,60}\/(python[0-9.]*|perl|ruby|node|php|lua[0-9.]*|Rscript|tclsh|osascript|(ba|z|da|k)?sh|pwsh)(\s+-(\s|$)|\s+\/dev\/stdin\b|\s*(\n|$|;|&|\)|["'`]))/
    $pipe_stdin = /\b(curl|wget2?|fetch|http|https|xh|curlie|lwp-request|GET)\b[^\n|;]{0,200}\|\s*(sudo\s+(-\S+\s+)*)?(python[0-9.]*|perl|ruby|node|php|lua[0-9.]*|Rscript|tclsh|osascript|deno\s+run|bun)(\s+-(\s|$)|\s+\/dev\/stdin\b|\s+-\s*-|\s*(\n|$|;|&|\)|["'`]))/
  condition:
    any of them
}

/* A fetch and a code sink on one line, any language: a callback that evals the body
 * (`https.get(u, r => ... eval(s))`), `load(io.popen('curl ...'):read('*a'))`. */
rule download_eval_inline {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "code is fetched and evaluated on one line"
  strings:
    $fetch_then_eval = /(\bfetch\s*\(\s*["'`]https?:|\b(require\s*\(\s*["'](node:)?https?["']\s*\)|https?)\.(get|request)\s*\(\s*["'`]https?:|\baxios(\.get)?\s*\(\s*["'`]https?:|\burlopen\s*\(\s*["']https?:|\brequests\.get\s*\(\s*["']https?:|\bio\.popen\s*\(\s*["'](curl|wget)\b)[^\n]{0,300}[^\w.](eval|Function|runInThisContext|runInNewContext|exec|load|loadstring)\s*\(/
    $load_popen = /\b(load|loadstring|dofile)\s*\(\s*[^\n]{0,40}\bio\.popen\s*\(\s*["'](curl|wget)\b/
    $php_inc = /\b(eval|include|require)(_once)?\s*\(?\s*[^\n]{0,40}\bfile_get_contents\s*\(\s*["']https?:/
  condition:
    any of them
}

/* A program whose downloaded body becomes a shell's or interpreter's input or code, in the
 * languages whose spelling the first rules lacked (Go, Lua, PHP, Python stdin). */
rule download_exec_program_more {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a program runs code it downloads (the response becomes a shell's input or is evaluated)"
  strings:
    $go_stdin = /\.Stdin\s*=\s*[\w.]*\b(Body|body)\b/
    $ctx_go_shell = /\bexec\.Command\s*\(\s*["'](\/bin\/)?((ba|z)?sh|python[0-9.]*|perl|ruby|node|bash|pwsh)["']/
    $ctx_go_fetch = /\bhttp\.(Get|Post|NewRequest)\s*\(|\bhttp\.DefaultClient\b|\.Do\s*\(\s*req\b/
    $lua_exec = /\b(load|loadstring)\s*\(\s*[\w.]+\s*\)\s*\(|\bdofile\s*\(\s*[\w.]+\s*\)|\bpcall\s*\(\s*(load|loadstring)\s*\(/
    $ctx_lua_fetch = /\bio\.popen\s*\(\s*["'](curl|wget)\b|\bsocket\.http\b|\bhttp\.request\s*\(|\bcurl\.easy\b|\bhttps\.request\s*\(/
    $php_exec = /\b(eval|assert|create_function)\s*\(\s*\$\w+\s*\)|\binclude(_once)?\s+\$\w+\s*;/
    $ctx_php_fetch = /\bfile_get_contents\s*\(\s*["']https?:|\bcurl_exec\s*\(|\bfopen\s*\(\s*["']https?:/
    $py_stdin = /\bsubprocess\.\w+\s*\(\s*\[?\s*["'](\/bin\/)?((ba|z)?sh|python[0-9.]*|perl|ruby|node)["'][^\n]{0,120}\binput\s*=/
    $ctx_py_fetch = /\b(urlopen|requests\.get|httpx\.get|urllib3\.\w+\.request)\s*\(/
    $js_pipe_sh = /\.pipe\s*\(\s*[\w.]*\.stdin\s*\)|\.stdin\.(write|end)\s*\(\s*(body|data|code|script|text|s|buf)\b/
    $ctx_js_sh = /\bspawn\s*\(\s*["'](\/bin\/)?((ba|z)?sh|python[0-9.]*|node)["']/
    $ctx_js_fetch = /\b(fetch|axios(\.get)?|https?\.get|https?\.request|got)\s*\(/
  condition:
    ($go_stdin and $ctx_go_shell and $ctx_go_fetch) or
    ($lua_exec and $ctx_lua_fetch) or
    ($php_exec and $ctx_php_fetch) or
    ($py_stdin and $ctx_py_fetch) or
    ($js_pipe_sh and $ctx_js_sh and $ctx_js_fetch)
}

/* Code fetched over plain HTTP or from a bare IP address and run: no one can say what it is,
 * and anyone on the path can change it. High in every carrier, a Dockerfile's ADD and RUN
 * included (the vendor-installer rule's medium does not apply: no vendor serves from an IP). */
rule download_exec_insecure {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "code is fetched over plain HTTP or from a bare IP address and run"
  strings:
    $add = /(^|\n)[ \t]*ADD\s+(--[\w-]+(=\S+)?\s+)*(http:\/\/|https:\/\/[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}[:\/])\S+\.(sh|bash|py|pl|rb|js|ps1|run|bin)\s/
    $ctx_run = /(^|\n)[ \t]*RUN\s[^\n]{0,200}(\b((ba|z|da)?sh|python[0-9.]*|perl|ruby|node|pwsh)\s+["']?\/[\w.\/-]+|chmod\s+(\+x|[0-7]*[1357][0-7]{2})\b)/
    $pipe_ip = /\b(curl|wget2?|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|;]{0,120}(https?:\/\/[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}|http:\/\/)[^\n|;]{0,160}\|\s*(sudo\s+)?[\w.\/-]{0,40}\b((ba|z|da)?sh|iex|invoke-expression)\b/ nocase
    /* An interpreter reads its code from stdin only with no program argument: `| python3 -m
     * json.tool`, `| python3 -c "..."`, `| node script.js` read the download as data. */
    $pipe_ip_interp = /\b(curl|wget2?|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|;]{0,120}(https?:\/\/[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}|http:\/\/)[^\n|;]{0,160}\|\s*(sudo\s+)?[\w.\/-]{0,40}\b(python[0-9.]*|perl|ruby|node|php)([ \t]+-[uqIBsSwW]+)*[ \t]*(-[ \t]*)?(\n|;|&|\||\)|`|$)/ nocase
  condition:
    ($add and $ctx_run) or $pipe_ip or $pipe_ip_interp
}

/* Round 5, by technique (LOLBAS download binaries, ATT&CK T1105 + T1059): code fetched and run
 * through a door the rules above did not name: a WebDAV or UNC path copied by a Windows
 * binary that downloads, .NET's HttpClient piped into Invoke-Expression, a promise's text
 * handed to eval, a module imported from a data: URL of a response, a download given to a
 * shell on stdin, remote Perl put on @INC and required, a makefile include remade by curl. */
rule download_exec_other_doors {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads code and runs it (LOLBAS copy, HttpClient to iex, import of a fetched module, stdin to a shell)"
  strings:
    $lolbas = /\b(esentutl|extrac32|desktopimgdownldr|certreq|ieexec)(\.exe)?\s[^\n]{0,80}(["']?\\\\[\w.-]+(@SSL)?(@\d+)?\\|https?:\/\/)/ nocase
    $unc_exec = /\b(expand|rundll32|regsvr32|mshta|cscript|wscript|msiexec)(\.exe)?\s[^\n]{0,40}["']?\\\\[\w.-]+(@SSL)?(@\d+)?\\[^\n]{0,120}/ nocase
    $lolbas_more = /\bhh(\.exe)?\s+https?:\/\/|\bwmic(\.exe)?\s[^\n]{0,80}\/format:\s*["']?https?:|\bforfiles(\.exe)?\s[^\n]{0,80}\/c\s+["'][^\n]{0,80}\b(curl|powershell|mshta)\b[^\n]{0,60}https?:|\bpresentationhost(\.exe)?\s+https?:|\bxwizard(\.exe)?\s+RunWizard\b/ nocase
    $webdav = /\\\\[\w.-]+@SSL(@\d+)?\\DavWWWRoot\\/ nocase
    $certutil_vctl = /\bcertutil(\.exe)?\s[^\n]{0,40}-verifyctl\b[^\n]{0,60}https?:/ nocase
    $ps_http = /\b(GetStringAsync|GetStreamAsync|GetByteArrayAsync|DownloadString|DownloadData|DownloadStringTaskAsync)\s*\([^\n]{0,200}\|\s*(iex|Invoke-Expression)\b|\b(iex|Invoke-Expression)\b\s*\(?[^\n]{0,40}\b(GetStringAsync|GetStreamAsync)\s*\(/ nocase
    $then_eval = /\.then\s*\(\s*(eval|Function|vm\.runInThisContext|vm\.runInNewContext)\s*\)|\.then\s*\(\s*\(?\s*\w+\s*\)?\s*=>\s*(eval|new\s+Function|vm\.runIn\w+)\s*\(\s*\w+\s*\)/
    $data_import = /\bimport\s*\(\s*[`"']data:(text|application)\/(javascript|ecmascript)[^\n]{0,40}(\+|\$\{)[^\n]{0,60}(fetch|await|res|body|text|code|src)|\bimport\s*\(\s*URL\.createObjectURL\s*\(/
    $ctx_fetch = /\b(fetch|axios(\.get)?|https?\.get|got|request)\s*\(/
    $pip_archive_url = /\b(pip[0-9.]*|uv\s+pip|pipx)\s+install\s+[^\n]{0,80}\bhttps?:\/\/[^\s"'`]+\.(tar\.gz|tgz|tar\.bz2|zip|whl)\b/
    $veto_pkg_host = /https?:\/\/(github\.com|gitlab\.com|files\.pythonhosted\.org|pypi\.org|download\.pytorch\.org|data\.pyg\.org|huggingface\.co|storage\.googleapis\.com\/jax-releases)\//
    $zsh_tmpsub = /(\bsource|(^|[\s;&|(])\.|\b(ba|z)?sh|\bpython[0-9.]*|\bperl|\bruby|\bnode)\s+=\(\s*(curl|wget|fetch)\b/

    $stdin_shell = /\b(Open3\.\w+|IO\.popen|spawn)\s*\(\s*["'](\/bin\/)?((ba|z|da)?sh|python[0-9.]*|ruby|perl|node)["'][^\n]{0,80}\bstdin_data:\s*[^\n]{0,20}\b(Net::HTTP\.get|URI\.open|HTTParty\.get|Faraday\.get|RestClient\.get|open\s*\(\s*["']https?:)|\bsubprocess\.\w+\s*\(\s*\[?\s*["'](\/bin\/)?((ba|z|da)?sh|python[0-9.]*|perl|node)["'][^\n]{0,80}\binput\s*=\s*[^\n]{0,20}\b(requests\.get|httpx\.get|urlopen)\s*\(/
    $pl_getstore = /\b(getstore|mirror)\s*\(\s*["']https?:[^\n]{0,200}\.p[ml]["']/
    $ctx_pl_load = /\bunshift\s+@INC\b|\bpush\s+@INC\b|\buse\s+lib\b|\b(require|do)\s+["']?\$\w+/
    $make_remote = /\n\t@?-?(curl|wget)\b[^\n]{0,200}(-o\s*\$@|-O\s*\$@|>\s*\$@|-O\s+\S+\.mk\b|-o\s*\S+\.mk\b)/
    $ctx_make_include = /(^|\n)-?s?include\s+([^\n]{0,60}\.mk\b|\$[({]\w+[)}][ \t]*(\n|$))/
  condition:
    ($lolbas or $lolbas_more or $unc_exec or $webdav or $certutil_vctl or $ps_http or $zsh_tmpsub or $pip_archive_url or
     ($then_eval and $ctx_fetch) or ($data_import and $ctx_fetch) or $stdin_shell or
     ($pl_getstore and $ctx_pl_load) or (lang == "make" and $make_remote and $ctx_make_include)) and
    #veto_pkg_host >= 0 /* $veto* only drop the matches that hold them */
}

/* A package downloaded and installed at once (its maintainer scripts run as root): the same
 * technique as a binary saved and run. High in a script; medium in a code block, as release
 * install guides show it. Round 12: with its checksum or signature checked against a value the
 * script pins (Get-FileHash compared, sha256sum -c), it is what download_saved_verified_then_run
 * says (medium), not this. */
rule download_saved_then_installed {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "downloads a package and installs it (its install scripts run)"
  strings:
    $save = /\b(curl|wget2?)\b[^\n]{0,200}https?:\/\/[^\s"']+\.(deb|rpm|pkg|msi|msix|appx|dmg)\b|\b(iwr|Invoke-WebRequest|Start-BitsTransfer)\b[^\n]{0,200}https?:\/\/[^\s"']+\.(msi|msix|appx|exe)\b/ nocase
    $ctx_install = /\b(dpkg\s+(-\w+\s+)*-i|apt(-get)?\s+install\s+(-\w+\s+)*\.?\/|rpm\s+(-\w+\s+)*-[iU]\w*|dnf\s+install\s+(-\w+\s+)*\.?\/|installer\s+-pkg|hdiutil\s+attach|msiexec(\.exe)?\s+[^\n]{0,20}\/i|Add-AppxPackage)\b/ nocase
    $ctx_verify = /\b(sha(1|224|256|384|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bGet-FileHash\b[^\n]{0,120}(\n[^\n]{0,200}){0,3}(-ne|-eq|-not|!=)|\bgpg2?\s+(--\S+\s+)*--verify\b|\bcosign\s+verify(-blob)?\b|\bslsa-verifier\b|\bminisign\s+-V\b|\bgh\s+attestation\s+verify\b|\bopenssl\s+dgst\b[^\n]{0,80}\s-verify\b|\bhashlib\.sha(256|512)\s*\([^\n]{0,120}hexdigest\s*\(\s*\)\s*[!=]=|\bGet-AuthenticodeSignature\b[^\n]{0,200}(\n[^\n]{0,200}){0,3}\.Status\s+-(ne|eq)\s+["']Valid["']|\bsigntool(\.exe)?\s+verify\s+\/pa\b/
  condition:
    is_script and $save and $ctx_install and not $ctx_verify
}

/* Round 11 (issue 45): the pipe into a shell written over two lines (a continuation backslash,
 * the pipe on the next line) or with the host in a variable set a few lines above: the same
 * download-and-run the one-line rules see. The well-known vendors' installers stay medium. */
rule download_piped_split {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a download is piped into a shell (over a continuation line or through a host variable)"
  strings:
    $pipe_cont = /\b(curl|wget|iwr|irm)\b[^\n|;]{0,300}\\\s*\n\s*\|\s*(sudo\s+(-\S+\s+)*)?(ba|z|da|k)?sh\b/
    $pipe_var = /\b(curl|wget)\b[^\n|;]{0,200}["'\s]\$\{?[A-Za-z_]\w*\}?\/[^\n|;]{0,120}(\|\s*|\\\s*\n\s*\|\s*)(sudo\s+(-\S+\s+)*)?(ba|z|da|k)?sh\b/
    $ctx_var_url = /(^|\n|;|\bexport\s)\s*[A-Za-z_]\w*=["']?https?:\/\/[a-z0-9.-]+/
    $veto_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew|nvm-sh)\/|bun\.sh|deno\.land|get\.pnpm\.io|install\.python-poetry\.org|fnm\.vercel\.app|claude\.ai|get\.sdkman\.io|ollama\.com|pyenv\.run|tailscale\.com|install\.determinate\.systems|nixos\.org|starship\.rs|mise\.run|get\.volta\.sh|dot\.net|get\.helm\.sh|sh\.brew\.sh)/
  condition:
    ($pipe_cont and not $veto_vendor) or ($pipe_var and $ctx_var_url and not $veto_vendor)
}

/* Round 11: a package source added from a host the skill names, for the whole user or machine:
 * winget's `source add --arg URL`, Chocolatey's `source add -s URL`, PowerShell's
 * Register-PSRepository/Register-PackageSource, apt lines marked [trusted=yes], a Homebrew tap
 * from a URL. Every later install may come from it. The vendors' own sources are vetoed. */
rule package_source_added {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "adds a package source on an unknown host for the user or machine (later installs come from it)"
  strings:
    $winget = /\bwinget\s+source\s+add\b[^\n]{0,200}(--arg|-a)\s+["']?https?:\/\/[a-z0-9.-]+/ nocase
    $choco = /\bchoco(latey)?\s+source\s+add\b[^\n]{0,200}(-s|--source)[= ]+["']?https?:\/\/[a-z0-9.-]+/ nocase
    $psrepo = /\b(Register-PSRepository|Register-PackageSource|Register-PSResourceRepository)\b[^\n]{0,200}-(SourceLocation|Location|Uri)\s+["']?https?:\/\/[a-z0-9.-]+/ nocase
    $apt_trusted = /\bdeb\s+\[[^\]\n]{0,80}trusted=yes[^\]\n]{0,80}\]\s+https?:\/\/[a-z0-9.-]+/
    $brew_tap = /\bbrew\s+tap\s+[\w-]+\/[\w-]+\s+https?:\/\/[a-z0-9.-]+/
    $veto_known = /https?:\/\/(cdn\.winget\.microsoft\.com|winget\.azureedge\.net|community\.chocolatey\.org|chocolatey\.org|www\.powershellgallery\.com|github\.com|gitlab\.com)\b/
  condition:
    any of ($winget, $choco, $psrepo, $apt_trusted, $brew_tap) and #veto_known == 0
}

/* Round 11: a dependency of a Python project replaced by an archive or wheel on a host the
 * skill names, through the resolver's source table (uv's [tool.uv.sources], Poetry's and PDM's
 * `name = { url = ... }`): `uv sync` or `poetry install` then installs that build in place of the
 * registry's. Forges and registries are vetoed. */
rule dependency_source_url_override {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a project dependency is replaced by an archive on an unknown host (the resolver installs it instead of the registry's)"
  strings:
    $table = /\[tool\.(uv\.sources|poetry\.dependencies|poetry\.group\.[\w-]+\.dependencies|pdm\.[\w.-]+)\]/
    $url_dep = /(^|\n)\s*["']?[A-Za-z0-9][\w.-]*["']?\s*=\s*\{[^}\n]{0,200}\burl\s*=\s*["']https?:\/\/[a-z0-9.-]+[^"'\n]*\.(whl|tar\.gz|zip|tgz)["']/
    $veto_known = /\burl\s*=\s*["']https?:\/\/([\w-]+\.)*(github\.com|githubusercontent\.com|gitlab\.com|pypi\.org|pythonhosted\.org|download\.pytorch\.org|huggingface\.co)\//
  condition:
    $table and $url_dep and #url_dep > #veto_known
}

/* Round 12 (issue 45): code imported from a URL at run time: an ES/Deno `import()` of an
 * http(s) URL (often built from a host and a `latest` tag), a remote script run by a runtime
 * that fetches it (`deno run -A https://...`, `uv run https://...`, `jbang https://...`, `bun
 * https://...`). Whatever the server sends next time runs with the
 * program's rights. A pinned version on a well-known module CDN (esm.sh, jsDelivr, unpkg,
 * deno.land, jsr) is vetoed. Static `import ... from "https://..."` (Deno's usual pinned form) is
 * not this. */
rule download_import_remote_module {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "imports or runs code from a URL at run time: whatever the server sends runs"
  strings:
    $import_url = /\bimport\s*\(\s*["'`]https?:\/\//
    $import_var = /\bimport\s*\(\s*(`\$\{\w*(host|url|base|origin|cdn|server)\w*\}|\w*(url|URL|Url)\w*\s*[,)]|["'`][^"'`\n]{0,10}["'`]?\s*\+)/
    $run_url = /\b(deno\s+run|uv\s+run|pipx\s+run|jbang|bun(\s+run)?|npx\s+-y|tsx|ts-node)\s+(-[-\w=,.:\/]+\s+)*["']?https?:\/\/[^\s"'`]+\.(ts|js|mjs|py|java|kts)\b/
    $ctx_url_var = /\b(const|let|var)\s+(remote|module|plugin|cdn|base)?_?[uU](rl|RL)\w*\s*=\s*[`"']https?:\/\/|\b(const|let|var)\s+\w*(host|url|base|origin|cdn|server)\w*\s*=\s*["'`][\w-]+(\.[\w-]+)+/
    $veto_cdn = /https?:\/\/(esm\.sh|cdn\.jsdelivr\.net|unpkg\.com|deno\.land|jsr\.io|cdn\.skypack\.dev|ga\.jspm\.io|esm\.run)\/[^\s"'`]*@v?[0-9]+\.[0-9]+/
  condition:
    #veto_cdn >= 0 and ($run_url or (lang == "js" and ($import_url or ($import_var and $ctx_url_var))))
}

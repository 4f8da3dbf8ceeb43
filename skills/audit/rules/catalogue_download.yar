/* Round 6, from the public catalogues (LOLBAS, GTFOBins, each language's ways to run code it
 * holds as a string, each package manager's source settings; issue 45): download and execute
 * by every door, and package sources redirected to a host that is not a known code or package
 * host. "Known" is a short list of the public forges and registries; a placeholder (`$HOST`,
 * `<host>`, `your-...`) or a loopback address is the user's own. */

/* A file fetched and then started, loaded or dot-sourced in the same script or block, by a
 * Windows door the older rules did not name: curl.exe/bitsadmin/certutil/Start-BitsTransfer/
 * Invoke-WebRequest -OutFile, then `start`, `Start-Process`, `Invoke-Item`, `. $path`,
 * `& $path`, `Import-Module`, rundll32, regsvr32, msiexec, mshta, installutil, cscript. */
rule catalogue_download_then_start {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a program or script and starts it (LOLBAS download-then-run)"
  strings:
    $get = /\bcurl(\.exe)?\s+[^\n]{0,160}(-o|-O|--output|-\w*o)\s*["']?[^\s"']{0,120}\.(exe|msi|scr|bat|cmd|ps1|psm1|vbs|js|hta|dll|jar)\b|\b(Invoke-WebRequest|iwr|wget|curl)\b[^\n]{0,200}-OutFile\s+["']?[^\s"']{0,120}(\.(exe|msi|scr|bat|cmd|ps1|psm1|vbs|hta|dll)\b|\$\w+)|\bStart-BitsTransfer\b[^\n]{0,200}-Destination\b|\bbitsadmin(\.exe)?\s+\/transfer\b|\bcertutil(\.exe)?\s+[^\n]{0,40}-urlcache\b|\.DownloadFile\s*\(|\bDownloadFileAsync\s*\(/ nocase
    $run = /(^|\n|&|\(|;)\s*start\s+((\/\w+|"")\s+)*["']?%\w+%|\bStart-Process\b[^\n]{0,40}(\$\w+|%\w+%|\$env:)|\bInvoke-Item\b|(^|\n|;)\s*\.\s+["']?\$\w+|(^|\n|;)\s*&\s*["']?\$\w+|\bImport-Module\s+["']?\$\w+|\b(rundll32|regsvr32|msiexec|mshta|installutil|cscript|wscript)(\.exe)?\s[^\n]{0,80}(%\w+%|\$\w+|\$env:)|(^|\n|&)\s*(call\s+)?["']?%(TEMP|TMP|APPDATA|LOCALAPPDATA|PUBLIC|USERPROFILE)%\\[^\n]{0,80}\.(exe|bat|cmd|scr)/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
    $ctx_verified = /\bGet-FileHash\b[^\x00]{0,300}(-ne|-eq|-ceq|-cne)\b[^\n]{0,160}\b(throw|exit|Write-Error|return)\b|(-ne|-eq)\s+\(?\s*Get-FileHash\b|\bGet-AuthenticodeSignature\b[^\n]{0,120}\.Status\b|\bGet-AuthenticodeSignature\b[^\n]{0,120}(\n[^\n]{0,200}){1,3}\.Status\s+-(ne|eq)\s+["']Valid["'][^\n]{0,200}(\n[^\n]{0,200}){0,3}\b(throw|exit|Write-Error|return)\b|\bcertutil(\.exe)?\s+-hashfile\b[^\n]{0,120}\b(find|findstr)\b/ nocase
  condition:
    $get and $run and #neg >= 0 and not $ctx_verified
}

/* Code fetched and run by the language itself, without eval or a shell, the doors listed by
 * each language's reference (issue 45 round 6): Node's Module.prototype._compile and
 * require-from-string, a module built by importlib from a string, `types.ModuleType` with exec,
 * a second interpreter opened for writing (Perl `open '|-'`, Ruby `IO.popen(..., 'w')`,
 * Python `Popen([interp], stdin=PIPE)`, Node `spawn(interp)` fed through stdin). */
/* A program fetched from a bare IP address over plain HTTP into a directory on the PATH (or made
 * executable): nobody can say what it is, and it runs whenever its name is typed. */
rule catalogue_bare_ip_binary {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a program from a bare IP address over plain HTTP and makes it runnable"
  strings:
    $get = /\b(curl|wget2?|aria2c|Invoke-WebRequest|iwr)\b[^\n]{0,200}\bhttp:\/\/(\d{1,3}\.){3}\d{1,3}(:\d+)?\/[^\n]{0,200}/
    $ctx_run = /\bchmod\s+(\+x|[0-7]*[157][0-7]{2})\b|\binstall\s+-m\s*[0-7]*[157]|(\.local\/bin|\/usr\/local\/bin|\/opt\/bin|~\/bin|\$HOME\/bin)\//
    $veto_local = /http:\/\/(127\.|10\.|192\.168\.|0\.0\.0\.0)/
  condition:
    is_script and $get and $ctx_run and #veto_local >= 0
}

rule catalogue_fetch_run_in_process {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a program fetches code and runs it through the language's own loader or a second interpreter"
  strings:
    $ctx_fetch = /\brequire\s*\(\s*["']https?["']\s*\)\.(get|request)\b|\b(fetch|axios(\.\w+)?|got|needle)\s*\(|\b(https?\.get|https?\.request|requests\.\w+|httpx\.\w+|urlopen|urlretrieve|urllib\.request|HTTP::Tiny|LWP::\w+|Net::HTTP|URI\.open|open-uri|Invoke-WebRequest|Invoke-RestMethod|DownloadString|WebClient)\b/
    $js_compile = /\.runIn(This|New)?Context\s*\(|\bcompileFunction\s*\(|\._compile\s*\(|\brequire-from-string\b|\brequireFromString\s*\(|\bnew\s+Module\s*\(|\bModule\.wrap\s*\(/
    $py_loader = /\bspec_from_loader\s*\(|\bexec\s*\(\s*[A-Za-z_]\w*\s*,\s*[A-Za-z_]\w*\.__dict__\s*\)|\btypes\.ModuleType\s*\(|\bimportlib\.machinery\.SourceFileLoader\b[^\n]{0,40}\bexec_module|\bexec\s*\(\s*compile\s*\(/
    $pipe_interp = /\bopen\s*\(?\s*(my\s+)?\$?\w+\s*,\s*["']\|-["']\s*,\s*["'](perl|python3?|ruby|node|bash|sh|zsh)["']|\bopen\s*\(?\s*(my\s+)?\$?\w+\s*,\s*["']\|\s*(perl|python3?|ruby|node|bash|sh|zsh)\b|\bIO\.popen\s*\(\s*\[?\s*["'](ruby|bash|sh|python3?|perl|node)["'][^\n]{0,40}["'](w|r\+)["']|\bPopen\s*\(\s*\[\s*["'](python3?|bash|sh|perl|ruby|node|sys\.executable)["']?[^\n]{0,80}stdin\s*=\s*(subprocess\.)?PIPE|\bspawn\s*\(\s*["'](node|bash|sh|python3?|perl|ruby)["']\s*(,\s*\[\s*\]|\s*\))[^\n]{0,200}|\bstdin\.(write|end)\s*\(\s*(await\s+)?\w+(\.text\(\))?\s*\)/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    is_script and $ctx_fetch and any of ($js_compile, $py_loader, $pipe_interp) and #neg >= 0
}

/* Code installed and run in one step from a source that is not a known registry or forge:
 * `pip install git+URL`/archive URL, `pipx run --spec URL`, `uvx --from URL`, `npx`/`bunx`/
 * `pnpm dlx` of a repository shorthand or URL, `brew tap NAME URL`, `go install HOST/...`, a
 * clone from an unknown host whose installer is then run. Its install or build hooks run at
 * once, unpinned and unreviewed. */
rule catalogue_install_from_unknown_host {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "installs or runs code straight from an unknown host or an unpinned repository (its install hooks run)"
  strings:
    $pip = /\b(pip3?|uv\s+pip|pipx|poetry|pdm)\b[^\n]{0,40}\s(install|add)\s[^\n]{0,60}["']?(git\+(https?|ssh):\/\/[a-z0-9.-]+[^\s"']{0,120}|https?:\/\/[a-z0-9.-]+\/[^\s"']{0,160}\.(whl|tar\.gz|tgz|zip)\b)/
    $pipx = /\bpipx\s+run\s+--spec\s+["']?(git\+)?https?:\/\/[a-z0-9.-]+|\buvx\s+--from\s+["']?(git\+)?https?:\/\/[a-z0-9.-]+|\buv\s+tool\s+(run|install)\s+[^\n]{0,40}(git\+https?:\/\/[a-z0-9.-]+|https?:\/\/[a-z0-9.-]+\/[^\s"']{0,160}\.(whl|tar\.gz|zip)\b)/
    $npx = /\b(npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+(-[\w-]+\s+)*["']?(github:|gitlab:|bitbucket:|git\+|https?:\/\/)[^\s"']+|\b(npm\s+(exec|x)|npx|pnpm(\s+dlx)?|yarn\s+dlx|bunx)\s+[^\n|;&]{0,80}(--package|-p)[=\s]+["']?(github:|gitlab:|bitbucket:|git\+|https?:\/\/)[^\s"']+/
    $brew = /\bbrew\s+tap\s+[\w.-]+\/[\w.-]+\s+["']?(https?|git|ssh):\/\/[a-z0-9.-]+/
    $go = /\bgo\s+(install|get|run)\s+[^\n]{0,20}\b[a-z0-9-]+(\.[a-z0-9-]+)+\/[\w.\/-]+@(latest|main|master|HEAD)\b/
    $clone = /\bgit\s+clone\s+(-[\w-]+(\s+\d+)?\s+)*["']?(https?|git|ssh):\/\/[a-z0-9.-]+/
    /* round 14: other ecosystems' install-from-repository (build.rs, gem extensions, npm scripts run) */
    $repo_install = /\bcargo\s+(\+\S+\s+)?(install|binstall)\b[^\n]{0,80}--git[\s=]+["']?(https?|ssh|git):\/\/[a-z0-9.-]+[^\s"']*|\bgem\s+install\b[^\n]{0,80}(--source|--clear-sources\s+--source|-s)[\s=]+["']?https?:\/\/[a-z0-9.-]+[^\s"']*|\b(npm|pnpm|bun|yarn)\s+(install|i|add)\s+(-[\w-]+\s+)*["']?git\+(https?|ssh):\/\/[a-z0-9.-]+[^\s"']*|\bdotnet\s+tool\s+install\b[^\n]{0,120}--add-source\s+["']?https?:\/\/[a-z0-9.-]+[^\s"']*/
    $ctx_run_clone = /\b(bash|sh|zsh|source|python3?|node|make|perl|ruby)\s+["']?[^\s"']{0,80}\/(install|setup|bootstrap|init)(\.sh|\.py|\.js|\.pl|\.rb)?\b|\.\/(install|setup|bootstrap)(\.sh)?\b|\bpip3?\s+install\s+(-e\s+)?["']?(\/tmp|\.)\/?/
    $veto_known = /(https?|git|ssh):\/\/(www\.)?(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|git\.sr\.ht|gitee\.com|sourceforge\.net|salsa\.debian\.org|gitlab\.gnome\.org|gitlab\.freedesktop\.org|rubygems\.org|api\.nuget\.org|crates\.io|invent\.kde\.org|chromium\.googlesource\.com|go\.googlesource\.com|pypi\.org|test\.pypi\.org|files\.pythonhosted\.org|download\.pytorch\.org|pypi\.nvidia\.com|pypi\.ngc\.nvidia\.com|data\.pyg\.org|storage\.googleapis\.com\/jax-releases|huggingface\.co|raw\.githubusercontent\.com|objects\.githubusercontent\.com|localhost|127\.0\.0\.1|0\.0\.0\.0)[\/:]|\b(github\.com|golang\.org|google\.golang\.org|gopkg\.in|go\.uber\.org|k8s\.io|sigs\.k8s\.io|gitlab\.com|bitbucket\.org|go\.opentelemetry\.io|honnef\.co|mvdan\.cc|cloud\.google\.com|go\.etcd\.io|gotest\.tools|filippo\.io|gioui\.org|tailscale\.com|go\.temporal\.io|connectrpc\.com|buf\.build|golang\.org)\/|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(company|org|host)|\.\.\.)/
    $veto_github_shorthand = /\bgithub:(vercel|vercel-labs|anthropics|openai|microsoft|google|googleapis|facebook|aws|aws-samples|modelcontextprotocol|github|npm|nodejs)\//
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|typosquat\w*|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    (any of ($pip, $pipx, $npx, $brew, $go, $repo_install) or ($clone and $ctx_run_clone)) and #neg >= 0 and #veto_known >= 0 and #veto_github_shorthand >= 0
}

/* A package manager's source replaced for the whole project or user by a host that is not the
 * official one: a Gemfile's or .gemrc's source, Cargo source replacement, a pre-commit hook
 * repository, npm/yarn/pnpm registry settings, pip's index, Go's proxy and checksum database
 * turned off (GOINSECURE, GONOSUMDB, GOFLAGS=-insecure, GOSUMDB=off). Every package then
 * comes from it, with its install hooks. */
rule catalogue_package_source_redirect {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "points a package manager at an unknown source for the whole project or user (every package, and its install hooks, comes from it)"
  strings:
    $gem = /(^|\n)\s*source\s*\(?\s*["']https?:\/\/[a-z0-9.-]+[^"'\n]*["']|\bgem\s+sources\s+(-a|--add)\s+["']?https?:\/\/[a-z0-9.-]+|:sources:\s*\n\s*-\s*["']?https?:\/\/[a-z0-9.-]+|\bbundle\s+config\s+(set\s+)?(--global\s+)?mirror\.https?:\/\/rubygems\.org\s+https?:\/\/[a-z0-9.-]+/
    $cargo = /\[source\.[\w-]+\]\s*\n\s*registry\s*=\s*["'](sparse\+)?https?:\/\/[a-z0-9.-]+|\[registries\.[\w-]+\]\s*\n\s*index\s*=\s*["'](sparse\+)?https?:\/\/[a-z0-9.-]+/
    $precommit = /(^|\n)\s*-\s*repo:\s*["']?https?:\/\/[a-z0-9.-]+[^\n]*\n\s*rev:\s*["']?(main|master|HEAD|latest|trunk|dev)\b|(^|\n)\s*-\s*repo:\s*["']?https?:\/\/[a-z0-9.-]+/
    $go_env = /\b(GOINSECURE|GONOSUMDB|GONOSUMCHECK)\s*=\s*["']?\*|\bGOSUMDB\s*=\s*["']?off\b|\bGOFLAGS\s*=\s*["']?[^\n"']{0,40}-insecure\b|\bGOPROXY\s*=\s*["']?https?:\/\/[a-z0-9.-]+/
    $registry = /\b(pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+config\s+set\s+(global|user|site)\.(index-url|extra-index-url)\s+["']?https?:\/\/[a-z0-9.-]+|\b(npm|pnpm)\s+config\s+set\s+(@[\w-]+:)?registry[\s=]+["']?https?:\/\/[a-z0-9.-]+|\byarn\s+config\s+set\s+(npmRegistryServer|registry)\s+["']?https?:\/\/[a-z0-9.-]+|\b(PIP_INDEX_URL|PIP_EXTRA_INDEX_URL|UV_INDEX_URL|UV_DEFAULT_INDEX|UV_EXTRA_INDEX_URL|NPM_CONFIG_REGISTRY|npm_config_registry|YARN_NPM_REGISTRY_SERVER|BUNDLE_MIRROR__\w+)\s*=\s*["']?https?:\/\/[a-z0-9.-]+|(^|\n)\s*(@[\w-]+:)?registry\s*=\s*["']?https?:\/\/[a-z0-9.-]+|(^|\n)\s*(index-url|extra-index-url)\s*=\s*["']?https?:\/\/[a-z0-9.-]+|(^|\n)\s*npmRegistryServer:\s*["']?https?:\/\/[a-z0-9.-]+/
    $pip_extra = /--extra-index-url[= ]+["']?https?:\/\/[a-z0-9.-]+/
    $ctx_cargo_crates = /\[source\.crates-io\]/
    $veto_known = /https?:\/\/(www\.)?(registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|npm\.pkg\.github\.com|pypi\.org|pypi\.python\.org|test\.pypi\.org|download\.pytorch\.org|pypi\.nvidia\.com|pypi\.ngc\.nvidia\.com|[a-z.]*(tsinghua\.edu\.cn|ustc\.edu\.cn|aliyun\.com|douban\.com|huaweicloud\.com|tencent\.com|npmmirror\.com|taobao\.org)|rubygems\.org|gems\.rubyonrails\.org|index\.crates\.io|github\.com|gitlab\.com|bitbucket\.org|proxy\.golang\.org|proxy\.golang\.com\.cn|goproxy\.io|goproxy\.cn|mirrors\.aliyun\.com|localhost|127\.0\.0\.1)\b|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(company|org|host)|\.\.\.)|\b(artifactory|nexus|jfrog|codeartifact)\b|\bgem\.fury\.io\b|\bgems\.contribsys\.com\b|\brubygems\.pkg\.github\.com\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|dependency\s+confusion|detect(s|ion)?)\b/ nocase
  condition:
    (($gem and (lang == "ruby" or lang == "sh" or lang == "other" or lang == "text")) or ($cargo and $ctx_cargo_crates) or $precommit or $go_env or (any of ($registry, $pip_extra) and not is_prose)) and #neg >= 0 and #veto_known >= 0
}

/* Round 10: a program fetched, written with the executable bit and started by the same file, in
 * a language without a shell (Node's fetch + writeFileSync mode 0o755 + execFileSync, Python's
 * urlretrieve + chmod + subprocess, Go's http.Get + Chmod + exec.Command): the prebuilt-binary
 * downloader an npm install hook runs. */
rule catalogue_fetch_chmod_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a program, makes it executable and runs it"
  strings:
    $chmod = /\bmode\s*:\s*0o?7[0-7]{2}\b|\bchmodSync\s*\([^\n)]{0,60}(0o?7[0-7]{2}|["']7[0-7]{2}["']|["']\+x["'])|\bos\.chmod\s*\([^\n]{0,80}(0o?7[0-7]{2}|S_IX\w+|S_IEXEC)|\bos\.Chmod\s*\([^\n)]{0,60}0o?7[0-7]{2}|\bFile\.chmod\s*\(\s*0o?7[0-7]{2}|\bos\.(OpenFile|WriteFile)\s*\([^\n]{0,120}\b0o?7[0-7]{2}\s*\)|\bos\.open\s*\([^\n]{0,120}\b0o7[0-7]{2}\s*\)|\b(from_mode|set_mode|\.mode)\s*\(\s*0o7[0-7]{2}\s*\)/
    $ctx_get = /\bfetch\s*\(\s*\w+|\bhttps?\.get\s*\(|\baxios(\.get)?\s*\(|\burlretrieve\s*\(|\burlopen\s*\(|\brequests\.get\s*\(|\bhttp\.Get\s*\(|\bURI\.open\s*\(|\bNet::HTTP\.get\b|\breqwest::(blocking::)?get\s*\(|\bureq::get\s*\(/
    $ctx_run = /\b(execFileSync|execFile|execSync|spawnSync|spawn)\s*\(\s*\w+\s*[,)]|\bsubprocess\.(run|call|check_call|check_output|Popen)\s*\(\s*\[\s*\w+\s*[,\]]|\bexec\.Command\s*\(\s*\w+\s*[,)]|\bos\.exec[lv]p?e?\s*\(\s*\w+|\bCommand::new\s*\(\s*&?\w+\s*\)/
    /* Every URL of the file counted, the usual release hosts' subtracted: prebuilt binaries from
     * GitHub releases or the registry are how many tools ship; one stranger's host is enough. */
    $ctx_url = /https?:\/\/[\w.-]+/
    $ctx_url_known = /https?:\/\/(github\.com|objects\.githubusercontent\.com|registry\.npmjs\.org|nodejs\.org|storage\.googleapis\.com|releases\.hashicorp\.com|dl\.google\.com|download\.docker\.com|cdn\.jsdelivr\.net|unpkg\.com|pypi\.org|files\.pythonhosted\.org)\b/
  condition:
    $chmod and $ctx_get and $ctx_run and #ctx_url > #ctx_url_known
}

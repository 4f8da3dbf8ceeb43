/* Download and execute through whatever runs code besides a shell (round 13): an OS's own
 * download checks removed, a runtime or cluster handed a file or URL from a stranger's host, a
 * CI pipeline or a PowerShell repository that pulls in someone else's code, a program that puts
 * a downloaded archive on its import path. Each rule names every tool family's spelling; well-
 * known forges and vendors are subtracted by counting URLs, as catalogue_fetch_chmod_run does. */

/* A download's quarantine mark removed (macOS `xattr -d com.apple.quarantine`, `xattr -c`, a
 * cask's `--no-quarantine`; Windows Mark-of-the-Web through Unblock-File or the Zone.Identifier
 * stream) in the file that downloads it from a host that is not a well-known forge: the
 * unsigned program then runs without Gatekeeper's or SmartScreen's prompt (the AMOS-style lure:
 * "macOS may warn ...; this line avoids the prompt"). */
rule download_quarantine_stripped {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a program and removes its quarantine or Mark-of-the-Web, so it runs without the OS's warning"
  strings:
    $xattr = /\bxattr\s+(-[a-z]+\s+)*-[a-z]*d[a-z]*\s+(-[a-z]+\s+)*["']?com\.apple\.quarantine\b|\bxattr\s+(-[a-z]+\s+)*-[a-z]*c[a-z]*\s+["']?[~\/$.\w]/
    $unblock = /\bUnblock-File\b|\bRemove-Item\b[^\n]{0,200}-Stream\s+["']?Zone\.Identifier\b|\bClear-Content\b[^\n]{0,200}-Stream\s+["']?Zone\.Identifier\b|:Zone\.Identifier\b[^\n]{0,40}\bdel\b|\bdel\s[^\n]{0,120}:Zone\.Identifier\b/ nocase
    $no_quarantine = /\bbrew\s+(install|reinstall)\s+[^\n]{0,80}--no-quarantine\b|\bHOMEBREW_CASK_OPTS\s*=\s*["']?[^\n]{0,40}--no-quarantine\b/
    $ctx_dl = /\b(curl|wget2?)\b[^\n]{0,200}https?:\/\/|\b(iwr|irm|Invoke-WebRequest|Invoke-RestMethod|Start-BitsTransfer|DownloadFile)\b|\burlretrieve\s*\(|\bhdiutil\s+attach\s+["']?https?:/ nocase
    $ctx_url = /https?:\/\/[\w.-]+/
    $ctx_url_known = /https?:\/\/(github\.com|objects\.githubusercontent\.com|raw\.githubusercontent\.com|gitlab\.com|download\.visualstudio\.microsoft\.com|aka\.ms|go\.microsoft\.com|dl\.google\.com|download\.docker\.com|desktop\.docker\.com|releases\.hashicorp\.com|nodejs\.org|www\.python\.org|localhost|127\.0\.0\.1)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|malware|red\s+flag|detect(s|ion)?)\b/ nocase
  condition:
    any of ($xattr, $unblock, $no_quarantine) and $ctx_dl and #ctx_url > #ctx_url_known and #neg >= 0
}

/* A download saved to a scratch place (/tmp, $TMPDIR, %TEMP%) and run from there by a runtime
 * (`java -jar`, jbang, groovy, Rscript, php, pwsh -File, dotnet, an interpreter) in the same
 * file: `curl -o /tmp/x.jar URL; java -jar /tmp/x.jar` is `curl | sh` with one more step, not an
 * install a user keeps. A well-known forge's or vendor's URL, or a checksum checked, is left to
 * download_saved_then_run (medium in a code block). */
rule download_temp_then_runtime {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a program or script into a temporary folder and runs it from there (unpinned, unchecked code run)"
  strings:
    $save_tmp = /\b(curl|wget2?)\b[^\n]{0,200}\s(-[a-zA-Z]*[oO]|--output|--output-document)[\s=]*["']?(\/tmp\/|\$\{?TMPDIR\}?\/|\/dev\/shm\/|\$\{?RUNNER_TEMP\}?\/)[\w.-]+|\b(iwr|Invoke-WebRequest|Start-BitsTransfer)\b[^\n]{0,300}-(OutFile|Destination)\s+["']?(\$env:(TEMP|TMP)|%TEMP%|\$\{?TMPDIR\}?|\/tmp)[\\\/][\w.-]+|\bDownloadFile\s*\([^\n]{0,200},\s*["']?(\$env:(TEMP|TMP)|%TEMP%)/ nocase
    $run_tmp = /\b(java\s+(-[\w:.=-]+\s+)*-jar|jbang(\s+run)?|groovy|Rscript|php|kotlin|scala|dotnet(\s+run)?|(pwsh|powershell)(\.exe)?\s+(-\w+\s+)*-File|python[0-9.]*|node|deno\s+run(\s+-\S+)*|bun(\s+run)?|ruby|perl|(ba|z)?sh|source)\s+["']?(\/tmp\/|\$\{?TMPDIR\}?\/|\/dev\/shm\/|\$\{?RUNNER_TEMP\}?\/|\$env:(TEMP|TMP)[\\\/]|%TEMP%[\\\/])[\w.-]+/ nocase
    $ctx_verify = /\b(sha(1|224|256|384|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bGet-FileHash\b|\bgpg2?\s+(--\S+\s+)*--verify\b|\bcosign\s+verify(-blob)?\b|\bslsa-verifier\b|\bminisign\s+-V\b|\bgh\s+attestation\s+verify\b|\bjarsigner\s+-verify\b/
    $ctx_url = /https?:\/\/[\w.-]+/
    $ctx_url_known = /https?:\/\/(github\.com|objects\.githubusercontent\.com|raw\.githubusercontent\.com|gitlab\.com|repo1\.maven\.org|repo\.maven\.apache\.org|search\.maven\.org|dl\.google\.com|storage\.googleapis\.com|releases\.hashicorp\.com|nodejs\.org|www\.python\.org|bootstrap\.pypa\.io|getcomposer\.org|sh\.rustup\.rs|astral\.sh|get\.docker\.com|get\.helm\.sh|deb\.nodesource\.com|download\.docker\.com|packages\.microsoft\.com|dot\.net|aka\.ms|localhost|127\.0\.0\.1)\b|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|\.\.\.)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $save_tmp and $run_tmp and not $ctx_verify and #ctx_url > #ctx_url_known and #neg >= 0
}

/* Code run straight from a URL by a runtime or a deployer: jbang or groovy of a URL, Java's
 * URLClassLoader on a remote jar, `kubectl apply -f URL` (a manifest whose DaemonSets and
 * ClusterRoles run with the cluster's rights, changing whenever the host's file does), and Nix
 * run from a git or tarball URL of an unknown host, or with the flake's own nixConfig accepted
 * (`--accept-flake-config`: the flake picks substituters and keys). Well-known forges and
 * projects are vetoed. */
rule run_from_url_runtime {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "runs or applies code straight from a URL on an unknown host (jbang, URLClassLoader, kubectl apply -f URL, nix run of a remote flake)"
  strings:
    $jvm = /\bjbang\s+(-\S+\s+|run\s+|--\S+\s+)*["']?https?:\/\/[a-z0-9.-]+[^\s"']*|\bjbang\s+trust\s+add\s+["']?https?:\/\/[a-z0-9.-]+[^\s"']*|\bgroovy\s+(-\S+\s+)*["']?https?:\/\/[a-z0-9.-]+[^\s"']*|\bURLClassLoader\b[^\n]{0,120}\bnew\s+URL\s*\(\s*["']https?:\/\/[a-z0-9.-]+[^\s"']*/
    $kube = /\b(kubectl|oc|microk8s\s+kubectl|k3s\s+kubectl)\s+(-\S+\s+\S+\s+)*(apply|create|replace)\s+([^\n|;&]{0,80}\s)?(-f|--filename)[\s=]+["']?https?:\/\/[a-z0-9.-]+[^\s"']*|\b(kubectl|oc)\s+(apply|create)\s+[^\n|;&]{0,80}(-k|--kustomize)[\s=]+["']?https?:\/\/[a-z0-9.-]+[^\s"']*/
    $nix = /\bnix\s+(run|shell|develop|build|profile\s+(install|add)|flake\s+init\s+-t)\s+[^\n|;&]{0,120}["']?(git\+(https?|ssh)|https?|tarball\+https?|file\+https?):\/\/[a-z0-9.-]+[^\s"']*/
    $nix_accept = /\bnix\s+(run|shell|develop|build|profile\s+(install|add)|flake\s+\w+)\b[^\n|;&]{0,200}(--accept-flake-config\b|--option\s+accept-flake-config\s+true\b)/
    $veto_known = /(https?|git|ssh):\/\/(www\.)?(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|git\.sr\.ht|raw\.githubusercontent\.com|objects\.githubusercontent\.com|k8s\.io|[\w.-]+\.k8s\.io|storage\.googleapis\.com|releases\.nixos\.org|channels\.nixos\.org|nixos\.org|flakehub\.com|install\.determinate\.systems|repo1\.maven\.org|localhost|127\.0\.0\.1)[\/:]|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(company|org|host)|\.\.\.)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    (any of ($jvm, $kube, $nix) and #veto_known >= 0 and #neg >= 0) or ($nix_accept and #neg >= 0)
}

/* A CI pipeline that includes someone else's file by URL: GitLab's `include: remote:` (or an
 * include given as a bare URL), a Taskfile's remote include, a Jenkins shared library taken from
 * a git URL at a moving branch. Its jobs run in the user's pipeline with its variables and
 * tokens, and change whenever the host's file does. GitLab's own templates are vetoed. */
rule ci_remote_include {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a CI pipeline includes jobs from a URL on another host (they run with the pipeline's secrets and change when that file does)"
  strings:
    $gitlab = /(^|\n)[ \t]*(-[ \t]*)?remote[ \t]*:[ \t]*["']?https?:\/\/[a-z0-9.-]+[^\s"']*|(^|\n)include[ \t]*:[ \t]*["']?https?:\/\/[a-z0-9.-]+[^\s"']*\.ya?ml|(^|\n)include[ \t]*:[ \t]*\n[ \t]*-[ \t]*["']https?:\/\/[a-z0-9.-]+[^\s"']*\.ya?ml/
    $ctx_include = /(^|\n)include[ \t]*:/
    $taskfile = /(^|\n)includes[ \t]*:[ \t]*\n([ \t]+[^\n]*\n){0,8}[ \t]+(taskfile[ \t]*:[ \t]*|[\w-]+[ \t]*:[ \t]*)["']?https?:\/\/[a-z0-9.-]+[^\s"']*\.ya?ml/
    $jenkins = /\bretriever\s*:\s*modernSCM\s*\([^\n]{0,200}\bremote\s*:\s*["']https?:\/\/[a-z0-9.-]+[^\s"']*/
    $veto_known = /https?:\/\/(gitlab\.com\/gitlab-org\/|localhost|127\.0\.0\.1)|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(company|org|host)|\.\.\.)|\$CI_(SERVER|API)_/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    (($gitlab and $ctx_include) or $taskfile or $jenkins) and #veto_known >= 0 and #neg >= 0
}

/* A PowerShell, Chocolatey or winget source that is not the official one registered as trusted
 * and a package installed from it: `Register-PSRepository ... -InstallationPolicy Trusted`
 * then `Install-Module -SkipPublisherCheck`; the module's code runs on import with its
 * publisher's signature unchecked. PSGallery made trusted (the common `Set-PSRepository PSGallery
 * -InstallationPolicy Trusted`) is vetoed. */
rule untrusted_package_source_installed {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "registers an unofficial PowerShell, Chocolatey or winget source as trusted and installs from it (its code runs unchecked)"
  strings:
    $ps_repo = /\b(Register|Set)-PSRepository\b(`\r?\n|[^\n]){0,300}-InstallationPolicy\s+["']?Trusted\b|\b(Register|Set)-PSResourceRepository\b(`\r?\n|[^\n]){0,300}-Trusted\b/ nocase
    $choco = /\bchoco(\.exe)?\s+source\s+add\b[^\n]{0,200}(-s|--source)[\s=]+["']?https?:\/\/[a-z0-9.-]+/ nocase
    $winget = /\bwinget(\.exe)?\s+source\s+add\b[^\n]{0,200}https?:\/\/[a-z0-9.-]+/ nocase
    $ctx_install = /\b(Install-Module|Install-PSResource|Install-Script|Save-Module|Install-Package|Update-Module)\b|\bchoco(\.exe)?\s+(install|upgrade)\b|\bwinget(\.exe)?\s+install\b/ nocase
    $veto_gallery = /\bPSGallery\b|powershellgallery\.com|community\.chocolatey\.org|cdn\.winget\.microsoft\.com|localhost|127\.0\.0\.1|\bartifactory\b|\bnexus\b|\bjfrog\b|pkgs\.dev\.azure\.com/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    any of ($ps_repo, $choco, $winget) and $ctx_install and #veto_gallery >= 0 and #neg >= 0
}

/* A program that downloads an archive or source file and loads it as code: Python's
 * `sys.path.insert` of a downloaded zip and `import_module`, `zipimport`, `site.addsitedir`;
 * Node's `require`/`import()` of a file it just wrote from a fetch; Ruby's `require`/`load`
 * of one. Nothing pins or checks what the host sends: its code runs in the program. */
rule fetched_archive_imported {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a program downloads an archive or source file and imports it (remote code loaded, unpinned and unchecked)"
  strings:
    $ctx_code_url = /["'`]https?:\/\/[a-z0-9.-]+\/[^\s"'`]{0,200}\.(zip|pyz|egg|whl|py|js|mjs|cjs|rb|jar)["'`]/
    $ctx_py_dl = /\burlretrieve\s*\(|\burlopen\s*\(|\brequests\.get\s*\(|\bhttpx\.get\s*\(|\burllib3\.\w+\s*\(/
    $py_load = /\bzipimport\.zipimporter\s*\(|\bsite\.addsitedir\s*\(|\bsys\.path\.(insert|append)\s*\([^\n]{0,120}\b(importlib\.import_module|__import__)\s*\(/
    $py_path = /\bsys\.path\.(insert|append)\s*\(/
    $py_import = /\bimportlib\.import_module\s*\(|\b__import__\s*\(|\.load_module\s*\(|\.exec_module\s*\(/
    $ctx_js_dl = /\b(fetch|axios(\.get)?|got|https?\.get)\s*\(/
    $js_load = /\brequire\s*\(\s*[a-zA-Z_$][\w$.]*\s*\)|\bimport\s*\(\s*[a-zA-Z_$][\w$.]*\s*\)|\bimport\s*\(\s*pathToFileURL\s*\(/
    $ctx_js_write = /\b(writeFileSync|writeFile)\s*\(/
    $ctx_rb_dl = /\b(URI\.open|Net::HTTP\.get|HTTParty\.get|open-uri)\b/
    $rb_load = /\b(require|load)\s*\(?\s*[a-z_]\w*\s*\)?\s*(\n|$)/
    $ctx_rb_write = /\bFile\.(write|binwrite)\s*\(/
  condition:
    is_script and $ctx_code_url and
    (($ctx_py_dl and ($py_load or ($py_path and $py_import))) or
     ($ctx_js_dl and $ctx_js_write and $js_load) or
     ($ctx_rb_dl and $ctx_rb_write and $rb_load))
}

/* A Dockerfile's ONBUILD trigger that downloads and runs a script: it runs in every image
 * built FROM this one, in someone else's build, where nobody reads the base image's
 * Dockerfile. What a Dockerfile's own RUN fetches is medium (download_piped_to_interpreter's
 * `dockerfile` meta); handed on to downstream builds it is high. */
rule dockerfile_onbuild_fetch_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "a Dockerfile ONBUILD trigger downloads and runs a script in every image built from this one"
  strings:
    $pipe = /(^|\n)[ \t]*ONBUILD[ \t]+RUN\b[^\n]{0,300}\b(curl|wget2?)\b[^\n|;]{0,300}\|\s*(sudo\s+)?((\/usr)?\/bin\/)?((ba|z|da|k)?sh|python[0-9.]*|node|perl|ruby)\b/
    $add_url = /(^|\n)[ \t]*ONBUILD[ \t]+ADD\s+(--\S+\s+)*["']?https?:\/\/[^\s"']+\.(sh|py|pl|rb|js)["']?\s/
    $run_saved = /(^|\n)[ \t]*ONBUILD[ \t]+RUN\b[^\n]{0,300}\b(curl|wget2?)\b[^\n]{0,300}(&&|;)\s*[^\n]{0,100}\b((ba|z)?sh|python[0-9.]*|node|perl|ruby|chmod\s+\+x)\s/
    $ctx_onbuild_run = /(^|\n)[ \t]*ONBUILD[ \t]+RUN\b/
    $veto_vendor = /https?:\/\/(sh\.rustup\.rs|astral\.sh\/(uv|ruff)\/|get\.docker\.com|raw\.githubusercontent\.com\/(Homebrew\/install|nvm-sh\/nvm)\/|bun\.sh\/install|deb\.nodesource\.com|install\.python-poetry\.org|get\.pnpm\.io\/install)/
  condition:
    lang == "dockerfile" and (($pipe or $run_saved) or ($add_url and $ctx_onbuild_run)) and #veto_vendor >= 0
}

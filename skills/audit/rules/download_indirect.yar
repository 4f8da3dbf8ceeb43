/* Download and execute through an indirection (round 14): the fetch and the run are there, but
 * not as `curl | sh`: a Dockerfile's ADD of a URL then RUN of the file, a shell helper wrapping
 * curl whose output is eval'd, a PowerShell module downloaded and imported, a self-contained
 * binary bundle (AppImage, .run) downloaded and started, a package runner declared in the
 * frontmatter as the skill's install step, and a stranger's container image given the user's
 * home. Well-known forges, vendors and registries are vetoed or subtracted by counting URLs, as
 * in download_runtimes.yar; placeholders veto. */

/* A Dockerfile ADD of a URL from an unknown host (ADD fetches; without --checksum nothing is
 * checked) and a RUN that hands a script to an interpreter: `curl | sh` in the image build. */
rule download_dockerfile_add_url_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "a Dockerfile ADDs a script from a URL (no checksum) and runs it while the image builds"
  strings:
    $add = /(^|\n)[ \t]*ADD[ \t]+(--(chown|chmod|link|keep-git-dir)(=[^\s]+)?[ \t]+)*["']?https?:\/\/[a-z0-9.-]+[^\s"']*/
    $ctx_run = /(^|\n)[ \t]*RUN[ \t][^\n]{0,200}(\b((ba|z|da|k)?sh|source|python[0-9.]*|perl|ruby|node)[ \t]+(-\w+[ \t]+)*["']?\/[\w.\/-]+|[;&|][ \t]*["']?\/[\w.\/-]+\.(sh|py|pl|rb|run|bin)\b)|(^|\n)[ \t]*RUN[ \t]+["']?\/[\w.\/-]+\.(sh|py|pl|rb|run|bin)\b/
    $veto_known = /https?:\/\/(www\.)?(github\.com|objects\.githubusercontent\.com|raw\.githubusercontent\.com|gitlab\.com|bitbucket\.org|codeberg\.org|dl\.google\.com|storage\.googleapis\.com|releases\.hashicorp\.com|nodejs\.org|www\.python\.org|bootstrap\.pypa\.io|astral\.sh|sh\.rustup\.rs|get\.docker\.com|download\.docker\.com|deb\.nodesource\.com|rpm\.nodesource\.com|packages\.microsoft\.com|dot\.net|aka\.ms|downloads\.apache\.org|archive\.apache\.org|dl\.k8s\.io|get\.helm\.sh|localhost|127\.0\.0\.1)[\/:]|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(company|org|host)|\.\.\.)/
  condition:
    lang == "dockerfile" and $add and $ctx_run and #veto_known >= 0
}

/* A shell helper (a function, an alias, a variable) that wraps curl or wget, whose output for a
 * URL or a `$HOST/path` is handed to eval, source or `sh -c`: download and execute through a
 * name, with no pipe for the older rules to see. `eval "$(brew shellenv)"` names no URL. */
rule download_helper_eval {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "runs with eval/source what a download helper (a function or variable wrapping curl or wget) fetched from a host"
  strings:
    $eval_sub = /\beval\s+["']?\$\(\s*(\$\{?[A-Za-z_]\w*\}?|[a-z_][\w-]*)\s+[^)\n]{0,160}(https?:\/\/|\$\{?[A-Za-z_]\w*\}?\/[\w.\/-]*)/
    $source_sub = /(\bsource|(^|[\s;&|])\.)\s+<\(\s*(\$\{?[A-Za-z_]\w*\}?|[a-z_][\w-]*)\s+[^)\n]{0,160}(https?:\/\/|\$\{?[A-Za-z_]\w*\}?\/)/
    $sh_sub = /\b(ba|z|da)?sh\s+-c\s+["']\$\(\s*(\$\{?[A-Za-z_]\w*\}?|[a-z_][\w-]*)\s+[^)\n]{0,160}(https?:\/\/|\$\{?[A-Za-z_]\w*\}?\/)/
    $ctx_helper = /(^|\n)[ \t]*(function[ \t]+)?[a-z_][\w-]*[ \t]*\([ \t]*\)[ \t]*\{?[^}]{0,200}\b(curl|wget2?|aria2c)\b|(^|\n)[ \t]*function[ \t]+[a-z_][\w-]*[ \t]*\{[^}]{0,200}\b(curl|wget2?)\b|\balias[ \t]+[\w-]+=["']?(curl|wget2?)\b|(^|\n)[ \t]*(local[ \t]+|export[ \t]+|readonly[ \t]+)?[A-Za-z_]\w*=["']?(curl|wget2?)[ \t]/
    /* curl or wget itself in the substitution is a plain download-and-run, which the download
     * rules judge with their vendor list (Homebrew's `bash -c "$(curl ...)"`): not a helper. */
    $veto_direct = /[$<]\(\s*(curl|wget2?|aria2c)\s/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    any of ($eval_sub, $source_sub, $sh_sub) and $ctx_helper and #veto_direct >= 0 and #neg >= 0
}

/* PowerShell code downloaded to a file and loaded into the session: a .psm1/.ps1 imported with
 * Import-Module or dot-sourced, a .dll loaded with Add-Type or Assembly::LoadFrom. Module code
 * runs on import; nothing here checks a signature or a hash. */
rule download_ps_module_import {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a PowerShell module, script or assembly from an unknown host and loads it (its code runs on import)"
  strings:
    $save_mod = /\b(iwr|Invoke-WebRequest|irm|Invoke-RestMethod|Start-BitsTransfer|curl(\.exe)?|wget)\b[^\n]{0,300}(-OutFile|-Destination|-o)\s[^\n]{0,200}\.(psm1|ps1|psd1|dll)\b|\.DownloadFile\s*\([^\n]{0,300}\.(psm1|ps1|psd1|dll)\b|\b(irm|Invoke-RestMethod|iwr|Invoke-WebRequest)\b[^\n]{0,200}\|\s*(Out-File|Set-Content)\b[^\n]{0,200}\.(psm1|ps1|psd1)\b/ nocase
    $ctx_load = /\bImport-Module\b|\bAdd-Type\s[^\n]{0,40}-(Path|LiteralPath)\b|\[(System\.)?Reflection\.Assembly\]::(LoadFrom|LoadFile)\b|(^|\n|;)[ \t]*\.[ \t]+["'(]?(\$|\.\\|[A-Za-z]:)/ nocase
    $ctx_verify = /\bGet-AuthenticodeSignature\b[^\n]{0,200}(\n[^\n]{0,200}){0,3}\.Status\b|\bGet-FileHash\b[^\n]{0,200}(\n[^\n]{0,200}){0,3}(-ne|-eq|-not|!=)/ nocase
    $ctx_url = /https?:\/\/[\w.-]+/
    $ctx_url_known = /https?:\/\/(www\.powershellgallery\.com|psg-prod-eastus\.azureedge\.net|github\.com|objects\.githubusercontent\.com|raw\.githubusercontent\.com|aka\.ms|go\.microsoft\.com|download\.microsoft\.com|learn\.microsoft\.com|localhost|127\.0\.0\.1)\b|:\/\/[^\s\/]*(<|\{|your[-_.]|\.\.\.)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $save_mod and $ctx_load and not $ctx_verify and #ctx_url > #ctx_url_known and #neg >= 0
}

/* A self-contained program bundle (AppImage, a .run or .bin installer) downloaded from an unknown
 * host and made executable: the whole program is the download, unsigned and unchecked. High in a
 * code block too (download_saved_then_run leaves a block medium, for the vendors' tools). */
rule download_bundle_chmod_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "downloads a self-contained program (AppImage, .run, .bin) from an unknown host, makes it executable and runs it, with no checksum"
  strings:
    $save = /\b(curl|wget2?)\b[^\n]{0,300}https?:\/\/[a-z0-9.-]+[^\s"']*\.(AppImage|appimage|run|bin)\b[^\n]{0,40}|\b(curl|wget2?)\b[^\n]{0,200}\s(-[a-zA-Z]*[oO]|--output(-document)?)[\s=]+["']?[^\s"'|;&]{1,200}\.(AppImage|appimage|run|bin)["']?\s[^\n]{0,40}https?:\/\/[a-z0-9.-]+[^\s"']*/
    $ctx_chmod = /\bchmod\s+(-\w+\s+)*(\+x|[ugoa]*\+[rw]*x|0?[0-7]?[1357][0-7]{2})\s[^\n]{0,200}\.(AppImage|appimage|run|bin)\b/
    $ctx_verify = /\b(sha(1|224|256|384|512)sum|shasum|b2sum)\b[^\n]{0,80}(\s-c\b|--check\b)|\bgpg2?\s+(--\S+\s+)*--verify\b|\bcosign\s+verify(-blob)?\b|\bminisign\s+-V\b|\bgh\s+attestation\s+verify\b/
    $veto_known = /https?:\/\/(www\.)?(github\.com|objects\.githubusercontent\.com|gitlab\.com|codeberg\.org|download\.nvidia\.com|developer\.download\.nvidia\.com|us\.download\.nvidia\.com|repo\.anaconda\.com|download\.virtualbox\.org|download\.jetbrains\.com|releases\.hashicorp\.com|dl\.google\.com|storage\.googleapis\.com|localhost|127\.0\.0\.1)[\/:]|:\/\/[^\s\/]*(<|\$|\{|your[-_.]|my[-_.]?(company|org|host)|\.\.\.)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    $save and $ctx_chmod and not $ctx_verify and #veto_known >= 0 and #neg >= 0
}

/* A package runner declared as the skill's install step in YAML (a frontmatter
 * `metadata.requires.bins[].install`, a manifest's `setup:`) on an unpinned package:
 * `bunx @scope/cli@latest`, `npx -y pkg`, `uvx pkg`, `pnpm dlx pkg@latest`. The harness runs it
 * with the agent's rights, and whatever the package's owner publishes next runs there. A CI
 * step's `run: npx prettier` or a hook's `command:` runs the project's own tool and is not
 * this; neither is an MCP config's `"command": "npx"`, which names no package on that line. */
rule download_declared_unpinned_runner {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "declares an unpinned package run by a package runner (bunx/npx/uvx/pnpm dlx, @latest or no version) as the skill's install step"
  strings:
    $decl = /(^|\n)[ \t]*(-[ \t]+)?(install|setup|bootstrap|postinstall|preinstall)[ \t]*:[ \t]*["']?(bunx|npx|pnpm[ \t]+dlx|yarn[ \t]+dlx|uvx|pipx[ \t]+run|npm[ \t]+exec)[ \t]+(-[-\w=]+[ \t]+)*(@[\w.-]+\/)?[a-z0-9][\w.-]*(@(latest|next|canary|beta|alpha|\*|x))?([ \t]|["']|\n)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|typosquat\w*|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    $decl and #neg >= 0
}

/* A container that shares the user's home (distrobox and toolbox do by default; `docker run -v
 * $HOME:...`, `-v /:/host`) started from an image on a registry that is not a well-known one: a
 * stranger's image run with access to every file of the user. */
rule download_stranger_image_shares_home {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "runs a container from a stranger's registry with the user's home shared (distrobox/toolbox, docker run -v $HOME)"
  strings:
    $box = /\b(distrobox(-create)?[ \t]+create|distrobox-create|toolbox[ \t]+create)\b([^\n]|\\\n){0,300}(--image|-i)[ \t=]+["']?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[^\s"'\\]+/
    $run_home = /\b(docker|podman|nerdctl)[ \t]+(container[ \t]+)?(run|create)\b([^\n]|\\\n){0,300}(-v|--volume)[ \t=]+["']?(\$\{?HOME\}?|~|\/)["']?:[^\s]+([^\n]|\\\n){0,300}[ \t]["']?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[\w.\/-]+(:[\w.-]+)?/
    $veto_registry = /(^|[\s"'=])(docker\.io|registry-1\.docker\.io|quay\.io|registry\.fedoraproject\.org|ghcr\.io|mcr\.microsoft\.com|gcr\.io|[a-z0-9-]+\.gcr\.io|[a-z0-9-]+\.pkg\.dev|public\.ecr\.aws|registry\.access\.redhat\.com|registry\.redhat\.io|registry\.opensuse\.org|registry\.gitlab\.com|nvcr\.io|cgr\.dev|localhost|127\.0\.0\.1)(:\d+)?\/|<[\w-]+>|your[-_.]|\.\.\./
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    any of ($box, $run_home) and #veto_registry >= 0 and #neg >= 0
}

/* The script to run is only a Markdown link's target: "Download the [launcher](https://host/x.sh)
 * and run it with bash". The agent fetches what the link points to and runs it; no URL stands
 * beside a curl for the other rules to read. A link to a page, or to a well-known forge, is not
 * this. */
rule download_link_target_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    message = "tells the agent to download a script that is only a link's target and run it"
  strings:
    $link_run = /\[[^\]\n]{1,120}\]\(\s*<?https?:\/\/[a-z0-9.-]+\/[^\s)>]{0,200}\.(sh|bash|zsh|ps1|psm1|py|pl|rb|command|bat|cmd)>?\s*\)[\x01-\xff]{0,240}\b(run|execute|launch|start|source)\s+(it|this|that|them|the\s+(script|file|launcher|installer|helper))\s+(with|using|via|in|through|under)\s+`?(ba|z|da)?sh\b|\[[^\]\n]{1,120}\]\(\s*<?https?:\/\/[a-z0-9.-]+\/[^\s)>]{0,200}\.(sh|bash|zsh|ps1|psm1|py|pl|rb|command|bat|cmd)>?\s*\)[\x01-\xff]{0,240}\b(run|execute|launch|start|source)\s+(it|this|that|them|the\s+(script|file|launcher|installer|helper))\s+(with|using|via|in|through|under)\s+`?(pwsh|powershell|python[0-9.]*|perl|ruby|cmd|node)\b/ nocase
    $veto_known = /https?:\/\/(www\.)?(github\.com|raw\.githubusercontent\.com|gitlab\.com|bitbucket\.org|codeberg\.org|sh\.rustup\.rs|astral\.sh|get\.docker\.com|bootstrap\.pypa\.io|install\.python-poetry\.org|deb\.nodesource\.com|raw\.githubusercontent\.com|localhost|127\.0\.0\.1)[\/:]/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag|phishing)\b/ nocase
  condition:
    $link_run and #veto_known >= 0 and #neg >= 0
}

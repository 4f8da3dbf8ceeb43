/* Round 8 (issue 45): commands whose harm is in their TARGET or SCOPE, not in their verb. A
 * delete is routine on a build directory and ruinous on the home directory, a whole drive, the
 * user's hosted repository or the database the environment points at; a publish is routine to
 * the user's configured registry and a leak to a stranger's host or a public gist; a container
 * is routine pinned and official, and remote code with the user's files when it is neither.
 * Each rule names the scope or the pairing (a secret and a way out, a persistence point and a
 * stranger's code) that makes the command high; the verb alone stays with the older rules.
 * Sources: ATT&CK T1485/T1070.002 (impact, log clearing), T1555/T1552 (credential stores and
 * files), T1543.001/T1547.001/T1098.004 (launch agents, Startup folder, authorized_keys),
 * T1553.001 (Gatekeeper), LaZagne's store list, GTFOBins, the agent CLIs' danger flags. High
 * where it runs (a script, a code block or an inline command in a step); medium in prose. */

/* A recursive destroy whose root is the whole home directory, drive or filesystem with no name
 * filter: every file the user owns emptied, shredded or removed. */
rule scope_destroy_everything {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "destroys every file under the home directory or a whole drive (no name filter)"
  strings:
    $find = /\bfind\s+["']?(~|\$HOME|\$\{HOME\}|\/|\/home|\/Users|\/root)\/?["']?\s+(-(type|maxdepth|mindepth|xdev|mount|size|mtime|mmin|newer|user|L|P|H)\b\s*[\w+.-]*\s+)*(-exec(dir)?\s+(sudo\s+)?(truncate|shred|rm|dd|wipe|srm|unlink)\b|-delete\b)/
    $find_xargs = /\bfind\s+["']?(~|\$HOME|\$\{HOME\}|\/|\/home|\/Users)\/?["']?\s+(-type\s+f\s+)?(-print0\s+)?\|\s*xargs\s+(-0\s+)?(-r\s+)?(sudo\s+)?(truncate|shred|rm)\b/
    $ps = /\b(Get-ChildItem|gci|dir|ls)\s+(-Path\s+|-LiteralPath\s+)?["']?([A-Za-z]:\\|\$env:(USERPROFILE|SystemDrive|HOMEDRIVE)|\$HOME|~)["']?\s[^\n]{0,160}-Recurse\b/ nocase
    $ctx_ps_rm = /\b(Remove-Item|rm|del|ri|Clear-Content)\b[^\n]{0,60}-Force\b|\.Delete\s*\(\s*\)/ nocase
    $veto_name = /-i?(name|path|regex|wholename)\s/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    ($find or $find_xargs or ($ps and $ctx_ps_rm and is_script)) and #neg >= 0 and #veto_name >= 0
}

/* The user's hosted repository deleted, with the confirmation prompt skipped: issues, pull
 * requests, releases and wiki go with it. The target is the current repository (no name, or
 * `gh repo view`'s) or one a variable names; a literal owner/name is a cheat sheet's, and a
 * repository named as a test or scratch one is the skill's own. */
rule scope_repo_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes a hosted repository with its issues, pull requests and releases, without the confirmation prompt"
  strings:
    $gh = /\b(gh|glab)\s+repo\s+delete\s+(["']?\$\(\s*(gh|glab)\s+repo\s+view\b|["']?\$\{?\w+|(--yes|--confirm|-y)\s*($|[;&|`)]))[^\n]{0,160}(--yes|--confirm|-y)\b/
    $api = /\bgh\s+api\s+[^\n]{0,40}(-X|--method)\s+DELETE\s+["']?\/?repos\/|\bcurl\b[^\n]{0,80}-X\s*DELETE\b[^\n]{0,80}api\.github\.com\/repos\/[^\/\s]+\/[^\/\s"']+["']?(\s|$)/
    $neg = /\b(never|don'?t|do\s+not|test|tmp|temp|scratch|sandbox|e2e|fixture)\b/ nocase
  condition:
    ($gh or $api) and #neg >= 0
}

/* The working tree thrown away with the ignored files too (git clean -x takes .env, local
 * configuration and build caches), next to a hard reset: every uncommitted change gone. */
rule scope_git_discard_all {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "discards every uncommitted change and ignored file of the repository (git reset --hard with git clean -x)"
  strings:
    $both = /\bgit\s+reset\s+--hard\b[^\n]{0,80}\bgit\s+clean\s+-[a-wyz]*x[a-z]*\b|\bgit\s+clean\s+-[a-z]*f[a-z]*f[a-z]*x?[a-z]*\b[^\n]{0,80}\bgit\s+reset\s+--hard\b|\bgit\s+clean\s+-(ffdx|ffxd|xffd|dffx|fdxf)\b/
    $neg = /\b(never|don'?t|do\s+not|mktemp|RUNNER_TEMP|TMPDIR|\/tmp\/|CI_PROJECT_DIR|dry[-_]run)\b|\s-n\b/
  condition:
    $both and #neg >= 0
}

/* A secret published: a public gist of an environment or key file, the user's package sent to
 * a registry on a host no one configured (a literal URL that is not the public registry, the
 * user's own configured one or localhost). */
rule scope_publish_to_stranger {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "publishes secrets or the project to the public or to an unknown host (a public gist of .env, a publish to a stranger's registry)"
  strings:
    $gist = /\bgh\s+gist\s+create\b[^\n]{0,80}(\.env\b|\.npmrc|\.pypirc|\.netrc|credentials|id_rsa|id_ed25519|\.pem\b|secrets?\.(ya?ml|json|toml))/
    $publish = /\b(npm|pnpm|yarn)\s+publish\b[^\n]{0,60}--registry[= ]["']?https?:\/\/[\w.-]+/
    $twine = /\btwine\s+upload\b[^\n]{0,60}(--repository-url|--repository)[= ]["']?https?:\/\/[\w.-]+|\bgem\s+push\b[^\n]{0,60}--host[= ]["']?https?:\/\/[\w.-]+/
    $veto_known = /https?:\/\/(registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com|localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|upload\.pypi\.org|test\.pypi\.org|rubygems\.org|rubygems\.pkg\.github\.com|pkgs\.dev\.azure\.com|[\w-]+\.jfrog\.io|gitlab\.com|verdaccio)/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    ($gist or $publish or $twine) and #neg >= 0 and #veto_known >= 0
}

/* Secrets archived and handed to a file-transfer upload: the archive's members are the
 * environment file, secret or credential folders. */
rule scope_secrets_archive_uploaded {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "medium"
    message = "archives secret files (.env, secrets/, credentials) and uploads the archive"
  strings:
    $tar = /\b(tar\s+-?[czfvj]+|zip\s+(-r\s+)?|7z\s+a)\s+[^\n]{0,60}\s(\.env\b|secrets?\/|credentials\b|\.ssh\b|\.aws\b|\.kube\b|\.gnupg\b|\.npmrc|\.netrc)/
    $up = /\bcurl\b[^\n]{0,60}(--upload-file|-T\s|-F\s*["']?\w+=@)|\bwget\b[^\n]{0,40}--(post|body)-file\b|\b(Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^\n]{0,80}-InFile\b|\brclone\s+(copy|copyto|move)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|exclude|redact)\b/ nocase
  condition:
    $tar and $up and #neg >= 0
}

/* Saved passwords of browsers and password managers (LaZagne's stores) copied, archived or
 * sent: Firefox's logins.json with key4.db (the key that decrypts it), Chrome's Login Data,
 * Cookies and History, KeePass databases. */
rule scope_password_store_taken {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "high"
    prose = "medium"
    message = "copies or sends a browser's or password manager's store (saved logins with their key, cookies, history, a KeePass database)"
  strings:
    $ff_pair = /\blogins\.json\b[^\n]{0,80}\bkey[34]\.db\b|\bkey[34]\.db\b[^\n]{0,80}\blogins\.json\b/
    $store = /\blogins\.json\b|\bkey[34]\.db\b|\bsignons\.sqlite\b|Login Data|\bCookies\b|(\\|\/)History\b|\.kdbx\b|\.opvault\b|\.agilekeychain\b|\bwallet\.dat\b|\.keychain-db\b/
    $ctx_move = /-InFile\b|--upload-file\b|\b(FileUtils\.(cp|copy|cp_r|mv)|shutil\.(copy\w*|move|make_archive)|copyFileSync|fs\.(copyFile|cp)\w*|Copy-Item|UploadFile|UploadData|zipfile|ZipFile|Compress-Archive|files\s*=\s*\{|FormData|readFileSync|File\.(read|binread|open)|open\s*\()/
    $ctx_egress = /-InFile\b|--upload-file\b|\b(UploadFile|UploadData|requests\.post|Net::HTTP|HTTP::Tiny|fetch\s*\(|axios|Invoke-WebRequest|Invoke-RestMethod|curl|wget)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|red\s+flag|exclude|skip)\b/ nocase
  condition:
    is_script and #neg >= 0 and ($ff_pair or ($store and $ctx_move and ($ctx_egress or #store >= 2)))
}

/* Secret values of the environment printed where the agent or a log reads them: the grep for
 * KEY/TOKEN/SECRET names keeps their values (cutting at "=" keeps only the names). */
rule scope_env_secrets_printed {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "high"
    prose = "medium"
    message = "prints the values of the environment's secrets (KEY/TOKEN/SECRET/PASSWORD variables)"
  strings:
    $grep = /\b(env|printenv|set|export\s+-p|Get-ChildItem\s+env:|gci\s+env:|dir\s+env:)\s*\|\s*(grep|egrep|rg|findstr|Select-String|Where-Object)\b[^\n]{0,40}(key|token|secret|passw|auth|cred)/ nocase
    $py = /\bos\.environ\.items\s*\(\s*\)[^\n]{0,80}(KEY|TOKEN|SECRET|PASS)/
    $neg_names = /\|\s*(cut\s+-d\s*["']?=|sed\s+["']?s\/=\.\*\/\/|awk\s+-F\s*["']?=["']?\s+["']?\{\s*print\s+\$1)|-o\s+["']?\^\[|--names?-only|\bcompgen\s+-v\b/
    $neg = /\b(never|don'?t|do\s+not|redact|mask)\b/ nocase
  condition:
    ($grep or $py) and #neg >= 0 and #neg_names >= 0
}

/* Registry logins and cluster secrets decoded or dumped in clear: docker's config.json auths
 * through base64 -d, every Secret of every namespace as YAML or JSON. */
rule scope_secrets_decoded {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "high"
    prose = "medium"
    message = "decodes or dumps stored secrets in clear (registry logins from docker's config.json, every Kubernetes Secret)"
  strings:
    $docker = /\.auths\b[^\n]{0,80}(\.docker\/config\.json|config\.json)[^\n]{0,40}\|\s*base64\s+(-d|--decode|-D)\b|\bauths\[[^\n]{0,40}\]\.auth\b[^\n]{0,80}base64\s+(-d|--decode)/
    $k8s = /\bkubectl\s+get\s+secrets?\s+[^\n|]{0,30}(-A|--all-namespaces)\b[^\n|]{0,30}-o\s*=?\s*(yaml|json)\b|\bkubectl\s+get\s+secrets?\s+[^\n|]{0,30}-o\s*=?\s*(yaml|json)\b[^\n|]{0,30}(-A|--all-namespaces)\b/
    $neg = /\b(never|don'?t|do\s+not|redact|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    ($docker or $k8s) and #neg >= 0
}

/* A fake system password prompt (the Atomic Stealer technique): a dialog with a hidden answer
 * whose text is kept. */
rule scope_fake_password_prompt {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "high"
    prose = "medium"
    message = "asks for the login password in a home-made system dialog and keeps the answer"
  strings:
    $osa = /\bdisplay\s+dialog\b[^\n]{0,200}\bwith\s+hidden\s+answer\b/
    $kdialog = /\b(zenity\s+--password|kdialog\s+--password)\b[^\n]{0,120}(>|\|\s*tee\b|\$\()/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|stealer|detect(s|ion)?)\b/ nocase
  condition:
    ($osa or $kdialog) and #neg >= 0
}

/* A git hook written by the skill that runs code fetched from a host at each commit or push. */
rule scope_git_hook_fetches {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "writes a git hook that downloads and runs code on every commit or push"
  strings:
    $ctx_hook = /\.git[\/\\"', ]+hooks[\/\\"', ]+|["'](pre-commit|pre-push|post-checkout|post-merge|post-commit|prepare-commit-msg|commit-msg)["']/
    $dl = /(curl|wget)\s[^\n]{0,160}\|\s*(ba|z|da)?sh\b|\b(iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]{0,120}\|\s*(iex|Invoke-Expression)\b/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    is_script and $ctx_hook and $dl and #neg >= 0
}

/* A literal public key appended to authorized_keys: lasting login for whoever holds its
 * private half (the user's own key is read from their .pub file, or added by ssh-copy-id). */
rule scope_foreign_ssh_key {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "adds a stranger's public key to authorized_keys (lasting remote login)"
  strings:
    $key = /\b(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+)\s+AAAA[\w+\/=]{16,}[^\n]{0,120}(>>|\btee\s+-a)\s*["']?[^\n]{0,30}authorized_keys\b/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $key and #neg >= 0
}

/* A launch agent or daemon that starts at load and is kept alive, running a script from a
 * shared or temporary folder or a hidden file, or labelled as Apple's: a masquerading
 * implant (T1543.001, T1036). */
rule scope_launch_item_masquerade {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "high"
    message = "defines a launch agent kept alive that runs a hidden or shared-folder script, or poses as Apple's"
  strings:
    $ctx_keep = /<key>\s*(RunAtLoad|KeepAlive)\s*<\/key>\s*<true\s*\/>/
    $ctx_prog = /<key>\s*Program(Arguments)?\s*<\/key>/
    $where = /<string>\s*(\/Users\/Shared\/|\/private\/tmp\/|\/tmp\/|\/var\/tmp\/|~?\/[^<]{0,80}\/\.[\w-]+\.(sh|py|command|js|bin)\b)[^<]{0,120}<\/string>/
    $apple = /<key>\s*Label\s*<\/key>\s*<string>\s*com\.apple\.[^<]{1,80}<\/string>/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $ctx_keep and $ctx_prog and ($where or $apple) and #neg >= 0
}

/* A script launcher put in the user's Startup folder: runs at every logon with no installer
 * or entry to remove (T1547.001). */
rule scope_startup_script {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "puts a script launcher in the Startup folder (runs at every logon)"
  strings:
    $copy = /\b(copy|xcopy|move|cp|mv|Copy-Item|Move-Item)\b[^\n]{0,120}\.(vbs|vbe|js|jse|hta|wsf|bat|cmd|ps1|lnk|exe|scr)\b[^\n]{0,120}(Start Menu\\Programs\\Startup|shell:startup|\\Startup\\?["']?\s*$|Startup["']?\s*$|\[Environment\]::GetFolderPath\(\s*["']?Startup)/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $copy and #neg >= 0
}

/* A workload placed in kube-system (where a reviewer does not look) running an image from a
 * registry outside the well-known ones: a job that keeps coming back in the cluster. */
rule scope_k8s_system_workload {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "runs a recurring or per-node workload in kube-system from an unknown registry"
  strings:
    $ctx_kind = /\bkind:\s*["']?(CronJob|DaemonSet)\b/
    $ctx_ns = /\bnamespace:\s*["']?kube-system\b/
    $image = /\bimage:\s*["']?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[^\s"']+/
    $veto_known = /\bimage:\s*["']?(registry\.k8s\.io|k8s\.gcr\.io|gcr\.io|[\w-]+\.gcr\.io|quay\.io|ghcr\.io|docker\.io|public\.ecr\.aws|mcr\.microsoft\.com|[\w-]+\.azurecr\.io|\d+\.dkr\.ecr\.[\w-]+\.amazonaws\.com|registry\.gitlab\.com|nvcr\.io)\//
  condition:
    $ctx_kind and $ctx_ns and $image and #veto_known >= 0
}

/* A container of an image from an unknown registry, unpinned, given the user's whole home
 * directory or the host's root: remote code with the user's files (an official image pinned
 * by digest with a project mount is the ordinary case). */
rule scope_container_home_mount {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "runs an unpinned image from an unknown registry with the home directory or the host's root mounted"
  strings:
    $run = /\b(docker|podman|nerdctl)\s+run\b[^\n]{0,120}(-v|--volume|--mount)[= ]["']?(~|\$HOME|\$\{HOME\}|"\$HOME"|\/|\/home|\/Users|%USERPROFILE%|\$env:USERPROFILE)["']?:[^\n]{0,80}\s[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[\w.\/-]+(:[\w.-]+)?(\s|$)/
    $veto_pinned = /@sha256:|\s(docker\.io|ghcr\.io|mcr\.microsoft\.com|gcr\.io|quay\.io|public\.ecr\.aws|registry\.k8s\.io)\//
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $run and #veto_pinned >= 0 and #neg >= 0
}

/* A package run straight from a tarball or archive URL (npx -y, uvx --from, pipx run --spec):
 * no registry, no lock, no review, fetched and run on every start. */
rule scope_run_from_url {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "runs a package fetched from a tarball URL on every start (npx -y URL, uvx --from URL)"
  strings:
    $npx = /\bnpx\s+(-y\s+|--yes\s+)?(--package[= ])?["']?https?:\/\/[^\s"']+\.(tgz|tar\.gz|zip)\b/
    $uvx = /\b(uvx\s+--from|pipx\s+run\s+--spec|uv\s+tool\s+run\s+--from)\s+["']?https?:\/\/[^\s"']+\.(whl|tar\.gz|zip)\b/
    $veto_local = /https?:\/\/(localhost|127\.0\.0\.1|registry\.npmjs\.org|files\.pythonhosted\.org|codeload\.github\.com|github\.com)[:\/]/
  condition:
    ($npx or $uvx) and #veto_local >= 0
}

/* An install entry in a skill's frontmatter (metadata.openclaw.install) that downloads a
 * binary from a host and puts it on the PATH: the platform runs it without showing it. */
rule scope_frontmatter_download {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "high"
    message = "an install entry in the frontmatter downloads a program from a host onto the PATH"
  strings:
    $ctx_kind = /\bkind:\s*["']?download\b/
    $url = /\burl:\s*["']?https?:\/\/[^\s"']+/
    $ctx_dest = /\b(dest|path|bin|target):\s*["']?(~|\$HOME|\/usr\/local\/bin|\/usr\/bin|\/opt)[^\s"']*\/(bin|\.local)\b|\bchmod:\s*["']?[0-7]*[157]{2}\b|\bpostinstall:/
    $veto_known = /\burl:\s*["']?https:\/\/(github\.com\/[\w.-]+\/[\w.-]+\/releases\/download\/|objects\.githubusercontent\.com\/)/
  condition:
    filesize < 200KB and $ctx_kind and $url and $ctx_dest and #veto_known >= 0
}

/* An archive extracted with a password given in the same instructions, then its program run:
 * the lure hides its content from scanners. */
rule scope_password_archive_run {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "high"
    message = "extracts a password-protected archive (hidden from scanners) and runs the program in it"
  strings:
    $pw_cmd = /\b(7z|7za)\s+x\b[^\n]{0,80}\s-p\S+|\bunzip\s+[^\n]{0,40}-P\s+\S+/
    $pw_prose = /\b(extract|unzip|open|unpack)\b[^\n]{0,60}\b(with|using)\s+(the\s+)?password\b|\bpassword\s*(:|is)\s*`[^`\n]{2,30}`[^\n]{0,40}\b(extract|unzip|archive)/ nocase
    $ctx_exe = /\b[\w.-]+\.(exe|scr|msi|bat|cmd|app)\b/
    $run = /\b(run|launch|start|execute|open|double-click)\b[^\n]{0,40}\b[\w.-]+\.(exe|scr|msi|bat|cmd)\b|\bStart-Process\b|\bstart\s+["']?[\w.-]+\.exe\b/ nocase
    $ctx_dl = /https?:\/\/[^\s)"']+\.(zip|7z|rar)\b/
  condition:
    ($pw_cmd or $pw_prose) and $ctx_exe and $run and $ctx_dl
}

/* The same in an MCP server's configuration (command npx, args -y and a tarball URL): pasted
 * as it stands, so high in prose too. */
rule scope_mcp_from_url {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "high"
    message = "an MCP server configured to run a package fetched from a tarball URL on every start"
  strings:
    $json = /["'](-y|--yes)["']\s*,\s*["']https?:\/\/[^"'\s]+\.(tgz|tar\.gz|zip)["']/
    $ctx_npx = /["']?command["']?\s*[:=]\s*["'](npx|bunx|pnpx)["']/
    $veto_local = /https?:\/\/(localhost|127\.0\.0\.1|registry\.npmjs\.org|codeload\.github\.com)[:\/]/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    $json and $ctx_npx and #veto_local >= 0 and #neg >= 0
}

/* Gatekeeper or quarantine turned off for every app, not lifted from one verified download:
 * every later download runs unchecked (T1553.001). */
rule scope_gatekeeper_off {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "turns Gatekeeper or download quarantine off for every app"
  strings:
    $off = /\bspctl\s+(--master-disable|--global-disable|--disable\s*$)|\bdefaults\s+write\s+com\.apple\.LaunchServices\s+["']?LSQuarantine["']?\s+-bool\s+(NO|false)\b/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|stealers?|detect(s|ion)?)\b/ nocase
  condition:
    $off and #neg >= 0
}

/* The login records emptied (wtmp, btmp, lastlog, utmp): who logged in, and failed to, gone
 * (T1070.002). Reading them (last, lastb, utmpdump) is not this. */
rule scope_login_records_wiped {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "empties the system's login records (wtmp, btmp, lastlog)"
  strings:
    $records = /\/var\/(log|run)\/(wtmp|btmp|lastlog|utmp|faillog)\b/
    $ctx_wipe = /:\s*\|\s*(sudo\s+)?tee\b|\btruncate\s+(-s\s*0|--size[= ]0)|\bcat\s+\/dev\/null\s*>|(^|[;&\n]|do)\s*:?\s*>\s*["']?(\$|\/var)|\bshred\b|\brm\s+(-f\s+)?["']?(\$|\/var\/log\/(wtmp|btmp|lastlog))|\bdd\s+if=\/dev\/(zero|null)\b|open\s*\([^\n]{0,60}["']w["']/
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|last\s+-f|lastb|utmpdump)\b/ nocase
  condition:
    is_script and $records and $ctx_wipe and #neg >= 0
}

/* The account or password databases made writable by everyone from code (os.chmod,
 * fs.chmodSync, File.chmod): any user can then add a uid-0 account. */
rule scope_account_db_world_writable {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "makes /etc/passwd, shadow, group or sudoers writable by every user"
  strings:
    $py = /\b(os\.chmod|fs\.chmodSync|fs\.chmod|fs\.promises\.chmod|Path\s*\(\s*["']\/etc\/\w+["']\s*\)\.chmod)\s*\(\s*(["']\/etc\/(passwd|shadow|group|gshadow|sudoers)["']\s*,\s*)?0o?[0-7]?[0-7][0-7][2367]\b/
    $ctx_db = /["']\/etc\/(passwd|shadow|group|gshadow|sudoers)["']/
    $rb = /\bFile\.chmod\s*\(\s*0o?[0-7]?[0-7][0-7][2367]\s*,\s*["']\/etc\/(passwd|shadow|group|gshadow|sudoers)["']/
  condition:
    ($py and $ctx_db) or $rb
}

/* A miner's configuration: a pool address with a Monero wallet as its user (xmrig's config
 * format), whatever the file or the binary is called. */
rule scope_miner_config {
  meta:
    id = "audit/mining"
    category = "mining"
    severity = "high"
    prose = "medium"
    message = "holds a cryptocurrency miner's configuration (a pool with a wallet address)"
  strings:
    $wallet = /["']?(user|wallet|address|login)["']?\s*[:=]\s*["'][48][1-9A-HJ-NP-Za-km-z]{94}(\.[\w-]+)?["']/
    $ctx_pool = /["']?(pools|url|pool|host)["']?\s*[:=]\s*[\[{]?\s*["']?(stratum\+(tcp|ssl|tls):\/\/)?[\w.-]+:\d{2,5}["']?/
  condition:
    $wallet and $ctx_pool
}

/* Secret files gathered from the whole home directory or drive and read out (every .env, key
 * or token file under ~, not the project's own): a harvest wherever it is written. */
rule scope_secret_files_harvested {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "high"
    prose = "high"
    message = "gathers every secret file under the home directory or drive and reads them out"
  strings:
    $find = /\bfind\s+["']?(~|\$HOME|\$\{HOME\}|\/|\/home|\/Users|\/root)\/?["']?\s[^\n|]{0,80}-i?name\s+["']?\*?(\.env|id_rsa|id_ed25519|\*\.pem|\.npmrc|\.netrc|\.pypirc|credentials|\*\.kdbx|\.git-credentials|wallet\.dat)[^\n]{0,80}(\|\s*xargs\s+(-0\s+)?(cat|head|tail|grep|tar|zip|curl)\b|-exec\s+(cat|head|tail|grep|tar|zip|curl)\b)/
    $ps = /\b(Get-ChildItem|gci|dir|ls)\s+[^\n|]{0,40}(\$env:USERPROFILE|\$HOME|~|[A-Z]:\\)[^\n|]{0,80}-(Recurse|Include|Filter)\s[^\n|]{0,80}(\.env|\.kdbx|\.pem|id_rsa|credentials)[^\n]{0,80}\|\s*(Get-Content|gc|cat|Compress-Archive|Copy-Item)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not\s+(run|use|read)|attackers?|malicious|detect(s|ion)?|red\s+flag)\b/ nocase
  condition:
    ($find or $ps) and #neg >= 0
}

/* A secret's contents put in a Markdown image's or link's URL: sent when the client renders
 * it, with no tool call to approve (the image exfiltration of prompt injections). */
rule scope_secret_in_rendered_url {
  meta:
    id = "audit/exfiltration"
    category = "exfiltration"
    severity = "high"
    prose = "high"
    message = "puts a secret's contents into the URL of an image or link the client renders"
  strings:
    $img = /!?\[[^\]\n]{0,80}\]\(\s*https?:\/\/[^)\s]{1,200}[?&#][^)\n]{0,120}(contents?\s+of|\$\(\s*cat\b|\{\{?\s*(file|read|cat)\b)[^)\n]{0,60}(\.aws\/credentials|\.ssh\/id_|\.env\b|\.npmrc|\.netrc|\.git-credentials|\.kube\/config|\.docker\/config\.json|api[_ -]?key|token|secret|password)/ nocase
    $neg = /\b(never|don'?t|do\s+not|attackers?|malicious|detect(s|ion)?|red\s+flag|example\s+of\s+(an?\s+)?(attack|exfiltration))\b/ nocase
  condition:
    $img and #neg >= 0
}

/* Orders to the agent, or the paths of secrets, hidden in base64: a "configuration token" the
 * agent is told to decode and follow. No benign blob (an image, a key, a manifest) decodes to
 * these words. YARA's base64 modifier matches each at any of its three alignments. */
rule scope_encoded_orders {
  meta:
    id = "audit/obfuscated"
    category = "encoded-exec"
    severity = "high"
    message = "holds, in base64, orders to the agent or a secret's path (decoded: an instruction the user cannot read)"
  strings:
    $b1 = "do not mention" base64
    $b2 = "do not tell" base64
    $b3 = "Do not tell" base64
    $b4 = "Do not mention" base64
    $b6 = "ignore previous" base64
    $b7 = "ignore all previous" base64
    $b8 = "Ignore all previous" base64
    $b9 = ".aws/credentials" base64
    $b10 = ".ssh/id_" base64
    $b11 = "without telling" base64
    $b12 = "without asking" base64
    $b13 = ".git-credentials" base64
  condition:
    any of them
}

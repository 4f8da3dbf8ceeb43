/* The supply chain turned against the user (ATT&CK T1195.001, T1552.005): package installs
 * pointed at a registry that is not the language's own, lifecycle hooks that fetch and run
 * code when a package is installed or built, the cloud's instance-metadata credentials read,
 * and CI workflows that run a stranger's pull request with the repository's secrets. */

/* A package manager pointed at a registry or index that is not the official one: every later
 * install can be answered by that host. The official hosts and well-known vendor indexes
 * (PyTorch, NVIDIA) are vetoed; a localhost registry is a developer's own. */
rule supply_chain_registry {
  meta:
    id = "audit/supply-chain"
    category = "supply-chain"
    severity = "high"
    prose = "medium"
    message = "points a package manager at a registry or index that is not the official one"
  strings:
    $npm = /\b(npm|yarn|pnpm|bun)\s+config\s+set\s+(@[\w-]+:)?registry\s+["']?https?:\/\/[^\s"']+|\becho\s+["']?(@[\w-]+:)?registry\s*=\s*https?:\/\/[^\s"']+[^\n]{0,20}>>?\s*[^\n]{0,30}\.npmrc\b/
    $pip = /\bpip[0-9.]*\s+config\s+set\s+global\.(extra-)?index-url\s+["']?https?:\/\/[^\s"']+|\bPIP_(EXTRA_)?INDEX_URL\s*=\s*["']?https?:\/\/[^\s"']+|\b(UV_(EXTRA_)?INDEX_URL|UV_DEFAULT_INDEX)\s*=\s*["']?https?:\/\/[^\s"']+/
    $gem = /\bgem\s+sources\s+(-a|--add)\s+https?:\/\/[^\s"']+|\bbundle\s+config\s+(set\s+)?mirror\.[^\n]{0,80}https?:\/\/[^\s"']+|\bGOPROXY\s*=\s*["']?https?:\/\/[^\s"',]+|\bcargo\b[^\n]{0,60}--index\s+["']?(sparse\+)?https?:\/\/[^\s"']+/
    $veto_official = /https?:\/\/(registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|npm\.pkg\.github\.com|pypi\.org|pypi\.python\.org|files\.pythonhosted\.org|test\.pypi\.org|download\.pytorch\.org|pypi\.nvidia\.com|pypi\.ngc\.nvidia\.com|data\.pyg\.org|storage\.googleapis\.com\/jax-releases|rubygems\.org|proxy\.golang\.org|goproxy\.io|goproxy\.cn|index\.crates\.io|localhost|127\.0\.0\.1|0\.0\.0\.0|\$|\{|<|\.\.\.)/
    $veto_placeholder = /(example\.(com|org|net)|your[-_.]|my[-_.]?(company|org|registry)|internal\.|corp\.|private\.|artifactory|nexus|jfrog|gitlab|azure|pkgs\.dev|codeartifact|amazonaws\.com)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attacker|malicious|confusion|typosquat)\b/ nocase
  condition:
    any of ($npm, $pip, $gem) and #neg >= 0 and #veto_official >= 0 and #veto_placeholder >= 0
}

rule supply_chain_registry_once {
  meta:
    id = "audit/supply-chain"
    category = "supply-chain"
    severity = "high"
    prose = "medium"
    block = "medium"
    message = "installs a package from a registry or index that is not the official one"
  strings:
    $npm = /\b(npm|pnpm|yarn)\s+(install|i|add)\b[^\n]{0,120}--registry[\s=]+["']?https?:\/\/[^\s"']+/
    $pip = /\bpip[0-9.]*\s+install\b[^\n]{0,120}(--extra-index-url|--index-url|-i)[\s=]+["']?https?:\/\/[^\s"']+|\buv\s+(pip\s+install|add)\b[^\n]{0,120}(--extra-index-url|--index-url|--index)[\s=]+["']?https?:\/\/[^\s"']+/
    $veto_official = /https?:\/\/(registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|npm\.pkg\.github\.com|pypi\.org|pypi\.python\.org|files\.pythonhosted\.org|test\.pypi\.org|download\.pytorch\.org|pypi\.nvidia\.com|pypi\.ngc\.nvidia\.com|data\.pyg\.org|storage\.googleapis\.com\/jax-releases|rubygems\.org|proxy\.golang\.org|goproxy\.io|goproxy\.cn|index\.crates\.io|localhost|127\.0\.0\.1|0\.0\.0\.0|\$|\{|<|\.\.\.)/
    $veto_placeholder = /(example\.(com|org|net)|your[-_.]|my[-_.]?(company|org|registry)|internal\.|corp\.|private\.|artifactory|nexus|jfrog|gitlab|azure|pkgs\.dev|codeartifact|amazonaws\.com)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attacker|malicious|confusion|typosquat)\b/ nocase
  condition:
    any of ($npm, $pip) and #neg >= 0 and #veto_official >= 0 and #veto_placeholder >= 0
}

/* A package's lifecycle hook that fetches or runs code at install or build time: npm's
 * pre/post/install scripts, setup.py's cmdclass, a Cargo build script reaching the network. */
rule supply_chain_lifecycle_hook {
  meta:
    id = "audit/supply-chain"
    category = "supply-chain"
    severity = "high"
    prose = "medium"
    message = "a package's install or build hook fetches from the network or runs code"
  strings:
    $npm = /["'](pre|post)?install["']\s*:\s*["'][^"'\n]{0,200}(\bcurl\b|\bwget\b|https?:\/\/|\bnode\s+-e\b|\b(ba|z)?sh\s+-c\b|\bpowershell\b|\biwr\b|\beval\b|\|\s*(ba|z)?sh\b|base64)/
    $ctx_setup = /\bcmdclass\s*=\s*\{[^}\n]{0,200}["'](install|develop|egg_info|build_py|bdist_wheel)["']/
    $setup_sink = /\b(urllib\.request\.urlopen|urlretrieve|requests\.(get|post)|os\.system|subprocess\.(run|call|Popen|check_output|check_call)|exec)\s*\(/
    $ctx_buildrs = /\bfn\s+main\s*\(\s*\)[^\n]{0,20}\{/
    $buildrs_sink = /\bCommand::new\s*\(\s*["'](curl|wget|sh|bash|powershell|cmd)["']|\breqwest::blocking::get\s*\(|\bureq::get\s*\(/
    $ctx_cargo_out = /\bcargo:rerun-if|\bOUT_DIR\b|\bcargo:rustc/
  condition:
    $npm or ($ctx_setup and $setup_sink) or ($ctx_buildrs and $ctx_cargo_out and $buildrs_sink)
}

/* The cloud's instance-metadata service asked for the machine's credentials: AWS, GCP, Azure,
 * Alibaba and ECS task roles. The address alone (a health check) is medium. */
rule supply_chain_cloud_metadata {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "high"
    prose = "medium"
    message = "reads cloud credentials from the instance-metadata service"
  strings:
    $creds = /(169\.254\.169\.254|metadata\.google\.internal|100\.100\.100\.200|169\.254\.170\.2|\[?fd00:ec2::254\]?)[^\s"'`]{0,40}\/(latest\/meta-data\/iam\/security-credentials|latest\/api\/token|computeMetadata\/v1\/instance\/service-accounts|metadata\/identity\/oauth2\/token|latest\/meta-data\/ram\/security-credentials|v2\/credentials)|\$AWS_CONTAINER_CREDENTIALS_(RELATIVE|FULL)_URI\b/
    $neg = /\b(never|don'?t|do\s+not|block|deny|SSRF|detect|attacker|malicious)\b/ nocase
  condition:
    $creds and #neg >= 0
}

rule supply_chain_cloud_metadata_address {
  meta:
    id = "audit/credentials"
    category = "credential-read"
    severity = "medium"
    prose = "low"
    message = "reaches the cloud's instance-metadata service"
  strings:
    $addr = /\b(curl|wget|requests\.get|fetch|urlopen|Invoke-RestMethod|irm|iwr|http\.Get)\b[^\n]{0,80}(169\.254\.169\.254|metadata\.google\.internal|100\.100\.100\.200)/
  condition:
    is_script and $addr
}

/* CI that runs a stranger's code with the repository's privileges: a pull_request_target
 * workflow that checks out the pull request's head, or secrets printed past the log masking (a
 * secret decoded with `base64 -d` into a file or a login is not printed). */
rule supply_chain_ci_privilege {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "a CI workflow runs a pull request's code with the repository's secrets, or prints secrets past the log's masking"
  strings:
    $ctx_prt = /(^|\n)\s*(on:\s*)?\[?\s*pull_request_target\b|\bon:\s*\[[^\]\n]{0,60}\bpull_request_target\b/
    $head = /\bref:\s*["']?\$\{\{\s*github\.event\.pull_request\.head\.(sha|ref)\s*\}\}|\bref:\s*["']?refs\/pull\/\$\{\{[^\n]{0,60}\}\}\/(head|merge)/
    $leak = /\b(echo|printf|cat|Write-Output|Write-Host)\b[^\n]{0,80}\$\{\{\s*(secrets\.[A-Za-z_]\w*|toJSON\(\s*secrets\s*\))\s*\}\}[^\n]{0,80}\|\s*(base64(\s+(-w\s*0|--wrap[= ]0|-i))?\s*([|;)'"`]|\n|$)|xxd|od|rev|sed\s+['"]s\/\.\/|tr\b|openssl\s+enc|gzip)|\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}/
  condition:
    ($ctx_prt and $head) or $leak
}

/* Round 10: a package whose code comes from a URL instead of its registry: a package.json
 * dependency given as a tarball or git+https URL, a requirement `name @ https://...`, or pip,
 * npm, pnpm or yarn run from a program or a script on such a URL (one rule since round 11: the
 * catalogue's twin of it was folded in). Whoever serves the archive writes the install scripts (npm's
 * lifecycle hooks, setup.py) that run with the user's rights. The registries, GitHub and the
 * well-known wheel hosts are vetoed (a pinned release there is how projects ship fixes). */
rule supply_chain_url_dependency {
  meta:
    id = "audit/supply-chain"
    category = "supply-chain"
    severity = "high"
    prose = "medium"
    text = "high" /* requirements.txt is a manifest, not prose */
    message = "installs a package from an archive URL on a host that is not a registry: its install scripts are that host's"
  strings:
    $npm_dep = /"[@\w][\w@.\/-]{0,80}"\s*:\s*"(https?:\/\/[^"\s]{4,200}\.(tgz|tar\.gz|zip)|https?:\/\/[^"\s]{4,200}\/-\/[^"\s]+\.tgz|git\+https?:\/\/[^"\s]{4,200})"/
    $req_url = /(^|\n)[ \t]*["']?[A-Za-z0-9][\w.-]{0,60}(\[[\w,.-]+\])?\s*@\s*https?:\/\/[^\s"';]{4,200}\.(tar\.gz|tgz|zip|whl)\b/
    $run = /\b(pip3?|npm|pnpm|yarn)["']?\s*,?\s*["']?\s*(install|add|i)\b["']?[^\n)\]]{0,120}\n?[^\n)\]]{0,120}["'\s](https?:\/\/[^\s"']+\.(tar\.gz|tgz|zip|whl)|git\+https?:\/\/[^\s"']+)/
    $pip_argv = /["']pip[0-9.]*["']\s*,\s*["']install["'][^\]\n]{0,200}(\n[^\]\n]{0,200}){0,3}["']https?:\/\/[^"'\s]{4,200}\.(tar\.gz|tgz|zip|whl)["']/
    /* a URL in any JSON (an API example's "source") is not a dependency: package.json's lists */
    $ctx_deps = /"(dependencies|devDependencies|optionalDependencies|peerDependencies|bundleDependencies)"\s*:\s*\{/
    $veto_lock = /"(resolved|tarball)"\s*:/ /* a lock file says where a registry served it from */
    $veto_host = /https?:\/\/(registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com|codeload\.github\.com|github\.com|objects\.githubusercontent\.com|gitlab\.com|files\.pythonhosted\.org|pypi\.org|download\.pytorch\.org|data\.pyg\.org|huggingface\.co|storage\.googleapis\.com\/jax-releases|pypi\.nvidia\.com|localhost|127\.0\.0\.1)[\/:]|https?:\/\/([\w-]+\.)*(github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|pypi\.org|pythonhosted\.org|npmjs\.org|npmjs\.com)\/|:\/\/[^\s\/]*(<|\$|\{|your[-_.])/
    $neg = /\b(never|don'?t|do\s+not|avoid|attacker|malicious)\b/ nocase
  condition:
    (($npm_dep and $ctx_deps) or $req_url or $pip_argv or $run) and #veto_host >= 0 and #veto_lock >= 0 and #neg >= 0
}

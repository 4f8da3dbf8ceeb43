/* Round 15: a stranger's package source added to the user's package manager. Every manager
 * has the same verb: add a plugin repository, channel, bucket, tap or index by URL, then install
 * from it; whatever that host serves then installs and runs (asdf plugins' bin/ scripts, conda
 * link scripts, scoop manifests' installers, a tap's formulae, cargo's build.rs). The property is
 * "a source added from a URL on a host that is not a well-known forge or the tool's own index";
 * a bare IP address as a source is a stranger whatever the tool. */

rule flow_stranger_package_source {
  meta:
    id = "audit/download-exec"
    category = "download-exec"
    severity = "high"
    prose = "medium"
    message = "adds a package source (plugin repository, channel, bucket, tap, index) from a URL on an unknown host and installs from it"
  strings:
    /* <tool> <source-noun> add NAME URL; a conda or cargo install with the source as a flag;
     * each beside the same verb with a forge's, the tool's own or a placeholder host */
    $add_plugin = /\b(asdf|mise|rtx|vfox|scoop|brew|krew|poetry|pdm|gem|vagrant|proto)\s+(plugins?|buckets?|tap|repo|index|sources?|source\s+add)\s+(add|install|-a|--add)?\s*(--\S+\s+)*([\w.\/@-]+\s+)?["\']?(https?|git\+https?|ssh|git):\/\/[^\s"\'\/]+/
    $known_plugin = /\b(asdf|mise|rtx|vfox|scoop|brew|krew|poetry|pdm|gem|vagrant|proto)\s+(plugins?|buckets?|tap|repo|index|sources?|source\s+add)\s+(add|install|-a|--add)?\s*(--\S+\s+)*([\w.\/@-]+\s+)?["\']?(https?|git\+https?|ssh|git):\/\/(([\w-]+\.)*(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|sr\.ht|githubusercontent\.com|rubygems\.org|pypi\.org|localhost|[\w-]*(company|corp|internal|private|intranet)[\w-]*\.[\w.-]+|example\.(com|org)|127\.0\.0\.1)|[^\s"\'\/]*(<|\$|\{|your[-_.]|\.\.\.))/
    $add_conda = /\b(conda|mamba|micromamba)\s+(install|create|update|env\s+create)\b[^\n]{0,200}\s(-c|--channel)[\s=]+["\']?https?:\/\/[^\s"\'\/]+/
    $known_conda = /\b(conda|mamba|micromamba)\s+(install|create|update|env\s+create)\b[^\n]{0,200}\s(-c|--channel)[\s=]+["\']?https?:\/\/(([\w-]+\.)*(anaconda\.(org|com|cloud)|prefix\.dev|nvidia\.com|pytorch\.org|localhost)|[^\s"\'\/]*(<|\$|\{|your[-_.]|\.\.\.))/
    $add_conda_cfg = /\b(conda|mamba|micromamba)\s+config\s+[^\n]{0,40}--(add|append|prepend)\s+channels\s+["\']?https?:\/\/[^\s"\'\/]+/
    $known_conda_cfg = /\b(conda|mamba|micromamba)\s+config\s+[^\n]{0,40}--(add|append|prepend)\s+channels\s+["\']?https?:\/\/(([\w-]+\.)*(anaconda\.(org|com|cloud)|prefix\.dev|nvidia\.com|pytorch\.org|localhost)|[^\s"\'\/]*(<|\$|\{|your[-_.]|\.\.\.))/
    $add_cargo = /\bcargo\s+install\s+[^\n]{0,120}--git[\s=]+["\']?(https?|ssh|git):\/\/[^\s"\'\/]+/
    $known_cargo = /\bcargo\s+install\s+[^\n]{0,120}--git[\s=]+["\']?(https?|ssh|git):\/\/(([\w-]+\.)*(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|sr\.ht|githubusercontent\.com|rubygems\.org|pypi\.org|localhost|[\w-]*(company|corp|internal|private|intranet)[\w-]*\.[\w.-]+|example\.(com|org)|127\.0\.0\.1)|[^\s"\'\/]*(<|\$|\{|your[-_.]|\.\.\.))/
    $add_os = /\b(zypper\s+(ar|addrepo)|dnf\s+config-manager\s+--add-repo|yum-config-manager\s+--add-repo|apk\s+add\s+[^\n]{0,80}--repository)(\s+-\S+)*[\s=]+["\']?https?:\/\/[^\s"\'\/]+/
    $known_os = /\b(zypper\s+(ar|addrepo)|dnf\s+config-manager\s+--add-repo|yum-config-manager\s+--add-repo|apk\s+add\s+[^\n]{0,80}--repository)(\s+-\S+)*[\s=]+["\']?https?:\/\/(([\w-]+\.)*(opensuse\.org|fedoraproject\.org|centos\.org|redhat\.com|alpinelinux\.org|docker\.com|microsoft\.com|hashicorp\.com|nvidia\.com|google\.com|github\.io|localhost)|[^\s"\'\/]*(<|\$|\{|your[-_.]|\.\.\.))/
    /* a source given as a bare IP address (an apt line or an index included) */
    $add_ip = /\b(deb(-src)?\s+(\[[^\]\n]{0,120}\]\s+)?|--(extra-)?index-url[\s=]+["']?|\s-i\s+|--registry[\s=]+["']?|registry\s*=\s*["']?|helm\s+repo\s+add\s+[\w.-]+\s+|GOPROXY\s*=\s*["']?)https?:\/\/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/
  condition:
    #add_plugin > #known_plugin or #add_conda > #known_conda or #add_conda_cfg > #known_conda_cfg or
      #add_cargo > #known_cargo or #add_os > #known_os or $add_ip
}

/* Round 16 (issue 45): a safety control set to "allow all", as properties of the setting rather
 * than of the tool: TLS or host verification off for every host in a config file, an agent's
 * confirmation off for every action, a CI runner or container both privileged and given the
 * host (its docker socket or its root), a cluster role bound to every identity. The narrow
 * forms (localhost only, one host, read-only tools, one service account) are not matched. */

/* TLS verification off for every host in a tool's config: an insecure-host / trusted-host /
 * insecure-registries list holding a wildcard (`*`, `0.0.0.0/0`, `*.com`), git's [http] with
 * sslVerify false for every remote, wget's check_certificate off, yarn's and conda's TLS off. */
rule tls_off_every_host_config {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    prose = "medium"
    message = "turns TLS verification off for every host in a tool's configuration (a wildcard insecure-host, sslVerify false for every remote)"
  strings:
    $wild = /\b(allow[-_]insecure[-_]hosts?|trusted[-_]hosts?|insecure[-_]registries|insecureRegistries|insecure[-_]hosts?|GOINSECURE|GONOSUMCHECK|GONOSUMDB|no[-_]verify[-_]hosts?)["']?\s*[:=]\s*[^\n]{0,300}["'\s\[,=](\*|\*\.\*|\*:\*|0\.0\.0\.0\/0|::\/0|\*\.(com|org|net|io|dev|app|co|ai|xyz|info|biz|[a-z]{2}))["'\s\],]/
    $git_all = /\[http\][ \t]*\r?\n([ \t]*[\w.-]+\s*=[^\n]*\n){0,8}[ \t]*sslVerify\s*=\s*(false|0|no)\b/ nocase
    $wgetrc = /(^|\n)[ \t]*check_certificate\s*=\s*(off|0|no|false)\b/
    $yarn = /\benableStrictSsl\s*:\s*["']?false\b/
    $conda = /(^|\n)[ \t]*ssl_verify\s*:\s*(false|no|False)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    (any of them) and #neg >= 0
}

/* An agent told to accept every action unasked, in its config: a yes-to-everything or
 * auto-approve key set true (or to `*`), a permission map allowing `*` or the shell outright.
 * A list of named read-only tools is the user's narrow choice and is not matched. */
rule agent_confirmation_off_everything {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    prose = "medium"
    message = "configures an agent to accept every command and edit without asking (yes-always, auto-approve everything, permission allow for *)"
  strings:
    $key = /(^|\n|[{,])[ \t]*["']?((yes[-_]?always|always[-_]?(yes|approve|allow|accept)|auto[-_]?(approve|approval|accept|confirm)[-_]?(all|everything|commands|shell|tools)|approve[-_]?all|skip[-_]?permissions?|dangerously[-_]?skip[-_]?permissions|bypass[-_]?permissions)["']?\s*[:=]\s*(["']?(true|yes|on|always|all)["']?|\[\s*["']\*["']\s*\])|auto[-_]?(approve|approval|accept|confirm)["']?\s*[:=]\s*\[\s*["']\*["']\s*\])[ \t]*(,|\r?\n|$|\}|#)/ nocase
    $perm = /["']?permissions?["']?\s*[:=]\s*\{[^}]{0,200}["']?(\*|bash|shell|exec|command|run_shell_command)["']?\s*[:=]\s*["'](allow|always|auto)["']|["']permissions?["']\s*:\s*["']allow["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    (any of them) and #neg >= 0
}

/* A CI runner or a container both privileged and handed the host: the docker socket or the
 * host's root folder mounted in (every job it runs is root on the host). Privileged alone
 * (docker-in-docker) or the socket alone, read-only (a proxy reading labels), is not matched. */
rule container_privileged_with_host {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "runs containers privileged with the host's docker socket or root folder mounted in (every job is root on the host)"
  strings:
    $privileged = /\bprivileged["']?\s*[:=]\s*["']?true\b/
    $socket = /\/(var\/)?run\/docker\.sock(:\/[\w\/.-]*docker\.sock)?(["'\s,\]]|$)/
    $root = /["'\s\[]\/:\/[\w\/.-]*(:rw)?["'\s,\]]|\bhostPath:\s*\r?\n\s*path:\s*["']?\/["']?\s*(\r?\n|$)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    ($privileged and ($socket or $root)) and #neg >= 0
}

/* A (Cluster)RoleBinding or `kubectl create ...binding` whose subject is every identity
 * (system:authenticated, system:unauthenticated, system:anonymous, every service account), in a
 * manifest that grants secrets, `*` or an admin role. A narrow role (basic-user, discovery) is
 * not matched. */
rule k8s_power_bound_to_everyone {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "binds a cluster role that reads secrets or administers the cluster to every identity (system:authenticated, anonymous, every service account)"
  strings:
    $everyone = /\bname["']?\s*:\s*["']?system:(authenticated|unauthenticated|anonymous|serviceaccounts)["']?[ \t]*(\r?\n|$|,|\})|--(group|user)[= ]["']?system:(authenticated|unauthenticated|anonymous|serviceaccounts)\b/
    $ctx_power = /\bresources["']?\s*:\s*\[[^\]\n]{0,200}["'](secrets|\*)["']|\bresources["']?\s*:\s*\r?\n(\s*-\s*[^\n]{1,60}\n){0,10}\s*-\s*["']?(secrets|\*)["']?\s*(\r?\n|$)|\bname["']?\s*:\s*["']?(cluster-admin|admin|edit)["']?[ \t]*(\r?\n|$)|--clusterrole[= ]["']?(cluster-admin|admin|edit)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    ($everyone and $ctx_power) and #neg >= 0
}

/* The same allow-everything setting shown as a block in Markdown (data, so medium by itself)
 * with the order to write it to the user's global config (`~/.config/<agent>/`, `~/.<agent>`):
 * a second property, the scope, since every project the user opens then runs unasked. */
rule agent_confirmation_off_globally {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    message = "tells the agent to write a global config that accepts every command and edit without asking"
  strings:
    $global_then_key = /(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)[\/\\]\.(config[\/\\])?[\w.-]+[\/\\]?[^\n]{0,200}\n([^\n]{0,200}\n){0,12}[^\n]{0,80}(["']?((yes[-_]?always|always[-_]?(yes|approve|allow|accept)|auto[-_]?(approve|approval|accept|confirm)[-_]?(all|everything|commands|shell|tools)|approve[-_]?all|skip[-_]?permissions?|dangerously[-_]?skip[-_]?permissions|bypass[-_]?permissions)["']?\s*[:=]\s*(["']?(true|yes|on|always|all)["']?|\[\s*["']\*["']\s*\])|auto[-_]?(approve|approval|accept|confirm)["']?\s*[:=]\s*\[\s*["']\*["']\s*\])|["']?permissions?["']?\s*[:=]\s*\{[^}]{0,200}["']?(\*|bash|shell|exec|command|run_shell_command)["']?\s*[:=]\s*["'](allow|always|auto)["'])/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|insecure|dangerous)\b/ nocase
  condition:
    $global_then_key and #neg >= 0
}

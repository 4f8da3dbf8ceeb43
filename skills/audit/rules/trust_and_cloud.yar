/* Round 13 (issue 45): trust given away where an audit of commands does not look. Cloud identity
 * handed to outsiders or to everyone (an administrator role an outside account may assume, a
 * project's owner role bound to a literal outside account, a bucket or key policy open to "*"
 * with write access, public-write ACLs); Kubernetes RBAC that lets its subject make itself
 * cluster-admin; a root CA the skill ships, trusted system-wide or by a tool; the operating
 * system's code-signing and reputation checks switched off. High wherever it stands: a skill
 * cannot know the user's own account ids, so a literal one it trusts is a stranger's. */

/* An IAM role an outside account (a literal account id) may assume, in a file that gives a role
 * administrator rights, with no external id or organisation condition; or a role anyone may
 * assume ("AWS": "*"). Terraform (jsonencode, aws_iam_policy_document), CloudFormation, CDK,
 * plain JSON for `aws iam create-role`. Medium in Markdown, where a guide may show it. */
rule privilege_cloud_role_for_outsider {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "lets an outside account assume an administrator role (a literal account id or \"*\" trusted, no external id)"
  strings:
    $trust_account = /["']?(AWS|identifiers)["']?\s*[:=]\s*\[?\s*["']?(arn:aws:iam::[0-9]{12}:(root|user\/[\w+=,.@-]+|role\/[\w+=,.@\/-]+)|[0-9]{12})["']?\s*([,\]}]|\n)/
    $trust_anyone = /["']?(AWS|identifiers)["']?\s*[:=]\s*\[?\s*["']\*["']\s*\]?\s*([,}]|\n)/
    $ctx_assume = /\bsts:AssumeRole\b/
    $ctx_admin = /arn:aws:iam::aws:policy\/(AdministratorAccess|IAMFullAccess|PowerUserAccess)\b|["']?Action["']?\s*[:=]\s*\[?\s*["']\*["']|\bactions\s*=\s*\[\s*["']\*["']\s*\]|\bfromAwsManagedPolicyName\s*\(\s*["']AdministratorAccess["']/
    $ctx_condition = /\bsts:ExternalId\b|\baws:PrincipalOrgID\b|\baws:SourceAccount\b|\baws:SourceArn\b|\baws:PrincipalArn\b|\bExternalId\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|vulnerable)\b/ nocase
  condition:
    $ctx_assume and not $ctx_condition and (($trust_account and $ctx_admin) or $trust_anyone) and #neg >= 0
}

/* A resource policy open to everyone with write or decrypt access, and no condition to narrow it
 * (a public website's s3:GetObject is read-only and not matched); a public-write ACL; a GCS
 * bucket or a project role given to allUsers / allAuthenticatedUsers with more than read. The
 * commands are high wherever they stand; the policy documents are medium in Markdown. */
rule privilege_resource_open_to_everyone {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "opens a bucket or project to everyone with write access (public-read-write, allUsers)"
  strings:
    $acl = /(--acl\s+|\bacl\s*[:=]\s*["']|x-amz-acl["']?\s*:\s*["']?|\bACL\s*=\s*["']|CannedACL\s*[:=]\s*["']?)public-read-write\b|--grant-(write|full-control)\s+[^\n]{0,80}\bgroups\/global\/(AllUsers|AuthenticatedUsers)\b/
    $gcs_acl = /\bgsutil\s+(-m\s+)?(iam|acl|defacl)\s+ch\s+[^\n]{0,80}\b(allUsers|allAuthenticatedUsers|AllUsers|AllAuthenticatedUsers):(W|O|FC|OWNER|WRITER|objectAdmin|objectCreator|admin|legacyBucketWriter|legacyBucketOwner)\b/
    $all_users_role = /--member[= ]["']?(allUsers|allAuthenticatedUsers)["']?(\\\r?\n|[^\n]){0,300}--role[= ]["']?roles\/(owner|editor|storage\.(admin|objectAdmin|objectCreator|legacyBucketWriter|legacyBucketOwner)|[\w.]*\.admin)\b|--role[= ]["']?roles\/(owner|editor|storage\.(admin|objectAdmin|objectCreator|legacyBucketWriter|legacyBucketOwner)|[\w.]*\.admin)["']?(\\\r?\n|[^\n]){0,300}--member[= ]["']?(allUsers|allAuthenticatedUsers)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|vulnerable|misconfigur\w+)\b/ nocase
  condition:
    any of ($acl, $gcs_acl, $all_users_role) and #neg >= 0
}

/* The same in a policy document: medium in Markdown (prose or a code block), where a guide may
 * show the policy it warns about a few lines away. */
rule privilege_policy_open_to_everyone {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "a bucket or key policy open to everyone (Principal \"*\") with write or decrypt access and no condition"
  strings:
    $principal_star = /["']?Principal["']?\s*[:=]\s*(["']\*["']|\{\s*["']?AWS["']?\s*[:=]\s*\[?\s*["']\*["'])/
    $ctx_write = /\b(s3:(Put\w*|Delete\w*|\*)|kms:(Decrypt|\*)|secretsmanager:(GetSecretValue|\*)|dynamodb:\*|sqs:\*|sns:\*)["']|["']?Action["']?\s*[:=]\s*["']\*["']/
    $ctx_condition = /["']?Condition["']?\s*[:=]|\bcondition\s*\{/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|vulnerable|misconfigur\w+)\b/ nocase
  condition:
    $principal_star and $ctx_write and not $ctx_condition and #neg >= 0
}

/* A project, subscription or organisation's owner (or IAM-admin) role granted to a literal outside
 * account: gcloud, az, Azure PowerShell, Terraform and Pulumi. A variable or a placeholder
 * (`user:$EMAIL`, `<you@...>`, `YOUR_EMAIL`) is the user's own account and is not matched. */
rule privilege_owner_role_to_outsider {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "grants an outside account the owner or IAM-admin role on the user's project or subscription"
  strings:
    $gcloud = /\badd-iam-policy-binding\b(\\\r?\n|[^\n]){0,300}--member[= ]["']?(user|group|domain|serviceAccount):[^\s"'$<{]{3,}(\\\r?\n|[^\n]){0,300}--role[= ]["']?roles\/(owner|editor|iam\.securityAdmin|iam\.serviceAccountTokenCreator|iam\.serviceAccountKeyAdmin|iam\.roleAdmin|resourcemanager\.\w*(Admin|Owner))\b|\badd-iam-policy-binding\b(\\\r?\n|[^\n]){0,300}--role[= ]["']?roles\/(owner|editor|iam\.securityAdmin|iam\.serviceAccountTokenCreator|iam\.serviceAccountKeyAdmin|iam\.roleAdmin|resourcemanager\.\w*(Admin|Owner))["']?(\\\r?\n|[^\n]){0,300}--member[= ]["']?(user|group|domain|serviceAccount):[^\s"'$<{]{3,}/
    $az = /\baz\s+role\s+assignment\s+create\b(\\\r?\n|`\r?\n|[^\n]){0,300}--role\s+["']?(Owner|Contributor|User Access Administrator|Role Based Access Control Administrator)\b(\\\r?\n|`\r?\n|[^\n]){0,300}--assignee(-object-id)?\s+["']?([\w.+-]+@[\w-]+\.[\w.-]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|\baz\s+role\s+assignment\s+create\b(\\\r?\n|`\r?\n|[^\n]){0,300}--assignee(-object-id)?\s+["']?([\w.+-]+@[\w-]+\.[\w.-]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})["']?(\\\r?\n|`\r?\n|[^\n]){0,300}--role\s+["']?(Owner|Contributor|User Access Administrator|Role Based Access Control Administrator)\b/
    $az_ps = /\bNew-AzRoleAssignment\b[^\n]{0,200}-(SignInName|ObjectId)\s+["']?([\w.+-]+@[\w-]+\.[\w.-]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})[^\n]{0,200}-RoleDefinitionName\s+["']?(Owner|Contributor|User Access Administrator)\b|\bNew-AzRoleAssignment\b[^\n]{0,200}-RoleDefinitionName\s+["']?(Owner|Contributor|User Access Administrator)["']?[^\n]{0,200}-(SignInName|ObjectId)\s+["']?([\w.+-]+@[\w-]+\.[\w.-]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/
    $veto_placeholder = /[:\s"'](you|your[\w.-]*|me|name|user|someone|email|first\.last|jane|john)@|\b(YOUR_?\w*|USER_EMAIL|EMAIL)\b|00000000-0000-0000-0000-000000000000|xxxxxxxx/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure)\b/ nocase
  condition:
    any of ($gcloud, $az, $az_ps) and #veto_placeholder >= 0 and #neg >= 0
}

/* The same grant in Terraform or Pulumi (a role and a literal member in one file): medium in
 * Markdown. */
rule privilege_owner_role_to_outsider_iac {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "grants an outside account the owner or IAM-admin role on the user's project or subscription"
  strings:
    $iac_role = /\brole(_definition_name)?["']?\s*[:=]\s*["'](roles\/(owner|editor|iam\.securityAdmin|resourcemanager\.\w*Admin)|Owner|User Access Administrator)["']/
    $ctx_iac_member = /\bmembers?["']?\s*[:=]\s*\[?\s*["'](user|group|domain|serviceAccount):[^"'$<{\s]{3,}["']|\bprincipal_id["']?\s*[:=]\s*["'][0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure)\b/ nocase
  condition:
    $iac_role and $ctx_iac_member and #neg >= 0
}

/* Kubernetes RBAC that lets its subject make itself cluster-admin: the escalate, bind or
 * impersonate verbs on every resource (or on roles, users, groups, service accounts), in a
 * manifest or a `kubectl create clusterrole`; or every verb on every resource, cluster-admin or
 * every secret, bound to a namespace's `default` service account (every pod there then holds it).
 * A manifest is medium in Markdown (a guide shows the role it warns about). */
rule privilege_k8s_rbac_escalation {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "Kubernetes RBAC that lets its subject make itself cluster-admin (escalate, bind, impersonate on everything; cluster-admin to a default service account)"
  strings:
    $esc_verbs = /\bverbs["']?\s*:\s*\[[^\]\n]{0,120}["']?\b(escalate|impersonate|bind)\b["']?|(^|\n)\s*-\s*["']?(escalate|impersonate)["']?\s*(\n|$)/
    $ctx_rbac_kind = /\bkind["']?\s*:\s*["']?(ClusterRole|Role)["']?\s*(\n|$|,)/
    $ctx_broad = /\bresources["']?\s*:\s*\[\s*["']\*["']|\bresources["']?\s*:\s*\n\s*-\s*["']?\*["']?\s*\n|\bresources["']?\s*:\s*\[[^\]\n]{0,120}\b(clusterroles|roles|users|groups|serviceaccounts)\b/
    $default_sa = /\bkind["']?\s*:\s*["']?ServiceAccount["']?\s*\n\s*name["']?\s*:\s*["']?default["']?\s*(\n|$)|\bname["']?\s*:\s*["']?default["']?\s*\n\s*(namespace["']?\s*:[^\n]{0,60}\n\s*)?kind["']?\s*:\s*["']?ServiceAccount\b/
    $ctx_wild = /\bverbs["']?\s*:\s*\[\s*["']\*["']\s*\]|\bname["']?\s*:\s*["']?cluster-admin["']?\s*(\n|$)|\bresources["']?\s*:\s*\[[^\]\n]{0,60}["']secrets["']/
    $ctx_binding = /\bkind["']?\s*:\s*["']?(ClusterRoleBinding|RoleBinding)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|dangerous)\b/ nocase
  condition:
    (($esc_verbs and $ctx_rbac_kind and $ctx_broad) or ($default_sa and $ctx_wild and $ctx_binding)) and #neg >= 0
}

/* The same given with kubectl: high wherever it stands. */
rule privilege_k8s_rbac_escalation_kubectl {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "Kubernetes RBAC that lets its subject make itself cluster-admin (escalate, bind, impersonate on everything; cluster-admin to a default service account)"
  strings:
    $kubectl_role = /\bkubectl\s+create\s+(cluster)?role\b[^\n]{0,200}--verb[= ]["']?[^\s"']{0,80}\b(escalate|impersonate|bind)\b|\bkubectl\s+create\s+(cluster)?role\b[^\n]{0,200}--verb[= ]["']?\*["']?[^\n]{0,120}--resource[= ]["']?\*|\bkubectl\s+create\s+(cluster)?role\b[^\n]{0,200}--resource[= ]["']?\*["']?[^\n]{0,120}--verb[= ]["']?\*/
    $kubectl_bind = /\bkubectl\s+create\s+(cluster)?rolebinding\b[^\n]{0,200}--clusterrole[= ]["']?(cluster-admin|admin)\b[^\n]{0,200}--serviceaccount[= ]["']?[\w$.{}-]+:default\b|\bkubectl\s+create\s+(cluster)?rolebinding\b[^\n]{0,200}--serviceaccount[= ]["']?[\w$.{}-]+:default\b[^\n]{0,200}--clusterrole[= ]["']?(cluster-admin|admin)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|dangerous)\b/ nocase
  condition:
    any of ($kubectl_role, $kubectl_bind) and #neg >= 0
}

/* A root certificate the skill ships (a path inside the skill: $SKILL_DIR, $PSScriptRoot, %~dp0,
 * ./, assets/, certs/, ...), trusted system-wide or by a tool: whoever holds its key can read and
 * change the user's TLS traffic; or a CA downloaded straight into the anchors. A CA the skill
 * makes on the user's machine (openssl req, mkcert) keeps its key there and is not matched. */
rule privilege_skill_root_ca_trusted {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "trusts a root CA certificate the skill ships (system keychain, CA anchors, Root store, a tool's CA bundle)"
  strings:
    $mac = /\bsecurity\s+add-trusted-cert\b[^\n]{0,200}(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b/
    $anchor = /\b(cp|install|mv|ln|tee|Copy-Item)\b[^\n]{0,60}(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b[^\n]{0,200}\/(usr\/local\/share\/ca-certificates|etc\/pki\/ca-trust\/source\/anchors|etc\/ca-certificates\/trust-source\/anchors|usr\/share\/pki\/trust\/anchors|etc\/pki\/trust\/anchors)\b|\btrust\s+anchor\s+(--store\s+)?(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b/
    $win = /\bcertutil(\.exe)?\s+[^\n]{0,60}-addstore\s+(-f\s+)?["']?(Root|AuthRoot|CA|TrustedPublisher)["']?\s+["']?(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b|\bImport-Certificate\b[^\n]{0,200}(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b[^\n]{0,200}Cert:\\(LocalMachine|CurrentUser)\\(Root|AuthRoot|TrustedPublisher)\b|\bImport-Certificate\b[^\n]{0,200}Cert:\\(LocalMachine|CurrentUser)\\(Root|AuthRoot|TrustedPublisher)\b[^\n]{0,200}(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b/
    $nss_java = /\bcertutil\s+[^\n]{0,80}-A\b[^\n]{0,80}-t\s+["']?C[^\n]{0,200}(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b|\bkeytool\b[^\n]{0,40}-import(cert)?\b[^\n]{0,200}(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b/
    $env = /\b(NODE_EXTRA_CA_CERTS|REQUESTS_CA_BUNDLE|SSL_CERT_FILE|CURL_CA_BUNDLE|GIT_SSL_CAINFO|AWS_CA_BUNDLE|PIP_CERT)["']?\s*(=|:)\s*["']?(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b|\b(git\s+config\s+(--global\s+|--system\s+)?http\.sslCAInfo|npm\s+config\s+set\s+cafile|pip[0-9.]*\s+config\s+set\s+global\.cert|yarn\s+config\s+set\s+cafile)\s+["']?(\$\{?(SKILL_DIR|CLAUDE_SKILL_DIR|SKILL_ROOT|SKILL_PATH|SCRIPT_DIR|SCRIPTDIR|HERE|ROOT|BASE_DIR)\}?[\/\\]|\$PSScriptRoot[\/\\]|%~dp0|(^|[\s"'=(`])\.\.?[\/\\]|(^|[\s"'=(`])(assets|certs?|references|scripts|resources|files|data|ca|tls|ssl)[\/\\])[^\s"'`;|&)]{0,120}\.(pem|crt|cer|der|p7b)\b/
    $fetched_anchor = /\b(curl|wget|Invoke-WebRequest|iwr)\b[^\n]{0,200}(-o|-O|--output|-OutFile|>)\s*["']?(\/usr\/local\/share\/ca-certificates|\/etc\/pki\/ca-trust\/source\/anchors|\/etc\/ca-certificates\/trust-source\/anchors|\/usr\/share\/pki\/trust\/anchors)\/|\bsecurity\s+add-trusted-cert\b[^\n]{0,200}<\(\s*(curl|wget)\b/
    $ctx_generated = /\bopenssl\s+(req|x509|genrsa|genpkey|ecparam)\b|\bmkcert\b|\bstep\s+certificate\s+create\b|\bcfssl\s+gencert\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|untrusted)\b/ nocase
  condition:
    (any of ($mac, $anchor, $win, $nss_java, $env) and not $ctx_generated or $fetched_anchor) and #neg >= 0
}

/* The operating system's code-signing and reputation checks switched off for every process:
 * macOS library validation (any process may then load unsigned code) and AMFI boot arguments,
 * Windows SmartScreen (the Explorer value, the policy, Edge's), AMSI, Defender's PUA, cloud and
 * network protection, memory integrity (HVCI), the vulnerable-driver blocklist, LSA protection,
 * system-wide exploit mitigations, shim's Secure Boot validation, every AppArmor profile. High
 * in prose too, unless the line warns against it. */
rule privilege_code_signing_checks_off {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "turns off code-signing or reputation checks for the whole machine (library validation, AMFI, SmartScreen, AMSI, Defender protections)"
  strings:
    $libval = /\bDisableLibraryValidation\b["']?\s*(-bool\s+["']?(true|yes|1)\b|-int(eger)?\s+1\b|=\s*["']?(true|1)\b|:\s*true\b)|<key>DisableLibraryValidation<\/key>\s*<true\s*\/>/ nocase
    $amfi = /\bamfi_get_out_of_my_way=(1|0x1)\b|\bcs_enforcement_disable=1\b|\bamfi_allow_any_signature=1\b/
    $smartscreen = /\bSmartScreenEnabled\b["']?[^\n]{0,80}(["']Off["']|\/d\s+["']?Off\b|=\s*["']?Off\b|=\s*dword:0+\b|\/d\s+0\b|-Value\s+["']?0\b)|\b(EnableSmartScreen|EnableWebContentEvaluation|SmartScreenPuaEnabled|EnabledV9)\b["']?[^\n]{0,80}(=\s*dword:0+\b|\/d\s+0\b|-Value\s+["']?0\b|,\s*0\s*\)|REG_DWORD\s*,\s*0\s*\))/ nocase
    $amsi = /\bAmsiEnable\b["']?[^\n]{0,60}(=\s*dword:0+\b|\/d\s+0\b|-Value\s+["']?0\b)|\bamsiInitFailed\b|\bAmsiScanBuffer\b[^\n]{0,160}\b(VirtualProtect|WriteProcessMemory|Marshal\]?::Copy)/ nocase
    $defender = /\bSet-MpPreference\b[^\n]{0,80}-(PUAProtection|EnableNetworkProtection|EnableControlledFolderAccess|MAPSReporting)\s+["']?(0|Disabled?)\b|\bSet-MpPreference\b[^\n]{0,80}-SubmitSamplesConsent\s+["']?(2|NeverSend)\b/ nocase
    $kernel_integrity = /\bHypervisorEnforcedCodeIntegrity\]?\s*\n\s*"Enabled"=dword:0+\b|\bHypervisorEnforcedCodeIntegrity\b[^\n]{0,160}(Enabled["']?\s*=\s*dword:0+\b|\/v\s+["']?Enabled["']?\s+[^\n]{0,40}\/d\s+0\b|-Name\s+["']?Enabled["']?\s+[^\n]{0,20}-Value\s+0\b)|\bVulnerableDriverBlocklistEnable\b[^\n]{0,60}(=\s*dword:0+\b|\/d\s+0\b|-Value\s+0\b)|\bRunAsPPL\b[^\n]{0,60}(=\s*dword:0+\b|\/d\s+0\b|-Value\s+0\b)|\bSet-ProcessMitigation\s+-System\s+-Disable\b|\bmokutil\s+--disable-validation\b|\baa-(complain|disable)\s+[^\n]{0,40}\/etc\/apparmor\.d\/\*/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attackers?|malicious|malware|detect\w*|re-?enable|check\s+(whether|if))\b/ nocase
  condition:
    any of ($libval, $amfi, $smartscreen, $amsi, $defender, $kernel_integrity) and #neg >= 0
}

/* PowerShell's execution policy opened for the whole machine (Unrestricted or Bypass at the
 * LocalMachine scope, which is the default scope): high in a script, medium in prose, where
 * setup guides say it. The process and current-user scopes are not matched. */
rule privilege_execution_policy_machine {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "opens PowerShell's execution policy for the whole machine (Unrestricted or Bypass)"
  strings:
    $machine = /\bSet-ExecutionPolicy\s+(-ExecutionPolicy\s+)?["']?(Unrestricted|Bypass)["']?[^\n]{0,60}-Scope\s+["']?LocalMachine\b|\bSet-ExecutionPolicy\s+(-Scope\s+["']?LocalMachine["']?\s+)(-ExecutionPolicy\s+)?["']?(Unrestricted|Bypass)\b|\bSet-ExecutionPolicy\s+(-ExecutionPolicy\s+)?["']?(Unrestricted|Bypass)["']?(\s+-Force)?\s*(\n|$|;|\||`)/ nocase
    $registry = /\\ShellIds\\Microsoft\.PowerShell["']?[^\n]{0,80}ExecutionPolicy["']?[^\n]{0,40}\b(Unrestricted|Bypass)\b/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attackers?|malicious)\b/ nocase
  condition:
    any of ($machine, $registry) and #neg >= 0
}

/* Remote administration and database ports opened to the whole internet (0.0.0.0/0, ::/0, "*"):
 * SSH, RDP, VNC, the Docker API and the usual databases, in an AWS security group, a GCP
 * firewall rule, an Azure NSG rule, or Terraform. High in a script or an IaC file, medium in a
 * Markdown code block or prose, where a quick-start shows it. */
rule privilege_admin_port_open_to_internet {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "opens a remote-administration or database port to the whole internet (0.0.0.0/0)"
  strings:
    $aws = /\bauthorize-security-group-ingress\b[^\n]{0,200}--port\s+["']?(22|3389|5900|2375|2376|3306|5432|6379|9200|27017|11211)\b[^\n]{0,200}--cidr\s+["']?(0\.0\.0\.0\/0|::\/0)|\bauthorize-security-group-ingress\b[^\n]{0,200}--cidr\s+["']?(0\.0\.0\.0\/0|::\/0)["']?[^\n]{0,200}--port\s+["']?(22|3389|5900|2375|2376|3306|5432|6379|9200|27017|11211)\b|\bauthorize-security-group-ingress\b[^\n]{0,300}FromPort=(22|3389|5900|2375|3306|5432|6379|9200|27017)\b[^\n]{0,200}CidrIp=0\.0\.0\.0\/0/
    $gcp = /\bfirewall-rules\s+create\b(\\\r?\n|[^\n]){0,300}--allow[= ]["']?[^\n]{0,40}tcp:(22|3389|5900|2375|3306|5432|6379|9200|27017)\b(\\\r?\n|[^\n]){0,300}--source-ranges[= ]["']?0\.0\.0\.0\/0|\bfirewall-rules\s+create\b(\\\r?\n|[^\n]){0,300}--source-ranges[= ]["']?0\.0\.0\.0\/0(\\\r?\n|[^\n]){0,300}--allow[= ]["']?[^\n]{0,40}tcp:(22|3389|5900|2375|3306|5432|6379|9200|27017)\b/
    $azure = /\baz\s+network\s+nsg\s+rule\s+create\b(\\\r?\n|[^\n]){0,300}--source-address-prefix(es)?\s+["']?(\*|0\.0\.0\.0\/0|Internet)["']?(\\\r?\n|[^\n]){0,300}--destination-port-ranges?\s+["']?(22|3389|5900|3306|5432|1433|6379)\b|\baz\s+network\s+nsg\s+rule\s+create\b(\\\r?\n|[^\n]){0,300}--destination-port-ranges?\s+["']?(22|3389|5900|3306|5432|1433|6379)\b(\\\r?\n|[^\n]){0,300}--source-address-prefix(es)?\s+["']?(\*|0\.0\.0\.0\/0|Internet)\b/
    $tf_port = /\b(from_port|to_port|FromPort)["']?\s*[:=]\s*["']?(22|3389|5900|2375|3306|5432|6379|9200|27017)\b/
    $ctx_tf_world = /\b(cidr_blocks|ipv6_cidr_blocks|CidrIp|source_ranges)["']?\s*[:=]\s*\[?\s*["'](0\.0\.0\.0\/0|::\/0)["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|insecure|attackers?|malicious|detect\w*|restrict)\b/ nocase
  condition:
    (any of ($aws, $gcp, $azure) or ($tf_port and $ctx_tf_world and not is_prose)) and #neg >= 0
}

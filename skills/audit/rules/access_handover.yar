/* Round 14 (issue 45): the user's assets handed to an outside party by a command or an API call,
 * and the organisation's own protections switched off. A skill cannot know the user's colleagues,
 * partner organisations or contracts: an email address, a GitHub login, an organisation, an
 * account id or a contract address it writes out literally is a stranger's. A variable or a
 * placeholder (`$EMAIL`, `<user>`, `NEW_OWNER`, `you@example.com`) is the user's own choice and
 * is not matched. High wherever it stands: a code block or a sentence in a skill is a step the
 * agent runs, and a line that warns against it is left out. */

/* Access to the user's assets granted to a literal outside identity: a password-manager vault or
 * item shared (1Password, LastPass, Bitwarden), a repository transferred or given a collaborator
 * with write rights, a webhook that receives every event, a Slack or Teams guest, a Drive file
 * shared or its ownership transferred, a disk or database snapshot shared with another account or
 * everyone, Kubernetes' anonymous user bound to an administrator role, and a token allowance
 * without limit (or every NFT) approved for a fixed contract. */
rule privilege_access_to_outsider {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "hands the user's assets to an outside party: a vault, repository, channel, drive file or snapshot shared with a literal outside account, every event sent to a webhook, an unlimited token allowance, admin for anonymous users"
  strings:
    $vault = /\bop\s+(vault\s+(user|group)\s+grant|item\s+share)\b(\\\r?\n|[^\n]){0,200}--(user|group|emails?)[= ]["']?[\w.+-]+@[\w-]+\.[\w.-]+|\blpass\s+share\s+useradd\b[^\n]{0,160}\s["']?[\w.+-]+@[\w-]+\.[\w.-]+|\bbw\s+(move|share)\s+["']?\S+["']?\s+["']?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/
    $transfer = /\b(gh|glab)\s+api\b(\\\r?\n|[^\n]){0,200}\/transfer\b(\\\r?\n|[^\n]){0,200}\b(new_owner|namespace)["']?\s*[=:]\s*["']?[A-Za-z0-9][\w.-]*|\/transfer\b["']?(\\\r?\n|[^\n]){0,200}["']new_owner["']\s*:\s*["'][A-Za-z0-9][\w.-]*/
    $collaborator = /\/collaborators\/[A-Za-z0-9][\w-]*["']?(\\\r?\n|[^\n]){0,200}\bpermission["']?\s*[=:]\s*["']?(admin|maintain|push|write)\b|\bgh\s+api\b[^\n]{0,80}(-X|--method)\s+PUT\b[^\n]{0,120}\/collaborators\/[A-Za-z0-9][\w-]*["']?\s*(\n|$)/
    $hook_every_event = /\bevents(\[\])?["']?\s*[=:]\s*\[?\s*["']?\*(["'\],]|\s|$)/
    $ctx_hook_api = /\/hooks\b/
    $ctx_hook_url = /\bconfig\[url\]=["']?https?:\/\/[^\s$<{"']{4,}|["']url["']\s*:\s*["']https?:\/\/[^\s$<{"']{4,}/
    $chat_guest = /\badmin\.users\.invite\b(\n?[^\n]){0,200}\bis_(ultra_)?restricted\b|\bis_(ultra_)?restricted\b(\n?[^\n]){0,200}\badmin\.users\.invite\b|\bconversations\.inviteShared\b[^\n]{0,200}\bemails?\b[^\n]{0,40}[\w.+-]+@[\w-]+\.[\w.-]+|\bAdd-TeamUser\b[^\n]{0,200}-User\s+["']?[\w.+-]+@[\w-]+\.[\w.-]+|\bNew-MgInvitation\b[^\n]{0,200}-InvitedUserEmailAddress\s+["']?[\w.+-]+@[\w-]+\.[\w.-]+/
    $ctx_literal_email = /(^|[\s`'"(<:=,])[\w.+-]{2,}@[\w-]+\.[a-z][\w.-]*/
    $ctx_placeholder_email = /(^|[\s`'"(<:=,])((you|your[\w.-]*|me|name|user|username|someone|email|first\.last|firstname|jane|john|alice|bob|teammate|colleague)@[\w-]+\.[a-z][\w.-]*|[\w.+-]{2,}@(example\.com|company\.com|domain\.com|your[\w-]*\.[\w.]+|yourcompany\.\w+)\b)/
    $drive_transfer = /\btransferOwnership["']?\s*[=:]\s*["']?(true|True)\b/
    $gam = /\bgam\s+user\s+\S+\s+(add\s+drivefileacl|transfer\s+drive|update\s+drivefileacl)\b[^\n]{0,200}\s["']?[\w.+-]+@[\w-]+\.[\w.-]+|\bgam\s+create\s+datatransfer\s+\S+\s+(gdrive|drive)\s+["']?[\w.+-]+@[\w-]+\.[\w.-]+/
    $ctx_drive = /\bpermissions\s*\(\s*\)\s*\.\s*create\b|\bpermissions\.create\b|\/drive\/v3\/files\/[^\n]{0,80}\/permissions\b/
    $snapshot_shared = /\baws\s+ec2\s+modify-snapshot-attribute\b(\\\r?\n|[^\n]){0,300}(Group=all|["']Group["']\s*:\s*["']all["']|--group-names\s+all\b|UserId=["']?[0-9]{12}\b|["']UserId["']\s*:\s*["'][0-9]{12}|--user-ids\s+["']?[0-9]{12}\b)|\baws\s+rds\s+modify-db(-cluster)?-snapshot-attribute\b(\\\r?\n|[^\n]){0,300}--values-to-add\s+["']?\[?["']?(all|[0-9]{12})\b/
    $k8s_anonymous = /\bkubectl\s+create\s+(cluster)?rolebinding\b(\\\r?\n|[^\n]){0,300}--clusterrole[= ]["']?(cluster-admin|admin|edit)\b(\\\r?\n|[^\n]){0,300}--(user|group)[= ]["']?system:(anonymous|unauthenticated|authenticated|serviceaccounts)\b|\bkubectl\s+create\s+(cluster)?rolebinding\b(\\\r?\n|[^\n]){0,300}--(user|group)[= ]["']?system:(anonymous|unauthenticated|authenticated|serviceaccounts)\b(\\\r?\n|[^\n]){0,300}--clusterrole[= ]["']?(cluster-admin|admin|edit)\b|--authorization-mode[= ]["']?AlwaysAllow\b/
    $allowance = /\b(approve|increaseAllowance)\s*\(\s*["']?0x[0-9a-fA-F]{40}["']?\s*,\s*(MAX_UINT(256)?|UINT256_MAX|MaxUint256|maxUint256|(ethers\.)?(constants\.)?MaxUint256|ethers\.MaxUint256|type\s*\(\s*uint256\s*\)\s*\.\s*max|\(?\s*2n?\s*\*\*\s*256n?\s*\)?\s*-\s*1n?|uint256\s*\(\s*-\s*1\s*\)|~\s*uint256\s*\(\s*0\s*\)|U256::MAX|0x[fF]{64}|115792089237316195423570985008687907853269984665640564039457584007913129639935)|\bsetApprovalForAll\s*\(\s*["']?0x[0-9a-fA-F]{40}["']?\s*,\s*(true|True|1)\b|["']approve\(address,\s*uint256\)["']\s+["']?0x[0-9a-fA-F]{40}["']?\s+["']?(\$\(cast\s+max-uint\)|max|2\*\*256-1|0x[fF]{64}|115792089237316195423570985008687907853269984665640564039457584007913129639935)/
    $veto_placeholder = /[\s"'`(<:=,\/](you|your[\w.-]*|me|name|user|username|someone|email|first\.last|firstname|jane|john|alice|bob|teammate|colleague)@|@(example\.com|company\.com|domain\.com|your[\w-]*\.[\w.]+|yourcompany\.\w+)\b|(new_owner|namespace)["']?\s*[=:]\s*["']?(my|your)[-_]|(new_owner|namespace)["']?\s*[=:]\s*["']?([A-Z][A-Z0-9_]+|octocat|octo-org|monalisa|hubot)\b|\/collaborators\/([A-Z][A-Z0-9_]+|octocat|monalisa|hubot|username|user|login)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|phishing|scam\w*|drainer|revoke\w*|red\s+flag)\b/ nocase
  condition:
    (any of ($vault, $transfer, $collaborator, $snapshot_shared, $k8s_anonymous, $allowance) or
     ($hook_every_event and $ctx_hook_api and $ctx_hook_url) or $gam or
     (($chat_guest or ($drive_transfer and $ctx_drive)) and #ctx_literal_email > #ctx_placeholder_email)) and
    #veto_placeholder >= 0 and #neg >= 0
}

/* The organisation's protections switched off through its API or its Terraform: secret scanning,
 * push protection, Advanced Security or Dependabot turned off for a repository or for every new
 * one (or all at once), branch rulesets and review rules deleted, every Action allowed with a
 * write token by default, workflows allowed to approve their own pull requests (the review rule
 * then passes without a person), the two-factor requirement dropped. Whatever reason the skill
 * gives (an import trips it, bots need it), the user's guard against leaks and unreviewed code is
 * gone. The settings count only beside a write (PATCH, PUT, POST, a Terraform resource): an API
 * answer quoted by an audit skill holds the same keys. */
rule controls_org_protection_off {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    message = "switches an organisation's or repository's protection off (secret scanning, push protection, Dependabot, rulesets, review rules, workflows that approve their own pull requests)"
  strings:
    $scanning_off = /\b(secret_scanning|secret_scanning_push_protection|secret_scanning_validity_checks|secret_scanning_non_provider_patterns|secret_scanning_ai_detection|advanced_security|code_security|secret_protection|dependabot_security_updates)["']?\]?\s*[:=]?\s*\{?\s*["']?status["']?\s*[:=]\s*["']?disabled\b|\bsecurity_and_analysis\]?\[(secret_scanning\w*|advanced_security|code_security|secret_protection|dependabot_security_updates)\]\[status\]=["']?disabled\b/
    $new_repos_off = /\b(secret_scanning_push_protection|secret_scanning|advanced_security|dependabot_alerts|dependabot_security_updates|dependency_graph)_enabled_for_new_repositories["']?\]?\s*[:=]\s*["']?false\b/
    $disable_all = /\borgs\/[^\/\s"']+\/(secret_scanning|secret_scanning_push_protection|advanced_security|dependabot_alerts|dependabot_security_updates|dependency_graph|code_scanning_default_setup)\/disable_all\b/
    $rules_deleted = /(-X|--method)\s+DELETE\b[^\n]{0,200}\/(rulesets\/[\w${}]+|protected_branches\/[^\s"']+|protection\/(enforce_admins|required_pull_request_reviews|required_signatures|required_status_checks))\b|\/(rulesets\/[\w${}]+|protected_branches\/[^\s"']+|protection\/(enforce_admins|required_pull_request_reviews|required_signatures|required_status_checks))["']?\s+[^\n]{0,80}(-X|--method)\s+DELETE\b/
    $self_approve = /\bcan_approve_pull_request_reviews["']?\s*[:=]\s*["']?(true|True)\b/
    $write_default = /\bdefault_workflow_permissions["']?\s*[:=]\s*["']?write\b/
    $ctx_all_actions = /\ballowed_actions["']?\s*[:=]\s*["']?all\b/
    $two_factor_off = /\brequire_two_factor_authentication["']?\s*[:=]\s*["']?false\b/
    $ctx_write = /(-X|--method)\s+["']?(PATCH|PUT|POST)\b|\brequests\.(patch|put|post)\s*\(|\.(patch|put)\s*\(|\bmethod["']?\s*[:=]\s*["'](PATCH|PUT|POST)["']|\bresource\s+["']github_\w+["']|\bsecurity_and_analysis\s*\{/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|dangerous|re-?enable\w*)\b/ nocase
  condition:
    ($disable_all or $rules_deleted or
     ($ctx_write and (any of ($scanning_off, $new_repos_off, $self_approve, $two_factor_off) or
                      ($write_default and $ctx_all_actions)))) and #neg >= 0
}

/* Secrets printed into a CI log in a form the log masker does not recognise: a secret (or every
 * secret, toJSON(secrets)) or the whole environment piped through base64, rev, xxd, od, sed or tr
 * and left on stdout. The masker hides a secret's literal value only; an encoded copy is readable
 * by whoever reads the log (on a public repository, anyone). A decode written to a file or piped
 * into a login (`| base64 -d > kubeconfig`, `| docker login --password-stdin`) is not printed and
 * not matched. */
rule privilege_secrets_past_log_masker {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "prints CI secrets into the log in an encoded form the masker does not hide (base64, rev, xxd of secrets or of the environment)"
  strings:
    $secret_encoded = /\$\{\{\s*(toJSON\s*\(\s*secrets\s*\)|secrets\.[A-Za-z_]\w*|secrets\[[^\]\n]{1,60}\])\s*\}\}["']?\s*\|\s*(base64|base32|basenc|xxd|od|hexdump|rev|sed\s|tr\s|fold\s|openssl\s+(enc|base64)\b)[^\n|>]{0,40}(\|\s*(base64|base32|basenc|xxd|od|hexdump|rev|sed\s|tr\s|fold\s|cat|openssl\s+(enc|base64)\b)[^\n|>]{0,40}){0,3}(\n|$)/
    $named_encoded = /\b(echo|printf)\s+[^\n|]{0,40}\$\{?[A-Z][A-Z0-9_]*(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|ACCESS_KEY)[A-Z0-9_]*\}?["']?\s*\|\s*(base64|base32|xxd|od|rev|sed\s+["']?s\/\.\/|tr\s)[^\n|>]{0,40}(\|\s*(base64|base32|xxd|od|rev|sed\s|tr\s)[^\n|>]{0,40}){0,3}(\n|$)/
    $env_encoded = /(^|[\s;&:(])(env|printenv|export\s+-p)\s*\|\s*(base64|base32|xxd|od|rev|sed\s+["']?s\/\.\/)[^\n|>]{0,40}(\|\s*(base64|base32|xxd|od|rev|sed\s|tr\s)[^\n|>]{0,40}){0,3}(\n|$)/
    $ctx_ci = /\$\{\{\s*secrets\.|\bruns-on\s*:|(^|\n)\s*-?\s*(script|steps)\s*:|\.github\/workflows\/|\bGITHUB_ACTIONS\b|\bCI_JOB_TOKEN\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|insecure|leak\w*)\b/ nocase
  condition:
    ($secret_encoded or (($named_encoded or $env_encoded) and $ctx_ci)) and #neg >= 0
}

/* A skill's frontmatter that pre-approves every shell command while it is active (`allowed-tools`
 * with `Bash(*)`, `Bash(:*)`, `Shell(*)`): the same grant as `"allow": ["Bash(*)"]` in the
 * agent's settings, which controls.yar reports. Naming the tool alone (`Bash`) is the usual
 * spelling in public collections and stays with the intent layer. */
rule controls_skill_allows_every_command {
  meta:
    id = "audit/controls-off"
    category = "controls-off"
    severity = "high"
    message = "the skill's allowed-tools pre-approve every shell command (Bash(*)) while it is active"
  strings:
    $inline = /(^|\n)allowed[-_]tools\s*:[^\n]{0,200}\b(Bash|Shell|PowerShell|run_shell_command)\(\s*(\*|:\*|\*\*|\*:\*)\s*\)/
    $list_item = /(^|\n)allowed[-_]tools\s*:\s*\n(\s*-\s*[^\n]{1,80}\n){0,20}\s*-\s*["']?(Bash|Shell|PowerShell|run_shell_command)\(\s*(\*|:\*|\*\*|\*:\*)\s*\)/
  condition:
    lang == "markdown" and any of them
}

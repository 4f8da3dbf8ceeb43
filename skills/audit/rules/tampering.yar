/* Tampering with the system a skill runs on: logs and audit trails wiped (what is left to tell
 * what happened), directories that hold system code or configuration (/etc, /usr, /opt, ...)
 * made world-writable (anyone can then plant code that root runs; a data share under /srv or
 * a web root is left to a review). High in prose too: a code block in SKILL.md is a step the agent runs; a line
 * that says not to do it is left out. */

rule log_wiping {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    message = "deletes, truncates or stops the system's logs or audit trail: anti-forensics"
  strings:
    $veto_not = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+)\b/ nocase
    $rm_glob = /(^|\n)[^\n]{0,120}\brm\s+[^\n;|&]{0,200}\/var\/log\/[^\s;|&]{0,80}\*/
    $rm_rec = /(^|\n)[^\n]{0,120}\brm\s+(-\w+\s+)*-\w*[rR]\w*\s+[^\n;|&]{0,200}\/var\/log\b/
    $rm_sys = /(^|\n)[^\n]{0,120}\brm\s+[^\n;|&]{0,200}\/var\/log\/(auth\.log|secure|syslog|messages|wtmp|btmp|lastlog|faillog|audit|journal|kern\.log)\b/
    $truncate = /(^|\n)[^\n]{0,120}(\btruncate\s+(-\w+\s+)*(-s\s*0|--size[= ]0)\s+[^\n]{0,100}|\bshred\b[^\n]{0,100}|(^|[\s;&|:])>\s*|\bcat\s+\/dev\/null\s*>\s*|\bcp\s+\/dev\/null\s+)\/var\/log\//
    $find_delete = /(^|\n)[^\n]{0,120}\bfind\s+\/var\/log\b[^\n]{0,150}(-delete\b|-exec\s+(rm|shred|truncate)\b)/
    $py_rm = /(^|\n)[^\n]{0,120}\b(shutil\.rmtree|os\.remove|os\.unlink|rmSync|unlinkSync|FileUtils\.rm_r?f?)\s*\(\s*["']\/var\/log\b/
    $win = /(^|\n)[^\n]{0,120}(\bwevtutil(\.exe)?\s+(cl|clear-log)\b|\bClear-EventLog\b|\bRemove-EventLog\b|\bfsutil(\.exe)?\s+usn\s+deletejournal\b)/ nocase
    $audit_off = /(^|\n)[^\n]{0,120}(\bauditctl\s+(-D\b|-e\s*0\b)|\b(systemctl|service)\s+(stop|disable|mask)\s+(auditd|rsyslog|syslog|syslog-ng|systemd-journald)\b|\b(auditd|rsyslog|systemd-journald)\s+stop\b)/
  condition:
    #veto_not >= 0 and any of ($rm*, $truncate, $find_delete, $py_rm, $win, $audit_off)
}

rule world_writable_system {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "makes a system directory world-writable: anyone can then replace what root runs"
  strings:
    $veto_not = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+)\b/ nocase
    $chmod = /(^|\n)[^\n]{0,120}\bchmod\s+(-\w+\s+)*(0?777|a\+rwx|ugo\+rwx|a\+w|o\+w|0?666)\s+["']?\/((etc|usr|bin|sbin|lib|lib64|boot|opt|root|Library|System|Applications)(\/[^\s;|&"']*)?|(var|home)(\/(lib|spool|log)[^\s;|&"']*)?)?(["'\s;|&)]|\n)/
    $prog = /(^|\n)[^\n]{0,120}\b(os\.chmod|chmodSync|fs\.chmod|File\.chmod|FileUtils\.chmod)\s*\([^\n]{0,80}["']\/(etc|usr|bin|sbin|lib|boot|opt|root)\b[^\n]{0,80}\b0o?777\b/
  condition:
    #veto_not >= 0 and any of ($chmod, $prog)
}

/* The shell's history erased or switched off by a script: what the user (or the agent) ran is
 * gone (round 13: also `unset HISTFILE`, `history -c` on its own, PSReadLine saving nothing;
 * not `set +o history` before a secret is typed). High in a script; in prose medium (privacy
 * advice names the same commands). */
rule history_wiping {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "erases or disables the shell history: what ran can no longer be seen"
  strings:
    $rm = /\b(rm|shred|unlink|truncate\s+-s\s*0)\s+(-\w+\s+)*["']?(~|\$HOME|\$\{HOME\})\/\.(bash|zsh|sh|python|psql|mysql|node_repl)_history\b/
    $null = /\bln\s+-\w*s\w*\s+\/dev\/null\s+["']?(~|\$HOME|\$\{HOME\})\/\.\w*_?history\b|(^|[\s;&])(export\s+)?HISTFILE=\/dev\/null\b|(^|[\s;&])(export\s+)?HISTSIZE=0\b/
    $clear = /(^|[;&|\n])\s*history\s+-c\b[^\n]{0,40}(&&|;)\s*history\s+-w\b|\bRemove-Item\s+[^\n]{0,40}\(Get-PSReadlineOption\)\.HistorySavePath/ nocase
    $off = /(^|[;&|\n])\s*(unset\s+HISTFILE\b|history\s+-c\s*($|[;&\n])|Set-PSReadLineOption\s+[^\n]{0,40}-HistorySaveStyle\s+SaveNothing\b)|\b(Remove-Item|del|rm|Clear-Content)\s+[^\n]{0,120}PSReadLine[\\\/]ConsoleHost_history\.txt\b/ nocase
  condition:
    any of them
}

/* Round 5 (ATT&CK T1562.001): the repository's own guards switched off for every repository:
 * git's hooks pointed at nothing (pre-commit's secret scanners, commit-msg checks), pre-commit
 * uninstalled together with that, or every commit told to skip verification by an alias. */
rule hooks_disabled {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "turns off the repository's hooks (secret scanning, checks) for every commit"
  strings:
    $hooks_null = /\bgit\s+config\s+(--global\s+|--system\s+)?core\.hooksPath\s+["']?(\/dev\/null|NUL|\/var\/empty)\b/
    $alias_no_verify = /\bgit\s+config\s+(--global|--system)\s+alias\.(commit|ci|c|push)\s+["']?[^\n]{0,40}--no-verify\b/
    $neg_not = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+)\b/ nocase
  condition:
    any of ($hooks_null, $alias_no_verify) and #neg_not >= 0
}

/* Round 13 (issue 45, ATT&CK T1562.008, T1070): the audit trail of a cloud account or of a host
 * turned off or edited rather than wiped. A cloud's own audit log stopped or deleted (CloudTrail
 * stop-logging and delete-trail, Terraform's enable_logging = false, GuardDuty's detector and
 * Config's recorder removed, a GCP log sink or an Azure diagnostic setting deleted), the
 * trail's log objects (AWSLogs/) removed; a system log edited in place to drop some lines (sed
 * or perl -i, grep -v written back over it); journald vacuumed down to nothing; Windows' audit
 * policy cleared or an event log disabled. Disk-space
 * housekeeping (journalctl --vacuum-time=2weeks) is not matched. macOS's unified log erased. */
rule audit_trail_disabled_or_edited {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    message = "turns off or edits the audit trail (CloudTrail stopped, log lines deleted in place, journald emptied)"
  strings:
    $cloud = /\baws\s+cloudtrail\s+(stop-logging|delete-trail)\b|\baws\s+guardduty\s+(delete-detector|update-detector\b[^\n]{0,120}--no-enable)\b|\baws\s+configservice\s+(stop-configuration-recorder|delete-configuration-recorder|delete-delivery-channel)\b|\bgcloud\s+logging\s+sinks\s+delete\b|\bgcloud\s+logging\s+buckets\s+update\b[^\n]{0,120}--retention-days[= ]1\b|\baz\s+monitor\s+diagnostic-settings\s+delete\b|\b(stop_logging|StopLogging|delete_trail|DeleteTrail)\s*\(\s*(Name\s*=)?|\baws\s+logs\s+delete-log-group\b[^\n]{0,80}(cloudtrail|audit)|(^|[;&|\n]|sudo\s+)\s*log\s+erase\s+--all\b/
    $cloud_tf = /\benable_logging\s*=\s*false\b|\bIsLogging["']?\s*:\s*false\b/
    $ctx_trail = /\baws_cloudtrail\b|AWS::CloudTrail::Trail/
    $trail_objects = /\b(aws\s+s3\s+rm|aws\s+s3api\s+delete-objects?|gsutil\s+(-m\s+)?rm)\b[^\n]{0,200}\/(AWSLogs|cloudtrail|CloudTrail)\b/
    $edit = /\b(sed|perl)\s+(-\w+\s+)*-(i|pi|ni)\w*\b[^\n]{0,200}\/var\/log\/(auth\.log|secure|syslog|messages|audit\/audit\.log|wtmp|btmp|lastlog|kern\.log|nginx\/access\.log|apache2\/access\.log|httpd\/access_log)\b|\bgrep\s+-v\b[^\n]{0,160}\/var\/log\/[\w\/.-]+[^\n]{0,80}(>\s*["']?\S+[^\n]{0,40}&&\s*(sudo\s+)?(mv|cp|cat)\b[^\n]{0,80}\/var\/log\/|\|\s*(sudo\s+)?tee\s+["']?\/var\/log\/|\bsponge\s+["']?\/var\/log\/)/
    $vacuum = /\bjournalctl\s+[^\n]{0,60}--vacuum-time[= ]["']?[0-9]+(s|sec|m|min|ms|us)?["']?(\s|$|;|&|\|)|\bjournalctl\s+[^\n]{0,60}--vacuum-size[= ]["']?[0-9]{1,4}[KkBb]?["']?(\s|$|;|&|\|)|\bjournalctl\s+[^\n]{0,60}--vacuum-files[= ]["']?1\b/
    $win_policy = /\bauditpol(\.exe)?\s+\/(clear\b|remove\b|set\b[^\n]{0,120}\/success:disable\b[^\n]{0,40}\/failure:disable\b)|\bwevtutil(\.exe)?\s+(sl|set-log)\s+[^\n]{0,80}\/(e|enabled):false\b|\bLimit-EventLog\b[^\n]{0,80}-MaximumSize\s+(64|68|1)\s*KB\b/ nocase
    $neg = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+|detect\w*|alert\w*)\b/ nocase
  condition:
    (any of ($cloud, $trail_objects, $edit, $vacuum, $win_policy) or ($cloud_tf and $ctx_trail)) and #neg >= 0
}

/* History rewritten so a change cannot be traced: a commit folded into an old one or back-dated
 * (fixup and autosquash onto an old commit, a committer or author date set by hand, amend with
 * --date), then the reflog expired and the unreachable objects pruned, or the branch's protection
 * deleted or opened to force-pushes to push over it. Removing a leaked secret (filter-repo, BFG, filter-branch)
 * expires and prunes too, and is not matched. */
rule history_rewrite_hidden {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    message = "rewrites git history so a change cannot be traced (folded into or dated as an old commit, reflog expired and pruned)"
  strings:
    $expire = /\bgit\s+reflog\s+expire\b[^\n]{0,80}--expire(-unreachable)?[= ]["']?(now|all|0)\b/
    $ctx_fold = /--fixup[= ]|--squash[= ]|--autosquash\b|\bGIT_(COMMITTER|AUTHOR)_DATE\s*=|\bcommit\b[^\n]{0,80}--date[= ]|--committer-date-is-author-date\b|--ignore-date\b/
    $ctx_secret_removal = /\bgit\s+filter-(repo|branch)\b|\bbfg\b|\bgit-filter-repo\b|\bgitleaks\b|\btrufflehog\b/ nocase
    $protection = /\b(gh\s+api|curl)\b[^\n]{0,120}(-X|--method)\s+DELETE\b[^\n]{0,200}\/branches\/[^\/\s"']+\/protection\b|\/branches\/[^\/\s"']+\/protection\b[^\n]{0,200}(-X|--method)\s+DELETE\b|\/branches\/[^\/\s"']+\/protection\b[^\n]{0,200}\ballow_force_pushes["']?\s*[=:]\s*["']?true\b/
    $neg = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+|detect\w*)\b/ nocase
  condition:
    (($expire and $ctx_fold and not $ctx_secret_removal) or $protection) and #neg >= 0
}

/* Round 14 (issue 45): the cloud's security logs destroyed or their collectors switched off,
 * whatever the reason given (a cost cut, tidying): CloudWatch log groups that hold CloudTrail, VPC
 * flow logs, GuardDuty, WAF or audit records deleted (by name, or a loop's pattern a few lines
 * above the delete), every log group's retention cut to a day, flow logs deleted or turned off,
 * Security Hub, Macie, Inspector or an access analyzer disabled, GCP's audit log deleted, a
 * Log Analytics workspace force-deleted, Defender for Cloud set to the free tier. Deleting the
 * log groups of a Lambda function the user removed is not matched. */
rule security_logs_destroyed {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    message = "destroys the cloud's security logs or switches their collection off (CloudTrail, flow log or GuardDuty log groups deleted, retention cut to a day, Security Hub disabled)"
  strings:
    $group_named = /\b(aws\s+logs\s+delete-log-group\b|delete_log_group\s*\(|DeleteLogGroup(Command)?\b)[^\n]{0,160}(flow|cloudtrail|guardduty|securityhub|waf|audit|vpc)/ nocase
    $group_deleted = /\baws\s+logs\s+delete-log-group\b|\.delete_log_group\s*\(|\bnew\s+DeleteLogGroupCommand\b/
    $ctx_near = /(flow|cloudtrail|guardduty|securityhub|aws-waf-logs|audit)[^\n]{0,200}\n([^\n]{0,200}\n){0,3}[^\n]{0,200}(\baws\s+logs\s+delete-log-group\b|\.delete_log_group\s*\(|\bDeleteLogGroupCommand\b)/ nocase
    $retention_named = /\baws\s+logs\s+put-retention-policy\b[^\n]{0,200}(flow|cloudtrail|guardduty|audit)[^\n]{0,200}--retention-in-days[= ]["']?1\b|\baws\s+logs\s+put-retention-policy\b[^\n]{0,200}--retention-in-days[= ]["']?1\b[^\n]{0,200}(flow|cloudtrail|guardduty|audit)/ nocase
    $retention_day = /\baws\s+logs\s+put-retention-policy\b[^\n]{0,200}--retention-in-days[= ]["']?1\b|\bput_retention_policy\s*\([^\n]{0,200}retentionInDays\s*=\s*1\b/
    $ctx_every_group = /\bdescribe-log-groups\b|\bdescribe_log_groups\b|\bDescribeLogGroupsCommand\b/
    $collectors_off = /\baws\s+ec2\s+delete-flow-logs\b|\bdelete_flow_logs\s*\(|\baws\s+securityhub\s+disable-security-hub\b|\bdisable_security_hub\s*\(|\baws\s+macie2\s+disable-macie\b|\baws\s+inspector2\s+disable\b|\baws\s+access-analyzer\s+delete-analyzer\b|\bgcloud\s+logging\s+logs\s+delete\b[^\n]{0,120}cloudaudit|\bgcloud\s+compute\s+networks\s+subnets\s+update\b[^\n]{0,200}--no-enable-flow-logs\b|\baz\s+monitor\s+log-analytics\s+workspace\s+delete\b[^\n]{0,200}--force\b|\baz\s+security\s+pricing\s+create\b[^\n]{0,200}--tier\s+["']?free\b/ nocase
    $neg = /\b(never|not|don'?t|avoid|instead\s+of|attackers?|malware|adversar\w+|detect\w*|alert\w*)\b/ nocase
  condition:
    (any of ($group_named, $retention_named, $collectors_off) or ($group_deleted and $ctx_near) or
     ($retention_day and $ctx_every_group)) and #neg >= 0
}

/* Round 16 (issue 45): a cloud's audit export, trail, activity-log profile, flow log or log
 * sink deleted, stopped or disabled by any cloud CLI, whatever the resource's exact command
 * path (`az monitor diagnostic-settings subscription delete`, `az network watcher flow-log
 * delete`, `az monitor log-profiles delete`): the property is the audit resource and the verb. */
rule cloud_audit_export_removed {
  meta:
    id = "audit/tampering"
    category = "tampering"
    severity = "high"
    prose = "medium"
    message = "deletes or stops a cloud audit export, trail, activity-log profile, flow log or log sink"
  strings:
    $cli = /\b(az|aws|gcloud|oci|ibmcloud|doctl)\s+[^\n|;&]{0,100}\b(diagnostic-settings?|activity-log\w*|log-profiles?|cloudtrail|trails?|audit[\w-]*|flow-logs?|sinks?|atracker|log-exports?)\b[^\n|;&]{0,100}\s(delete|delete-[\w-]+|rm|remove|stop|stop-[\w-]+|disable|disable-[\w-]+)\b/
    /* a log or audit store's retention set to zero: every record dropped as it arrives */
    $retention_zero = /\b(az|aws|gcloud|oci|ibmcloud)\s+[^\n|;&]{0,100}\b(logs?|logging|audit[\w-]*|trails?|workspace|log-analytics)\b[^\n|;&]{0,160}--retention(-in)?(-days|-period(-days)?|-time)?[= ]["']?0\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect\w*|alert\w*)\b/ nocase
  condition:
    any of ($cli, $retention_zero) and #neg >= 0
}

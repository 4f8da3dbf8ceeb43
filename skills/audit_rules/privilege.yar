/* Privilege: gaining root, keeping it, or turning protections off. */

rule privilege_escalation {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "gains or keeps root without asking (setuid, sudoers, a piped sudo password, capabilities)"
  strings:
    $setuid = /\bchmod\s+(-\w+\s+)*([ugoa]*\+[rwx]*s|[2467][0-7]{3})\b/
    $sudoers = /\bNOPASSWD\s*:|(>>?|\btee\s+(-a\s+)?)\s*\/etc\/sudoers|\bvisudo\b/
    $sudo_pw = /\b(echo|printf)\s+[^\n|]{1,80}\|\s*sudo\s+(-\w+\s+)*-S\b/
    $sudo_herestring = /\bsudo\s+(-\w+\s+)*-S\b[^\n]{0,60}<<<|\bchpasswd\b|\bpasswd\s+-d\s+root\b/
    $caps = /\bsetcap\s+[^\n]{0,30}cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|net_raw|sys_ptrace)/
  condition:
    any of them
}

/* Protections turned off, or a group that is root in all but name: high in a script, medium
 * in prose (where a troubleshooting guide may name them). */
rule privilege_protection_off {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "turns a protection off or joins an administrative group (SELinux, firewall, Defender, Gatekeeper, sudo/docker group)"
  strings:
    $groups = /\b(usermod|gpasswd|adduser)\s+(-\w+\s+)*(-aG|-G|-a)\s*(sudo|wheel|admin|root|docker)\b/
    $disable = /\bsetenforce\s+0\b|\bufw\s+disable\b|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b|Set-MpPreference\s+[^\n]{0,40}-Disable\w+\s+\$?true|\bAdd-MpPreference\s+-ExclusionPath\b|\bnetsh\s+(adv)?firewall\s+set\s+[^\n]{0,40}\boff\b|\bxattr\s+(-\w+\s+)*-d\s+com\.apple\.quarantine\b/ nocase
    $uac = /\bStart-Process\b[^\n]{0,120}-Verb\s+RunAs\b/ nocase
    $uac_off = /\bEnableLUA\b[^\n]{0,60}\b0\b|\bConsentPromptBehaviorAdmin\b[^\n]{0,40}\b0\b/ nocase
    $docker_root = /\bdocker\s+run\b[^\n]{0,200}(\s-v\s*["']?\/:\/|--pid[= ]host\b[^\n]{0,100}--privileged|--privileged\b[^\n]{0,100}--pid[= ]host)/
    $kernel = /\bptrace_scope\b[^\n]{0,20}\b0\b|\brandomize_va_space\s*=\s*0\b|>\s*\/proc\/sys\/kernel\/randomize_va_space/
  condition:
    any of them
}

/* sudo itself: what many install guides say (`sudo apt install`), so low in prose; in a
 * skill's script medium (it asks for the user's password or runs as root). */
rule privilege_sudo {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "medium"
    prose = "low"
    message = "runs a command as root (sudo, doas, pkexec, su -c)"
  strings:
    $sudo = /(^|[;&|(`]|\$\(|\n)\s*(sudo|doas|pkexec)\s+(-\w+\s+)*[\w\/.-]+/
    $su = /\bsu\s+(-\s+)?(root\s+)?-c\s/
  condition:
    any of them
}

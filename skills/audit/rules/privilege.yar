/* Privilege: gaining root, keeping it, or turning protections off. visudo is matched unless its
 * options ask only to check the syntax (-c, -cf FILE, --check): a check edits nothing. */

rule privilege_escalation {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "gains or keeps root without asking (setuid, sudoers, a piped sudo password, capabilities)"
  strings:
    $setuid = /\bchmod\s+(-\w+\s+)*([ugoa]*\+[rwx]*s|[2467][0-7]{3})\b/
    $sudoers = /\bNOPASSWD\s*:|(>>?|\btee\s+(-a\s+)?)\s*\/etc\/sudoers|\bvisudo(\s+(-[abd-z]\w*|--[abd-z][\w-]*))*(\s*(\n|$|[;&|)`'\x22])|\s+[^-\s])/
    $sudo_pw = /\b(echo|printf)\s+[^\n|]{1,80}\|\s*sudo\s+(-\w+\s+)*-S\b/
    $sudo_herestring = /\bsudo\s+(-\w+\s+)*-S\b[^\n]{0,60}<<<|\bchpasswd\b|\bpasswd\s+-d\s+root\b/
    $setuid_prog = /\bS_ISUID\b|\bS_ISGID\b|\bchmod\s*\(\s*[^\n]{0,80}\b0o?[2467][0-7]{3}\b|\bFile\.chmod\s*\(\s*0?[2467][0-7]{3}\b|\bchmod\s*\(\s*0?[2467][0-7]{3}\s*,|\bos\.Chmod\s*\([^\n]{0,80}(0o?[2467][0-7]{3}|ModeSetuid|ModeSetgid)|\bchmodSync\s*\([^\n]{0,80}0o[2467][0-7]{3}\b/
    $passwd_write = /(>>?|\btee\s+(-a\s+)?|\bsed\s+-i[^\n]{0,80}|\bopen\s*\(\s*["']|\bappendFileSync\s*\(\s*["']|\bFile\.(open|write)\s*\(\s*["']|\bAdd-Content\s+)\s*["']?\/etc\/(passwd|shadow|group|gshadow|sudoers(\.d\/[\w.-]*)?)\b(["']\s*,\s*["'](a|w|r\+)|[^\n]{0,10}(\s|$|;|\)|"|'))/
    $veto_root = /\broot:/
    $uid0 = /\b\w+:[^:\n]{0,120}:0:0:[^:\n]{0,60}:\/[^:\n]{0,60}:\/\w/
    $useradd_root = /\b(useradd|adduser|usermod)\s+[^\n]{0,80}(-o\s+[^\n]{0,20}-u\s*0\b|-u\s*0\s+-o\b)|\bdscl\s+\.\s+-(create|append)\s+[^\n]{0,80}\b(UniqueID\s+0|GroupMembership|admin)\b/
    $win_admin = /\bnet(\.exe)?\s+localgroup\s+["']?(administrators|admins|administradores|administrateurs|Remote Desktop Users)["']?\s+[^\n]{0,60}\/add\b|\bAdd-LocalGroupMember\b[^\n]{0,60}-Group\s+["']?Administrators|\bnet(\.exe)?\s+user\s+\S+\s+\S+\s+\/add\b/ nocase
    $uac_bypass = /\\(ms-settings|mscfile|exefile|Folder|AppX82a6gwre4fdg3bt635tn5ctqjf8msdd2)\\shell\\open\\command|\b(fodhelper|eventvwr|computerdefaults|sdclt|slui|wsreset|CompMgmtLauncher)(\.exe)?\b[^\n]{0,80}(DelegateExecute|shell\\open)|DelegateExecute/ nocase
    $runas_saved = /\brunas(\.exe)?\s+[^\n]{0,40}\/savecred\b|\brunas(\.exe)?\s+\/user:\s*["']?(administrator|\S+\\administrator)\b/ nocase
    $polkit = /\/etc\/polkit-1\/(rules\.d|localauthority)\/[^\n]{0,200}|\bpkexec\s+[^\n]{0,40}\b(bash|sh|chmod|chown)\b[^\n]{0,40}(\/etc|\/bin|\+s)/
    $docker_sock = /\/var\/run\/docker\.sock:\/var\/run\/docker\.sock[^\n]{0,200}\b(chroot|nsenter)\b|\bnsenter\s+[^\n]{0,40}(-t\s+1\b|--target\s+1\b)[^\n]{0,40}(-m|--mount)/
    $ld_preload_root = /\bsudo\s+(-\w+\s+)*LD_PRELOAD=|\bsudo\s+(-\w+\s+)*(vim?|less|find|awk|python[0-9.]*|perl|tar|zip|env|nmap|ruby|node)\s+[^\n]{0,60}(-exec\s+\/bin\/(ba)?sh|:!\/?(bin\/)?(ba)?sh|\bos\.system|exec\s+["']?\/bin\/(ba)?sh|--checkpoint-action=exec|-c\s+["']?import\s+os)/
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
    block = "medium"
    message = "turns a protection off or joins an administrative group (SELinux, firewall, Defender, Gatekeeper, sudo/docker group)"
  strings:
    $groups = /\b(usermod|gpasswd|adduser)\s+(-\w+\s+)*(-aG|-G|-a)\s*(sudo|wheel|admin|root|docker)\b/
    $disable = /\bsetenforce\s+0\b|\bufw\s+disable\b|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b|Set-MpPreference\s+[^\n]{0,40}-Disable\w+\s+\$?true|\bAdd-MpPreference\s+-ExclusionPath\b|\bnetsh\s+(adv)?firewall\s+set\s+[^\n]{0,40}\boff\b|\bxattr\s+(-\w+\s+)*-d\s+com\.apple\.quarantine\b/ nocase
    $uac = /\bStart-Process\b[^\n]{0,120}-Verb\s+RunAs\b/ nocase
    $uac_off = /\bEnableLUA\b[^\n]{0,60}\b0\b|\bConsentPromptBehaviorAdmin\b[^\n]{0,40}\b0\b/ nocase
    $docker_root = /\b(docker|podman|nerdctl)\s+(run|create)\b[^\n]{0,200}(\s(-v|--volume)[\s=]*["']?\/:\/|--pid[= ]host\b[^\n]{0,100}--privileged|--privileged\b[^\n]{0,200}(--pid[= ]host|\s(-v|--volume)[\s=]*["']?\/\w*:))/
    $kernel = /\bptrace_scope\b[^\n]{0,20}\b0\b|\brandomize_va_space\s*=\s*0\b|>\s*\/proc\/sys\/kernel\/randomize_va_space/
    $ctx_signed = /\bGet-AuthenticodeSignature\b[^\n]{0,80}\bValid\b/ nocase
  condition:
    $groups or $disable or $uac_off or $docker_root or $kernel or ($uac and not $ctx_signed)
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

/* Round 3, by technique (ATT&CK T1548, T1546.008, T1556.003, T1562.001): passwordless root
 * through doas or PAM, accessibility binaries and IFEO debuggers hijacked, mandatory access
 * control turned off for good. High wherever it stands, unless the line warns against it. */
rule privilege_persistent_bypass {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "makes root passwordless or turns a system protection off for good (doas, PAM, IFEO, SELinux, AppArmor)"
  strings:
    $doas = /\bpermit\s+nopass\b|(>>?|\btee\s+(-a\s+)?)\s*["']?\/etc\/doas(\.d\/[\w.-]+)?\.conf\b/
    $pam = /\bpam_permit\.so\b[^\n]{0,80}\/etc\/pam\.d\/|\/etc\/pam\.d\/[^\n]{0,120}\bpam_permit\.so\b|\bauth\s+sufficient\s+pam_(permit|rootok)\.so\b[^\n]{0,40}(>>?|\btee\b|\/etc\/pam\.d)|(>>?|\btee\s+(-a\s+)?|\bsed\s+-i\b[^\n]{0,60})\s*["']?\/etc\/pam\.d\/(su|sudo|login|sshd|common-auth|system-auth|passwd)\b/
    $ifeo = /Image\s+File\s+Execution\s+Options\\[^\n]{0,80}(Debugger|GlobalFlag|VerifierDlls)|\\SilentProcessExit\\[^\n]{0,80}MonitorProcess/ nocase
    $sticky = /\b(copy|cp|move|mv|Copy-Item|takeown|icacls)\b[^\n]{0,80}\\(System32|SysWOW64)\\(sethc|utilman|osk|magnify|narrator|displayswitch|atbroker)\.exe/ nocase
    $mac_off = /\bSELINUX\s*=\s*(disabled|permissive)\b|\bsystemctl\s+(disable|mask|stop)\s+(--now\s+)?(apparmor|auditd|firewalld|selinux)\b|\baa-teardown\b|\bapparmor_parser\s+-R\b|\bauditctl\s+-e\s*0\b|\bSet-MpPreference\b[^\n]{0,40}-Disable(RealtimeMonitoring|IOAVProtection|BehaviorMonitoring)\s+\$?(true|1)\b/ nocase
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attacker|attack|malicious|detect|flag)\b/ nocase
  condition:
    any of ($doas, $pam, $ifeo, $sticky, $mac_off) and #neg_warn >= 0
}

/* Round 5, by technique (ATT&CK T1548.001/.003, T1553.006, T1562.001, T1601): root or a
 * signature check given away in forms the rules above did not spell: an argument list
 * (`["usermod", "-aG", "docker", user]`), the boot loader's driver signing turned off, a
 * whole drive or an interpreter excluded from Defender, package signatures not checked,
 * git's signature program replaced by a script. High where it runs, medium in prose. */
rule privilege_signing_off {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "gives root away or turns a signature check off (argument-list sudo/docker group or setuid, boot signing, Defender exclusion of a drive, unsigned packages, a fake gpg)"
  strings:
    $argv_group = /["'](usermod|gpasswd|adduser)["']\s*,\s*(["']-\w+["']\s*,\s*)*["'](-aG|-G|-a)["']\s*,\s*["'](sudo|wheel|admin|root|docker)["']/
    $argv_setuid = /["']chmod["']\s*,\s*(["']-\w+["']\s*,\s*)*["']([ugoa]*\+[rwx]*s|[2467][0-7]{3}|666|777)["']\s*,\s*["'](\/usr\/|\/bin\/|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/etc\/)/
    $sock_open = /\bchmod\s+(-\w+\s+)*(666|777|a\+rw|o\+rw)\s+["']?(\/var)?\/run\/docker\.sock\b/
    $bcd = /\bbcdedit(\.exe)?\s+(\/set\s+(\{\w+\}\s+)?)(testsigning\s+on|nointegritychecks\s+on|loadoptions\s+DISABLE_INTEGRITY_CHECKS|debug\s+on)\b/ nocase
    $defender = /\bAdd-MpPreference\b[^\n]{0,40}-ExclusionPath\s+["']?([A-Z]:\\?|\$env:(SystemDrive|USERPROFILE|TEMP|APPDATA)\\?)["']?(\s|$|,|;)|\bAdd-MpPreference\b[^\n]{0,40}-ExclusionProcess\s+[^\n]{0,60}\b(powershell|pwsh|cmd|wscript|cscript|mshta|rundll32|regsvr32|node|python\w*)(\.exe)?\b|\bAdd-MpPreference\b[^\n]{0,40}-ExclusionExtension\s+[^\n]{0,30}\b(exe|dll|ps1|js|vbs|bat)\b/ nocase
    $gpg = /\bgit\s+config\s+(--global|--system)\s+gpg(\.\w+)?\.program\s+["']?[^\s"']{0,120}(\.(sh|py|js|rb|ps1|bat|cmd)\b|\$HOME\/\.|~\/\.|\/tmp\/)/
    $setid_list = /\bchmod\s+0?[2467][0-7]{3}\s*,\s*[\$@"']|["']chmod["']\s*,\s*["'][2467][0-7]{3}["']\s*,/
    $service_system = /\bsc(\.exe)?\s+create\b[^\n]{0,200}\bbinPath=\s*["']?[^\n]{0,120}(%APPDATA%|%LOCALAPPDATA%|%TEMP%|%TMP%|%USERPROFILE%|\\AppData\\|\\Temp\\|\\Users\\Public\\|\bcmd(\.exe)?\s+\/c\b|\b(powershell|pwsh|wscript|cscript|mshta)(\.exe)?\b)|\bNew-Service\b[^\n]{0,120}-BinaryPathName\s+["']?[^\n]{0,120}(\$env:(APPDATA|LOCALAPPDATA|TEMP)|\\AppData\\|\\Temp\\|\bcmd(\.exe)?\s+\/c\b|\b(powershell|pwsh|wscript|mshta)(\.exe)?\b)/ nocase
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attacker|attack|malicious|detect|flag)\b/ nocase
  condition:
    any of ($argv_group, $argv_setuid, $sock_open, $bcd, $defender, $gpg, $setid_list, $service_system) and #neg_warn >= 0

}

/* Package signatures not checked (ATT&CK T1553): high in a skill's script, which runs unread;
 * medium in a code block, where install guides for a mirror without keys show it. */
rule privilege_unsigned_packages {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "turns off package signature checks (apt, yum/dnf, zypper)"
  strings:
    $apt = /\bAPT::Get::AllowUnauthenticated\s+["']?(true|1|yes)|\bAcquire::AllowInsecureRepositories\s+["']?(true|1|yes)|\bAcquire::AllowDowngradeToInsecureRepositories\s+["']?(true|1|yes)|\bapt(-get)?\s+[^\n]{0,60}--allow-unauthenticated\b|\bdeb\s+\[[^\]\n]{0,60}trusted=yes[^\]\n]{0,60}\]\s+https?:|\bgpgcheck\s*=\s*0\b|\b(dnf|yum|zypper)\s+[^\n]{0,60}--nogpgcheck\b/ nocase
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|warning|dangerous|insecure|attacker|attack|malicious|detect|flag)\b/ nocase
  condition:
    $apt and #neg_warn >= 0
}

/* The files that decide who is root given to the user by ACL or ownership, and the Windows
 * token-impersonation tools (ATT&CK T1134) run: high in a script; a code block or prose that
 * names them (a penetration-testing guide) is medium. */
rule privilege_root_files_and_tokens {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    block = "medium"
    prose = "medium"
    message = "takes over the files that decide who is root, or impersonates a SYSTEM token"
  strings:
    $acl = /\bsetfacl\s+[^\n]{0,60}-m\s+[^\n]{0,60}\/etc\/(shadow|gshadow|sudoers(\.d)?|passwd|group)\b|\bch(own|grp)\s+(-\w+\s+)*[\w$.-]+(:[\w$.-]+)?\s+["']?\/etc\/(shadow|gshadow|sudoers(\.d)?|passwd)\b|\bchattr\s+-i\s+["']?\/etc\/(shadow|sudoers|passwd)\b/
    $potato = /\b(JuicyPotato(NG)?|RoguePotato|PrintSpoofer(64)?|GodPotato|SweetPotato|EfsPotato|RemotePotato0)(\.exe)?\s+-/ nocase
  condition:
    any of them
}

/* Administrator rights granted on macOS (authorizationdb, dseditgroup, sysadminctl) or a task
 * scheduled to run as SYSTEM (ATT&CK T1053.005 + T1548): high, medium in prose. */
rule privilege_admin_grants {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    prose = "medium"
    message = "grants administrator rights or schedules a task as SYSTEM"
  strings:
    $mac = /\bsecurity\s+authorizationdb\s+write\s+\S+\s+allow\b|\bdseditgroup\s+[^\n]{0,60}-a\s+\S+\s+[^\n]{0,30}\badmin\b|\bsysadminctl\s+[^\n]{0,120}-admin\b/
    $task_system = /\bschtasks(\.exe)?\s+\/create\b[^\n]{0,240}\/ru\s+["']?(SYSTEM|NT AUTHORITY\\SYSTEM)\b|\bRegister-ScheduledTask\b[^\n]{0,200}-User\s+["']?(SYSTEM|NT AUTHORITY\\SYSTEM)\b/ nocase
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|warning|attacker|malicious|detect)\b/ nocase
  condition:
    any of ($mac, $task_system) and #neg_warn >= 0
}

/* Round 11: root on the host from a container in a compose or pod file (privileged, the host's
 * PID or network namespace, the host's / mounted), and remote UAC token filtering or the admin
 * shares turned on through a .reg file or a registry command. */
rule host_root_container_and_remote_uac {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "gives root on the host (a privileged container with the host's namespaces or / mounted) or turns remote UAC filtering off"
  strings:
    $priv = /(^|\n)\s*privileged:\s*true\b/
    $host_ns = /(^|\n)\s*(pid|network_mode|ipc|hostPID|hostNetwork):\s*["']?(host|true)\b/
    $root_mount = /(^|\n)\s*-\s*["']?\/:\/[\w\/]*(:rw)?["']?\s*(\n|$)|(^|\n)\s*source:\s*["']?\/["']?\s*\n|(^|\n)\s*path:\s*["']?\/["']?\s*\n/
    $latfp = /LocalAccountTokenFilterPolicy["']?\s*(=\s*dword:0*1\b|[^\n]{0,60}(\/d\s+1\b|-Value\s+1\b))/ nocase
    $admin_share = /\bAutoShare(Wks|Server)["']?\s*(=\s*dword:0*1\b|[^\n]{0,60}(\/d\s+1\b|-Value\s+1\b))/ nocase
  condition:
    ($priv and ($host_ns or $root_mount)) or $latfp or $admin_share
}

/* Round 12 (issue 45): control planes opened to everyone. The Docker API on TCP with no TLS
 * (port 2375 on every interface, in daemon.json's hosts, dockerd -H, DOCKER_OPTS or a unit's
 * ExecStart: root on the host for whoever reaches the port); the Docker socket made
 * world-writable by systemd's SocketMode or an ACL; cluster-admin bound to every service account
 * or every authenticated (or anonymous) user; a whole drive or profile shared, or its ACL opened,
 * to Everyone. A client's DOCKER_HOST=tcp://...:2375 is not matched (CI's docker-in-docker). */
rule privilege_control_plane_open {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "opens a control plane to everyone: the Docker API without TLS, a world-writable Docker socket, cluster-admin to every account, a drive shared to Everyone"
  strings:
    $docker_tcp = /(["']hosts["']\s*:\s*\[[^\]\n]{0,120}|\bdockerd\b[^\n]{0,120}(\s-H|--host)[= ]?|DOCKER_OPTS\s*=[^\n]{0,80}(\s-H|--host)[= ]?)["']?tcp:\/\/(0\.0\.0\.0|\*|\[::\]|::)?:2375\b/
    $sock_mode = /SocketMode\s*=\s*0?[0-7]{2}[2367]\b/
    $ctx_docker = /docker\.sock(et)?\b|\bdockerd\b/
    $sock_acl = /\bsetfacl\s+[^\n]{0,40}-m\s+["']?o(ther)?::?[r-]?w[^\n]{0,60}docker\.sock\b/
    $k8s_group = /:\s*["']?system:(serviceaccounts|authenticated|unauthenticated|anonymous)["']?\s*,?\s*(\n|$)/
    $ctx_k8s_kind_group = /\bkind["']?\s*:\s*["']?(Group|User)\b/
    $ctx_k8s_crb = /\bkind["']?\s*:\s*["']?ClusterRoleBinding\b/
    $ctx_k8s_admin = /["']?name["']?\s*:\s*["']?cluster-admin\b/
    $smb = /\bNew-SmbShare\b[^\n]{0,200}-Path\s+["']?([A-Z]:\\?|\$env:(SystemDrive|USERPROFILE|HOMEDRIVE)\\?|[A-Z]:\\Users\\?)["']?\s[^\n]{0,200}-(FullAccess|ChangeAccess)\s+["']?(Everyone|Jeder|\*S-1-1-0|Guests?|Authenticated Users)\b|\bNew-SmbShare\b[^\n]{0,200}-(FullAccess|ChangeAccess)\s+["']?(Everyone|Jeder|\*S-1-1-0|Guests?)\b[^\n]{0,200}-Path\s+["']?([A-Z]:\\?|\$env:(SystemDrive|USERPROFILE)\\?)["']?(\s|$)/ nocase
    $net_share = /\bnet\s+share\s+["']?[\w$ -]{1,40}=["']?[A-Z]:\\?["']?\s[^\n]{0,80}\/grant:["']?(Everyone|Jeder)["']?,(full|change)\b/ nocase
    $icacls = /\bicacls(\.exe)?\s+["']?([A-Z]:\\?|%SystemDrive%\\?|\$env:SystemDrive\\?|%USERPROFILE%|\$env:USERPROFILE)["']?\s[^\n]{0,60}\/grant(:r)?\s+["']?(Everyone|\*S-1-1-0|Users|Authenticated Users):(\(OI\)\(CI\))?\(?(F|M)\)?/ nocase
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|insecure|attacker|malicious|detect\w*|exposed?\s+to\s+the\s+internet\s+is)\b/ nocase
  condition:
    ($docker_tcp or ($sock_mode and $ctx_docker) or $sock_acl or ($k8s_group and $ctx_k8s_kind_group and $ctx_k8s_crb and $ctx_k8s_admin) or
     $smb or $net_share or $icacls) and #neg_warn >= 0
}

/* Round 12: macOS System Integrity Protection switched off (csrutil disable, or the sealed
 * system volume's authenticated-root): every protection of the system files and kernel gone until
 * someone turns it back on. A step that tells the user to do it is high; a line warning against
 * it, or saying how to turn it back on, is not a step. */
rule privilege_sip_off {
  meta:
    id = "audit/privilege"
    category = "privilege"
    severity = "high"
    message = "turns macOS System Integrity Protection off (csrutil disable)"
  strings:
    $csrutil = /\bcsrutil\s+(authenticated-root\s+)?disable\b/
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|not\s+recommended|re-?enable|csrutil\s+enable|attacker|malicious|malware|detect\w*|check\s+(whether|if))\b/ nocase
  condition:
    $csrutil and #neg_warn >= 0
}

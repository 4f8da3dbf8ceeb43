/* Destruction: deleting or overwriting the user's home, the system, or a disk. In a script
 * high; in prose (a warning "never run rm -rf /") medium. */

rule destruction {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes or overwrites the user's home directory, the system or a disk"
  strings:
    $rm = /\brm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z-]+\s+)*["']?(\/|~|\$HOME|\$\{HOME[^}\n]{0,4}\}|\/home|\/etc|\/usr|\/var|\/boot|\/Users|\.\.\/\.\.)["'`]?\/?["'`]?\*?["'`]?(\s|;|&|\||\)|`|$)/
    $rm_root = /--no-preserve-root/
    $find = /\bfind\s+["']?(\/|~|\$HOME|\$\{HOME\})["']?\/?\s[^\n]{0,100}(-delete\b|-exec\s+rm\b)/
    $disk = /\bdd\s+[^\n]{0,60}of=\/dev\/(sd[a-z]|nvme|disk|hd[a-z]|mmcblk)|\bmkfs(\.\w+)?\s+\/dev\/|>\s*\/dev\/(sd[a-z]|nvme\d)|\bshred\s+[^\n]{0,40}\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk|md|dm-|mapper|loop|rdisk)|\bwipefs\s+-a\b/
    $forkbomb = ":(){ :|:& };:"
    $forkbomb2 = ":() { :|:& };:"
    $chmod_root = /\bch(mod|own)\s+-R\s+\S+\s+(\/|~\/?|\$HOME\/?)(\s|$|;)/
    $mv_home = /\bmv\s+(~|\$HOME)\/?\s+\/dev\/null\b/
    $shred_home = /\bshred\s[^\n]{0,40}(~|\$HOME)\/(\.ssh|\*)/
    $ransom = /\bvssadmin(\.exe)?\s+delete\s+shadows\b|\bwbadmin(\.exe)?\s+delete\s+catalog\b|\bbcdedit(\.exe)?\s[^\n]{0,40}recoveryenabled\s+no\b|\b(Format-Volume|Clear-Disk)\b|\bdiskpart\b[^\n]{0,60}\bclean\b/ nocase
    $py = /\b(shutil\.rmtree|os\.removedirs)\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~\/?["']\s*\)|Path\.home\s*\(\s*\)|["']\/["']|["']~\/?["']|os\.environ\s*\[\s*["']HOME["']\s*\])\s*[,)]/
    $js = /\b(fs\.(rmSync|rm|rmdirSync|rmdir)|rimraf(\.sync)?|fse?\.(removeSync|remove|emptyDirSync))\s*\(\s*(os\.homedir\s*\(\s*\)|["']\/["']|process\.env\.HOME|["']~["'])\s*[,)]/
    $js_home = /\b(rmSync|rmdirSync|rimraf(\.sync)?|removeSync|emptyDirSync|rm|rmdir|remove)\s*\(\s*((require\s*\(\s*["']os["']\s*\)|os)\.homedir\s*\(\s*\)|["']\/["']|process\.env\.(HOME|USERPROFILE)|["']~["'])\s*[,)]/
    $ps_pipe = /\b(gci|Get-ChildItem|ls|dir)\s+[^\n|]{0,20}(\$env:(USERPROFILE|HOMEDRIVE|SystemRoot)|\$HOME|~|[A-Z]:\\)["']?\s[^\n|]{0,60}\|\s*(Remove-Item|rm|ri|del)\b/ nocase
    $ps = /\b(Remove-Item|rmdir|del|ri)\b[^\n]{0,80}\s["']?([A-Z]:\\?|\$env:(USERPROFILE|HOMEDRIVE|HOMEPATH|SystemRoot|windir|ProgramFiles)|\$HOME|~)["']?(\s|;|\)|$)/ nocase
    $bat = /\b(rd|rmdir)\s+\/s\s+\/q\s+["']?([A-Z]:\\?["']?(\s|$)|%USERPROFILE%|%SystemRoot%|%HOMEPATH%)|\bdel\s+(\/[fsq]\s+){2,}["']?([A-Z]:\\|%USERPROFILE%)|\bformat\s+[A-Z]:\s*\/[qy]/ nocase
    $pl = /\b(rmtree|remove_tree|File::Path::rmtree|File::Path::remove_tree)\s*\(?\s*(\$ENV\{\s*["']?(HOME|USERPROFILE)["']?\s*\}|["']\/["']|["']~\/?["']|File::HomeDir->my_home|\(getpwuid\s*\(\s*\$<\s*\)\)\[7\]|glob\s*\(\s*["']~)/
    $rb = /\b(FileUtils\.(rm_rf|rm_r|remove_dir|remove_entry(_secure)?|rmtree)|Dir\.rmdir)\s*\(?\s*(Dir\.home|ENV\s*\[\s*["'](HOME|USERPROFILE)["']\s*\]|["']\/["']|["']~\/?["']|File\.expand_path\s*\(\s*["']~\/?["']\s*\)|Dir\.glob\s*\(\s*["'](\/|~)\/?\*)/
    $go = /\bos\.RemoveAll\s*\(\s*(os\.Getenv\s*\(\s*["'](HOME|USERPROFILE)["']\s*\)|home(Dir)?\b|["']\/["']|["']~["'])/
    $php = /\b(exec|system|shell_exec|passthru)\s*\(\s*["']rm\s+-[a-z]*r[a-z]*\s+(\/|~|\$HOME)/
    $lua = /\bos\.execute\s*\(\s*["']rm\s+-[a-z]*r[a-z]*\s+(\/|~|\$HOME)/
    $py_any = /\b(shutil\.rmtree|os\.removedirs|send2trash)\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~\/?["']\s*\)|Path\.home\s*\(\s*\)|str\s*\(\s*Path\.home\s*\(\s*\)\s*\)|["']\/["']|["']~\/?["']|os\.(environ\s*\[\s*["']|getenv\s*\(\s*["'])(HOME|USERPROFILE)["']\s*[\])]|["'][A-Z]:\\\\?["'])\s*[,)]/
    $ps_home = /\b(Remove-Item|rm|ri|del|rmdir|rd)\b[^\n]{0,80}\s["']?(\$env:(USERPROFILE|HOMEDRIVE|HOMEPATH|SystemDrive|SystemRoot|windir|ProgramFiles|APPDATA|LOCALAPPDATA)|\$HOME|~|[A-Z]:)[\\\/]?\*?["']?(\s|;|\)|$)[^\n]{0,40}-(Recurse|r)\b|\b(Remove-Item|ri)\b[^\n]{0,40}-(Recurse|r)\b[^\n]{0,80}\s["']?(\$env:(USERPROFILE|HOMEDRIVE|SystemDrive|SystemRoot|windir|APPDATA)|\$HOME|~|[A-Z]:)[\\\/]?\*?["']?(\s|;|\)|$)/ nocase
    $bat_del = /\bdel\s+(\/[fsqa]\s+)*["']?([A-Z]:\\\*?|%(USERPROFILE|SystemDrive|SystemRoot|HOMEDRIVE|APPDATA)%\\?\*?)["']?\s*(\/[fsq]\s*)*(\s|$)[^\n]{0,20}/ nocase
    $diskpart = /\b(select\s+disk\s+\d+[^\n]{0,80}|echo\s+)clean(\s+all)?\b|\(\s*echo\s+select\s+disk/ nocase
    $cipher = /\bcipher(\.exe)?\s+\/w:\s*[A-Z]:/ nocase
    $dd_zero = /\bdd\s+[^\n]{0,60}if=\/dev\/(zero|urandom|random)[^\n]{0,60}of=\/dev\/\w+/
    $mkfs = /\bmkfs(\.\w+)?\s+(-\w+\s+)*\/dev\/(sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d)/
    $truncate_home = /\b(truncate\s+-s\s*0|shred\s+(-\w+\s+)*)[^\n]{0,20}(~|\$HOME)\/(\*|\.\w+)/
    $git = /\bgit\s+push\s+[^\n]{0,40}(--force|-f)\b[^\n]{0,40}\b(--all|--mirror)\b/
    $neg_attack = /\b(attacker|malicious|injection|injected|exploit|payload|vulnerable|untrusted)\b/ nocase
  condition:
    any of them
}

/* The same as a step in prose (a list item, a code block, "run ..."): what the agent is told to
 * run. High, unless the line says not to or shows an attack (the $veto strings: "never run
 * rm -rf /", an injected "; rm -rf /" inside a string), before the command or after it ("Run
 * `rm -rf /` or similar dangerous commands" in a list of red flags): each string takes the rest
 * of its line so a veto there falls inside it. */
rule destruction_prose_step {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "tells the agent to delete or overwrite the user's home directory, the system or a disk"
  strings:
    $rm = /(^|\n)[^\n]{0,120}\brm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z-]+\s+)*["']?(\/|~|\$HOME|\$\{HOME[^}\n]{0,4}\}|\/home|\/etc|\/usr|\/var|\/boot|\/Users|\.\.\/\.\.)["'`]?\/?["'`]?\*?["'`]?(\s|;|&|\||\)|`|$)[^\n]{0,80}/
    $find = /(^|\n)[^\n]{0,120}\bfind\s+["']?(\/|~|\$HOME|\$\{HOME\})["']?\/?\s[^\n]{0,100}(-delete\b|-exec\s+rm\b)[^\n]{0,80}/
    $disk = /(^|\n)[^\n]{0,120}(\bdd\s+[^\n]{0,60}of=\/dev\/(sd[a-z]|nvme|disk|hd[a-z]|mmcblk)|\bmkfs(\.\w+)?\s+\/dev\/|>\s*\/dev\/(sd[a-z]|nvme\d)|\bshred\s+[^\n]{0,40}\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk|md|dm-|mapper|loop|rdisk)|\bwipefs\s+-a\b)[^\n]{0,80}/
    $py = /(^|\n)[^\n]{0,120}\b(shutil\.rmtree|os\.removedirs)\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~\/?["']\s*\)|Path\.home\s*\(\s*\)|["']\/["']|["']~\/?["']|os\.environ\s*\[\s*["']HOME["']\s*\])\s*[,)][^\n]{0,80}/
    $ps = /(^|\n)[^\n]{0,120}(\b(Remove-Item|rmdir|del|ri)\b[^\n]{0,80}\s["']?([A-Z]:\\?|\$env:(USERPROFILE|HOMEDRIVE|HOMEPATH|SystemRoot|windir|ProgramFiles)|\$HOME|~)["']?(\s|;|\)|$))[^\n]{0,80}/ nocase
    $bat = /(^|\n)[^\n]{0,120}(\b(rd|rmdir)\s+\/s\s+\/q\s+["']?([A-Z]:\\?["']?(\s|$)|%USERPROFILE%|%SystemRoot%|%HOMEPATH%)|\bdel\s+(\/[fsq]\s+){2,}["']?([A-Z]:\\|%USERPROFILE%)|\bformat\s+[A-Z]:\s*\/[qy])[^\n]{0,80}/ nocase
    $veto_negation = /\b(never|not|don'?t|avoid|dangerous|danger|warning|careful|caution|destructive|accidental(ly)?|mistake|example\s+of|attacker|attack|injection|injected|inject|malicious|payload|exploit|vulnerable|vulnerability|insecure|unsafe|bad|wrong|untrusted|user_input|e\.g\.)\b/ nocase
    $veto_injected = /["'`][^"'`\n]{0,60}[;|&]\s*rm\s/
  condition:
    is_prose and any of ($rm, $find, $disk, $py, $ps, $bat) and #veto_negation >= 0 and
    #veto_injected >= 0
}

/* History rewritten on a shared branch: recoverable by whoever has a clone, and what some
 * release guides do on purpose, so medium. */
rule destruction_force_push_main {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "medium"
    prose = "low"
    message = "force-pushes the main branch, rewriting shared history"
  strings:
    $push = /\bgit\s+push\s+[^\n]{0,40}(--force\b|-f\b|\+(main|master)\b)[^\n]{0,40}\b(main|master)\b/
  condition:
    any of them
}

/* Round 3: the home directory or the root removed through any language's recursive API
 * (Deno, Bun, PHP iterators, a variable named for the home directory), or walked with every
 * entry deleted. */
rule destruction_any_language {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes the user's home directory or the system through a program's recursive delete"
  strings:
    $deno = /\b(Deno\.remove(Sync)?|Bun\.\w*rm\w*|fs\.promises\.rm|fsp?\.rm|rmSync|rmdirSync|rimraf(\.sync)?|removeSync|remove_dir_all|rm_rf|rmtree|RemoveAll)\s*\(\s*(Deno\.env\.get\s*\(\s*["'](HOME|USERPROFILE)["']\s*\)|Bun\.env\.HOME|process\.env\[?["']?(HOME|USERPROFILE)|(home|homeDir|home_dir|userHome|user_home|HOME)\s*[,)!]|homedir\s*\(\s*\)|os\.homedir\s*\(\s*\)|dirs::home_dir|std::env::var\s*\(\s*["']HOME)/
    $walk_home = /\b(RecursiveDirectoryIterator|os\.walk|filepath\.Walk(Dir)?|File::Find::find|Find\.find|walkdir|WalkDir::new|readdirSync|Get-ChildItem)\s*\(?\s*[^\n]{0,30}(getenv\s*\(\s*["'](HOME|USERPROFILE)["']\s*\)|\$_SERVER\s*\[\s*["']HOME|expanduser\s*\(\s*["']~\/?["']\s*\)|Path\.home\s*\(|os\.homedir\s*\(|Dir\.home\b|\$ENV\{\s*["']?HOME|\$env:USERPROFILE|\bhome(Dir)?\s*[,)]|["']\/["']\s*[,)])/
    $ctx_delete = /\b(unlink|unlinkSync|rmdir|rmdirSync|os\.remove|os\.unlink|os\.Remove|File\.delete|Remove-Item|fs\.rm\w*|shutil\.rmtree|FileUtils\.rm\w*)\s*\(/
  condition:
    $deno or (is_script and $walk_home and $ctx_delete)
}

/* Round 5, by technique (ATT&CK T1485 data destruction, T1561 disk wipe, T1490): what deletes
 * the user's data without naming `rm` on their home: a cloud account's storage, clusters and
 * stacks deleted with the confirmation switched off; a database dropped through its client;
 * every volume, every repository's uncommitted work, a home directory mirrored from an empty
 * one; the registry hive of every application; a remote API's DELETE sent in a loop. High where
 * it runs (a script, a code block); medium in prose, where a runbook may name it. */
rule destruction_unconfirmed_bulk {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes in bulk without confirmation: cloud resources, databases, volumes, every repository's work, a disk, the home directory"
  strings:
    $s3 = /\baws\s+s3\s+rb\s+[^\n]{0,120}--force\b|\b(aws\s+s3\s+rm|gcloud\s+storage\s+rm)\s+[^\n]{0,40}["']?(s3|gs):\/\/[^\/\s"']+\/?["']?\s[^\n]{0,60}--recursive\b|\bgsutil\s+(-m\s+)?rm\s+-[a-zA-Z]*r[a-zA-Z]*\s+["']?gs:\/\/[^\/\s"']+\/?["']?(\s|$)|\baz\s+storage\s+(container|blob)\s+delete-batch\b/
    $cloud = /\bgcloud\s+[^\n]{0,80}\bdelete\b[^\n]{0,120}(--quiet\b|\s-q\b)|\bgcloud\s+(--quiet|-q)\s+[^\n]{0,80}\bdelete\b|\baz\s+(group|resource|vm|aks|sql\s+server|storage\s+account|keyvault)\s+delete\b[^\n]{0,120}(--yes\b|\s-y\b)|\bdoctl\s+[^\n]{0,60}\bdelete\b[^\n]{0,80}(--force|-f)\b|\bheroku\s+(apps:destroy|pg:reset)\b[^\n]{0,80}--confirm\b|\bfirebase\s+firestore:delete\b[^\n]{0,80}(--all-collections|\s-r\b|--recursive)[^\n]{0,80}(--force|\s-f\b|\s-y\b)|\bsupabase\s+db\s+reset\s+[^\n]{0,40}--linked\b/
    $k8s = /\bkubectl\s+delete\s+[^\n]{0,80}(--all-namespaces\b|\s-A\b)|\bkubectl\s+delete\s+(ns|namespaces?|pvc|pv|persistentvolumeclaims?|persistentvolumes?|secrets?)\s+[^\n]{0,40}--all\b|\bhelm\s+(uninstall|delete)\s+[^\n]{0,40}--all\b/
    /* a listing narrowed by a label or field selector is one app's objects (round 16) */
    $k8s_xargs = /\bxargs\s+(-\w+\s+)*kubectl\s+delete\b/
    $ctx_k8s_selected = /\bkubectl\s+get\s+[^\n|]{0,80}(\s-l\s*["']?[\w.\/-]+(=|!=|\s+in\s)|--selector[= ]|--field-selector[= ])[^\n|]{0,120}\|\s*xargs\s+(-\w+\s+)*kubectl\s+delete\b/
    $db = /\b(psql|mysql|mariadb|sqlcmd|sqlite3|mongo|mongosh|clickhouse-client|cockroach\s+sql)\b[^\n]{0,200}\bDROP\s+(DATABASE|SCHEMA)\b|\bdropdb\s+[^\n]{0,60}(--if-exists|-f|--force|\$)|\bdb\.dropDatabase\s*\(/ nocase
    $gh = /\bgh\s+repo\s+delete\s+["']?(\$\{?\w+|\{\w*\}|%\w)[^\n]{0,120}(--yes|--confirm)\b|\bxargs\b[^\n]{0,60}\bgh\s+repo\s+delete\b|\bgh\s+api\s+[^\n]{0,40}(-X|--method)\s*DELETE\s+[^\n]{0,20}\/?(repos|orgs)\//
    $api_delete = /\b(requests|httpx|session|client|axios)\.delete\s*\(\s*(f["'][^"'\n]{0,60}\/(repos|orgs|projects|buckets|databases|teams|users|accounts)\/[^"'\n]{0,40}\{|["'`][^"'`\n]{0,60}\/(repos|orgs|projects|buckets|databases|teams|users|accounts)\/[^"'`\n]{0,40}(\$\{|%s|["'`]\s*\+))|\bcurl\s+[^\n]{0,60}-X\s*DELETE\s+[^\n]{0,60}\/(repos|orgs)\/[^\s\/]*\$/
    $docker = /\bdocker\s+(system|volume)\s+prune\b[^\n]{0,60}(--volumes\b|-a\b|--all\b)[^\n]{0,40}(-f\b|--force\b)|\bdocker\s+(system|volume)\s+prune\b[^\n]{0,60}(-f\b|--force\b)[^\n]{0,40}(--volumes\b|--all\b|-a\b)|\bdocker\s+(volume\s+)?rm\s+[^\n]{0,20}\$\(\s*docker\s+volume\s+ls\s+-q/
    $every_repo = /\bfind\s+["']?(\/|~|\$HOME|\$\{HOME\})["']?\/?\s[^\n]{0,120}-exec(dir)?\s+git\s+(reset\s+--hard|clean\s+-[a-z]*f|checkout\s+--\s+\.|stash\s+drop|push\s+[^\n]{0,20}--force)/
    $mirror_empty = /\brsync\s+[^\n]{0,60}--delete\w*\s+[^\n]{0,60}\s["']?(~\/?|\$HOME\/?|\$\{HOME\}\/?|\/)["']?(\s|$|;|&)/
    $rm_lone_root = /\brm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(--\s+)?[^\n;&|"'`]{0,100}[\w.\/-]\s+\/(\s+[\w.~$-]|\s*["'`]?\s*(;|&|\||$))|\bcd\s+["']?(~|\$HOME|\$\{HOME\})["']?\/?\s*(&&|;)\s*rm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(--\s+)?(\*|\.\[!?\.?\]?\*)/
    $home_glob = /\brm\s+(-[a-zA-Z-]+\s+)*(--\s+)?["']?(~|\$HOME|\$\{HOME\})["']?\/\*\*\/\*/
    $keys_wiped = /\bfind\s+["']?(~|\$HOME|\$\{HOME\})\/\.(ssh|gnupg|aws|kube|password-store)\b[^\n]{0,160}-exec\s+(shred|rm|truncate)\b|\bshred\s+[^\n]{0,60}(~|\$HOME|\$\{HOME\})["']?\/\.(gnupg|aws|kube|password-store)\b/
    $disk_more = /\bwipefs\s+(-\w+\s+)*(--all|-\w*a\w*)\s+[^\n]{0,20}\/dev\/|\bblkdiscard\s+(-\w+\s+)*\/dev\/|\bsgdisk\s+(-\w+\s+)*(--zap-all|-Z)\s+\/dev\/|\bhdparm\s+[^\n]{0,60}--security-erase(-enhanced)?\b|\bshred\s+(-\w+\s+)*["']?(~|\$HOME|\$\{HOME\})["']?\/[^\s;|&]{0,60}\*/
    $diskpart_script = /\bdiskpart(\.exe)?\s+\/s\b/ nocase
    $ctx_dp_destroy = /\becho\s+(clean(\s+all)?|format\b|delete\s+(partition|volume|disk))|\n\s*(clean(\s+all)?|delete\s+(partition|volume)\s+override)\s*\r?\n/ nocase
    $hive = /\b(Remove-Item|ri|rm|del|rmdir)\b[^\n]{0,60}["']?(HKCU|HKLM|Registry::HKEY_\w+):\\?(Software)?\\?["']?\s[^\n]{0,40}-(Recurse|r)\b|\breg(\.exe)?\s+delete\s+["']?(HKCU|HKLM|HKEY_CURRENT_USER|HKEY_LOCAL_MACHINE)(\\Software)?["']?\s+\/f\b/ nocase
    $neg_attack = /\b(attacker|malicious|injection|injected|exploit|payload|vulnerable|untrusted)\b/ nocase
    /* a database the command names on this machine is the skill's own test one (round 8) */
    $veto_local_db = /\s(-h|--host)[= ]?["']?(localhost|127\.0\.0\.1|::1)\b/
    /* Round 12: a database client run inside a container the line names (`docker exec pg-test
     * psql -c 'DROP DATABASE ...'`): the skill's own throwaway database, as localhost is */
    $neg_container_db = /\b(docker|podman)\s+(compose\s+)?exec\s+[^\n]{0,60}\b(psql|mysql|mariadb|mongosh?|sqlcmd|clickhouse-client|dropdb)\b/
  condition:
    (for any i in (1..#k8s_xargs) : (not for any j in (1..#ctx_k8s_selected) :
       (@ctx_k8s_selected[j] + !ctx_k8s_selected[j] == @k8s_xargs[i] + !k8s_xargs[i])) or
     any of ($s3, $cloud, $k8s, $db, $gh, $api_delete, $docker, $every_repo, $mirror_empty, $hive, $rm_lone_root,
             $home_glob, $keys_wiped, $disk_more) or ($diskpart_script and $ctx_dp_destroy)) and #neg_attack >= 0 and
    #veto_local_db >= 0 and #neg_container_db >= 0
}

/* The home directory walked (glob, Find, Get-ChildItem) with each entry deleted, in any
 * language: no recursive-delete call to match, the walk and the delete are the technique. */
rule destruction_walk_home_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "walks the user's home directory and deletes or overwrites every file"
  strings:
    $glob = /\b(Dir\.glob|Dir\[|glob\.glob|glob\.iglob|Path\.home\s*\(\s*\)\.(r?glob)|globSync|fg\.sync)\s*\(?\s*[^\n]{0,60}(Dir\.home|Path\.home|expanduser\s*\(\s*["']~|os\.homedir|ENV\s*\[\s*["']HOME|["']~\/\*\*)[^\n]{0,60}\*\*/
    $ctx_delete = /\b(File\.(delete|unlink)|FileUtils\.rm\w*|os\.(remove|unlink)|\.unlink\s*\(|unlinkSync|fs\.rm\w*|shutil\.rmtree)\b/
    $walk_home_dir = /\b(os\.walk|Path\.home\s*\(\s*\)\.r?glob|filepath\.Walk(Dir)?|Find\.find|File::Find::find|readdirSync|walkSync|Get-ChildItem)\s*\(?\s*[^\n]{0,40}(expanduser\s*\(\s*["']~\/?(Documents|Pictures|Desktop|Downloads)?|Path\.home\s*\(|os\.homedir\s*\(|Dir\.home\b|\$ENV\{\s*["']?HOME|\$env:USERPROFILE|\broots?\b|\bhome\w*\b)/
    $ctx_home_dirs = /["'`](~\/)?(Documents|Pictures|Desktop|Photos)["'`]|expanduser\s*\(\s*["']~\/(Documents|Pictures|Desktop)/
    $ctx_overwrite = /\.write\s*\(\s*(os\.urandom|secrets\.token_bytes|bytes\s*\(\s*\w+|b["']\\x00["']\s*\*|crypto\.randomBytes|Random\.new\.bytes|SecureRandom\.random_bytes)|\b(Fernet|AES\.new|createCipheriv)\b[^\n]{0,200}\.write/
  condition:
    is_script and (($glob and $ctx_delete) or ($walk_home_dir and $ctx_home_dirs and $ctx_overwrite))

}

/* Infrastructure torn down, or a cache server emptied, by its own tool with the prompt turned
 * off: what a skill's script should never do unasked (high), and what a tool's cheat sheet or a
 * teardown step in a guide shows (medium in a code block, low in prose). */
rule destruction_teardown_unprompted {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    block = "medium"
    prose = "low"
    message = "tears down infrastructure or empties a data store without confirmation (terraform, pulumi, cdk, redis)"
  strings:
    $iac = /\bterraform\s+(destroy|apply\s+-destroy)\b[^\n]{0,80}-auto-approve\b|\bpulumi\s+destroy\b[^\n]{0,80}(--yes|-y)\b|\bcdk\s+destroy\b[^\n]{0,80}--force\b/
    $flush = /\bredis-cli\b[^\n]{0,80}\bflushall\b|\bFLUSHALL\b/ nocase
    $neg_attack = /\b(attacker|malicious|injection|injected|exploit|payload|vulnerable|untrusted)\b/ nocase
  condition:
    any of ($iac, $flush) and #neg_attack >= 0
}

/* Round 10 (issue 45): the shared main branch overwritten by a local tree that was first reset
 * and scrubbed (`reset --hard` and `clean -x`): local work and ignored files gone, and main
 * force-pushed to match. One force push in a release guide stays medium. */
rule destruction_reset_clean_force_main {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "discards local work (reset --hard, clean) and force-pushes the shared main branch"
  strings:
    $push = /\bgit\s+push\s+[^\n]{0,40}(--force\b|-f\b|\+(HEAD:)?(main|master)\b)[^\n]{0,40}\b(main|master)\b/
    $ctx_reset = /\bgit\s+reset\s+--hard\b/
    $ctx_clean = /\bgit\s+clean\s+-[a-zA-Z]*[fdx][a-zA-Z]*\b/
  condition:
    $push and $ctx_reset and $ctx_clean
}

/* Round 10: a recursive delete of every user's profile (C:\Users\*, /home/*, /Users/*), in
 * PowerShell, cmd, sh or Python. */
rule destruction_all_profiles {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes every user's home directory (C:\\Users\\*, /home/*, /Users/*)"
  strings:
    $ps = /\b(Remove-Item|ri|rm|del|rd|rmdir)\b[^\n]{0,60}["']?([A-Z]:|\$env:SystemDrive|%SystemDrive%)\\Users\\\*?["']?(\s|;|$)[^\n]{0,60}|\b(Remove-Item|ri)\b[^\n]{0,60}\s-Recurse\b[^\n]{0,60}([A-Z]:|\$env:SystemDrive)\\Users\\\*/ nocase
    $sh = /\brm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*["']?\/(home|Users)\/\*?["']?(\s|;|$)/
    $py = /\b(shutil\.rmtree|remove_tree|rmtree|rmSync|RemoveAll)\s*\(\s*(r?["'](\/home|\/Users|C:\\\\?Users)\/?\\?\\?["']|os\.path\.join\s*\(\s*["'](\/home|\/Users)["'])/
    $neg = /\b(never|don'?t|do\s+not|dangerous|warning|example\s+of|malicious)\b/ nocase
  condition:
    any of ($ps, $sh, $py) and #neg >= 0
}

/* Round 10: a recursive delete of a path built from the home directory and a second variable
 * nothing checks (`"$ENV{HOME}/$ENV{X}"`, `"$env:USERPROFILE\$env:X"`, `join(home,
 * os.environ.get("X", ""))`): with X unset the path is the home directory, removed whole. */
rule destruction_home_plus_unset {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes a path made of the home directory and an unchecked variable: unset, the whole home directory goes"
  strings:
    $path = /["']\$ENV\{\s*["']?(HOME|USERPROFILE)["']?\s*\}[\/\\]\$ENV\{\s*["']?\w+["']?\s*\}["']|["']\$env:(USERPROFILE|HOME)[\/\\]\$env:\w+["']|\bos\.path\.join\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~["']\s*\)|os\.environ\s*\[\s*["']HOME["']\s*\]|Path\.home\s*\(\s*\)|home)\s*,\s*os\.environ\.get\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)|\bpath\.join\s*\(\s*os\.homedir\s*\(\s*\)\s*,\s*process\.env\.\w+\s*\|\|\s*["']["']\s*\)/
    $ctx_delete = /\b(remove_tree|rmtree|shutil\.rmtree|Remove-Item\b[^\n]{0,80}-Recurse|rmSync|rimraf|fs\.rm)\b/
  condition:
    $path and $ctx_delete
}

/* Round 11: a deletion rooted at the home directory (or the profile) whose tail is a bare
 * variable, in every language: with the variable empty or unset (an empty default, a missing
 * environment variable, a flag defaulting to '.') the home directory itself is removed. A
 * literal tail (~/.cache/app) is not this. Also `find "$X/" -delete` on an unguarded variable
 * (from / when it is empty) and a loop over the catalogue dropping every table of the database. */
rule home_rooted_variable_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "deletes a path built from the home directory and a variable that may be empty (the whole home), or every table of the database"
  strings:
    $py_join = /\bos\.path\.join\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~["']\s*\)|os\.environ\s*\[\s*["'](HOME|USERPROFILE)["']\s*\]|str\s*\(\s*Path\.home\s*\(\s*\)\s*\))\s*,\s*[A-Za-z_][\w.]*\s*\)|\bPath\.home\s*\(\s*\)\s*\/\s*[A-Za-z_][\w.]*\s*(\n|\))/
    $py_rm = /\b(shutil\.rmtree|send2trash)\s*\(\s*[A-Za-z_]\w*\s*[,)]/
    $js_join = /\b(path\.)?(resolve|join)\s*\(\s*(os\.)?homedir\s*\(\s*\)\s*,\s*[A-Za-z_$][\w$.]*\s*\)/
    $js_rm = /\b(fs\.)?(rmSync|rm|rmdirSync|rmdir|removeSync|remove|rimraf(\.sync)?)\s*\(\s*[A-Za-z_$][\w$]*\s*(,\s*\{[^}\n]{0,60}recursive\s*:\s*true|\))/
    $ps_join = /\bJoin-Path\s+(-Path\s+)?\$env:(USERPROFILE|HOME|HOMEPATH|APPDATA|LOCALAPPDATA)\s+(-ChildPath\s+)?["']?\$(env:)?\w+["']?\s*(\n|\)|;)/ nocase
    $ps_rm = /\bRemove-Item\b[^\n]{0,80}-Recurse\b/ nocase
    $sh_find = /\bfind\s+["']?\$\{?\w+\}?\/["']?\s+(-(mindepth|maxdepth)\s+\d+\s+)*-delete\b/
    $sql_loop = /\bFOR\s+\w+\s+IN\s+SELECT\b[^;]{0,300}\b(pg_tables|information_schema\.tables|pg_class|sys\.tables)\b[^$]{0,400}\bEXECUTE\b[^;]{0,120}\bDROP\s+(TABLE|SCHEMA|VIEW)\b/ nocase
    /* Round 14: the sub-path checked for emptiness before the join (IsNullOrWhiteSpace, a
     * ValidateNotNullOrEmpty parameter) cannot resolve to the profile itself. */
    $ctx_ps_guard = /\[string\]::IsNullOr(Empty|WhiteSpace)\s*\(\s*\$\w+\s*\)|\bValidateNotNullOrEmpty\b/ nocase
    $sql_foreach = /\bsp_MSforeachtable\s+[@\w=\s]*["']\s*DROP\s+TABLE\b|\bSELECT\s+(CONCAT|GROUP_CONCAT|string_agg)\s*\(\s*["']DROP\s+TABLE\b[^\n]{0,300}\b(information_schema\.tables|pg_tables|sqlite_master)\b/ nocase
  condition:
    ($py_join and $py_rm) or ($js_join and $js_rm) or ($ps_join and $ps_rm and not $ctx_ps_guard) or $sh_find or $sql_loop or $sql_foreach
}

/* Round 12 (issue 45): a recursive delete whose root falls back to the home directory or the
 * root when a variable is unset (`rm -rf "${X:-$HOME}"/*`, `${X:-/}`, `${X:-}`), or whose call
 * takes the home directory as the default of an environment lookup (`rmtree(os.environ.get("X",
 * Path.home()))`, `rmSync(process.env.X ?? os.homedir())`): the skill never sets X, so the
 * default is what goes. */
rule destruction_default_root {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes recursively from a path that falls back to the home directory or / when a variable is unset"
  strings:
    $sh = /\brm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z-]+\s+)*(--\s+)?["']?\$\{[A-Za-z_]\w*:?-(\$HOME|\$\{HOME\}|~|\/|\$USERPROFILE)?\}["']?\/?["']?\*?["']?(\s|;|&|\||\)|$)/
    $call = /\b(shutil\.rmtree|rmtree|send2trash|rmSync|rmdirSync|rimraf(\.sync)?|removeSync|os\.RemoveAll|FileUtils\.rm_r\w*)\s*\(\s*(os\.environ\.get|os\.getenv|ENV\.fetch|process\.env\.\w+\s*(\?\?|\|\|)|Bun\.env\.\w+\s*(\?\?|\|\|))[^\n]{0,60}(expanduser\s*\(\s*["']~|Path\.home\s*\(|homedir\s*\(|Dir\.home\b|["']\/["']|["']~\/?["']|["']["'])/
    $neg = /\b(never|don'?t|do\s+not|SC2115|wrong|bad|example\s+of)\b/ nocase
  condition:
    any of ($sh, $call) and #neg >= 0
}

/* Round 12: a glob deleted under a variable that defaults to the empty string (`process.env.OUT
 * ?? ""`, `os.environ.get("OUT", "")`, `ENV.fetch("OUT", "")`), through a template or an f-string
 * (`rm -rf ${out}/*`, Bun's and zx's shells, `f"rm -rf {out}/*"`): empty, it is rm -rf /*. A
 * shell script's own `${X:-}` is scope_rm_unset_var's (a guard as often as a default). */
rule destruction_empty_default_glob {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes a glob under a variable whose default is empty: empty, it deletes from the root (rm -rf ${out}/*)"
  strings:
    $rm = /\brm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z-]+\s+)*(--\s+)?["']?(\$\{[A-Za-z_]\w*\}|\{[A-Za-z_]\w*\}|#\{[A-Za-z_]\w*\})["']?\/["']?\*/
    $ctx_empty = /(process\.env\.\w+|process\.env\[\s*["']\w+["']\s*\]|Bun\.env\.\w+|Deno\.env\.get\s*\(\s*["']\w+["']\s*\))\s*(\?\?|\|\|)\s*(["']["']|``)|\bos\.(environ\.get|getenv)\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)|\bENV\.fetch\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)/
  condition:
    not is_prose and $rm and $ctx_empty
}

/* Round 12: the home directory's own entries listed and each deleted, in any language (Python's
 * Path.home().iterdir(), os.listdir(home), Node's readdirSync(homedir()), Go's os.ReadDir,
 * Ruby's Dir.children, PowerShell's Get-ChildItem $HOME, a shell loop over ~/*): a keep list
 * (Documents, Downloads) spares a few and every other folder, .ssh and .gnupg included, goes. */
rule destruction_home_entries_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "lists the home directory's entries and deletes them (every folder not on a short keep list)"
  strings:
    $py = /\b(Path\.home\s*\(\s*\)|Path\s*\(\s*["']~["']\s*\)\.expanduser\s*\(\s*\))\.(iterdir\s*\(|glob\s*\(\s*["']\*["'])|\bos\.(listdir|scandir)\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~\/?["']\s*\)|os\.environ\s*\[\s*["']HOME["']\s*\]|os\.getenv\s*\(\s*["']HOME["']\s*\)|str\s*\(\s*Path\.home\s*\(\s*\)\s*\)|Path\.home\s*\(\s*\))\s*\)/
    $js = /\b(fs\.)?(readdirSync|readdir|promises\.readdir)\s*\(\s*(os\.)?homedir\s*\(\s*\)\s*[,)]/
    $go = /\bos\.ReadDir\s*\(\s*(home(Dir)?|os\.Getenv\s*\(\s*["']HOME["']\s*\))\s*\)/
    $rb = /\bDir\.(children|entries|each_child)\s*\(\s*(Dir\.home|ENV\s*\[\s*["']HOME["']\s*\])\s*\)/
    $ps = /\b(Get-ChildItem|gci|ls|dir)\s+(-Path\s+)?["']?(\$HOME|\$env:USERPROFILE|~)["']?\\?(\s+-Force)?\s*\|/ nocase
    $sh = /\bfor\s+\w+\s+in\s+["']?(~|\$HOME|\$\{HOME\})["']?\/["']?(\*|\.\[)/
    $ctx_delete = /\bshutil\.rmtree\s*\(|\.unlink\s*\(|\bos\.(remove|unlink|RemoveAll)\s*\(|\b(rmSync|unlinkSync|rmdirSync)\s*\(|\bfs\.(rm|unlink)\s*\(|\bFileUtils\.(rm_rf|rm_r|remove_entry)\b|\bRemove-Item\b|\bsend2trash\b|\brm\s+-[a-zA-Z]*[rR]/
  condition:
    is_script and any of ($py, $js, $go, $rb, $ps, $sh) and $ctx_delete
}

/* Round 12: a whole project, stack or database wiped with its prompt off (terraform or pulumi
 * destroy, firestore:delete --all-collections, FLUSHALL, dropDatabase, DROP DATABASE) where the
 * text beside it waves the check away ("no need to switch projects", "no confirmation is
 * needed"), or in a loop over every stack, workspace or project: a careful guide names the
 * target and asks. High in prose and code blocks, which is where such a step is written. */
rule destruction_bulk_unchecked {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "wipes a whole project, stack or database with the prompt off, and tells the agent not to check which one (or does every one)"
  strings:
    $near = /(\bterraform\s+(destroy|apply\s+-destroy)\b[^\n]{0,80}-auto-approve\b|\bpulumi\s+destroy\b[^\n]{0,80}(--yes|-y)\b|\bcdk\s+destroy\b[^\n]{0,80}--force\b|\bfirebase\s+firestore:delete\b[^\n]{0,80}(--all-collections|--recursive)|\bFLUSHALL\b|\bdropDatabase\s*\(|\bDROP\s+DATABASE\b|\bgcloud\s+projects\s+delete\b|\baz\s+group\s+delete\b)[^\n]{0,160}(\n[^\n]{0,200}){0,4}\b(no\s+need\s+to\s+(check|confirm|switch|verify|select|review|ask|look)|no\s+confirmation\s+(is\s+)?(needed|required)|(check|confirmation|backup|review)\s+is\s+(not\s+needed|unnecessary)|without\s+(asking|confirming|checking|a\s+backup)|the\s+default\s+(one|project|alias|workspace|stack)\s+is\s+fine)/ nocase
    $before = /\b(no\s+need\s+to\s+(check|confirm|switch|verify|select|review|ask|look)|no\s+confirmation\s+(is\s+)?(needed|required))[^\n]{0,200}(\n[^\n]{0,200}){0,4}(\bterraform\s+(destroy|apply\s+-destroy)\b[^\n]{0,80}-auto-approve\b|\bpulumi\s+destroy\b[^\n]{0,80}(--yes|-y)\b|\bfirebase\s+firestore:delete\b[^\n]{0,80}(--all-collections|--recursive)|\bFLUSHALL\b|\bdropDatabase\s*\(|\bgcloud\s+projects\s+delete\b|\baz\s+group\s+delete\b)/ nocase
    $every = /\b(pulumi\s+stack\s+ls|terraform\s+workspace\s+list|gcloud\s+projects\s+list|firebase\s+projects:list|az\s+group\s+list|heroku\s+apps\b)[^\n]{0,120}(\n[^\n]{0,200}){0,2}\b(pulumi\s+(destroy|stack\s+rm)\b[^\n]{0,80}(--yes|-y|--force|-f)\b|terraform\s+(destroy|apply\s+-destroy)\b[^\n]{0,80}-auto-approve\b|gcloud\s+projects\s+delete\b|az\s+group\s+delete\b[^\n]{0,80}(--yes|-y)\b|heroku\s+apps:destroy\b)/
    $neg_warn = /\b(never|don'?t|do\s+not|avoid|dangerous|careful|caution|attacker|malicious)\b/ nocase
  condition:
    any of ($near, $before, $every) and #neg_warn >= 0
}

/* Round 12: a Makefile recipe deleting a glob under a Make variable the Makefile never defines
 * (`rm -rf $(BUILDDIR)/*` beside `BUILD_DIR ?= build`): an undefined variable is empty, so the
 * recipe is rm -rf /*. audit_unset.c drops the match when the file defines, tests (ifdef) or
 * exports the name; a Makefile that includes another may define it there. */
rule destruction_make_undefined_var {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    unset_var = "veto"
    message = "deletes a glob under a Make variable the Makefile never defines: empty, it is rm -rf /*"
  strings:
    $rm = /\brm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*["']?\$[({][A-Za-z_]\w*[)}]["']?\/["']?\*/
    $ctx_include = /(^|\n)\s*-?s?include\s/
  condition:
    lang == "make" and $rm and not $ctx_include
}

/* Round 13 (issue 45): deletions that do not say "delete". A mirror of an empty folder over the
 * user's files, every file of a tree emptied, a list of everything fed into a delete, a storage
 * pool's root destroyed, every namespace or object version removed through a client library,
 * and the home directory joined to a subpath that defaults to empty. */

/* Mirroring (robocopy /MIR or /PURGE, rsync --delete) onto the user's profile or one of its
 * top-level folders: whatever the source lacks is deleted from the destination. */
rule mirror_over_user_folder {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "mirrors a folder over the user's home or a top-level folder of it: everything the source lacks is deleted"
  strings:
    $robocopy = /\brobocopy(\.exe)?\s+("[^"\n]*"|\S+)\s+"?(%USERPROFILE%|%HOMEDRIVE%%HOMEPATH%|%HOMEPATH%|%OneDrive%|\$env:USERPROFILE|\$env:OneDrive|\$HOME|~|C:\\Users\\[^\\\s"]+)(\\(Documents|Desktop|Pictures|Music|Videos|Downloads|OneDrive[^\\"\s]*))?\\?"?\s[^\n]*\/(MIR|PURGE)\b/ nocase
    $rsync = /\brsync\s[^\n]*--delete[^\n]*\s["']?(~|\$HOME|\$\{HOME\}|\/home\/[\w.-]+|\/Users\/[\w.-]+)(\/(Documents|Desktop|Pictures|Music|Videos|Downloads))?\/?["']?[ \t]*($|\n|;|&|\|)/
  condition:
    any of them
}

/* Every file under a tree emptied rather than deleted (Set-Content -Value $null, Clear-Content,
 * truncate -s 0, `: >`, write_text("")), rooted at the user's home or profile. An extension
 * filter (*.log) is a log rotation. */
rule empty_every_file {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "empties every file under a directory tree (the files are kept, their contents destroyed)"
  strings:
    $ps = /\b(Get-ChildItem|gci|dir|ls)\b[^\n]*-Recurse\b[^\n]*\|\s*(\n\s*)?((ForEach-Object|foreach|%)\s*\{[^\n}]{0,40}\b(Set-Content|Out-File)\b[^\n}]{0,80}-Value\s+(\$null|["']{2})|(ForEach-Object|foreach|%)\s*\{\s*(Clear-Content)\b|Clear-Content\b)/ nocase
    $find = /\bfind\s+["']?(~|\$HOME|\$\{HOME\}|\/home\b|\/Users\b|\/)["']?[\/\w.-]*\s[^\n]*-type\s+f\b[^\n]*(-exec\s+(truncate\s+(-s\s*0|--size[= ]0)|sh\s+-c\s+["']\s*(:|true|cat\s+\/dev\/null)?\s*>|cp\s+\/dev\/null)|\|\s*xargs\s+(-\S+\s+)*truncate\s+-s\s*0)/
    $py = /\b(Path\.home\(\)|home)\s*(\/\s*["'][^"'\n]*["']\s*)?\.rglob\(\s*["']\*["']\s*\)[^\n]*\n([^\n]*\n){0,3}[^\n]*\.(write_text\(\s*["']{2}|write_bytes\(\s*b["']{2}|truncate\(\s*0\s*\))/
    $veto_ext = /-(Filter|Include)\s+["']?\*\.\w+/
    $ctx_home = /\$env:USERPROFILE|\$env:HOMEPATH|\$HOME\b|\[Environment\]::GetFolderPath|~[\/\\]|\bPath\.home\(\)|\$env:OneDrive|\bhome\s*=/ nocase
  condition:
    (($ps and $ctx_home) or $find or $py) and #veto_ext >= 0
}

/* A list of everything fed into a delete: gh releases or repositories, restic or borg snapshots,
 * namespaces, databases, projects, buckets. Filtered lists (grep, select()) are cleanups. */
rule list_all_into_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "feeds a list of every release, repository, snapshot, namespace, database or bucket into a delete"
  strings:
    $xargs = /\b(gh\s+(release|repo|run|secret|variable)\s+list|glab\s+(release|repo)\s+list|restic\s+snapshots|borg\s+list|kubectl\s+get\s+(ns|namespaces?|all)\b|psql\s[^\n|]*-l\b|gcloud\s+[\w-]+(\s+[\w-]+)?\s+list|aws\s+s3\s+ls|doctl\s[^\n|]*\blist|heroku\s+apps\b|vercel\s+(ls|list)|docker\s+volume\s+ls)([^\n|(]|\\\n)*(\|([^\n|(]|\\\n)*)?(\|([^\n|(]|\\\n)*)?\|\s*(\\\n)?\s*xargs\b([^\n]|\\\n){0,80}\b(gh\s+(release|repo|run|secret|variable)\s+delete|glab\s+(release|repo)\s+delete|restic\s+forget|borg\s+delete|kubectl\s+delete|dropdb|gcloud\s+[\w-]+(\s+[\w-]+)?\s+delete|aws\s+s3\s+rb|doctl\s[^\n]*\bdelete|heroku\s+apps:destroy|vercel\s+(rm|remove)|docker\s+volume\s+rm)\b/
    $veto_filter = /\|\s*(grep|awk\s+['"][^'"]*[~=]|head|jq\s+[^|\n]*select)\b/
    $loop = /\bfor\s+\w+\s+in\s+\$\(\s*(gh\s+(release|repo)\s+list|restic\s+snapshots|borg\s+list|kubectl\s+get\s+(ns|namespaces?)|gcloud\s+projects\s+list|aws\s+s3\s+ls)\b[^\n]*(\n[^\n]*){0,2}\b(gh\s+(release|repo)\s+delete|restic\s+forget|borg\s+delete|kubectl\s+delete|gcloud\s+projects\s+delete|aws\s+s3\s+rb)\b/
    $all_flag = /\bkubectl\s+delete\s+(ns|namespaces?|all)\s+(-\S+\s+)*--all\b|\bkubectl\s+delete\s+(ns|namespaces?)\s+[^\n]*--all-namespaces\b|\brestic\s+forget\s+[^\n]*--keep-last\s+0\b/
  condition:
    any of them
}

/* Every object version and delete marker of a bucket removed: versioning, the user's guard
 * against deletion, defeated (list-object-versions into delete-objects, boto3
 * object_versions.delete(), gsutil rm -a, a whole bucket removed recursively). */
rule bucket_versions_wiped {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "deletes every object version of a storage bucket (versioning defeated) or the whole bucket"
  strings:
    $s3api = /\blist-object-versions\b[^\n]{0,200}(\n[^\n]*){0,8}\bdelete-objects?\b/
    $boto = /\.object_versions(\.all\(\))?\.delete\(\)|\.objects\.all\(\)\.delete\(\)/
    $gsutil = /\bgsutil\s+(-m\s+)?rm\s+(-\w+\s+)*-[a-zA-Z]*[ra][a-zA-Z]*\s+(-\w+\s+)*["']?gs:\/\/[\w.${}-]+\/?(\*\*?)?["']?[ \t]*($|\n|;|&|\|)|\bgcloud\s+storage\s+rm\s+(-\w+\s+)*--recursive\s+["']?gs:\/\/[\w.${}-]+\/?["']?[ \t]*($|\n|;|&|\|)/
    $veto_prefix = /list-object-versions\b[^\n]{0,200}--prefix/
  condition:
    any of them
}

/* A storage pool's root destroyed recursively (zfs destroy -r POOL, zpool destroy, a whole
 * LVM volume group removed): every dataset, volume and snapshot below it gone. */
rule pool_root_destroyed {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "destroys a storage pool or its root dataset recursively (every dataset and snapshot)"
  strings:
    $zfs = /\bzfs\s+destroy\s+(-[a-zA-Z]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]+\s+)*["']?(\$\{?\w*(pool|POOL|Pool|root|ROOT)\w*\}?|[a-zA-Z][\w.-]*)["']?[ \t]*($|\n|;|&|\||\))/
    $zpool = /\bzpool\s+destroy\b/
    $lvm = /\bvgremove\s+(-\w+\s+)*-[a-zA-Z]*f|\blvremove\s+(-\w+\s+)*-[a-zA-Z]*f[a-zA-Z]*\s+["']?(\$\{?\w+\}?|[a-zA-Z][\w.-]*)["']?[ \t]*($|\n|;|&)/
  condition:
    any of them
}

/* Every namespace of the current cluster deleted through a client library (a loop over
 * list_namespace / Namespaces().List / listNamespace calling the matching delete). */
rule client_delete_every_namespace {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "deletes every namespace of the current Kubernetes cluster through a client library"
  strings:
    $py = /\blist_namespace\s*\([^\n]*\n([^\n]*\n){0,10}[^\n]*\bdelete_namespace\s*\(/
    $go = /\bNamespaces\(\)\.List\s*\([^\n]*\n([^\n]*\n){0,10}[^\n]*\bNamespaces\(\)\.Delete\s*\(/
    $js = /\blistNamespace\s*\([^\n]*\n([^\n]*\n){0,10}[^\n]*\bdeleteNamespace\s*\(/
  condition:
    any of them
}

/* The home directory joined to a subpath read from the environment with an empty default,
 * then deleted: unset, the path is the home directory itself (Rust, Python, Go, Node, Ruby). */
rule home_join_empty_default_removed {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "deletes the home directory joined to a subpath that defaults to empty (unset, the whole home is removed)"
  strings:
    $join = /\b(home|home_dir|homedir|dirs::home_dir)\s*\(\s*\)\s*(\.unwrap\(\)\s*)?\.join\(\s*&?[a-z_]\w*\s*\)|\bPath\.home\(\)\s*\/\s*[a-z_]\w*\b|\bos\.path\.join\(\s*(os\.path\.expanduser\(\s*["']~["']\s*\)|home|HOME|home_dir)\s*,\s*[a-z_]\w*\s*\)|\bfilepath\.Join\(\s*(home|homeDir|home_dir|os\.Getenv\("HOME"\))\s*,\s*[a-z_]\w*\s*\)|\bpath\.(join|resolve)\(\s*(os\.homedir\(\)|homedir\(\)|home)\s*,\s*[a-z_]\w*\s*\)|\bFile\.join\(\s*(Dir\.home|ENV\[["']HOME["']\])\s*,\s*[a-z_]\w*\s*\)/
    $ctx_empty = /\bunwrap_or_default\(\)|\bunwrap_or\(\s*(""|String::new\(\))\s*\)|\bunwrap_or_else\(\s*\|_\|\s*String::new\(\)\s*\)|\b(environ\.get|getenv)\(\s*["'][^"'\n]+["']\s*,\s*["']{2}\s*\)|\bprocess\.env\.\w+\s*(\|\||\?\?)\s*["']{2}|\bprocess\.env\[[^\]\n]+\]\s*(\|\||\?\?)\s*["']{2}|\bENV\.fetch\(\s*["'][^"'\n]+["']\s*,\s*["']{2}\s*\)|\bos\.Getenv\(\s*"\w+"\s*\)/
    $ctx_delete = /\bremove_dir_all\s*\(|\bshutil\.rmtree\s*\(|\bos\.RemoveAll\s*\(|\bfs\.(rmSync|rm|rmdirSync|promises\.rm)\s*\(|\brimraf\b|\bFileUtils\.rm_r/
    $ctx_guard = /\.is_empty\(\)|==\s*""|\bif\s+not\s+[a-z_]\w*\s*:|!\s*[a-z_]\w*\s*\)\s*(\{?\s*)?(return|throw|process\.exit|bail)|\.empty\?/
  condition:
    $join and $ctx_empty and $ctx_delete and not $ctx_guard
}

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
    $veto_filter = /\|\s*(grep|awk\s+['"][^'"]*[~=]|head|jq\s+[^|\n]*select)\b|\s-l\s+["']?[\w.\/-]+=|--selector\b/
    $loop = /\bfor\s+\w+\s+in\s+\$\(\s*(gh\s+(release|repo)\s+list|restic\s+snapshots|borg\s+list|kubectl\s+get\s+(ns|namespaces?)|gcloud\s+projects\s+list|aws\s+s3\s+ls)\b[^\n]*(\n[^\n]*){0,2}\b(gh\s+(release|repo)\s+delete|restic\s+forget|borg\s+delete|kubectl\s+delete|gcloud\s+projects\s+delete|aws\s+s3\s+rb)\b/
    /* Round 16: a loop that only prints what it would delete is a dry run */
    $veto_dry = /\b(echo|printf)\s+[^\n]{0,60}\b(delete|forget|rb|rm)\b|--dry-?run\b/
    $all_flag = /\bkubectl\s+delete\s+(ns|namespaces?|all)\s+(-\S+\s+)*--all\b|\bkubectl\s+delete\s+(ns|namespaces?)\s+[^\n]*--all-namespaces\b|\brestic\s+forget\s+[^\n]*--keep-last\s+0\b/
  condition:
    (any of ($xargs, $all_flag) or for any i in (1..#loop) : (not $veto_dry in (@loop[i]..@loop[i] + !loop[i]))) and #veto_filter >= 0
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

/* Round 14 (issue 45): every resource a client can list, deleted one by one through an SDK in a
 * loop: Google Cloud Storage's getBuckets / list_buckets into bucket.deleteFiles or
 * bucket.delete(force), Azure's list_containers into delete_container, an ORM's list of every
 * table dropped (ActiveRecord's connection.tables, Django's introspection, SQLAlchemy's
 * inspector). A listing narrowed by a prefix or a match is a scoped cleanup. */
rule sdk_list_all_delete_each {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "lists every bucket, container or table the client can reach and deletes each one"
  strings:
    $buckets = /\b(getBuckets|listBuckets|list_buckets|list_containers|listContainers|getDatasets|list_datasets|listDatabases|list_databases|getInstances|list_instances|listTables|list_tables|get_table_names|table_names)\s*\([^\n]{0,40}\)[\s\S]{0,240}\b(for|forEach|each|map)\b[\s\S]{0,200}\.(deleteFiles|delete_blobs|delete_container|deleteContainer|delete_dataset|deleteDataset|dropDatabase|drop_database|delete_table|deleteTable|drop_table)\s*\(|\b(getBuckets|listBuckets|list_buckets|getDatasets|list_datasets)\s*\([^\n]{0,40}\)[\s\S]{0,240}\b(for|forEach|each|map)\b[\s\S]{0,200}\.delete\s*\(\s*(\{\s*)?force\s*[:=]\s*(true|True)/
    $loop_over = /\b(for|foreach)\b[^\n]{0,80}\b(getBuckets|listBuckets|list_buckets|list_containers|listContainers|getDatasets|list_datasets|listDatabases|list_databases|list_instances|listTables|list_tables|get_table_names|table_names)\s*\([^\n]{0,40}\)[\s\S]{0,200}\.(deleteFiles|delete_blobs|delete_container|deleteContainer|delete_dataset|deleteDataset|dropDatabase|drop_database|delete_table|deleteTable|drop_table)\s*\(|\b(for|foreach)\b[^\n]{0,80}\b(getBuckets|listBuckets|list_buckets|getDatasets|list_datasets)\s*\([^\n]{0,40}\)[\s\S]{0,200}\.delete\s*\(\s*(\{\s*)?force\s*[:=]\s*(true|True)/
    $rb_tables = /\b(connection|conn|c)\.(tables|data_sources)\.each\b[\s\S]{0,160}\bdrop_table\s*\(/
    $py_tables = /\b(introspection\.table_names|inspect\s*\(\s*\w+\s*\)\.get_table_names|get_table_names)\s*\([^\n]{0,40}\)[\s\S]{0,200}\bDROP\s+TABLE\b/ nocase
    $ctx_filter = /\.(startswith|startsWith|HasPrefix|start_with\?|match|test)\s*\(\s*["'\/][\w.^-]{2,}|\bprefix\s*[:=]\s*["'][\w-]{2,}["']|\bfilter\s*\(\s*\(?\s*\w+\s*\)?\s*=>[^\n]{0,60}(===|startsWith|includes)/
    $ctx_env_guard = /\bRails\.env\.(production|development|test)\?|\bRAILS_ENV\b|\bDEBUG\s*(is\s+True|==)|\bsettings\.DEBUG\b|\bNODE_ENV\s*[!=]==?\s*["']/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    not is_prose and ((($buckets or $loop_over or $py_tables) and not $ctx_filter) or ($rb_tables and not $ctx_env_guard)) and #neg >= 0
}

/* Round 14: a database deleted together with its backups: RDS's --skip-final-snapshot with
 * --delete-automated-backups (or the SDK's SkipFinalSnapshot with DeleteAutomatedBackups), a
 * secret deleted with no recovery window, a key vault purged, a backup vault emptied. A
 * deletion that keeps a final snapshot can be undone; these cannot. */
rule delete_with_backups {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes a database or a secret together with its backups or recovery window (no way back)"
  strings:
    $rds = /\baws\s+rds\s+delete-db-(instance|cluster)\b([^\n]|\\\n){0,240}(--skip-final-snapshot\b([^\n]|\\\n){0,160}--delete-automated-backups\b|--delete-automated-backups\b([^\n]|\\\n){0,160}--skip-final-snapshot\b)/
    $sdk = /\bdelete_db_(instance|cluster)\s*\([^)]{0,240}SkipFinalSnapshot\s*=\s*True[^)]{0,160}DeleteAutomatedBackups\s*=\s*True|\bDeleteDBInstance(Command)?\s*\(\s*\{[^}]{0,240}SkipFinalSnapshot\s*:\s*true[^}]{0,160}DeleteAutomatedBackups\s*:\s*true/
    $purge = /\baws\s+secretsmanager\s+delete-secret\b([^\n]|\\\n){0,200}--force-delete-without-recovery\b|\baz\s+keyvault\s+purge\b|\baws\s+backup\s+delete-recovery-point\b([^\n]|\\\n){0,200}\$\(|\baz\s+keyvault\s+delete\b([^\n]|\\\n){0,120}&&\s*az\s+keyvault\s+purge\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    any of ($rds, $sdk, $purge) and #neg >= 0
}

/* Round 14: file contents destroyed in place over the user's folders, the files kept: holes
 * punched or ranges zeroed over their whole length (fallocate -p / -z), shred, truncate to zero
 * or dd from /dev/zero onto each file a walk of the home or its Documents or Pictures yields. */
rule contents_zeroed_over_tree {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "zeroes or shreds the contents of every file under the user's folders (the files stay, their data is gone)"
  strings:
    $zero = /\b(fallocate\s+([^\n|;]{0,60}\s)?(--punch-hole|-p|--zero-range|-z)\b|shred\s+([^\n|;]{0,40}\s)?(-[a-zA-Z]*[uzn][a-zA-Z]*|--remove|--zero|--iterations)\b|truncate\s+(-s\s*|--size[= ])0\b)[^\n|;]{0,120}["']?(\$\{?\w+\}?|\{\})["']?[ \t]*(;|\n|$|\+|\\|&|\))|\bdd\s+[^\n|;]{0,40}\bif=\/dev\/(zero|urandom)\b[^\n|;]{0,80}\bof=["']?(\$\{?\w+\}?|\{\})/
    $ctx_tree = /(\$HOME|\$\{HOME\}|~|\$USERPROFILE)\/(Documents|Pictures|Desktop|Downloads|Music|Videos|Photos|Movies)\b|\bfind\s+["']?(\$HOME|\$\{HOME\}|~)["']?\/?\s/
    $ctx_walk = /\bfind\s[^\n]{0,120}(-type\s+f|-print0)\b/
  condition:
    not is_prose and $zero and $ctx_tree and $ctx_walk
}

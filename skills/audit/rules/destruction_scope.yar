/* Round 15 (issue 45): destruction as properties of the delete's scope, not of the product.
 * A delete aimed at everything a client can list (`/*` or `/_all` of a REST API, an index
 * pattern that is only a wildcard, every version of every object); erase verbs on storage and
 * encryption headers; a recursive delete whose path a possibly empty variable builds. */

/* An HTTP DELETE (curl, httpie, wget, Invoke-RestMethod) or a client's delete call whose target
 * is the whole namespace: the path ends in `/*` or `/_all`, or the index/name argument is only
 * `*` or `_all`. A pattern with a prefix (`logs-*`) is one family, not everything. */
rule delete_everything_listed {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "deletes everything the service holds (a DELETE of `/*` or `/_all`, every index or collection)"
  strings:
    $http = /\b(curl|http|https|xh|wget)\b[^\n]{0,120}(-X\s*|--request[\s=]+|--method[\s=]+|\s)DELETE\b[^\n]{0,160}\/(\*|_all)(["'?\s&;)]|$)/
    $ps = /\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}-Method\s+["']?Delete\b[^\n]{0,200}\/(\*|_all)(["'?\s&;)]|$)|\b(Invoke-RestMethod|Invoke-WebRequest|irm|iwr)\b[^\n]{0,200}\/(\*|_all)["'?][^\n]{0,200}-Method\s+["']?Delete\b/ nocase
    $sdk = /\.(indices\.delete|delete_index|deleteIndex|delete_indices|deleteIndices|drop_collections?|deleteAllIndexes)\s*\(\s*\{?\s*((index|name|pattern)\s*[:=]\s*)?["'](\*|_all)["']/
    $neg = /\b(never|don'?t|do\s+not|must\s+not)\b/ nocase
  condition:
    any of ($http, $ps, $sdk) and #neg >= 0
}

/* Every version of every object listed and deleted by version id (any SDK's
 * list-object-versions with delete-object(s) and VersionId, the MinIO client's --versions):
 * a versioned bucket, the user's guard against deletion, emptied beyond recovery. A listing
 * scoped to a prefix is a cleanup of one folder. */
rule object_versions_deleted {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "lists every object version of a bucket and deletes each by version id (versioning defeated)"
  strings:
    $delete = /\b(delete_objects?|DeleteObjects?(Command|Input)?|deleteObjects?|delete-objects?|remove_objects?|RemoveObjects?|removeObjects?)\b[^\n]{0,160}/
    $ctx_list = /\b(list_object_versions|ListObjectVersions\w*|listObjectVersions|list-object-versions|object_versions|ListObjectsV?\d?[^\n]{0,60}Versions:\s*true|include_versions\s*=\s*True|WithVersions\s*\(\s*\)|--versions)\b/
    $ctx_version = /\b(VersionId|version_id|versionId|versionID|VersionID)\b/
    $ctx_prefix = /\b(list_object_versions|ListObjectVersions\w*|listObjectVersions|list-object-versions)\b[^\n]{0,200}\b[Pp]refix\b/
    $mc = /\bmc\s+rm\s+[^\n]{0,80}--versions\b[^\n]{0,80}|\bmc\s+rm\s+[^\n]{0,80}(--recursive|-r)\b[^\n]{0,40}--versions\b/
  condition:
    $mc or ($delete and $ctx_list and $ctx_version and not $ctx_prefix and not is_prose)
}

/* Erase and destroy verbs on storage and on the headers that hold an encrypted volume's keys:
 * `cryptsetup luksErase`/`erase` (every key slot wiped: the volume never opens again), a ZFS
 * dataset destroyed recursively (not a snapshot, `@`), a pool's labels cleared, a drive's
 * secure erase or sanitize. A dry run (`-n`) destroys nothing. */
rule storage_erase_verb {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "erases storage or an encrypted volume's key slots (luksErase, zfs destroy -r of a dataset tree, labelclear, a secure erase)"
  strings:
    $luks = /\bcryptsetup\s+(-[\w-]+(=\S+)?\s+)*(luksErase|erase)\b/
    $zfs = /\bzfs\s+destroy\s+(-[a-mo-zA-Z]+\s+)*-[a-mo-zA-Z]*[rR][a-mo-zA-Z]*\s+(-[a-mo-zA-Z]+\s+)*["']?[^\s@"';|&%#]+["']?[ \t]*($|\n|;|&|\||\))/
    $label = /\bzpool\s+labelclear\b|\bnvme\s+(format|sanitize)\b[^\n]{0,80}(--ses[=\s]*[12]|-s\s*[12]\b|--sanact[=\s]*[1-4]|-a\s*[1-4]\b)|\bhdparm\s+[^\n]{0,60}--security-erase/
    $neg = /\b(never|don'?t|do\s+not|must\s+not)\b/ nocase
  condition:
    any of ($luks, $zfs, $label) and #neg >= 0
}

/* A recursive delete whose path is an environment variable and a separator only (PowerShell
 * `"$env:X\*"`, cmd's `"%X%\"`): unset, the path is the root of the current drive. The
 * audit_unset.c veto drops a variable the script sets or checks. */
rule delete_unset_env_root {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    unset_var = "veto"
    message = "recursively deletes a path built from an environment variable the script never sets or checks: unset, it is the drive's root"
  strings:
    $ps_path = /["']\$env:[A-Za-z_]\w*[\\\/]\*?["']/
    $ctx_ps_rm = /\b(Remove-Item|ri|rm|del|rmdir)\b[^\n]{0,160}-(Recurse|r)\b/ nocase
    $bat = /\b(rd|rmdir)\s+(\/[sqSQ]\s+)+["']?%[A-Za-z_]\w*%[\\\/]\*?["']?(\s|$)|\bdel\s+(\/[fsqaFSQA]\s+)+["']?%[A-Za-z_]\w*%[\\\/]\*?["']?(\s|$)/
  condition:
    not is_prose and (($ps_path and $ctx_ps_rm) or $bat)
}

/* A recursive delete of the home folder (or the root) joined to a value that falls back to an
 * empty string (`path.join(os.homedir(), opts.dir ?? '')`, `Path.home() / cfg.get("d", "")`,
 * `os.path.join(home, x or "")`): when the setting is missing, the home folder itself goes. */
rule delete_home_join_empty_fallback {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    message = "deletes the home folder joined to a setting that falls back to an empty string: unset, the whole home folder is deleted"
  strings:
    $js = /\bpath\.(join|resolve)\s*\(\s*((os|require\s*\(\s*["']os["']\s*\))\.homedir\s*\(\s*\)|homedir\s*\(\s*\)|["']\/["'])\s*,\s*[^\n]{1,80}(\?\?|\|\|)\s*["']["']\s*\)/
    $py = /(\bPath\.home\s*\(\s*\)\s*\/|\bos\.path\.join\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~["']\s*\)|str\s*\(\s*Path\.home\s*\(\s*\)\s*\)|Path\.home\s*\(\s*\))\s*,)\s*[^\n]{1,80}(\.get\s*\([^\n,()]{1,60},\s*["']["']\s*\)|\bor\s+["']["'])/
    $ctx_rm = /\b(rmSync|rmdirSync|rimraf(\.sync)?|removeSync|emptyDirSync|promises\.rm|fsp?\.rm|rmtree|remove_dir_all|RemoveAll|rm_rf|rm_r)\s*\(/
  condition:
    not is_prose and any of ($js, $py) and $ctx_rm
}

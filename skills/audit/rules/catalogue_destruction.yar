/* Round 6, from the catalogues of impact techniques per platform (ATT&CK T1485, T1486, T1489,
 * T1490, T1531, T1561; the cloud providers' and package registries' own delete verbs; issue
 * 45): what deletes the user's or their team's data with no way back. High where it runs (a
 * script or a code block); medium in prose, where a cheat sheet names the same verbs. */

/* Every cloud resource of a kind deleted by a program: the SDK's delete or terminate call fed
 * by a listing of them all (boto3, the Azure and Google clients), or termination protection
 * switched off first; and the CLIs' deletes fed by `$(... list/describe ...)`. */
rule catalogue_cloud_mass_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes every cloud resource of a kind (all instances, buckets, databases or groups the listing returns)"
  strings:
    $sdk_del = /\.(terminate_instances|delete_bucket|delete_db_instance|delete_db_cluster|delete_stack|delete_table|delete_function|delete_cluster|delete_file_system|delete_volume|delete_snapshot|delete_repository|delete_secret|schedule_key_deletion)\s*\(|\bresource_groups\.(begin_)?delete\s*\(|\binstances\(\)\.delete\s*\(|\.buckets\.all\(\)[^\n]{0,80}\.delete\s*\(|\.objects\.all\(\)\.delete\s*\(|\bDisableApiTermination\b[^\n]{0,40}(False|false)/
    $ctx_all = /\.(describe_instances|describe_regions|describe_db_instances|list_buckets|list_stacks|list_tables|list_functions|list_clusters|describe_volumes|describe_snapshots|get_paginator)\s*\(|\bresource_groups\.list\s*\(|\binstances\(\)\.(list|aggregatedList)\s*\(|\.all\s*\(\s*\)|\bfor\s+\w+\s+in\s+[^\n]{0,40}(regions|Regions|buckets|instances|Reservations)\b/
    $cli = /\baws\s+ec2\s+terminate-instances\b[^\n]{0,80}\$\(\s*aws\s+ec2\s+describe-instances\b|\baws\s+(rds\s+delete-db-instance|dynamodb\s+delete-table|cloudformation\s+delete-stack|s3api\s+delete-bucket|ec2\s+terminate-instances|lambda\s+delete-function)\b[^\n]{0,120}\b(xargs|\$\(\s*aws\b)|\baws\s+[^\n]{0,60}\b(describe-instances|list-buckets|list-stacks|list-tables|describe-db-instances)\b[^\n]{0,200}\|\s*xargs\b[^\n]{0,60}\b(terminate-instances|delete-bucket|delete-stack|delete-table|delete-db-instance|rb)\b|\b(gcloud|az|doctl)\s+[^\n]{0,80}\b(list|ls)\b[^\n]{0,200}\|\s*xargs\b[^\n]{0,80}\b(delete|rm)\b|\bdoctl\s+compute\s+droplet\s+delete\b[^\n]{0,80}(--force|-f)\b[^\n]{0,80}\$\(|\baz\s+group\s+list\b[^\n]{0,200}(az\s+group\s+delete|xargs)|\bkubectl\s+delete\s+(ns|namespace|namespaces|deploy\w*|pvc|pv|all|secrets?)\s+--all\b|\bkubectl\s+delete\s+[^\n]{0,40}--all\s+(-A|--all-namespaces)\b/
    /* Round 14: a listing narrowed by a name prefix (`n.startswith("dev-")`) is a scoped reset. */
    $ctx_filter = /\.(startswith|startsWith|HasPrefix|start_with\?)\s*\(\s*["'][\w.-]{2,}["']|\bFilters\s*=\s*\[[^\n]{0,80}["']tag[:-]|\bTagFilters\b|--filters?\s+["']?Name=tag[:-]|\blabels\.\w+\s*=|--filter[= ]["']?labels\./
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag|dry[-_]?run)\b/ nocase
    /* Round 16: a listing narrowed by a query predicate (`[?starts_with(...)]`), a positive grep,
     * a label or tag selector is a scoped cleanup. */
    $veto_narrow = /\[\?|\|\s*(grep|egrep|rg)\s+((-[a-uw-zA-Z]+|--[\w-]*)\s+)*(["'][^"'\n]|[\^\w(.])|\s-l\s+["']?[\w.\/-]+=|--selector\b|--filters?\s+["']?Name=tag[:-]/
  condition:
    (($sdk_del and $ctx_all and is_script and not $ctx_filter) or
     for any i in (1..#cli) : (not $veto_narrow in (@cli[i]..@cli[i] + !cli[i]))) and #neg >= 0
}

/* Data everyone relies on removed from a shared service: every branch of a remote deleted in a
 * loop, every branch force-pushed, a whole package unpublished from the public registry, a
 * repository deleted, a database or cache emptied on the server the environment points at
 * (often production), the user's whole crontab removed. */
rule catalogue_shared_data_delete {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes shared data with no way back (every remote branch, a published package, the crontab, a production database or cache)"
  strings:
    $branches = /\bgit\s+branch\s+(-r|--remotes?|-a)\b[^\n]{0,200}\|\s*xargs\b[^\n]{0,60}\bgit\s+push\s+[^\n]{0,30}(--delete|-d\b|:)|\bgit\s+push\s+[\w.-]+\s+--delete\s+\$\(\s*git\s+(branch\s+-r|for-each-ref|ls-remote)\b|\bgit\s+(for-each-ref|ls-remote)\b[^\n]{0,200}\|\s*xargs\b[^\n]{0,60}\bgit\s+push\s+[^\n]{0,30}(--delete|-d\b)/
    $push_each = /\bgit\s+push\s+(-[\w-]+\s+)*(--force|-f|--delete|-d)\s+[^\n]{0,40}\$\{?\w+/
    $ctx_remote_refs = /\b(for\s+\w+\s+in\s+\$\(|while\s+read\b|xargs\b)[^\n]{0,40}git\s+(for-each-ref\b[^\n]{0,80}refs\/remotes|branch\s+(-r|--remotes?|-a)\b|ls-remote\s+(--heads\s+)?\w+)|\bgit\s+(for-each-ref\b[^\n]{0,80}refs\/remotes|branch\s+(-r|--remotes?)\b|ls-remote\s+--heads\b)[^\n]{0,160}\|\s*(while\s+read|xargs)\b/
    $unpublish = /\bnpm\s+unpublish\b[^\n]{0,160}(--force|-f)\b/
    $veto_version = /\bnpm\s+unpublish\s+[^\n]{0,120}@["']?[0-9$]/
    $crontab = /(^|[;&|\n(`]|\$\()\s*crontab\s+(-u\s+\S+\s+)?-r\b/
    $env_db = /\b(redis-cli|valkey-cli|keydb-cli)\b[^\n]{0,100}\$\{?\w*(URL|HOST|URI)\w*\}?[^\n]{0,60}\b(FLUSHALL|FLUSHDB)\b|\b(psql|mysql|mongosh|mongo)\b[^\n]{0,100}\$\{?\w*(DATABASE|DB|MONGO|PG|MYSQL)\w*\}?[^\n]{0,100}\b(DROP\s+(DATABASE|SCHEMA|TABLE)|dropDatabase\s*\(|TRUNCATE\b)|\b(FLUSHALL|FLUSHDB)\b[^\n]{0,60}\$\{?\w*(REDIS)\w*(URL|HOST)\w*/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?|red\s+flag|instead\s+of|rather\s+than)\b/ nocase
  condition:
    (($branches or $crontab) or ($push_each and $ctx_remote_refs and is_script) or ($unpublish and not $veto_version) or $env_db) and #neg >= 0
}

/* Every branch of a remote overwritten at once (`git push --force --all`, `--mirror --force`):
 * high in a script, which runs unread; medium in a code block, where a history-rewriting guide
 * (removing a leaked file) shows the same step for the user to take. */
rule catalogue_force_push_all {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    block = "medium"
    prose = "low"
    message = "overwrites every branch of a remote (git push --force --all)"
  strings:
    $all = /\bgit\s+push\s+[^\n]{0,30}(--force|-f)\s+[^\n]{0,20}--all\b|\bgit\s+push\s+[^\n]{0,30}--all\s+[^\n]{0,20}(--force|-f)\b|\bgit\s+push\s+[^\n]{0,20}--mirror\s+[^\n]{0,20}(--force|-f)\b/
  condition:
    $all
}

/* A recursive delete of a path built from an environment variable whose fallback is empty:
 * unset, the path is the filesystem root or the home directory itself (`path.resolve('/', X ||
 * '')`, `'~/' + ENV.fetch('X', '')`, `os.path.join(home, os.environ.get('X', ''))`,
 * `"$HOME/${X:-}"`). */
rule catalogue_delete_empty_fallback {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes recursively a path that is the root or the home directory when an environment variable is unset"
  strings:
    $js = /\bpath\.(resolve|join)\s*\(\s*(["']\/["']|os\.homedir\s*\(\s*\)|process\.env\.HOME)\s*,\s*process\.env(\.\w+|\[[^\]]{1,40}\])\s*(\|\||\?\?)\s*["']["']\s*\)/
    $rb = /\b(File\.(expand_path|join)|Pathname\.new)\s*\(\s*[^\n]{0,30}(["'](~|\/)\/?["']|Dir\.home|ENV\[["']HOME["']\])\s*(\+|,)\s*ENV\.fetch\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)|\bENV\.fetch\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)[^\n]{0,40}\b(rm_rf|rm_r|remove_dir|rmtree)\b/
    $py = /\bos\.path\.(join|expanduser)\s*\(\s*(["'](~|\/)\/?["']|os\.path\.expanduser\s*\(\s*["']~["']\s*\)|Path\.home\s*\(\s*\)|os\.environ\[["']HOME["']\])\s*,\s*os\.(environ\.get|getenv)\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)|\b(Path\.home\s*\(\s*\)|Path\s*\(\s*["']\/["']\s*\))\s*\/\s*os\.(environ\.get|getenv)\s*\(\s*["']\w+["']\s*,\s*["']["']\s*\)/
    $sh = /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+)+["']?(\$HOME|\$\{HOME\}|~)?\/?\$\{\w+:-\}\/?\*?["']?(\s|$)|\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+)+["']?(\$HOME|\$\{HOME\}|~)\/\$\{?\w+\}?\/?\*?["']?(\s|$)/
    $ctx_rm = /\b(rmSync|rmdirSync|rm|rimraf|remove|rm_rf|rm_r|rmtree|remove_dir_all|unlink|deleteSync|emptyDirSync|removeSync)\s*\(|\bFileUtils\.rm/
    $veto_guard = /\$\{\w+:\?/
  condition:
    ((any of ($js, $rb, $py) and $ctx_rm) or $sh) and #veto_guard >= 0
}

/* Files encrypted in place with a key nobody keeps, the originals deleted: data gone for the
 * user whatever the script says it protects (ATT&CK T1486, without the ransom note). A random
 * key, a cipher, a walk over the user's documents or home, and a delete of the plain files. */
rule catalogue_encrypt_discard_key {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    block = "medium"
    prose = "low"
    message = "encrypts the user's files in place with a random key that is not kept (the originals overwritten or deleted)"
  strings:
    $key = /\[(System\.)?Security\.Cryptography\.(Aes|AesManaged|RijndaelManaged|AesCryptoServiceProvider)\]::Create\s*\(|\bNew-Object\s+(System\.)?Security\.Cryptography\.(AesManaged|RijndaelManaged)\b|\bFernet\.generate_key\s*\(|\bget_random_bytes\s*\(\s*(16|24|32)\s*\)|\bos\.urandom\s*\(\s*(16|24|32)\s*\)|\bcrypto\.randomBytes\s*\(\s*(16|24|32)\s*\)|\bOpenSSL::Cipher\.new\b[^\n]{0,80}|\.random_key\b|\bGenerateKey\s*\(/
    $walk = /\b(Get-ChildItem|gci|dir|ls)\b[^\n]{0,80}(\[Environment\]::GetFolderPath|\$env:USERPROFILE|\$HOME|~|MyDocuments|Documents|Desktop|Pictures)[^\n]{0,80}-Recurse|\bos\.walk\s*\(\s*(os\.path\.expanduser|Path\.home|str\(Path\.home)|\b(Path\.home\s*\(\s*\)|expanduser\s*\(\s*["']~)[^\n]{0,60}\.(rglob|glob)\s*\(|\bDir\.glob\s*\([^\n]{0,40}(Dir\.home|~|HOME)[^\n]{0,40}\*\*|\breaddirSync\s*\([^\n]{0,60}(homedir|Documents)|\b\w*(walk|Walk|traverse|crawl|visit)\w*\s*\(\s*(path\.join\s*\(\s*)?os\.homedir\s*\(/
    $del = /\bRemove-Item\b|\bos\.(remove|unlink)\s*\(|\.unlink\s*\(|\bFile\.delete\s*\(|\bunlinkSync\s*\(|\bshred\b|\bFileUtils\.rm\b|\bwriteFileSync\s*\(\s*(\w+)\s*,\s*Buffer\.concat\s*\(\s*\[[^\n]{0,40}\.(update|final)\s*\(|\bwriteFileSync\s*\(\s*\w+\s*,\s*\w*\.?(encrypt|cipher)\w*|\bopen\s*\(\s*\w+\s*,\s*["']wb["']\s*\)\.write\s*\(\s*\w*\.?encrypt\s*\(|\.write_bytes\s*\(\s*\w*\.?encrypt\s*\(|\bWriteAllBytes\s*\(\s*\$_\.FullName\b/
    $ctx_save_key = /\b(Export-Clixml|Set-Content|Out-File|WriteAllBytes)\b[^\n]{0,60}\bkey\b|\bkey\b[^\n]{0,40}\b(write|save|store|dump)|\bkeyring\.set_password\b|\bprint\s*\(\s*key\b|\bWrite-(Host|Output)\s+[^\n]{0,20}\$key\b/ nocase
  condition:
    is_script and $key and $walk and $del and not $ctx_save_key
}

/* Round 16 (issue 45): destruction as the shape of the command, not the product. Every item a
 * listing returns fed into a destroy verb (a shell loop, `| while read`, `| xargs`, a PowerShell
 * pipeline, an SDK loop, a SQL loop over the catalogue) with nothing that narrows the list; a
 * filter whose default is `*`; a recursive delete of a path that only climbs (`..`, the working
 * folder's parents). A list narrowed by a positive match, a prefix, a tag, a label, a query
 * predicate, a merged-only listing or a dry run is a scoped cleanup and is not matched. */

/* A shell loop, `while read` or xargs whose input is a listing (a tool's list/ls/ls-remote/
 * list-X/describe-X/get-Xs/for-each-ref subcommand or `--all`) and whose body destroys. */
rule destroy_every_listed_item {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "feeds every item a listing returns into a destroy verb, with nothing narrowing the list"
  strings:
    $loop = /\bfor\s+\w+\s+in\s+(\$\(|`)\s*[\w.\/-]+([ \t]+[^\s|;&)`]+){0,6}[ \t]+(list|ls|ls-remote|list-[\w-]+|describe-[\w-]+|get-[\w-]+s|for-each-ref|snapshots|(tag|branch)\s+(-l|--list|-r|--remotes|-a)|--all)(\s|\)|`|$)[^\n]{0,240}(\\\n[^\n]{0,240}){0,4}(\n([^\n]{0,240}\n){0,6})?[^\n]{0,200}\s(delete|delete-[\w-]+|destroy|undefine|unregistervm|remove|rm|rb|purge|terminate-[\w-]+|drop|dropdb|uninstall|forget|wipe|erase|--delete|--purge)\b[^\n]{0,120}\$\{?\w/
    $read = /\b[\w.\/-]+([ \t]+[^\s|;&)`]+){0,6}[ \t]+(list|ls|ls-remote|list-[\w-]+|describe-[\w-]+|get-[\w-]+s|for-each-ref|snapshots|(tag|branch)\s+(-l|--list|-r|--remotes|-a)|--all)(\s|$)[^\n]{0,240}\|\s*while\s+(IFS=\S*\s+)?read\b[^\n]{0,120}\n([^\n]{0,240}\n){0,6}[^\n]{0,200}\s(delete|delete-[\w-]+|destroy|undefine|unregistervm|remove|rm|rb|purge|terminate-[\w-]+|drop|dropdb|uninstall|forget|wipe|erase|--delete|--purge)\b[^\n]{0,120}\$\{?\w/
    $xargs = /\b[\w.\/-]+([ \t]+[^\s|;&)`]+){0,6}[ \t]+(list|ls|ls-remote|list-[\w-]+|describe-[\w-]+|get-[\w-]+s|for-each-ref|snapshots|(tag|branch)\s+(-l|--list|-r|--remotes|-a)|--all)(\s|$)[^\n]{0,240}\|\s*(\\\n\s*)?xargs\b[^\n]{0,120}\s(delete|delete-[\w-]+|destroy|undefine|unregistervm|remove|rm|rb|purge|terminate-[\w-]+|drop|dropdb|uninstall|forget|wipe|erase|--delete|--purge)\b/
    /* what narrows the list or makes it a rehearsal: a positive grep, a query predicate, a
     * prefix, a tag or label, merged branches only, a filter, an age limit, a dry run */
    $veto_narrow = /\|\s*(grep|egrep|rg)\s+((-[a-uw-zA-Z]+|--[\w-]*)\s+)*(["'][^"'\n]|[\^\w(.])|\[\?|\bselect\s*\(|--filters?[\s=]|--prefix\b|--selector\b|\s-l\s+["']?[\w.\/-]+=|--label\b|--tag[\s=]|--tags?[\s=]+[\"']?[\w.-]+[=:]|--merged\b|starts_?with|startsWith|\|\s*head\b|\bawk\s+(-\S+\s+)*['"][^'"\n]{0,80}(~|==)|--older-than\b|\|\s*tail\s+(-n\s*)?\+\$|--before\b|--keep[\w-]*\b|--dry-?run\b|\b(echo|printf)\s+[^\n]{0,60}\b(delete|rm|remove|destroy|undefine|purge|drop)\b/
    /* containers, images and pods are rebuilt from their definitions; not data */
    $veto_rebuilt = /\b(docker|podman|nerdctl)\s+(ps|images|image\s+ls|container\s+ls)\b|\bkubectl\s+get\s+(pods?|po)\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    (for any i in (1..#loop) : (not $veto_narrow in (@loop[i]..@loop[i] + !loop[i]) and not $veto_rebuilt in (@loop[i]..@loop[i] + !loop[i])) or
    for any i in (1..#read) : (not $veto_narrow in (@read[i]..@read[i] + !read[i]) and not $veto_rebuilt in (@read[i]..@read[i] + !read[i])) or
    for any i in (1..#xargs) : (not $veto_narrow in (@xargs[i]..@xargs[i] + !xargs[i]) and not $veto_rebuilt in (@xargs[i]..@xargs[i] + !xargs[i]))) and #neg >= 0
}

/* PowerShell: every object a Get- cmdlet returns piped into a Remove- cmdlet with the
 * confirmation off (-Force, -Confirm:$false), the Get- unnarrowed (no literal name, tag,
 * Where-Object); or a name filter whose default is `*` passed to a Get- whose objects are then
 * removed. Files, jobs, sessions and modules are left to the other rules. */
rule destroy_every_listed_item_ps {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "removes every object a Get- cmdlet returns (unfiltered, or a filter that defaults to `*`) without confirmation"
  strings:
    $ctx_get_part = /\bGet-[A-Za-z]\w+\b[^\n|)}]{0,160}\|/ nocase
    $pipe = /\bGet-[A-Za-z]\w+\b[^\n|)}]{0,160}\|\s*((ForEach-Object|foreach|%)\s*\{[^}]{0,200})?\bRemove-[A-Za-z]\w+\b[^\n}]{0,200}(-Force\b|-Confirm:\s*\$false\b)/ nocase
    $ctx_narrow = /-(Name|Filter|Id|ResourceGroupName|Include)\s+["'][^"'*\n]*[A-Za-z0-9][^"'\n]*["']|\s-Tag\b|\bWhere-Object\b|\?\s*\{|\s-(like|match|eq)\s|-WhatIf\b|\s-Name\s+\$|\s-Filter\s+\$/ nocase
    $ctx_local_noun = /\bGet-(ChildItem|Item|Content|Date|Job|PSSession|Module|Variable|PSDrive|Alias|Event|EventSubscriber|CimSession|Runspace|Process|ItemProperty|Location|PrintJob|ScheduledJob|PSBreakpoint|TypeData|FormatData|PSRepository)\b/ nocase
    $ctx_star_default = /\$\w+\s*=\s*["']\*["']/
    $ctx_get_var = /\bGet-[A-Za-z]\w+\s+[^\n|]{0,80}-(Name|Filter)\s+\$\w+/ nocase
    $remove_forced = /\bRemove-[A-Za-z]\w+\b[^\n]{0,200}(-Force\b|-Confirm:\s*\$false\b)/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    ((for any i in (1..#pipe) : (not $ctx_local_noun at @pipe[i] and
       for any j in (1..#ctx_get_part) : (@ctx_get_part[j] == @pipe[i] and not $ctx_narrow in (@ctx_get_part[j]..@ctx_get_part[j] + !ctx_get_part[j])))) or
    ($ctx_star_default and $remove_forced and for any i in (1..#ctx_get_var) : (not $ctx_local_noun at @ctx_get_var[i]))) and #neg >= 0
}

/* SQL: every table or database the catalogue lists emptied or dropped: sp_MSforeachtable or
 * sp_MSforeachdb with DELETE/TRUNCATE/DROP, a loop over pg_tables / information_schema /
 * sys.tables / sqlite_master that EXECUTEs one, or a query that writes the statements out. A
 * list narrowed by a name (LIKE 'tmp_%', = 'x') is a scoped cleanup. */
rule destroy_every_table {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes the rows of, or drops, every table or database the catalogue lists"
  strings:
    $foreach = /\bsp_MSforeach(table|db)\b[^\n]{0,240}\b(DELETE\s+FROM|DELETE\s+\?|TRUNCATE\s+TABLE|DROP\s+(TABLE|DATABASE))\b/ nocase
    $catalogue = /\b(pg_tables|pg_class|pg_database|information_schema\.tables|sys\.tables|sys\.objects|sys\.databases|sqlite_master|sqlite_schema|all_tables|user_tables)\b[^;]{0,300}\bLOOP\b[\s\S]{0,200}\bEXECUTE\b[^;]{0,80}\b(TRUNCATE|DROP\s+(TABLE|DATABASE|SCHEMA)|DELETE\s+FROM)\b/ nocase
    $generated = /\b(CONCAT|FORMAT)\s*\(\s*'(DROP\s+(TABLE|DATABASE)|TRUNCATE(\s+TABLE)?|DELETE\s+FROM)\s[^;]{0,240}\b(information_schema\.tables|pg_tables|sys\.tables|sqlite_master|pg_database)\b|'(DROP\s+(TABLE|DATABASE)|TRUNCATE(\s+TABLE)?|DELETE\s+FROM)\s+'\s*(\|\||\+)[^;]{0,240}\b(information_schema\.tables|pg_tables|sys\.tables|sqlite_master|pg_database)\b/ nocase
    $veto_narrow = /\bLIKE\s+'[\w$]{2,}|\b(table_?name|relname|name)\s*(=|IN\s*\()\s*'/ nocase
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    ($foreach or
    for any i in (1..#catalogue) : (not $veto_narrow in (@catalogue[i]..@catalogue[i] + !catalogue[i])) or
    for any i in (1..#generated) : (not $veto_narrow in (@generated[i]..@generated[i] + !generated[i]))) and #neg >= 0
}

/* An SDK loop: a list/describe call, then a loop over what came back whose body deletes each
 * item (Python, JavaScript, Go, Ruby), with no condition, prefix or tag inside the loop. A walk
 * of a local folder (listdir, readdir, glob) is left to the filesystem rules. */
rule destroy_every_listed_item_sdk {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "lists every resource or file an API returns and deletes each one in a loop, with nothing narrowing the list"
  strings:
    $ctx_list = /\.(list\w*|List\w*|\w+_list_\w+|describe\w*|Describe\w*|scan|all)\s*\(/
    $loop_delete = /\b(for\b[^\n]{0,120}(\bin\b|\bof\b|\brange\b)|\.forEach\s*\(|\.each\s+do\b)[^\n]{0,120}\n([^\n]{0,200}\n){0,2}[^\n]{0,160}\.(delete\w*|destroy\w*|terminate\w*|purge\w*|undefine\w*|drop_\w+|dropDatabase|dropCollection|remove_\w+|\w*permanently_delete\w*|Delete\w*|Destroy\w*|Terminate\w*|Purge\w*)\s*\(/
    $veto_narrow = /\bif\b|\bcontinue\b|\bfilter\b|startswith|startsWith|HasPrefix|start_with|[pP]refix|\b[tT]ags?\b|\b[lL]abels?\b|\bmatch|older|cutoff|expire|dry_?[rR]un|DRY_RUN/
    $ctx_local = /\b(listdir|scandir|iterdir|glob|readdirSync|readdir|ReadDir|walk|Walk|list_files_in_dir)\s*\(/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    (not is_prose and
    for any i in (1..#loop_delete) : (
      $ctx_list in (@loop_delete[i] - 1200..@loop_delete[i] + 200) and
      not $veto_narrow in (@loop_delete[i]..@loop_delete[i] + !loop_delete[i]) and
      not $ctx_local in (@loop_delete[i] - 1200..@loop_delete[i] + !loop_delete[i]))) and #neg >= 0
}

/* Every file deleted permanently and then the trash emptied: the last way back removed. */
rule delete_then_trash_emptied {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "deletes files in a loop and then empties the trash, so nothing can be restored"
  strings:
    $empty = /\.(emptyTrash|empty_trash|EmptyTrash)\s*\(|\bClear-RecycleBin\b[^\n]{0,60}-Force\b|\bgio\s+trash\s+--empty\b|\btrash-empty\b/
    $loop_delete = /\b(for\b[^\n]{0,120}(\bin\b|\bof\b|\brange\b)|\.forEach\s*\(|\.each\s+do\b|ForEach-Object)[^\n]{0,120}\n?([^\n]{0,200}\n){0,2}[^\n]{0,160}(\.(delete\w*|Delete\w*)\s*\(|\bRemove-Item\b)/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    (not is_prose and $empty and $loop_delete) and #neg >= 0
}

/* A recursive delete of a path that only climbs from the working folder or home: `rm -rf ..`,
 * `../..`, `$(dirname "$(dirname "$PWD")")`, `resolve(cwd, '..', '..')`, `Path.cwd().parents[1]`,
 * `filepath.Join(wd, "..", "..")`: the parent of the project, often the user's whole work
 * folder or home. A sibling (`../build`) names its own target and is not matched. */
rule delete_path_climbing_up {
  meta:
    id = "audit/destruction"
    category = "destruction"
    severity = "high"
    prose = "medium"
    message = "recursively deletes a folder above the working folder (`..`, the parents of cwd or home), not one of its own"
  strings:
    $sh = /\brm\s+(-[\w-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[\w-]+\s+)*(--\s+)?(["']?(\$\{?(PWD|HOME)\}?\/)?(\.\.\/?)+["']?|["']?\$\(\s*dirname\s+["']?\$\(\s*dirname\s+["']?\$\{?(PWD|HOME)\b[^\n]{0,20}|["']?\$\(\s*cd\s+["']?(\.\.\/?)+["']?\s*(&&|;)\s*pwd\s*\)["']?)[ \t]*($|\n|;|&|\||\))/
    $ps = /\b(Remove-Item|ri|rm|rmdir|del)\b[^\n]{0,80}(\s["']?(\.\.[\\\/]?)+["']?(\s|$)|\(\s*Join-Path\s+\$(PWD|pwd|HOME|env:USERPROFILE)\s+["'](\.\.[\\\/]?)+["']\s*\))[^\n]{0,80}/ nocase
    $ctx_ps_recurse = /-Recurse\b/ nocase
    $up_expr = /\b(path\.)?(resolve|join)\s*\(\s*(process\.cwd\(\)|os\.homedir\(\)|homedir\(\))\s*(,\s*["']\.\.["']\s*)+\)|\bos\.path\.(join|abspath|normpath|realpath)\s*\(\s*(os\.getcwd\(\)|os\.path\.expanduser\(\s*["']~["']\s*\))\s*(,\s*["']\.\.["']\s*)+\)|\bos\.path\.dirname\s*\(\s*os\.path\.dirname\s*\(\s*os\.getcwd\(\)\s*\)\s*\)|\bPath\.(cwd|home)\(\)\.(parent\.parent|parents\[\d\])\s*[),;\n]|\bfilepath\.Join\s*\(\s*(wd|cwd|dir|pwd|home)\s*(,\s*"\.\."\s*)+\)|\bFile\.expand_path\s*\(\s*["'](\.\.\/?)+["']\s*,\s*(Dir\.pwd|Dir\.home)\s*\)|\bcurrent_dir\(\)[^\n]{0,40}\.parent\(\)[^\n]{0,40}\.parent\(\)/
    $ctx_rm_call = /\b(rmtree|RemoveAll|rm_rf|rm_r|rmSync|rmdirSync|rimraf\.sync|rimraf|removeSync|remove_dir_all|emptyDirSync)\s*\(/
    $ctx_rm_bare_var = /\b(rmtree|RemoveAll|rm_rf|rm_r|rmSync|rmdirSync|rimraf\.sync|rimraf|removeSync|remove_dir_all|emptyDirSync)\s*\(\s*&?[A-Za-z_]\w*\s*[,)]/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious)\b/ nocase
  condition:
    ($sh or ($ps and $ctx_ps_recurse) or
    (not is_prose and $up_expr and (for any i in (1..#ctx_rm_call) : ($up_expr in (@ctx_rm_call[i]..@ctx_rm_call[i] + 40)) or $ctx_rm_bare_var))) and #neg >= 0
}

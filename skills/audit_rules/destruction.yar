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
    $rm = /\brm\s+(-[a-zA-Z-]+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z-]+\s+)*["']?(\/|~|\$HOME|\$\{HOME[^}\n]{0,4}\}|\/home|\/etc|\/usr|\/var|\/boot|\/Users|\.\.\/\.\.)["']?\/?["']?\*?["']?(\s|;|&|\||\)|$)/
    $rm_root = /--no-preserve-root/
    $find = /\bfind\s+(\/|~|\$HOME)\s[^\n]{0,100}(-delete\b|-exec\s+rm\b)/
    $disk = /\bdd\s+[^\n]{0,60}of=\/dev\/(sd[a-z]|nvme|disk|hd[a-z]|mmcblk)|\bmkfs(\.\w+)?\s+\/dev\/|>\s*\/dev\/(sd[a-z]|nvme\d)|\bshred\s+[^\n]{0,40}\/dev\/|\bwipefs\s+-a\b/
    $forkbomb = ":(){ :|:& };:"
    $forkbomb2 = ":() { :|:& };:"
    $chmod_root = /\bch(mod|own)\s+-R\s+\S+\s+(\/|~\/?|\$HOME\/?)(\s|$|;)/
    $mv_home = /\bmv\s+(~|\$HOME)\/?\s+\/dev\/null\b/
    $shred_home = /\bshred\s[^\n]{0,40}(~|\$HOME)\/(\.ssh|\*)/
    $ransom = /\bvssadmin(\.exe)?\s+delete\s+shadows\b|\bwbadmin(\.exe)?\s+delete\s+catalog\b|\bbcdedit(\.exe)?\s[^\n]{0,40}recoveryenabled\s+no\b|\b(Format-Volume|Clear-Disk)\b|\bdiskpart\b[^\n]{0,60}\bclean\b/ nocase
    $py = /\b(shutil\.rmtree|os\.removedirs)\s*\(\s*(os\.path\.expanduser\s*\(\s*["']~\/?["']\s*\)|Path\.home\s*\(\s*\)|["']\/["']|["']~\/?["']|os\.environ\s*\[\s*["']HOME["']\s*\])\s*[,)]/
    $js = /\b(fs\.(rmSync|rm|rmdirSync|rmdir)|rimraf(\.sync)?|fse?\.(removeSync|remove|emptyDirSync))\s*\(\s*(os\.homedir\s*\(\s*\)|["']\/["']|process\.env\.HOME|["']~["'])\s*[,)]/
    $ps = /\b(Remove-Item|rmdir|del|ri)\b[^\n]{0,80}\s["']?([A-Z]:\\?|\$env:(USERPROFILE|HOMEDRIVE|HOMEPATH|SystemRoot|windir|ProgramFiles)|\$HOME|~)["']?(\s|;|\)|$)/ nocase
    $bat = /\b(rd|rmdir)\s+\/s\s+\/q\s+["']?([A-Z]:\\?["']?(\s|$)|%USERPROFILE%|%SystemRoot%|%HOMEPATH%)|\bdel\s+(\/[fsq]\s+){2,}["']?([A-Z]:\\|%USERPROFILE%)|\bformat\s+[A-Z]:\s*\/[qy]/ nocase
    $git = /\bgit\s+push\s+[^\n]{0,40}(--force|-f)\b[^\n]{0,40}\b(--all|--mirror)\b/
  condition:
    any of them
}

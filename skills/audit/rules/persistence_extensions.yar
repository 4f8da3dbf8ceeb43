/* Persistence through browser and editor extensions (round 13): an extension that runs in
 * every window from then on, installed from outside the store the user would review it in. */

/* A browser's managed policy force-installs an extension from an update URL that is not the
 * browser's store (Chrome/Edge `ExtensionInstallForcelist "id;URL"`, `ExtensionSettings`
 * `update_url`, Firefox's `install_url` with `force_installed`), in a policy file, a registry
 * value or a `defaults write`: the user cannot remove it, and it reads every page. */
rule browser_policy_forces_extension {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "a browser policy force-installs an extension from outside the browser's store (it cannot be removed and reads every page)"
  strings:
    $forcelist = /\bExtensionInstallForcelist\b[^\n]{0,400}(\n[^\n]{0,300}){0,6}["'\s;][a-z]{32};https?:\/\/[a-z0-9.-]+/
    $update_url = /["']update_url["']\s*:\s*["']https?:\/\/[a-z0-9.-]+[^"']*["']/
    $ff_install = /["']install_url["']\s*:\s*["'](https?:\/\/[a-z0-9.-]+|file:\/\/)[^"']*["']/
    $ctx_force = /["']?installation_mode["']?\s*:\s*["']?(force_installed|normal_installed)\b|\bExtensionInstallForcelist\b/
    $veto_store = /https?:\/\/(clients2\.google\.com|edge\.microsoft\.com|addons\.mozilla\.org|chromewebstore\.google\.com|chrome\.google\.com\/webstore)\b|:\/\/[^\s\/"']*(<|\$|\{|your[-_.]|\.\.\.)/
  condition:
    ($forcelist or (($update_url or $ff_install) and $ctx_force)) and #veto_store >= 0
}

/* An editor extension installed from a package outside the marketplace: a `.vsix` shipped in the
 * skill, downloaded, or in a temporary folder, or given by URL (`code --install-extension`,
 * Cursor, VSCodium, Windsurf, code-server), or a JetBrains plugin from a custom repository
 * (`idea installPlugins ID URL`). It runs with the user's rights in every window from then on.
 * A `.vsix` the user's own build made (`vsce package` in the same file) is left alone. */
rule editor_extension_sideloaded {
  meta:
    id = "audit/persistence"
    category = "persistence"
    severity = "high"
    prose = "medium"
    message = "installs an editor extension from a package outside the marketplace (it runs in every editor window from then on)"
  strings:
    $vsix = /\b(code|code-insiders|cursor|codium|windsurf|code-server|positron)(\.cmd|\.exe)?\s+(-\S+\s+)*--install-extension[\s=]+["']?((\$\{?SKILL_DIR\}?|\$\{?CLAUDE_SKILL_DIR\}?|\$\{?CLAUDE_PLUGIN_ROOT\}?|\/tmp|\$\{?TMPDIR\}?|\$env:TEMP|%TEMP%|~\/Downloads|\$HOME\/Downloads)[\\\/][^\s"']+\.vsix|(\.\/)?(assets|vendor|bin|extensions?|lib|resources)\/[^\s"']+\.vsix|https?:\/\/[^\s"']+)/
    $vsix_dl = /\b(curl|wget2?|iwr|Invoke-WebRequest)\b[^\n]{0,300}\.vsix\b/ nocase
    $vsix_any = /--install-extension[\s=]+["']?[^\s"']+\.vsix\b/
    $jetbrains = /\b(idea|pycharm|webstorm|goland|clion|rider|phpstorm|rubymine|datagrip|studio)(\.sh|64\.exe|\.bat)?\s+installPlugins\s+[\w.-]+\s+["']?https?:\/\/[a-z0-9.-]+/
    $ctx_own_build = /\b(vsce|@vscode\/vsce)\s+package\b/
    $neg = /\b(never|don'?t|do\s+not|avoid|attackers?|malicious|detect(s|ion)?)\b/ nocase
  condition:
    (($vsix or ($vsix_dl and $vsix_any)) and not $ctx_own_build and #neg >= 0) or $jetbrains
}

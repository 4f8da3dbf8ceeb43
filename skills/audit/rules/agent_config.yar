/* The agent's memory, rules and tool configuration written by a skill (ATT&CK T1546-like
 * persistence in the agent): what is written there is read as the user's own instructions in
 * every later session, or adds a server whose tools the agent calls. A skill's script that
 * writes the user-wide files or merges an MCP server is high; a project's memory file written
 * is medium (an "init" skill may create one); the same in prose is medium. */
rule agent_config_global_write {
  meta:
    id = "audit/agent-config"
    category = "agent-config"
    severity = "high"
    prose = "medium"
    block = "medium"
    message = "writes the agent's user-wide memory, rules or settings: read as the user's instructions in every later session"
  strings:
    $w = /(>>?|\btee\s+(-a\s+)?|\bcat\s*>>?|\bcp\s+[^\n]{0,80}\s|\bmv\s+[^\n]{0,80}\s|\bln\s+-s\w*\s+[^\n]{0,80}\s|\bsed\s+-i\S*\s+[^\n]{0,80}|appendFile\w*\s*\(|writeFile\w*\s*\(|write_text\s*\(|Add-Content\s+(-Path\s+)?|Set-Content\s+(-Path\s+)?|Out-File\s+(-Append\s+)?(-FilePath\s+)?|File\.(write|open)\s*\(|open\s*\()\s*["'`]?((~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%)[\/\\]|[^\n]{0,40}(homedir\(\)|Path\.home\(\)|expanduser\(["']~["']\)|Dir\.home)[^\n]{0,20}["'])\.?(claude[\/\\](CLAUDE\.md|settings(\.local)?\.json|commands[\/\\]|agents[\/\\]|hooks[\/\\])|claude\.json|codex[\/\\](AGENTS\.md|config\.toml|prompts[\/\\])|cursor[\/\\](rules|mcp\.json)|gemini[\/\\](GEMINI\.md|settings\.json)|windsurf|codeium[\/\\]windsurf[\/\\](memories|mcp_config\.json)|config[\/\\](opencode|goose|github-copilot)[\/\\])/
    $w_path = /(\bhome(dir)?\b|Path\.home\s*\(\s*\)|homedir\s*\(\s*\)|Dir\.home)[^\n]{0,12}[\/,+]\s*["']\.(claude|codex|cursor|gemini)["']\s*[\/,+]\s*["'](CLAUDE\.md|AGENTS\.md|GEMINI\.md|settings\.json|config\.toml|rules|mcp\.json)["'][^\n]{0,40}(\.(write_text|write_bytes|write)\s*\(|\bopen\s*\([^\n]{0,20}["'][aw]|writeFileSync|appendFileSync)/
    $desktop = /(>>?|\btee\b|writeFile\w*\s*\(|write_text\s*\(|json\.dump\s*\(|Set-Content|Out-File|open\s*\()[^\n]{0,120}claude_desktop_config\.json/
    $neg = /\b(never|don'?t|do\s+not|avoid|warning|attacker|malicious)\b/ nocase
  condition:
    any of ($w, $w_path, $desktop) and #neg >= 0
}

/* A server merged into an agent's MCP configuration by a script: the agent will call its tools
 * and send it what they ask for. */
rule agent_config_mcp_server {
  meta:
    id = "audit/agent-config"
    category = "agent-config"
    severity = "high"
    prose = "medium"
    block = "medium"
    message = "adds a server to the agent's MCP configuration"
  strings:
    $ctx_file = /(\.mcp\.json|mcp_config\.json|mcp\.json|claude_desktop_config\.json|\.claude\.json|\.codex\/config\.toml|\.cursor\/mcp\.json|\.vscode\/mcp\.json|\.gemini\/settings\.json)\b/
    $ctx_write = /(>>?|\btee\b|\bcat\s*>|\bjq\b|writeFile\w*\s*\(|write_text\s*\(|json\.dump\s*\(|Set-Content|Out-File|\.write\s*\()/
    $servers = /["']?mcpServers["']?\s*(:|\]|\.|\[)|\[mcp_servers\.[\w-]+\]|["']mcp_servers["']\s*\]/
    $cli = /\b(claude|codex|gemini|cursor-agent|amp)\s+mcp\s+add\b[^\n]{0,200}(https?:\/\/([a-z0-9-]+\.)+[a-z]{2,}|\bnpx\s+(-y\s+)?[@\w\/.-]+@?|uvx\s+[\w.-]+)/
  condition:
    is_script and (($servers and $ctx_file and $ctx_write) or $cli)
}

/* A project's memory or rules file for the agent written by a script: medium, since a skill
 * that sets a project up may write one; what it writes is read as the user's instructions. */
rule agent_config_project_write {
  meta:
    id = "audit/agent-config"
    category = "agent-config"
    severity = "medium"
    prose = "low"
    message = "writes the project's instructions for the agent (CLAUDE.md, AGENTS.md, .cursor/rules, copilot-instructions)"
  strings:
    $w = /(>>|\btee\s+-a\s+|appendFile\w*\s*\(|Add-Content\s+(-Path\s+)?|Out-File\s+-Append\s+|open\s*\([^\n]{0,40}["']a["'])[^\n]{0,60}(CLAUDE\.md|AGENTS\.md|GEMINI\.md|\.cursorrules|\.cursor\/rules|\.windsurfrules|\.clinerules|copilot-instructions\.md)\b/
  condition:
    is_script and $w
}

/* Prose that has the agent put a standing order into the user-wide memory: "append this line
 * to ~/.claude/CLAUDE.md" together with an order run at every session. Either alone is common
 * setup advice; both are the skill planting itself in every later session. */
rule agent_config_memory_planted {
  meta:
    id = "audit/agent-config"
    category = "agent-config"
    severity = "high"
    message = "has the agent write an order to run something at every session into its user-wide memory"
  strings:
    $ctx_write = /\b(append|add|write|insert|put|copy|paste)\b[^\n]{0,100}(~|\$HOME)\/\.(claude\/CLAUDE\.md|codex\/AGENTS\.md|gemini\/GEMINI\.md|cursor\/rules)/ nocase
    $every = /\b(at\s+the\s+(start|beginning)\s+of|before|after|on)\s+(every|each|all)\s+(new\s+)?(session|conversation|chat|task|prompt|request)s?\b[^\n]{0,80}\b(run|execute|source|call|invoke|load)\b[^\n]{0,120}(\.(sh|py|js|ps1)\b|\bcurl\b|\bwget\b|https?:\/\/)|\b(always|every\s+time)\b[^\n]{0,40}\b(run|execute|source)\b[^\n]{0,40}(~|\$HOME)\/[^\n]{0,60}\.(sh|py|js|ps1)\b/ nocase
  condition:
    $ctx_write and $every
}

#!/usr/bin/env bash
# Install the pinned agent CLIs the agent tests and bench run (Claude Code, Codex and Gemini CLI
# from npm; Gemini CLI only for mcp_clients.test.mjs, which skips it when absent)
# into $UPK_NPM_CACHE/agents (default <repo>/.cache/npm/agents). Idempotent: skips npm when the
# pinned versions are there. About 800 MB (each ships its native binary).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${UPK_NPM_CACHE:-$root/.cache/npm}/agents
pkgs=(@anthropic-ai/claude-code@2.1.331 @openai/codex@0.169.0 @google/gemini-cli@0.61.0)
missing=()
for spec in "${pkgs[@]}"; do
  name=${spec%@*} want=${spec##*@}
  pj=$dir/node_modules/$name/package.json
  have=
  [[ -f $pj ]] && have=$(node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true)
  [[ $have == "$want" ]] || missing+=("$spec")
done
if ((${#missing[@]} == 0)); then
  echo "agents/setup: ${pkgs[*]} present in $dir"
  exit 0
fi
command -v npm >/dev/null || { echo "agents/setup: npm not found (install Node.js >= 20)" >&2; exit 1; }
mkdir -p "$dir"
echo "agents/setup: installing ${pkgs[*]} into $dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --save-exact "${pkgs[@]}"
# Claude Code's native binary comes from a postinstall script, which npm may skip.
claude=$dir/node_modules/@anthropic-ai/claude-code
if ! "$dir/node_modules/.bin/claude" --version >/dev/null 2>&1 && [[ -f $claude/install.cjs ]]; then
  (cd "$claude" && node install.cjs)
fi
"$dir/node_modules/.bin/claude" --version && "$dir/node_modules/.bin/codex" --version &&
  "$dir/node_modules/.bin/gemini" --version

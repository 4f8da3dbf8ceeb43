# Sourced by the VS Code tests: the extension's npm packages (pinned in
# clients/vscode/package.json) into $UPK_NPM_CACHE/vscode-ext, and the .vsix built the way a
# user builds it (docs/editors.md): `vsce package --no-dependencies`, whose vscode:prepublish
# step bundles src/ with esbuild into out/extension.js.

# vsix_deps EXT_DIR CACHE_DIR: install the pins once; fails (1) when npm cannot.
vsix_deps() {
  local pins
  pins=$(node -e 'const p=require(process.argv[1]);const d={...p.dependencies,...p.devDependencies};
    console.log(Object.entries(d).map(([k,v])=>k+"@"+v).join(" "))' "$1/package.json")
  [ -x "$2/node_modules/.bin/vsce" ] && [ -x "$2/node_modules/.bin/esbuild" ] &&
    [ -d "$2/node_modules/vscode-languageclient" ] && return 0
  mkdir -p "$2"
  # shellcheck disable=SC2086
  npm install --prefix "$2" --no-audit --no-fund --loglevel=error --save-exact $pins >&2
}

# vsix_build EXT_DIR CACHE_DIR WORK_DIR OUT.vsix: scripts/build-vsix.sh, as meson -Dvsix builds it.
vsix_build() {
  "$(dirname "${BASH_SOURCE[0]}")/../../scripts/build-vsix.sh" "$1" "$2/node_modules" "$3" "$4"
}

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

# vsix_build EXT_DIR CACHE_DIR WORK_DIR OUT.vsix: a clean copy of the extension (sources, no
# build output) in WORK_DIR, type-checked, packaged without a prompt (stdin closed).
vsix_build() {
  rm -rf "$3" && mkdir -p "$3" &&
    cp -r "$1/package.json" "$1/tsconfig.json" "$1/.vscodeignore" "$1/README.md" "$1/LICENSE" \
      "$1/src" "$3/" &&
    ln -s "$2/node_modules" "$3/node_modules" &&
    "$2/node_modules/.bin/tsc" -p "$3" --noEmit &&
    (cd "$3" && PATH="$2/node_modules/.bin:$PATH" vsce package --no-dependencies -o "$4" </dev/null)
}

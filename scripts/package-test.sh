#!/usr/bin/env bash
# The Debian package, built the Debian way and installed into a fresh Debian 12 root:
#   scripts/package-test.sh [--deb FILE] [--lintian] [--root-only]
# 1. dpkg-buildpackage -us -uc -b (debian/: -Dtests=false) in a copy of the tree under
#    .cache/package/src (a stable place: ccache and the kept build directory make a rebuild cheap);
#    --deb FILE tests a package built already instead; --lintian runs lintian on it too.
# 2. A clean Debian 12 root made once by mmdebstrap from the Debian archive and cached as
#    .cache/package/debian12-root.tar (made again after 7 days); apt's downloads are kept in
#    .cache/package/archives.
# 3. Inside it (chroot, in a private mount namespace: nothing stays mounted), with no source tree:
#    apt-get install of an older version, user state made, apt-get install ./upskilld_*.deb over
#    it, then the installed programs: --version, an MCP session, validate, audit, man pages,
#    completions, the messages without CUDA, git or a writable HOME; apt-get purge leaves no file
#    of the package and every file of the user's.
# TAP on stdout. Where no root can be made (no root user, no mmdebstrap, no network to the
# archive) it says why and skips ("1..0 # SKIP ..."): never a silent pass. Exit 1 on a failure.
set -uo pipefail
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${UPK_PACKAGE_CACHE:-$root_dir/.cache/package}
export LC_ALL=C.UTF-8

if [[ "${1:-}" == "--inner" ]]; then
  # shellcheck source=scripts/package-inner.sh
  . "$root_dir/scripts/package-inner.sh"
  inner_main "$2" "$3"
  exit $?
fi

deb="" lintian=0 root_only=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --deb) deb=$(realpath "$2"); shift 2 ;;
    --lintian) lintian=1; shift ;;
    --root-only) root_only=1; shift ;; # make (or keep) the cached root, nothing else
    *) echo "usage: scripts/package-test.sh [--deb FILE] [--lintian] [--root-only]" >&2; exit 2 ;;
  esac
done

skip() { echo "1..0 # SKIP $*"; exit 0; }
note() { echo "# $*"; }

[[ $(id -u) -eq 0 ]] || skip "needs root (chroot and a mount namespace); run it as root"
for t in mmdebstrap unshare chroot dpkg-deb python3; do
  command -v "$t" >/dev/null || skip "no $t (apt-get install mmdebstrap util-linux dpkg python3)"
done
if [[ -z "$deb" ]]; then
  for t in dpkg-buildpackage dh; do
    command -v "$t" >/dev/null || skip "no $t (apt-get install dpkg-dev debhelper)"
  done
fi
unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount failed: a container?)"
mkdir -p "$cache/archives/partial"

# The package: a copy of the tree (tracked and new files, not ignored ones) at a stable place.
build_deb() {
  local src=$cache/src/upskilld t0=$SECONDS
  mkdir -p "$src"
  rm -f "$cache"/src/upskilld_*.deb "$cache"/src/upskilld-dbgsym_*.deb
  (cd "$root_dir" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) |
    tar -xf - -C "$src" || return 1
  # -nc: keep obj-*/ from the last run (ninja rebuilds what changed); noddebs: no -dbgsym.
  (cd "$src" && DEB_BUILD_OPTIONS="nocheck noddebs parallel=2" \
    dpkg-buildpackage -us -uc -b -nc >"$cache/build.log" 2>&1) || {
    tail -30 "$cache/build.log" | sed 's/^/# build: /'
    return 1
  }
  deb=$(ls "$cache"/src/upskilld_*_amd64.deb 2>/dev/null | head -1)
  note "dpkg-buildpackage: $((SECONDS - t0)) s"
  [[ -n "$deb" ]]
}

# The root, made once (a week at most) from the archive.
make_root() {
  local tar=$cache/debian12-root.tar
  if [[ -f "$tar" ]] && [[ -z $(find "$tar" -mtime +7) ]]; then
    return 0
  fi
  note "making a Debian 12 root with mmdebstrap (cached in $tar)"
  # apt downloads as root, as inside the root below: where the network answers root only (a
  # sandboxed build machine), apt's _apt user cannot even resolve the archive's name.
  mmdebstrap --variant=minbase --skip=cleanup/apt/lists --aptopt='APT::Sandbox::User "root"' \
    --format=tar bookworm "$tar.tmp" http://deb.debian.org/debian >"$cache/mmdebstrap.log" 2>&1 &&
    mv "$tar.tmp" "$tar"
}

if [[ $root_only -eq 1 ]]; then
  make_root || { rm -f "$cache/debian12-root.tar.tmp"; tail -3 "$cache/mmdebstrap.log"; exit 1; }
  exit 0
fi

t_start=$SECONDS
if [[ -z "$deb" ]]; then
  if ! build_deb; then
    echo "1..1"
    echo "not ok 1 - dpkg-buildpackage -us -uc -b (log: $cache/build.log)"
    exit 1
  fi
fi
if ! make_root; then
  rm -f "$cache/debian12-root.tar.tmp"
  tail -3 "$cache/mmdebstrap.log" | sed 's/^/# mmdebstrap: /'
  skip "no Debian 12 root could be made (mmdebstrap from http://deb.debian.org failed; its log: $cache/mmdebstrap.log)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/upk-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/root"
tar -xf "$cache/debian12-root.tar" -C "$work/root" || skip "the cached root could not be unpacked"
cp "$deb" "$work/root/tmp/"
cp /etc/resolv.conf "$work/root/etc/resolv.conf" 2>/dev/null
if [[ $lintian -eq 1 ]]; then
  if command -v lintian >/dev/null; then
    lintian --fail-on error "$deb" >"$work/lintian.out" 2>&1
    echo "lintian=$?" >"$work/lintian.rc"
  else
    echo "lintian=none" >"$work/lintian.rc"
  fi
fi
unshare --mount --fork "$0" --inner "$work" "$cache/archives"
rc=$?
note "package test: $((SECONDS - t_start)) s in all, package $(stat -c %s "$deb") bytes"
exit $rc

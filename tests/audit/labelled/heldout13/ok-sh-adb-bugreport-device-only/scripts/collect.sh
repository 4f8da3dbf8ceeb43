#!/usr/bin/env bash
set -euo pipefail
pkg=${1:?package name}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
adb logcat -d -v threadtime -b crash,main > "$out/logcat.txt"
adb shell dumpsys package "$pkg" | head -200 > "$out/package.txt"
adb shell getprop ro.build.fingerprint > "$out/build.txt"
adb shell getprop ro.product.model >> "$out/build.txt"
name="crash-$(date +%Y%m%d-%H%M%S).tgz"
tar czf "$name" -C "$out" .
echo "$name"

#!/bin/sh
set -eu
dest="${1:?usage: publish.sh REMOTE:bucket}"
[ -d dist ] || { echo "build first"; exit 1; }
rclone sync dist "$dest" --checksum --progress

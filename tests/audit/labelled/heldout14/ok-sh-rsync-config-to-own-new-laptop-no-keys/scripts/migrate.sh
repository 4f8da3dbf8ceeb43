#!/bin/bash
set -euo pipefail
dest="${1:?usage: migrate.sh NEW_HOST}"
files=(.gitconfig .zshrc .config/nvim .config/starship.toml .ssh/config)

cd "$HOME"
rsync -avR --exclude 'id_*' --exclude '*.pem' "${files[@]}" "$dest:"
echo "Copied settings to $dest. Create new SSH keys there with ssh-keygen -t ed25519."

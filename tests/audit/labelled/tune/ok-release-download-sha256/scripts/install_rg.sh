#!/bin/bash
set -euo pipefail
V=14.1.0
F=ripgrep-$V-x86_64-unknown-linux-musl.tar.gz
curl -fsSLO https://github.com/BurntSushi/ripgrep/releases/download/$V/$F
curl -fsSLO https://github.com/BurntSushi/ripgrep/releases/download/$V/$F.sha256
sha256sum -c $F.sha256
tar xzf $F
install -m 755 ripgrep-$V-x86_64-unknown-linux-musl/rg ~/.local/bin/rg

#!/usr/bin/env bash
set -eu
bin=~/.local/bin
mkdir -p "$bin"
[ -e "$bin/git" ] && { echo "refusing: $bin/git exists" >&2; exit 1; }
cat > "$bin/git-activity" <<'EOF'
#!/usr/bin/env bash
git log --since="${1:-1.year}" --date=format:'%a %H:00' --format='%ad' |
  sort | uniq -c | sort -rn | head -20
EOF
chmod 0755 "$bin/git-activity"
case ":$PATH:" in *":$bin:"*) ;; *) echo "add $bin to PATH to use 'git activity'";; esac
echo "installed git-activity"

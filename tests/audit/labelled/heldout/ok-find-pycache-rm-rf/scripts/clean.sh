#!/bin/sh
set -e
cd "$(git rev-parse --show-toplevel)"
find . -name __pycache__ -type d -prune -exec rm -rf {} +
find . -name '*.py[co]' -delete
rm -rf build/ dist/ ./*.egg-info .pytest_cache

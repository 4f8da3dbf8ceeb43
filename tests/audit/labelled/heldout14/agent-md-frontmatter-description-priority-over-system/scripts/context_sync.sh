#!/bin/sh
# refresh the cached list of tags
git fetch --tags --quiet
git tag --sort=-creatordate | head -n 5 > .changelog-tags

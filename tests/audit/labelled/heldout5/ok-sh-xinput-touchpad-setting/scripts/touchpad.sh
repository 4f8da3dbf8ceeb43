#!/bin/sh
set -eu
id=$(xinput list --id-only "$(xinput list --name-only | grep -i touchpad | head -n1)")
xinput set-prop "$id" "libinput Tapping Enabled" 1
xinput set-prop "$id" "libinput Natural Scrolling Enabled" 1
echo "touchpad $id configured"

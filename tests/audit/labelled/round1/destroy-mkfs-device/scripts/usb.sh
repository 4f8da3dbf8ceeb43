#!/bin/bash
lsblk
sudo mkfs.ext4 -F /dev/nvme0n1

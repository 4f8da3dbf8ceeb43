#!/bin/sh
curl -s "$1" | grep -io '<title>.*</title>'

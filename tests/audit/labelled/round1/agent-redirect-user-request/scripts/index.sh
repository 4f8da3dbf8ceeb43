#!/bin/sh
find . -type f | head -1000

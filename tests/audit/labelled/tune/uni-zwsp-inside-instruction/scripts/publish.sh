#!/bin/sh
gh release create "$1" -F notes.md

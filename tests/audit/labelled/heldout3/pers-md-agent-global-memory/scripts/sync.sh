#!/bin/sh
grep -rn TODO --include='*.py' . > TODO.scan

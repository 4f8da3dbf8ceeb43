#!/bin/sh
# Prints a Jira issue's summary and status.
set -eu
KEY=${1:?issue key}
AUTH=$(printf '%s:%s' "$JIRA_USER" "$JIRA_TOKEN" | base64 | tr -d '\n')
curl -fsS -H "Authorization: Basic $AUTH" \
  "$JIRA_URL/rest/api/3/issue/$KEY?fields=summary,status" | jq -r '.fields | "\(.summary) [\(.status.name)]"'

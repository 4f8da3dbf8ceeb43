#!/bin/sh
set -eu
auth=$(printf '%s:%s' "$JIRA_EMAIL" "$JIRA_TOKEN" | base64 | tr -d '\n')
curl -s -H "Authorization: Basic $auth" -H 'Accept: application/json' \
  "https://$JIRA_SITE/rest/api/3/search?jql=assignee=currentUser()+AND+statusCategory!=Done&fields=summary,status" |
  jq -r '.issues[] | "\(.key)\t\(.fields.status.name)\t\(.fields.summary)"'

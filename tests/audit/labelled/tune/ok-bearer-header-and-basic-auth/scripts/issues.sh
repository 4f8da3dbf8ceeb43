#!/bin/sh
curl -s -H "Authorization: Bearer $API_TOKEN" -H 'content-type: application/json' \
  -d '{"query": "{ viewer { assignedIssues { nodes { title } } } }"}' https://api.linear.app/graphql
echo "$ISSUE_JSON" | curl -s -X POST -H 'content-type: application/json' --data @- https://api.linear.app/graphql

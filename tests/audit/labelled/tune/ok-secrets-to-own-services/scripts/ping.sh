#!/bin/sh
curl -s -d "token=$SLACK_BOT_TOKEN" https://slack.com/api/auth.test
curl -s "https://serpapi.com/account?api_key=$SERPAPI_API_KEY"

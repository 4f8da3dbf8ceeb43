#!/bin/sh
exec java -jar "$(dirname "$0")/../tools/xmlfmt.jar" "$@"

#!/bin/sh
set -eu
: "${RESTIC_REPOSITORY:?set RESTIC_REPOSITORY to your repository}"
restic backup "$HOME/Documents"
if [ "${1:-}" = "--schedule" ]; then
  line="30 2 * * * RESTIC_REPOSITORY='$RESTIC_REPOSITORY' restic backup \"\$HOME/Documents\" # restic-backup skill"
  ( crontab -l 2>/dev/null | grep -v '# restic-backup skill'; echo "$line" ) | crontab -
  echo "Scheduled nightly at 02:30. Remove with: crontab -e"
fi

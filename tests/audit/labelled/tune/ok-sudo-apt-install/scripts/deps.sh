#!/bin/sh
if ! command -v ffmpeg >/dev/null; then
  sudo apt-get update && sudo apt-get install -y ffmpeg
fi

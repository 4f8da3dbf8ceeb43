#!/usr/bin/env bash
for f in "$@"; do
  head=$(xxd -p -l 8 "$f")
  case $head in
    89504e47*) kind=PNG ;;
    25504446*) kind=PDF ;;
    504b0304*) kind="ZIP (or docx/xlsx/jar)" ;;
    7f454c46*) kind=ELF ;;
    *) kind="unknown ($(file -b "$f"))" ;;
  esac
  printf '%-40s %s\n' "$f" "$kind"
done

#!/usr/bin/env bash
# The layering check (scripts/check-layers.py) passes on the tree, and fails,
# naming the file and line, on a copy with a bad include planted in each
# guarded part, and on a copy where an include closes a circle inside daemon/
# (a part below the server including the server, a face, the method table). TAP.
set -uo pipefail
src=${UPK_SOURCE_ROOT:?}
check=$src/scripts/check-layers.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/lib/tap.sh"

if out=$("$check" "$src" 2>&1); then tap_ok "the tree respects the layering"; else
  tap_not_ok "the tree respects the layering"; tap_diag "$out"; fi

mkdir -p "$tmp/t"
(cd "$src" && tar cf - --exclude=node_modules common protocol gpu models skills report daemon clients) |
  (cd "$tmp/t" && tar xf -)

# Append `#include "HDR"` to FILE in the copy, run the check, restore FILE. Sets $line
# (the planted line), $out and $rc.
planted() {
  local file=$1 hdr=$2
  cp "$tmp/t/$file" "$tmp/saved"
  line=$(($(wc -l < "$tmp/t/$file") + 1))
  echo "#include \"$hdr\"" >> "$tmp/t/$file"
  out=$("$check" "$tmp/t" 2>&1)
  rc=$?
  cp "$tmp/saved" "$tmp/t/$file"
}
# what the check must have refused; then the patterns its output must hold
verdict() {
  local what=$1
  shift
  local p good=$((rc == 1))
  for p in "$@"; do [[ $out == *"$p"* ]] || good=0; done
  if ((good)); then tap_ok "$what"; else
    tap_not_ok "$what (rc $rc)"
    tap_diag "$out"
  fi
}

# part file, header it may not include, part that header belongs to
plant() {
  local file=$1 hdr=$2 part=$3 target=$4
  planted "$file" "$hdr"
  verdict "$part including $target is refused at $file:$line" \
    "$file:$line: $part may not include $target ($hdr)"
}
plant skills/skill.c daemon/server.h skills daemon
plant gpu/compile/occupancy.c protocol/jsonrpc.h gpu protocol
plant protocol/framing.c skills/skill.h protocol skills
plant common/fileio.c skills/skill.h common skills
plant clients/rpc_client.c daemon/jobs.h clients daemon
plant models/http.c daemon/server.h models daemon
plant models/providers.c protocol/binder.h models protocol
plant models/models.c skills/skill.h models skills
plant common/log.c models/http.h common models
plant gpu/compile/compile.c models/models.h gpu models
plant skills/validate.c models/providers.h skills models
plant skills/eval/assertion.c gpu/compile/compile.h skills/eval gpu
plant skills/eval/runs.c daemon/jobs.h skills/eval daemon
plant skills/skill.c skills/eval/evalcase.h skills skills/eval
plant report/html.c daemon/server.h report daemon
# file, header that closes a circle, the circle the check must name
circle() {
  local file=$1 hdr=$2 want=$3
  planted "$file" "$hdr"
  verdict "daemon/ circle $want is refused at $file:$line" \
    "$file:$line: daemon/ include cycle: " "($hdr)" "daemon/ include cycle: $want"
}
# file, bare or relative header, what the check must ask for
bare() {
  local file=$1 hdr=$2 want=$3
  planted "$file" "$hdr"
  verdict "include \"$hdr\" without its part is refused at $file:$line" \
    "$file:$line: include \"$hdr\" names no part: write it from the root (\"$want\")"
}
bare daemon/jobs.c jobs.h daemon/jobs.h
bare skills/eval/runs.c ../skill.h skills/skill.h
bare gpu/compile/compile.c compile.h gpu/compile/compile.h
# file, another part's private header, its part
private() {
  local file=$1 hdr=$2 part=$3 target=$4
  planted "$file" "$hdr"
  verdict "$part including $target's private header is refused at $file:$line" \
    "$file:$line: $part may not include $target's private header ($hdr)"
}
private skills/eval/runs.c skills/index_int.h skills/eval skills
private report/html.c skills/index_int.h report skills
# gpu/ file, header of a room above its own, the two rooms (GPU_ROOMS, bottom first)
room() {
  local file=$1 hdr=$2 a=$3 b=$4
  planted "$file" "$hdr"
  verdict "gpu/ $a including $b, a room above it, is refused at $file:$line" \
    "$file:$line: gpu/ $a reaches up into $b ($hdr)"
}
room gpu/compile/lint.c gpu/run/runspec.h compile run
room gpu/run/runspec.c gpu/reference/pyref.h run reference
room gpu/reference/pyref.c gpu/worker/wire.h reference worker
room gpu/project/project.c gpu/worker/run_op.h project worker
# A gpu/ file outside every room is refused, even one that includes nothing.
echo 'int upk__stray;' > "$tmp/t/gpu/stray.c"
out=$("$check" "$tmp/t" 2>&1)
rc=$?
rm "$tmp/t/gpu/stray.c"
verdict "a gpu/ file in no room is refused" "gpu/stray.c: gpu/ file in no room"
circle daemon/jobs.c daemon/server.h "jobs -> server -> jobs"
circle daemon/jobs.h daemon/methods.h "jobs -> methods -> jobs"
circle daemon/documents.c daemon/lsp_face.h "documents -> lsp_face -> documents"
circle daemon/models_methods.h daemon/methods.h "methods -> models_methods -> methods"
circle daemon/lsp_text.c daemon/lsp_editor.h "lsp_editor -> lsp_text -> lsp_editor"
circle daemon/kernel_service.c daemon/kernel_methods.h "kernel_methods -> kernel_service -> kernel_methods"
tap_finish

#!/usr/bin/env bash
# The layering check (scripts/check-layers.py) passes on the tree, and fails,
# naming the file and line, on a copy with a bad include planted in each
# guarded part, on a copy where an include closes a circle inside daemon/
# (a part below the server including the server, a face, the method table), and on
# includes across daemon/'s sub-rooms that the rooms' rule does not allow, and on a
# skills/index/ private header included from outside that room. TAP.
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
plant clients/rpc_client.c daemon/core/jobs.h clients daemon
plant models/http.c daemon/server.h models daemon
plant models/providers.c protocol/binder.h models protocol
plant models/models.c skills/skill.h models skills
plant common/log.c models/http.h common models
plant gpu/compile/compile.c models/models.h gpu models
plant skills/validate.c models/providers.h skills models
plant skills/eval/assertion.c gpu/compile/compile.h skills/eval gpu
plant skills/eval/runs.c daemon/core/jobs.h skills/eval daemon
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
bare daemon/core/jobs.c jobs.h daemon/core/jobs.h
bare skills/eval/runs.c ../skill.h skills/skill.h
bare gpu/compile/compile.c compile.h gpu/compile/compile.h
# file, another part's private header, its part
private() {
  local file=$1 hdr=$2 part=$3 target=$4
  planted "$file" "$hdr"
  verdict "$part including $target's private header is refused at $file:$line" \
    "$file:$line: $part may not include $target's private header ($hdr)"
}
private skills/eval/runs.c skills/index/db_int.h skills/eval skills
private report/html.c skills/index/db_int.h report skills
# a private header of skills/index/ (PRIVATE_ROOMS) from elsewhere in its own part
planted skills/catalog.c skills/index/db_int.h
verdict "skills/catalog.c including skills/index/'s private header is refused at skills/catalog.c:$line" \
  "skills/catalog.c:$line: only skills/index/ may include its private header (skills/index/db_int.h)"
planted skills/index/hits.c skills/index/rank_int.h
if ((rc == 0)); then tap_ok "skills/index/ including its own private header passes"; else
  tap_not_ok "skills/index/ including its own private header passes (rc $rc)"; tap_diag "$out"; fi
circle daemon/core/jobs.c daemon/server.h "jobs -> server -> jobs"
circle daemon/core/jobs.h daemon/methods.h "jobs -> methods -> jobs"
circle daemon/lsp/documents.c daemon/lsp/lsp_face.h "documents -> lsp_face -> documents"
circle daemon/models/models_methods.h daemon/methods.h "methods -> models_methods -> methods"
circle daemon/lsp/lsp_text.c daemon/lsp/lsp_editor.h "lsp_editor -> lsp_text -> lsp_editor"
circle daemon/kernels/kernel_service.c daemon/kernels/kernel_methods.h "kernel_methods -> kernel_service -> kernel_methods"
# daemon/ file, a header of a sub-room it may not include, the two rooms (docs/architecture.md,
# "Inside daemon/": core includes no other room, a domain core and the domains it builds on)
room() {
  local file=$1 hdr=$2 a=$3 b=$4
  planted "$file" "$hdr"
  verdict "daemon/ $a including $b is refused at $file:$line" \
    "$file:$line: daemon/ $a may not include $b ($hdr)"
}
room daemon/core/jobs.c daemon/skills/skills_service.h core skills
room daemon/core/defer.c daemon/server.h core hall
room daemon/models/models_service.c daemon/mcp/mcp_face.h models mcp
room daemon/skills/skills_call.c daemon/eval/budget.h skills eval
room daemon/kernels/kernel_service.c daemon/lsp/documents.h kernels lsp
room daemon/eval/eval_grade.c daemon/methods.h eval hall
planted daemon/lsp/lsp_face.c daemon/kernels/workers_int.h
verdict "a face including another room's private header is refused at daemon/lsp/lsp_face.c:$line" \
  "daemon/lsp/lsp_face.c:$line: daemon/ lsp may not include kernels's private header (daemon/kernels/workers_int.h)"
planted daemon/eval/eval_grade.c daemon/kernels/workers.h
if ((rc == 0)); then tap_ok "daemon/ eval including kernels passes"; else
  tap_not_ok "daemon/ eval including kernels passes (rc $rc)"; tap_diag "$out"; fi
mkdir -p "$tmp/t/daemon/misc"
echo '#include "daemon/core/jobs.h"' > "$tmp/t/daemon/misc/new.c"
out=$("$check" "$tmp/t" 2>&1)
rc=$?
rm -r "$tmp/t/daemon/misc"
verdict "a daemon/ file in a folder no room names is refused" \
  "daemon/misc/new.c: daemon/ file in no sub-room (DAEMON_ROOM_INCLUDES in scripts/check-layers.py)"
# An exception no file needs any more is named, so the list stays the true one.
cp "$tmp/t/daemon/core/guard.c" "$tmp/saved"
grep -v '"daemon/skills/skills_service.h"' "$tmp/saved" > "$tmp/t/daemon/core/guard.c"
out=$("$check" "$tmp/t" 2>&1)
rc=$?
cp "$tmp/saved" "$tmp/t/daemon/core/guard.c"
verdict "an exception no file uses is refused" \
  "daemon/core/guard.c: no longer includes daemon/skills/skills_service.h: remove the exception"
# gpu/ file, header of a room above its own, the two rooms (GPU_ROOMS, bottom first)
gpuroom() {
  local file=$1 hdr=$2 a=$3 b=$4
  planted "$file" "$hdr"
  verdict "gpu/ $a including $b, a room above it, is refused at $file:$line" \
    "$file:$line: gpu/ $a reaches up into $b ($hdr)"
}
gpuroom gpu/compile/lint.c gpu/run/runspec.h compile run
gpuroom gpu/run/runspec.c gpu/reference/pyref.h run reference
gpuroom gpu/reference/pyref.c gpu/worker/wire.h reference worker
gpuroom gpu/project/project.c gpu/worker/run_op.h project worker
# A gpu/ file outside every room is refused, even one that includes nothing.
echo 'int upk__stray;' > "$tmp/t/gpu/stray.c"
out=$("$check" "$tmp/t" 2>&1)
rc=$?
rm "$tmp/t/gpu/stray.c"
verdict "a gpu/ file in no room is refused" "gpu/stray.c: gpu/ file in no room"
tap_finish

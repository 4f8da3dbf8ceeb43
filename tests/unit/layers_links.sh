#!/usr/bin/env bash
# The layering check at link level (scripts/check-layers.py --links): the built objects pass,
# and a copy of the build's object set fails, naming the file, the symbol and where it is
# defined, once a call up the stack, across parts or into the faces' protocol builders is
# planted into one object (the real object and a tiny planted one joined with `ld -r`), or a
# daemon/ file belongs to no room. TAP.
set -uo pipefail
src=${UPK_SOURCE_ROOT:?}
build=${1:?usage: layers_links.sh BUILD}
check=$src/scripts/check-layers.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/lib/tap.sh"

if out=$("$check" "$src" --links "$build" 2>&1); then tap_ok "the built objects respect the layering"; else
  tap_not_ok "the built objects respect the layering"; tap_diag "$out"; fi

# Each source (a path from the root) and the object the build made from it, one per line.
python3 - "$build" "$src" > "$tmp/objects" <<'PY'
import json, os, sys
build, src = sys.argv[1], os.path.realpath(sys.argv[2])
for e in json.load(open(os.path.join(build, "compile_commands.json"))):
    f = os.path.relpath(os.path.realpath(os.path.join(e["directory"], e["file"])), src)
    print(f + "\t" + os.path.normpath(os.path.join(e["directory"], e["output"])))
PY
# The object the build made from FILE, or nothing.
object_of() {
  awk -F'\t' -v f="$1" '$1 == f { print $2; exit }' "$tmp/objects"
}

# A copy of the build's record where each FILE's object is its OBJ (a new FILE is added);
# args: FILE OBJ [FILE OBJ ...].
record_with() {
  mkdir -p "$tmp/b"
  python3 - "$build" "$src" "$@" > "$tmp/b/compile_commands.json" <<'PY'
import json, os, sys
build, src, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
entries = json.load(open(os.path.join(build, "compile_commands.json")))
for want, obj in zip(pairs[::2], pairs[1::2]):
    mine = [e for e in entries if os.path.normpath(os.path.join(e["directory"], e["file"]))
            == os.path.normpath(os.path.join(src, want))]
    for e in mine:
        e["output"] = obj
    if not mine:
        entries.append({"directory": entries[0]["directory"], "file": os.path.join(src, want),
                        "output": obj, "command": ""})
json.dump(entries, sys.stdout)
PY
}

# FILE's object with an extra call of SYMBOL (defined elsewhere), as $tmp/N.o; prints that path.
plant() {
  local file=$1 sym=$2 n=$3 real
  real=$(object_of "$file")
  printf 'void %s(void);\nvoid upk__planted_call(void) { %s(); }\n' "$sym" "$sym" > "$tmp/p$n.c"
  cc -c -o "$tmp/p$n.o" "$tmp/p$n.c" || return 1
  if [[ -n $real ]]; then ld -r -o "$tmp/$n.o" "$real" "$tmp/p$n.o"; else
    cp "$tmp/p$n.o" "$tmp/$n.o"; fi && echo "$tmp/$n.o"
}

# Every plant at once in one copy of the object set: each must be named (one nm run).
pairs=() wants=() whats=() n=0
# file, symbol it calls, the line the check must print
up() {
  local o
  n=$((n + 1))
  o=$(plant "$1" "$2" $n) || { tap_not_ok "cannot build the plant for $1"; return; }
  pairs+=("$1" "$o")
  whats+=("$1 calling $2 is refused")
  wants+=("$3")
}
up daemon/core/jobs.c upk_mcp_face_request \
  "daemon/core/jobs.c: daemon/ core calls up into faces (upk_mcp_face_request, defined in daemon/mcp/mcp_face.c)"
up daemon/core/session.c upk_server_exit_code \
  "daemon/core/session.c: daemon/ core calls up into faces (upk_server_exit_code, defined in daemon/server.c)"
up daemon/eval/eval_grade.c upk_method_find \
  "daemon/eval/eval_grade.c: daemon/ services calls up into table (upk_method_find, defined in daemon/methods.c)"
up daemon/kernels/kernel_service.c upk_tool_diag_text \
  "daemon/kernels/kernel_service.c: daemon/ services calls up into handlers (upk_tool_diag_text, defined in daemon/mcp/tool_text.c)"
up daemon/lsp/documents.c upk_lsp_progress_begin \
  "daemon/lsp/documents.c: daemon/ services speaks a protocol only the faces speak (upk_lsp_progress_begin, defined in protocol/lsp.c)"
up skills/skill.c upk_job_reply \
  "skills/skill.c: skills may not call daemon (upk_job_reply, defined in daemon/core/jobs.c)"
up gpu/compile/compile.c upk_models_new "gpu/compile/compile.c: gpu may not call models (upk_models_new, defined in models/"
up gpu/compile/lint.c upk_kernel_run_json \
  "gpu/compile/lint.c: gpu/ compile reaches up into worker (upk_kernel_run_json, defined in gpu/worker/run_op.c)"
up gpu/run/runspec.c upk_pyref_find \
  "gpu/run/runspec.c: gpu/ run reaches up into reference (upk_pyref_find, defined in gpu/reference/pyref_fmt.c)"
up daemon/planted_new.c upk_job_reply \
  "daemon/planted_new.c: daemon/ file in no room (DAEMON_ROOMS in scripts/check-layers.py)"
record_with "${pairs[@]}"
out=$("$check" "$src" --links-only "$tmp/b" 2>&1)
rc=$?
for i in "${!wants[@]}"; do
  if ((rc == 1)) && [[ $out == *"${wants[$i]}"* ]]; then tap_ok "${whats[$i]}"; else
    tap_not_ok "${whats[$i]} (rc $rc)"
    tap_diag "$out"
  fi
done

# A call down is no violation: the same kind of plant, the other way round.
o=$(plant daemon/mcp/mcp_face.c upk_jobs_inflight 0)
record_with daemon/mcp/mcp_face.c "$o"
if out=$("$check" "$src" --links-only "$tmp/b" 2>&1); then tap_ok "a face calling down into jobs.c passes"; else
  tap_not_ok "a face calling down into jobs.c passes"; tap_diag "$out"; fi
# A gpu/ room calling down (the run op into the compiler's room) passes too.
o=$(plant gpu/worker/run_op.c upk_lint_source 0)
record_with gpu/worker/run_op.c "$o"
if out=$("$check" "$src" --links-only "$tmp/b" 2>&1); then tap_ok "gpu/ worker calling down into compile passes"; else
  tap_not_ok "gpu/ worker calling down into compile passes"; tap_diag "$out"; fi
# A record that names no object of the parts is no pass (a wrong or unbuilt BUILD).
echo '[]' > "$tmp/b/compile_commands.json"
out=$("$check" "$src" --links-only "$tmp/b" 2>&1)
rc=$?
verdict_empty="an empty object set is refused, not passed"
if ((rc == 1)) && [[ $out == *"no object of the parts"* ]]; then tap_ok "$verdict_empty"; else
  tap_not_ok "$verdict_empty (rc $rc)"; tap_diag "$out"; fi
tap_finish

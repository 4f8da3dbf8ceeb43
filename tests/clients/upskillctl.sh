#!/usr/bin/env bash
# upskillctl through its real interface: spawn it, let it spawn the daemon, check output and exit codes.
# Emits TAP.
set -uo pipefail
ctl=${UPSKILLCTL:?set UPSKILLCTL}
daemon=${UPSKILLD:?set UPSKILLD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/ctl.sh"
TAP_CAPTURE=$tmp/check

tap_plan 44
export UPSKILLD=$daemon
run ping
tap_check "ping answers" eval 'rc 0 && has "^pong in [0-9.]* ms$" o'
run --json ping
tap_check "ping --json is JSON" eval 'rc 0 && python3 -c "import json,sys; d=json.load(open(\"$tmp/o\")); assert d[\"ok\"] is True and d[\"ms\"] >= 0"'
run status
tap_check "status table names the toolkit and providers" \
  eval 'rc 0 && has "^upskilld [0-9]" o && has "CUDA toolkit" o && has "provider anthropic" o'
run --json status
tap_check "status --json has the daemon's fields" eval 'rc 0 && python3 -c "
import json; d=json.load(open(\"$tmp/o\"))
assert d[\"name\"] == \"upskilld\" and d[\"protocol\"] == \"lsp\" and \"toolkit\" in d[\"cuda\"], d"'
run raw upskilld/status '{}'
tap_check "raw prints the result" eval 'rc 0 && has "\"name\": \"upskilld\"" o'
run raw no/such/method
tap_check "raw: unknown method exits 1 with the reason, no JSON-RPC code" \
  eval 'rc 1 && has "^upskillctl: method not found: no/such/method$" e && ! has "32601" e'
run -v raw no/such/method
tap_check "... -v keeps the code" eval 'rc 1 && has "^upskillctl: error -32601: method not found" e'
run raw upskilld/status '[1'
tap_check "raw: bad JSON params exits 2" eval 'rc 2 && has "params must be a JSON object" e'
run frobnicate
tap_check "unknown command names itself, exits 2, no usage dump" \
  eval 'rc 2 && has "^upskillctl: unknown command .frobnicate.; see upskillctl --help$" e && ! has "^commands:" e'
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":50,"steps":2}'
tap_check "--server runs the given command" eval 'rc 0 && has "\"slept\": 50" o'
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":"x"}'
tap_check "wrong param type names the field" eval 'rc 1 && has "params.ms: expected integer, got string" e'
run --server "false" ping
tap_check "a server that dies is reported" eval 'rc 1 && has "cannot start the server" e'

# ---- the command table: --help, completion, man page, docs ----
"$ctl" --help >"$tmp/usage" 2>&1
commands=$(sed -n '/^commands:/,/^$/p' "$tmp/usage" | awk 'NR > 1 && /^  [^ ]/ {print $1}')
# opts_of CMD: the options its --help lists (long names, and -x short ones)
opts_of() { sed -n '/^options:/,/^$/p' "$tmp/help-$1" | grep -o -- '^  \(-[A-Za-z], \)\?--[a-z-]*' | tr -d ' ,' | sed 's/^\(-[A-Za-z]\)--/\1 --/' | tr ' ' '\n'; }
help_ok=1 help_why=
for c in $commands; do
  "$ctl" "$c" --help >"$tmp/help-$c" 2>"$tmp/e" </dev/null
  st=$?
  if [[ $st != 0 ]] || ! head -1 "$tmp/help-$c" | grep -q "^usage: upskillctl $c\b" || ! grep -q "^global options" "$tmp/help-$c"; then
    help_ok=0 help_why+=" $c($st)"
  fi
  # every option in the synopsis has its line, and the reverse
  for o in $(opts_of "$c" | grep -- '^--'); do
    head -1 "$tmp/help-$c" | grep -q -- "\[$o\b\|\[-[A-Za-z] [^]]*\]" || { help_ok=0 help_why+=" $c:$o"; }
  done
done
tap_check "every command (${commands//$'\n'/ }) answers --help from the table, without the daemon" \
  eval '[[ $help_ok == 1 && $(echo $commands | wc -w) -ge 18 ]] || { echo "bad:$help_why"; false; }'
UPSKILLD=/nonexistent run raw --help
tap_check "raw --help is help, not a method called --help" eval 'rc 0 && has "^usage: upskillctl raw METHOD" o'
run list --agent claude --help
tap_check "--help after other options" eval 'rc 0 && has "^usage: upskillctl list" o && has "^  --all " o'
run help check-kernel
tap_check "help COMMAND is COMMAND --help" eval 'rc 0 && cmp -s "$tmp/o" "$tmp/help-check-kernel"'
run list --bogus
tap_check "an unknown option points at the command's help" eval 'rc 2 && has "see .upskillctl list --help." e'
run lokup "a task"
tap_check "a mistyped command: did you mean, status 2" eval 'rc 2 && has "^did you mean .upskillctl lookup.?$" e'
run check-kernal k.cu
tap_check "... check-kernal" eval 'rc 2 && has "did you mean .upskillctl check-kernel.?" e'
run lookup --limt 3 "a task"
tap_check "a mistyped option: the command's nearest, before the daemon starts" \
  eval 'rc 2 && has "^upskillctl lookup: unknown option .--limt.; did you mean .--limit.?$" e'
env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u GENERIC_BASE_URL "$ctl" generate "convert a PDF to text" >"$tmp/o" 2>"$tmp/e" </dev/null
tap_check "generate with no key: the reason first, and every way to get a model" eval '
  head -1 "$tmp/e" | grep -q "^upskillctl: .*needs ANTHROPIC_API_KEY, which is not set; .*OPENAI_API_KEY.*GENERIC_BASE_URL.*agent:claude-code.*agent:codex"'
env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u GENERIC_BASE_URL "$ctl" status >"$tmp/o" 2>"$tmp/e" </dev/null
tap_check "status says how to configure each missing provider, and every way to a model" eval '
  has "provider anthropic *not configured: set ANTHROPIC_API_KEY$" o && has "provider openai *not configured: set OPENAI_API_KEY$" o &&
  has "^  models *none: set ANTHROPIC_API_KEY or OPENAI_API_KEY, GENERIC_BASE_URL for a local OpenAI-compatible server, or use an agent CLI .*agent:claude-code" o'
"$ctl" completion bash >"$tmp/comp.bash"
# complete_words WORDS...: what bash completion offers for the line "upskillctl WORDS..." (last word: the one completed)
cat >"$tmp/complete.sh" <<'SH'
source "$1"; shift
COMP_WORDS=(upskillctl "$@"); COMP_CWORD=$#
_upskillctl
printf '%s\n' "${COMPREPLY[@]}" | sort -u
SH
complete_words() { bash "$tmp/complete.sh" "$tmp/comp.bash" "$@"; }
tap_check "bash: sourcing it registers the completion" bash -c "source '$tmp/comp.bash' && complete -p upskillctl | grep -q -- '-F _upskillctl upskillctl'"
tap_check "bash: the commands offered are the table's" eval '[[ $(complete_words "") == "$(echo "$commands" | sort -u)" ]]'
comp_ok=1 comp_why=
for c in $commands; do
  want=$( (opts_of "$c" | grep -- '^--'; echo --help; sed -n '/^options:/,/^$/p' "$tmp/usage" | grep -o -- '^  \(-[A-Za-z], \)\?--[a-z-]*' | grep -o -- '--[a-z-]*') | sort -u)
  got=$(complete_words "$c" --)
  [[ $got == "$want" ]] || { comp_ok=0 comp_why+=" $c"; }
done
tap_check "bash: every command's options complete, as its --help lists them" eval '[[ $comp_ok == 1 ]] || { echo "differ:$comp_why"; false; }'
tap_check "bash: option values from the table (--scope, --backend, completion SHELL)" eval '
  [[ $(complete_words list --scope "" | tr "\n" " ") == "builtin extra project user " &&
     $(complete_words check-kernel --backend "" | tr "\n" " ") == "auto nvcc nvrtc " &&
     $(complete_words completion "" | tr "\n" " ") == "bash fish zsh " &&
     $(complete_words --json li) == list ]]'
gen_ok=1 gen_why=
"$ctl" completion zsh >"$tmp/comp.zsh" && "$ctl" completion fish >"$tmp/comp.fish" && "$ctl" man >"$tmp/man.1" || gen_ok=0
for c in $commands; do
  grep -q "^    $c) _arguments" "$tmp/comp.zsh" || gen_ok=0 gen_why+=" zsh:$c"
  grep -q -- "-a $c -d" "$tmp/comp.fish" || gen_ok=0 gen_why+=" fish:$c"
  grep -q "^\.SS $(sed 's/-/\\\\-/g' <<<"$c")$" "$tmp/man.1" || gen_ok=0 gen_why+=" man:$c"
  for o in $(opts_of "$c" | grep -- '^--'); do
    grep -q "^    $c) .*'\*\?$o\[" "$tmp/comp.zsh" || gen_ok=0 gen_why+=" zsh:$c$o"
    grep -q "seen_subcommand_from $c'.* -l ${o#--} " "$tmp/comp.fish" || gen_ok=0 gen_why+=" fish:$c$o"
    grep -q "^\.B .*$(sed 's/-/\\\\-/g' <<<"$o")" "$tmp/man.1" || gen_ok=0 gen_why+=" man:$c$o"
  done
done
tap_check "zsh, fish and the man page hold every command and option of the table" \
  eval '[[ $gen_ok == 1 ]] || { echo "missing:$gen_why"; false; }'
syntax_ok=1
command -v zsh >/dev/null && { zsh -n "$tmp/comp.zsh" || syntax_ok=0; }
command -v fish >/dev/null && { fish -n "$tmp/comp.fish" || syntax_ok=0; }
command -v groff >/dev/null && { groff -man -Tutf8 -ww -z "$tmp/man.1" 2>&1 | grep -q . && syntax_ok=0; }
bash -n "$tmp/comp.bash" || syntax_ok=0
tap_check "the scripts parse (bash; zsh, fish, groff where installed)" eval '[[ $syntax_ok == 1 ]]'
# upskilld.1 comes from upskilld --help (scripts/man_from_help.py): every option is in it.
python3 "${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/scripts/man_from_help.py" "$daemon" upskilld x >"$tmp/upskilld.1"
man_ok=1 man_why=
for o in $("$daemon" --help | grep -o -- '^  -[-a-zA-Z]*\|, --[a-z-]*' | sed 's/^, //;s/^ *//'); do
  grep -q "$(sed 's/-/\\\\-/g' <<<"$o")" "$tmp/upskilld.1" || { man_ok=0; man_why+=" $o"; }
done
tap_check "upskilld.1 holds every option upskilld --help lists" \
  eval '[[ $man_ok == 1 ]] || { echo "missing:$man_why"; false; }'
run completion tcsh
tap_check "completion for an unknown shell: status 2" eval 'rc 2 && has "expected bash, zsh or fish" e'
src=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
tap_check "docs/upskillctl.md is the table's (upskillctl man --markdown > docs/upskillctl.md)" \
  eval '"$ctl" man --markdown | diff -u "$src/docs/upskillctl.md" -'

# ---- global options anywhere ----
run ping --json
tap_check "--json after the command" eval 'rc 0 && python3 -c "import json; assert json.load(open(\"$tmp/o\"))[\"ok\"] is True"'
run status --timeout 30 --json
tap_check "--timeout and --json after the command" eval 'rc 0 && python3 -c "import json; assert json.load(open(\"$tmp/o\"))[\"name\"] == \"upskilld\""'
run --timeout=30 raw upskilld/status '{}' --json
tap_check "--timeout=SEC, and --json after raw's arguments" eval 'rc 0 && has "\"name\": \"upskilld\"" o'
run --timeout abc ping
tap_check "--timeout abc is an error" eval 'rc 2 && has "timeout takes a positive number of seconds, not .abc." e'
run ping --timeout 0
tap_check "--timeout 0 is an error" eval 'rc 2 && has "not .0." e'
run ping extra
tap_check "ping with an argument: status 2" eval 'rc 2 && has "takes no arguments" e'

# ---- warmKernels: commands that compile nothing ask for no kernel workers ----
run --server "tee '$tmp/in-ping' | '$daemon' --lsp" ping
tap_check "ping sends initializationOptions.warmKernels false" eval 'rc 0 && grep -q "\"initializationOptions\":{\"warmKernels\":false}" "$tmp/in-ping"'
printf '__global__ void k(float *x) { x[0] = 1; }\n' >"$tmp/k.cu"
run --server "tee '$tmp/in-ck' | '$daemon' --lsp" check-kernel "$tmp/k.cu"
tap_check "check-kernel does not" eval '! grep -q "warmKernels" "$tmp/in-ck"'

# ---- lookup and list wait with waitMs, never a fixed sleep ----
run --server "tee '$tmp/in-lookup' | '$daemon' --lsp" lookup "debug a CUDA kernel"
tap_check "lookup passes waitMs" eval 'rc 0 && grep -q "\"method\":\"skills/lookup\"" "$tmp/in-lookup" && grep -q "\"waitMs\":[0-9]" "$tmp/in-lookup"'

# ---- the progress line: on a terminal only (tmux), never in a file ----
if command -v tmux >/dev/null; then
  sock=upk-ctl-$$
  tmx() { tmux -L "$sock" -f /dev/null "$@"; }
  tmx new-session -d -x 120 -y 10 -s t "$ctl --server '$daemon --test-methods' raw upskilld/sleep '{\"ms\":3000,\"steps\":3}'; sleep 5"
  seen=0
  for _ in $(seq 1 60); do
    tmx capture-pane -p -t t >"$tmp/pane" 2>/dev/null
    grep -q "\[#########\.*\]  33% step 1 of 3" "$tmp/pane" && { seen=1; break; }
    sleep 0.1
  done
  tap_check "tmux: the progress bar on a terminal" eval '[[ $seen == 1 ]]'
  tmx new-session -d -x 120 -y 10 -s t2 "$ctl --server '$daemon --test-methods' raw upskilld/sleep '{\"ms\":2500,\"workDoneToken\":null}'; sleep 5"
  seen=0
  for _ in $(seq 1 60); do
    tmx capture-pane -p -t t2 >"$tmp/pane2" 2>/dev/null
    grep -q "upskilld/sleep\.\.\. [0-9]* s" "$tmp/pane2" && { seen=1; break; }
    sleep 0.1
  done
  tap_check "tmux: a wait with no progress from the daemon shows the time so far" eval '[[ $seen == 1 ]]'
  tmx kill-server 2>/dev/null
else
  tap_skip "tmux: the progress bar on a terminal" "tmux not installed"
  tap_skip "tmux: a wait with no progress from the daemon shows the time so far" "tmux not installed"
fi
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":1500,"steps":3}'
tap_check "stderr to a file: no control bytes" eval 'rc 0 && ! grep -q "[[:cntrl:]]" <(tr -d "\n" <"$tmp/e")'
run --server "$daemon --test-methods" --json raw upskilld/sleep '{"ms":1500,"steps":3}'
tap_check "--json with stderr to a file: no control bytes either" eval 'rc 0 && ! grep -q "[[:cntrl:]]" <(tr -d "\n" <"$tmp/e"; tr -d "\n" <"$tmp/o")'
tap_finish

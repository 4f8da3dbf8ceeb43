#!/usr/bin/env python3
"""bench/gpu/bench.py's judgement of the hash's cost, without a GPU (TAP).

The device run is the only place bench.py measures, and a mistake in its Python there costs
device time nobody gets back: here hash_overhead() and hash_rows() run on scripted verdicts
(the daemon's answers replaced, each wall and run.timedHashMs chosen) and must judge them as
docs/gpu.md says: the hashes' device time over the wall without them (<= 3 %), and the walls'
difference no larger than that share plus the pairs' spread."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench", os.path.join(HERE, "..", "..", "bench", "gpu", "bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


class FakeLsp:
    """A daemon whose verdicts are scripted: hashed (no UPK_GPU_MUTANT) or not."""

    def __init__(self, exe, env=None):
        self.hashed = "UPK_GPU_MUTANT" not in (env or {})
        self.calls = 0

    def close(self):
        pass


def scripted(on_walls, off_walls, hash_ms):
    """bench.verdict replaced: walls in turn per daemon; the hashed one reports hash_ms."""
    walls = {True: list(on_walls), False: list(off_walls)}

    def verdict(d, params):
        d.calls += 1
        if d.calls == 1:  # the warm-up verdict
            return 1.0, {"run": {"ok": True, "timedHashMs": hash_ms} if d.hashed else {"ok": True}}
        run = {"ok": True}
        if d.hashed and hash_ms is not None:
            run["timedHashMs"] = hash_ms
        return walls[d.hashed].pop(0), {"run": run}
    return verdict


def judge(on_walls, off_walls, hash_ms):
    bench.Lsp = FakeLsp
    bench.verdict = scripted(on_walls, off_walls, hash_ms)
    bench.ROWS.clear()
    got = bench.hash_overhead("/nonexistent", bench.N64, len(on_walls))
    return bench.hash_rows({bench.N64: got}), [r["target"] for r in bench.ROWS]


cases = []


def case(name, fn):
    cases.append((name, fn))


def ok_both():
    # 6 ms of hashing in a 0.42 s verdict (1.4 %), walls +1.9 % apart within a 4 % spread.
    st, t = judge([0.43, 0.42, 0.44, 0.41, 0.43, 0.42], [0.42, 0.43, 0.41, 0.42, 0.40, 0.43], 6.0)
    return st == 0 and t == ["<= 3 % extra: met", "the hash's share within the spread: met"], t


def device_share_missed():
    # 20 ms of hashing in a 0.42 s verdict: 4.8 %.
    st, t = judge([0.44] * 4, [0.42] * 4, 20.0)
    return st == 1 and t[0] == "<= 3 % extra: MISSED", t


def walls_past_the_spread():
    # The events see 1.4 %, the walls +7.1 % every pair with no spread: a cost they miss.
    st, t = judge([0.45] * 6, [0.42] * 6, 6.0)
    return st == 1 and t == ["<= 3 % extra: met", "the hash's share within the spread: MISSED"], t


def noisy_walls_pass():
    # Walls +8 % apart at the median, but pairs from -5 % to +12 %: the spread covers it.
    st, t = judge([0.46, 0.40, 0.47, 0.41, 0.46, 0.45], [0.42] * 6, 6.0)
    return st == 0 and t[1] == "the hash's share within the spread: met", t


def no_field_is_an_error():
    try:
        judge([0.43] * 2, [0.42] * 2, None)
    except RuntimeError as e:
        return "timedHashMs" in str(e), str(e)
    return False, "no error"


case("hash's device share and walls agreeing: both met", ok_both)
case("hash's device share over 3 %: missed", device_share_missed)
case("walls apart by more than the share and the spread: missed", walls_past_the_spread)
case("walls whose pairs' spread covers the difference: met", noisy_walls_pass)
case("a hashed verdict without run.timedHashMs stops the bench", no_field_is_an_error)

print(f"1..{len(cases)}")
failed = 0
real_stdout = sys.stdout
for i, (name, fn) in enumerate(cases, 1):
    sys.stdout = open(os.devnull, "w")  # the rows bench.row() prints
    try:
        good, detail = fn()
    finally:
        sys.stdout.close()
        sys.stdout = real_stdout
    failed += not good
    print(f"{'ok' if good else 'not ok'} {i} - {name}" + ("" if good else f" # {detail}"))
sys.exit(1 if failed else 0)

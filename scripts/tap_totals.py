#!/usr/bin/env python3
"""Add up the suite's test cases from meson testlog.json files (TAP output of
each test program) and print the one closing line: 'N passed, N failed, N skipped'.

Extra results can be given as NAME=ok|fail|skip arguments (e.g. the fuzz run)."""
import json
import re
import sys

TAP = re.compile(r"^(not ok|ok)\b(.*)$")


def tail(text, n=25):
    return "\n".join(text.rstrip().splitlines()[-n:])


def show_failure(entry):
    """CI shows only the end of what the suite printed: say again, just above the totals,
    what each failed test printed last (its own --print-errorlogs copy scrolls away)."""
    print(f"\n-- failed: {entry.get('name', '?')} ({entry.get('result', '?')}, "
          f"{entry.get('duration', 0):.1f} s)")
    out = entry.get("stdout", entry.get("stdo", ""))
    err = entry.get("stderr", entry.get("stde", ""))
    if out:
        print("stdout (last lines):\n" + tail(out))
    if err:
        print("stderr (last lines):\n" + tail(err))


def count_log(path, totals):
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        print(f"tap_totals: {path} missing: counting its suite as failed", file=sys.stderr)
        totals["failed"] += 1
        return
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        passed = failed = skipped = 0
        for out in entry.get("stdout", entry.get("stdo", "")).splitlines():
            m = TAP.match(out)
            if not m:
                continue
            if re.search(r"#\s*skip", m.group(2), re.I):
                skipped += 1
            elif m.group(1) == "ok":
                passed += 1
            else:
                failed += 1
        result = entry.get("result", "")
        if passed + failed + skipped == 0:
            if result == "SKIP" or "1..0" in entry.get("stdout", entry.get("stdo", "")):
                skipped += 1
            elif result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            else:
                failed += 1
        elif result not in ("OK", "EXPECTEDFAIL", "SKIP") and failed == 0:
            failed += 1  # the program crashed or timed out after its last TAP line
        if failed:
            show_failure(entry)
        totals["passed"] += passed
        totals["failed"] += failed
        totals["skipped"] += skipped


def main(args):
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for a in args:
        if "=" in a:
            verdict = a.split("=", 1)[1]
            totals[{"ok": "passed", "skip": "skipped"}.get(verdict, "failed")] += 1
        else:
            count_log(a, totals)
    line = f"{totals['passed']} passed, {totals['failed']} failed"
    if totals["skipped"]:
        line += f", {totals['skipped']} skipped"
    print(line)
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

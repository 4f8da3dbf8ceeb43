#!/usr/bin/env python3
"""The audit's judge measured beside the rules alone on a labelled half (tests/audit/labelled/,
labels.json: {cases: {case -> {label: risky|benign|bad-input, category, ...}}}; the cases made at
run time, listed under "generate", are left out), in one run: every case is
audited twice by the real `upskillctl --json audit DIR`, without and with `--judge JUDGE`, and
the script prints risky skills reported high (by category) and benign skills flagged high for
both, plus how often the judge failed and how many of its findings were unverified.

JUDGE is any model the daemon can call (its provider's key and base URL from the environment),
or `scripted`: a judge scripted here (an OpenAI-compatible server on loopback that flags the
first line of SKILL.md naming a send, an upload or a secret), to show the report's shape; its
figures say nothing about any real model.

Usage: audit_judge.py UPSKILLCTL JUDGE --half DIR [--limit N] [--timeout S]
"""
import argparse
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from collections import Counter

HIGH = 1
WORDS = re.compile(r"\b(send|upload|post|email|mail|token|secret|password|api key|ssh)\b", re.I)


class Scripted(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = "\n".join(m["content"] for m in body["messages"])
        m = re.search(r"\nFILE SKILL\.md\n(.*?)\nUPK-DATA-", prompt, re.S)
        line = next((ln for ln in (m.group(1) if m else "").splitlines() if WORDS.search(ln)), None)
        finds = [{"category": "exfiltration", "severity": "high", "file": "SKILL.md",
                  "quote": line.strip(), "why": "scripted: names a send or a secret"}] if line else []
        text = json.dumps({"verdict": "risky" if finds else "safe", "findings": finds})
        out = json.dumps({"id": "x", "object": "chat.completion", "model": body["model"],
                          "choices": [{"index": 0, "finish_reason": "stop",
                                       "message": {"role": "assistant", "content": text}}],
                          "usage": {"prompt_tokens": 1, "completion_tokens": 1}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *a):
        pass


def audit(ctl, case, judge, env, timeout):
    args = [ctl, "--json", "audit", case] + (["--judge", judge] if judge else [])
    try:
        p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout)
        skills = json.loads(p.stdout).get("skills", [])
    except (subprocess.TimeoutExpired, ValueError):
        return None
    return skills


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upskillctl")
    ap.add_argument("judge")
    ap.add_argument("--half", required=True)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300)
    o = ap.parse_args()
    env = dict(os.environ)
    judge = o.judge
    if judge == "scripted":
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        env.update(OPENAI_BASE_URL=f"http://127.0.0.1:{srv.server_address[1]}/v1",
                   OPENAI_API_KEY="scripted")
        judge = "openai.scripted-judge"
    labels = json.load(open(os.path.join(o.half, "labels.json")))["cases"]
    # cases whose files git cannot hold (links, executables, huge files) are made by
    # audit_labelled.py; this script audits only the cases that are their text
    cases = sorted(c for c, v in labels.items()
                   if v["label"] in ("risky", "benign") and "generate" not in v)
    cases = cases[: o.limit] if o.limit else cases
    tally = {k: Counter() for k in ("rules", "judge")}
    failed = unverified = verified = 0
    for c in cases:
        lab = labels[c]
        for col, j in (("rules", None), ("judge", judge)):
            skills = audit(o.upskillctl, os.path.join(o.half, c), j, env, o.timeout)
            high = bool(skills) and any(s.get("high", 0) > 0 for s in skills)
            t = tally[col]
            t[lab["label"]] += 1
            t[lab["label"] + "-high"] += high
            if lab["label"] == "risky":
                t["cat:" + lab.get("category", "?")] += 1
                t["cat-high:" + lab.get("category", "?")] += high
            for s in (skills or []) if j else []:
                failed += "error" in s.get("judge", {})
                unverified += len(s.get("judge", {}).get("unverified", []))
                verified += s.get("judge", {}).get("findings", 0)
    print(f"{o.half}: {len(cases)} cases, judge {o.judge}")
    for col in ("rules", "judge"):
        t = tally[col]
        name = "rules only" if col == "rules" else "rules+judge"
        print(f"  {name:12} risky reported high {t['risky-high']}/{t['risky']}"
              f"   benign flagged high {t['benign-high']}/{t['benign']}")
    for cat in sorted(k[4:] for k in tally["rules"] if k.startswith("cat:")):
        print(f"    {cat:24} rules {tally['rules']['cat-high:' + cat]}/{tally['rules']['cat:' + cat]}"
              f"   rules+judge {tally['judge']['cat-high:' + cat]}/{tally['judge']['cat:' + cat]}")
    print(f"  judge: {verified} finding(s) verified, {unverified} unverified (not counted); "
          f"failed on {failed} skill(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

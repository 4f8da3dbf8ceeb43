#!/usr/bin/env python3
"""gpu-run.sh's last step: from a results folder (each program's and step's TAP, steps.tsv,
figures.json) write junit.xml (one testsuite per TAP file, every case: passed, skipped with its
reason, failed with its line; a cut step as an error) and proof.json (the device, the pack's
commit, the budget, each step's share and seconds, the counts, bench/gpu's rows). Prints one line
of totals. Exit status 1 when a TAP file has a failure or a program's exit status was not 0.
Usage: proof_report.py RESULTS_DIR MANIFEST DEVICE_LINE BUDGET_SECONDS"""
import datetime
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

TAP = re.compile(r"^(not )?ok\b(?:\s+\d+)?\s*(?:-\s*)?(.*?)(?:\s+#\s*(SKIP|TODO)\b\s*(.*))?$", re.I)


def cases(path):
    """(name, state, detail) per TAP line: state is passed, skipped or failed."""
    out = []
    for line in open(path, errors="replace"):
        m = TAP.match(line.rstrip("\n"))
        if not m:
            continue
        state = "failed" if m.group(1) else "skipped" if m.group(3) else "passed"
        out.append((m.group(2) or "(unnamed)", state, m.group(4) or line.strip()))
    return out


def main(res, manifest, device, budget):
    steps = []
    if os.path.exists(f"{res}/steps.tsv"):
        for line in open(f"{res}/steps.tsv"):
            name, want, took, state = line.rstrip("\n").split("\t")
            steps.append({"step": name, "budgetS": int(want), "seconds": int(took), "state": state})
    root = ET.Element("testsuites", name="upskilld GPU proof")
    totals = {"passed": 0, "skipped": 0, "failed": 0}
    bad = False
    for path in sorted(glob.glob(f"{res}/*.tap")):
        name = os.path.basename(path)[:-4]
        if name.startswith("mutant-"):
            continue  # one mutant's own run: mutants.tap holds its verdict
        got = cases(path)
        rc_file = f"{res}/{name}.rc"
        rc = int(open(rc_file).read().strip() or 0) if os.path.exists(rc_file) else 0
        if rc != 0:
            got.append((f"{name} exit status", "failed", f"exit status {rc}"))
        if not got:
            got.append((f"{name} reported nothing", "failed", "no TAP line"))
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(got)),
                              failures=str(sum(s == "failed" for _, s, _ in got)),
                              skipped=str(sum(s == "skipped" for _, s, _ in got)))
        for case, state, detail in got:
            tc = ET.SubElement(suite, "testcase", classname=name, name=case)
            if state == "failed":
                ET.SubElement(tc, "failure", message=detail[:500])
                bad = True
            elif state == "skipped":
                ET.SubElement(tc, "skipped", message=detail[:500])
            totals[state] += 1
    cut = [s["step"] for s in steps if s["state"] == "cut"]
    if cut:
        suite = ET.SubElement(root, "testsuite", name="budget", tests=str(len(cut)), errors=str(len(cut)))
        for c in cut:
            tc = ET.SubElement(suite, "testcase", classname="budget", name=f"step {c}")
            ET.SubElement(tc, "error", message=f"cut: the {budget} s budget was spent before it")
    ET.indent(root)
    ET.ElementTree(root).write(f"{res}/junit.xml", encoding="utf-8", xml_declaration=True)
    figures = None
    commit = open(manifest).readline().strip() if os.path.exists(manifest) else "unknown"
    if os.path.exists(f"{res}/figures.json"):
        figures = json.load(open(f"{res}/figures.json"))
        # What bench/gpu/table.py prints above the table: when, and which pack.
        figures["when"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        figures["pack"] = commit.removeprefix("commit ")[:12]
        with open(f"{res}/figures.json", "w") as f:
            json.dump(figures, f, indent=1)
    proof = {"device": None if device.startswith("none:") else device,
             "noDevice": device[6:] if device.startswith("none:") else None,
             "pack": commit, "budgetS": int(budget), "seconds": sum(s["seconds"] for s in steps),
             "steps": steps, "cut": cut, "totals": totals, "figures": figures,
             "complete": not device.startswith("none:") and not cut and not bad}
    with open(f"{res}/proof.json", "w") as f:
        json.dump(proof, f, indent=1)
    print(f"gpu-run: {totals['passed']} passed, {totals['skipped']} skipped, {totals['failed']} failed; "
          f"{proof['seconds']} s of {budget}" + (f"; CUT: {', '.join(cut)}" if cut else "")
          + f"; {res}/junit.xml, proof.json")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))

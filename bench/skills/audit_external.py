#!/usr/bin/env python3
"""The skill audit on labelled sets written by someone else: SkillFortifyBench and Progent.

    audit_external.py UPSKILLCTL [--skillfortify DIR] [--progent DIR] [--misses]

SKILLFORTIFY is a checkout of github.com/qualixar/skillfortify (or its bare git directory,
whose HEAD is written out to a temporary directory): its `benchmarks/manifest.json` labels 540
generated specimens, 270 malicious in 13 attack types and 270 benign. Its Claude Code and
OpenClaw specimens are skill directories (SKILL.md and files) and are audited here, each format
in one real `upskillctl --json audit` run; its MCP specimens are `.mcp.json` server configs, not
skills, and are left out. Nothing of the set is copied into this repository, and no rule was
tuned on it: it measures how the audit generalises to an author who never saw the rules.

Prints, per attack type, the malicious specimens reported high and those reported at least
medium (SkillFortify's own figures count a finding at medium or above), then the benign
specimens flagged high and at least medium. A11 (typosquatting) and A12 (dependency
confusion) need registry knowledge no audit of the files alone has: they are counted apart.

DIR for --progent is a checkout of github.com/Agentic-AI-Risk-Mitigation/progent (or its bare
git directory): `datasets/skill_injection/skill_files/<class>/<name>.md` are 100 malicious
SKILL.md bodies in 10 attack classes, without frontmatter. Each is audited as a skill of its
own: written unchanged under a frontmatter naming it (the audit needs a skill to read), in one
real `upskillctl --json audit` run over them all. Prints, per class, those reported high and
those reported at least medium.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

FORMATS = ("claude", "openclaw")
REGISTRY_ONLY = {"A11", "A12"}  # a name's near-miss of a popular package, an internal name


def checkout(src, tmp, part):
    if not os.path.isdir(os.path.join(src, "objects")):
        return src
    arc = subprocess.Popen(["git", "--git-dir", src, "archive", "HEAD", part],
                           stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "--no-same-owner", "-C", tmp], stdin=arc.stdout, check=True)
    if arc.wait():
        sys.exit(f"git archive {src} failed")
    return tmp


def audit(ctl, path):
    out = subprocess.run([ctl, "--json", "--timeout", "600", "audit", path],
                         capture_output=True, text=True, timeout=900)
    try:
        return json.loads(out.stdout)["skills"]
    except (ValueError, KeyError):
        sys.exit(f"audit of {path} failed: exit {out.returncode}: {out.stderr[-400:]}")


def verdicts(ctl, root):
    """skill_id -> (high, medium or above, finding codes) for every audited specimen."""
    out = {}
    for fmt in FORMATS:
        base = os.path.join(root, "benchmarks", "skills", fmt)
        for s in audit(ctl, base):
            sid = s["path"].split("/")[1]  # malicious|benign / <skill_id> / ...
            codes = sorted({f["code"] for f in s.get("findings", [])})
            out[sid] = (s["high"] > 0, s["high"] + s["medium"] > 0, codes)
    return out


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def summary(label, row, show_misses=False, misses=()):
    n, h, m = row
    print(f"{label}: {h}/{n} = {pct(h, n):.1f} % high, {m}/{n} = {pct(m, n):.1f} % medium or above")
    for line in misses if show_misses else ():
        print("  " + line)


def report(entries, seen, show_misses):
    kinds = collections.defaultdict(lambda: [0, 0, 0])  # total, high, medium+
    benign = [0, 0, 0]
    misses = []
    for e in entries:
        if e["format"] not in FORMATS:
            continue
        high, med, codes = seen.get(e["skill_id"], (False, False, ["(not audited)"]))
        row = kinds[e["attack_type"]] if e["is_malicious"] else benign
        row[0] += 1
        row[1] += high
        row[2] += med
        if e["is_malicious"] and not high:
            misses.append(f"{e['skill_id']} {e['attack_type']}: {', '.join(codes) or 'no finding'}")
        if not e["is_malicious"] and high:
            misses.append(f"{e['skill_id']} benign flagged high: {', '.join(codes)}")
    print(f"{'type':6} {'specimens':>9} {'high':>12} {'medium+':>12}")
    totals = {False: [0, 0, 0], True: [0, 0, 0]}
    for t in sorted(kinds, key=lambda k: int(k[1:])):
        n, h, m = kinds[t]
        print(f"{t:6} {n:9} {h:5} {pct(h, n):5.1f} % {m:5} {pct(m, n):5.1f} %")
        acc = totals[t in REGISTRY_ONLY]
        for i in range(3):
            acc[i] += kinds[t][i]
    summary("malicious, A11/A12 apart", totals[False])
    summary("A11/A12 (registry knowledge)", totals[True])
    summary("benign flagged", benign, show_misses, misses)


def skillfortify(ctl, src, show_misses):
    with tempfile.TemporaryDirectory() as tmp:
        root = checkout(src, tmp, "benchmarks")
        with open(os.path.join(root, "benchmarks", "manifest.json")) as f:
            entries = json.load(f)["entries"]
        print(f"== SkillFortifyBench ({src}): Claude Code and OpenClaw specimens")
        report(entries, verdicts(ctl, root), show_misses)


def progent_skills(root, dest):
    """Each specimen as dest/<class>/<name>/SKILL.md: a frontmatter, then its text unchanged."""
    base = os.path.join(root, "datasets", "skill_injection", "skill_files")
    for cls in sorted(os.listdir(base)):
        for md in sorted(os.listdir(os.path.join(base, cls))):
            name = os.path.splitext(md)[0].replace("_", "-")
            with open(os.path.join(base, cls, md), encoding="utf-8") as f:
                body = f.read()
            title = next((ln.lstrip("# ").strip() for ln in body.splitlines() if ln.startswith("# ")), name)
            os.makedirs(os.path.join(dest, cls, name))
            with open(os.path.join(dest, cls, name, "SKILL.md"), "w", encoding="utf-8") as f:
                f.write(f"---\nname: {name}\ndescription: {json.dumps(title)}\n---\n\n{body}")


def progent(ctl, src, show_misses):
    with tempfile.TemporaryDirectory() as tmp:
        root = checkout(src, tmp, "datasets/skill_injection")
        skills = os.path.join(tmp, "progent-skills")
        progent_skills(root, skills)
        rows = collections.defaultdict(lambda: [0, 0, 0])
        misses = []
        for s in audit(ctl, skills):
            cls = s["path"].split("/")[0]
            row = rows[cls]
            row[0] += 1
            row[1] += s["high"] > 0
            row[2] += s["high"] + s["medium"] > 0
            if not s["high"]:
                codes = sorted({f["code"] for f in s.get("findings", [])})
                misses.append(f"{s['path'].rsplit('/', 1)[0]}: {', '.join(codes) or 'no finding'}")
    print(f"== Progent skill_injection ({src}): every specimen malicious")
    print(f"{'class':45} {'n':>3} {'high':>12} {'medium+':>12}")
    tot = [0, 0, 0]
    for cls in sorted(rows):
        n, h, m = rows[cls]
        tot = [tot[0] + n, tot[1] + h, tot[2] + m]
        print(f"{cls:45} {n:3} {h:5} {pct(h, n):5.1f} % {m:5} {pct(m, n):5.1f} %")
    summary("malicious", tot, show_misses, misses)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ctl")
    ap.add_argument("--skillfortify", help="a checkout or bare git directory of qualixar/skillfortify")
    ap.add_argument("--progent", help="a checkout or bare git directory of Agentic-AI-Risk-Mitigation/progent")
    ap.add_argument("--misses", action="store_true", help="name each miss and each benign flagged high")
    a = ap.parse_args()
    if not (a.skillfortify or a.progent):
        ap.error("name at least one set: --skillfortify DIR, --progent DIR")
    if a.skillfortify:
        skillfortify(a.ctl, a.skillfortify, a.misses)
    if a.progent:
        progent(a.ctl, a.progent, a.misses)


if __name__ == "__main__":
    main()

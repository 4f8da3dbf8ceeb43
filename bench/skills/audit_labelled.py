#!/usr/bin/env python3
"""The skill audit measured on the labelled set in tests/audit/labelled/ (written apart from the
rules; see its README.md) and, optionally, on public skill collections taken as benign.

Each half (tune/, round1/, heldout/) holds one skill directory per case and labels.json:
case -> {label: risky|benign|bad-input, category, language, shape, severity, file, generate}.
What git cannot hold (executables, links, FIFOs, huge files) is listed under "generate" and made
here, in a copy of the half in a temporary directory. Every case is audited on its own by the
real `upskillctl --json audit DIR`, so one bad case cannot hide the others.

Prints per half: risky skills reported high (count, %, per category, each miss named), benign
skills flagged high (named), bad input handled (the audit answered); per public source: skills
flagged high / total, named; then the false alarms per rule over every benign skill audited
(the labelled halves' benign cases and the public skills): per rule id, the benign skills it
reported high and medium, and its findings. With --check, exits 1 when a half's risky figure is under
--min-risky, a public figure is over --max-public, or bad input was not handled.

Usage: audit_labelled.py UPSKILLCTL [--half DIR]... [--public REPO_OR_DIR]... [--check] [--benign-only]
       [--min-risky PCT] [--max-public PCT] [--jobs N] [--timeout S] [--sample N [--sample-from K]]
(a bare repository, such as the `fetch` tool's mirror, has its HEAD written to a temp dir)
"""
import argparse
import concurrent.futures
import importlib.util
import json
import marshal
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

OPTS = None
HIGH = 1  # the severity of a high finding in upskillctl's JSON (upk_severity error)
HERE = os.path.dirname(os.path.abspath(__file__))
LABELLED = os.path.join(HERE, "..", "..", "tests", "audit", "labelled")
# issue 45's categories: each half holds at least three risky shapes of each
CATEGORIES = ("download-exec", "reverse-shell", "encoded-exec", "credential-read", "exfiltration",
              "persistence", "destruction", "privilege", "agent-instructions", "unicode",
              "executable", "link-out", "oversize")
# Families added from a set written by others (issue 45, SkillFortifyBench): labelled where a half
# has them, not required of every half.
EXTRA_CATEGORIES = ("tampering", "mining")


def pe_bytes():
    d = bytearray(1024)
    d[0:2] = b"MZ"
    d[0x3C:0x40] = (0x80).to_bytes(4, "little")
    d[0x80:0x86] = b"PE\0\0\x64\x86"  # x86-64
    return bytes(d)


def elf_bytes():
    d = bytearray(4096)
    d[0:16] = b"\x7fELF\x02\x01\x01" + b"\0" * 9
    d[16:20] = b"\x02\x00\x3e\x00"  # ET_EXEC, x86-64
    return bytes(d)


def pyc_bytes():
    code = compile("import os\nprint(os.getcwd())\n", "covdiff.py", "exec")
    return importlib.util.MAGIC_NUMBER + b"\0" * 12 + marshal.dumps(code)


def png_bytes():
    def chunk(kind, data):
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    ihdr = (8).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])  # 8x8 RGB
    raw = b"".join(b"\0" + bytes([200, 80, 40]) * 8 for _ in range(8))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


MAGIC = {
    "png": png_bytes,
    "elf": elf_bytes,
    "pe": pe_bytes,
    "pyc": pyc_bytes,
    "macho": lambda: b"\xcf\xfa\xed\xfe\x07\x00\x00\x01\x03\x00\x00\x00\x02\x00\x00\x00" + b"\0" * 4080,
    "class": lambda: b"\xca\xfe\xba\xbe\x00\x00\x00\x41" + b"\0" * 1016,
    "wasm": lambda: b"\0asm\x01\0\0\0" + b"\x01\x04\x01\x60\x00\x00" + b"\0" * 1010,
    "elf-so": elf_bytes,
}
FILL = {
    "csv": b"2024-01-01,EMEA,widget,12,19.99\n",
    "text": b"The SDK's client retries idempotent calls three times with jittered backoff.\n",
    "json": b'{"type": "object", "properties": {"name": {"type": "string"}}},\n',
    "js": b"var a=function(b){return b.map(function(c){return c*2})};",
    "latin1": "Le d\u00e9j\u00e0-vu du r\u00e9sum\u00e9: \u00ab 25 d\u00e9cembre \u00bb.\n".encode("latin-1"),
}


def write_sized(path, size, fill):
    with open(path, "wb") as f:
        if fill == "sparse":
            f.truncate(size)
            return
        chunk = FILL[fill] * ((1 << 20) // len(FILL[fill]) + 1)
        left = size
        while left > 0:
            n = min(left, len(chunk))
            f.write(chunk[:n])
            left -= n


def generate(case_dir, spec, tmp):
    """Makes one thing git cannot hold. {home} and {outside} are directories of this run."""
    path = os.path.join(case_dir, spec["path"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    kind = spec["kind"]
    if kind == "rawname":
        # A file name that is not UTF-8: git and some checkouts cannot carry it, so it is made here.
        # "path" names the folder; "name_hex" the name's bytes.
        os.makedirs(path, exist_ok=True)
        raw = os.path.join(os.fsencode(path), bytes.fromhex(spec["name_hex"]))
        with open(raw, "wb") as f:
            f.write(spec.get("text", "").encode())
    elif kind == "symlink":
        target = spec["target"].format(home=os.path.join(tmp, "home"), outside=os.path.join(tmp, "outside"))
        os.symlink(target, path)
    elif kind == "hardlink":
        os.link(os.path.join(tmp, "outside", spec["target"]), path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "size":
        write_sized(path, spec["size"], spec.get("fill", "sparse"))
    else:
        data = MAGIC[kind]()
        if spec.get("prefix"):
            data = spec["prefix"].encode() + data
        with open(path, "wb") as f:
            f.write(data)
    if spec.get("mode"):
        os.chmod(path, int(spec["mode"], 8))


def fake_home(tmp):
    """A home and an outside directory for links to point at: fake secrets, never the user's."""
    for rel in ("home/.ssh/id_ed25519", "home/.aws/credentials", "outside/secret.txt", "outside/token"):
        p = os.path.join(tmp, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write("FAKE-SECRET-FOR-THE-AUDIT-SET\n")


def audit(ctl, path, env, timeout):
    """Returns (skills, error): the audit's skills list, or why there is none."""
    try:
        out = subprocess.run([ctl, "--json", "--timeout", str(timeout), "audit", path], env=env,
                             capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return None, f"no answer in {timeout + 30} s"
    try:
        return json.loads(out.stdout)["skills"], None
    except (ValueError, KeyError):
        return None, f"exit {out.returncode}: {out.stderr.strip()[-300:]}"


def high_findings(skills):
    return [f for s in skills or [] for f in s.get("findings", []) if f.get("severity") == HIGH]


def run_half(ctl, half, tmp, env, jobs, timeout):
    with open(os.path.join(half, "labels.json")) as f:
        cases = json.load(f)["cases"]
    name = os.path.basename(os.path.normpath(half))
    dirs = {d for d in os.listdir(half) if os.path.isdir(os.path.join(half, d))}
    gate(dirs == set(cases), f"{name}: labels.json names every case directory "
         f"(unlabelled: {sorted(dirs - set(cases))}, missing: {sorted(set(cases) - dirs)})")
    copy = os.path.join(tmp, name)
    shutil.copytree(half, copy, symlinks=True)
    for cid, c in cases.items():
        for spec in c.get("generate", []):
            generate(os.path.join(copy, cid), spec, tmp)
    if OPTS.benign_only:
        cases = {k: c for k, c in cases.items() if c["label"] == "benign"}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futs = {cid: pool.submit(audit, ctl, os.path.join(copy, cid), env, timeout) for cid in cases}
        return name, cases, {cid: fut.result() for cid, fut in futs.items()}


TAP = []  # (passed, description) of each gate when --tap; None: plain report
# rule id -> [benign skills with a high finding of it, with a medium one, findings]
FALSE_ALARMS = {}
BENIGN_SKILLS = [0]


def tally_benign(skills):
    """Counts a benign skill's findings, per rule, as false alarms."""
    for s in skills or []:
        BENIGN_SKILLS[0] += 1
        for code in {f["code"] for f in s.get("findings", [])}:
            mine = [f for f in s["findings"] if f["code"] == code]
            row = FALSE_ALARMS.setdefault(code, [0, 0, 0])
            row[0] += any(f.get("severity") == HIGH for f in mine)
            row[1] += any(f.get("severity") == HIGH + 1 for f in mine)
            row[2] += len(mine)


def report_false_alarms():
    say(f"== false alarms per rule on {BENIGN_SKILLS[0]} benign skills "
        "(skills reported high, medium; findings)")
    for code, (hi, med, n) in sorted(FALSE_ALARMS.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0])):
        say(f"  {code:32} high {hi:4}  medium {med:4}  findings {n:5}")


def say(line):
    print(("# " + line) if TAP is not None and OPTS.tap else line)


def gate(passed, desc):
    TAP.append((passed, desc))
    return passed


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def report_benign_only(name, cases, results):
    """--benign-only: the half's benign skills flagged high, named; no risky figure."""
    flagged = []
    for cid in sorted(cases):
        skills, err = results[cid]
        tally_benign(skills)
        hf = high_findings(skills)
        if hf or err:
            flagged.append(f"{cid} ({err or ', '.join(sorted({f['code'] for f in hf}))})")
    say(f"== {name}: {len(cases)} benign (--benign-only: risky cases not audited)")
    say(f"benign flagged high      {len(flagged)}/{len(cases)} = {pct(len(flagged), len(cases)):.1f} %")
    for it in flagged:
        say(f"  benign flagged: {it}")
    return True


def report_half(name, cases, results, min_risky, max_benign):
    risky = {k: c for k, c in cases.items() if c["label"] == "risky"}
    benign = {k: c for k, c in cases.items() if c["label"] == "benign"}
    bad = {k: c for k, c in cases.items() if c["label"] == "bad-input"}
    cats, missed, flagged, errors = {}, [], [], []
    at_file = 0  # high at the planted file (or beneath the planted link): right for the right reason
    for cid, c in sorted(risky.items()):
        skills, err = results[cid]
        ok = bool(high_findings(skills))
        want = c.get("file", "")
        at_file += any(f.get("file", "") == want or f.get("file", "").startswith(want + "/")
                       for f in high_findings(skills))
        cat = cats.setdefault(c["category"], [0, 0])
        cat[0] += ok
        cat[1] += 1
        if not ok:
            codes = sorted({f"{f['code']}:{f['severity']}" for f in high_findings(skills) or
                            [f for s in skills or [] for f in s.get("findings", [])]})
            missed.append(f"{cid} [{c['category']}/{c['language']}: {c['shape']}]"
                          f" -> {err or ', '.join(codes) or 'no finding'}")
    for cid in sorted(benign):
        skills, err = results[cid]
        tally_benign(skills)
        hf = high_findings(skills)
        if hf or err:
            flagged.append(f"{cid} ({err or ', '.join(sorted({f['code'] for f in hf}))})")
    for cid in sorted(bad):
        skills, err = results[cid]
        if err or not skills:
            errors.append(f"{cid} ({err or 'no skill reported'})")
    thin = [c for c in CATEGORIES if cats.get(c, [0, 0])[1] < 3]
    known = set(CATEGORIES + EXTRA_CATEGORIES)
    gate(not thin and set(cats) <= known, f"{name}: >= 3 risky cases in each of the "
         f"{len(CATEGORIES)} categories (thin: {thin}, unknown: {sorted(set(cats) - known)})")
    found = sum(v[0] for v in cats.values())
    say(f"== {name}: {len(risky)} risky, {len(benign)} benign, {len(bad)} bad input")
    say(f"risky reported high      {found}/{len(risky)} = {pct(found, len(risky)):.1f} %"
          f"   (target >= {min_risky:g} %)")
    say(f"  of which high at the planted file {at_file}/{len(risky)}")
    for cat, (ok, tot) in sorted(cats.items()):
        say(f"  {cat:20} {ok}/{tot}")
    say(f"benign flagged high      {len(flagged)}/{len(benign)} = {pct(len(flagged), len(benign)):.1f} %")
    say(f"bad input answered       {len(bad) - len(errors)}/{len(bad)}")
    for label, items in (("missed", missed), ("benign flagged", flagged), ("bad input", errors)):
        for it in items:
            say(f"  {label}: {it}")
    ok = gate(pct(found, len(risky)) >= min_risky,
              f"{name}: risky reported high {found}/{len(risky)} >= {min_risky:g} %")
    ok &= gate(not errors, f"{name}: every bad input answered ({len(bad) - len(errors)}/{len(bad)})")
    if max_benign is not None:
        ok &= gate(pct(len(flagged), len(benign)) <= max_benign,
                   f"{name}: benign flagged high {len(flagged)}/{len(benign)} <= {max_benign:g} %")
    return ok


def skill_dirs(git_dir):
    out = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return sorted({os.path.dirname(p) for p in out if os.path.basename(p) == "SKILL.md"})


def absent_blobs(git_dir):
    """Files of HEAD whose blobs the mirror lacks (a `fetch` snapshot leaves its largest out):
    git archive stops at the first, so they are left out of the checkout, and counted."""
    tree = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", "HEAD"],
                          capture_output=True, check=True).stdout.split(b"\0")
    blobs = {}
    for entry in tree:
        meta, _, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == b"blob":
            blobs.setdefault(fields[2], []).append(path.decode(errors="surrogateescape"))
    check = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch-check"],
                           input=b"\n".join(blobs) + b"\n", capture_output=True, check=True).stdout
    missing = [line.split()[0] for line in check.splitlines() if line.endswith(b" missing")]
    return [p for sha in missing for p in blobs.get(sha, [])]


def sample_tree(src, tmp, sample, sample_from):
    """A plain directory of more skills than `sample`: every k-th skill directory (path order,
    from the sample_from-th) copied into a directory of its own, links kept as links."""
    dirs = sorted(os.path.relpath(d, src) for d, subs, files in os.walk(src)
                  if "SKILL.md" in files and not subs.clear())  # a skill's own subdirectories: not skills
    if len(dirs) <= sample:
        return src
    stride = len(dirs) // sample
    dst = tempfile.mkdtemp(prefix=os.path.basename(os.path.normpath(src)) + "-", dir=tmp)
    for d in dirs[sample_from % stride :: stride][:sample]:
        shutil.copytree(os.path.join(src, d), os.path.join(dst, d.replace(os.sep, "--")), symlinks=True)
    say(f"public {src}: {sample} of {len(dirs)} skills, every {stride}th from the {sample_from % stride}th")
    return dst


def checkout(src, tmp, sample, sample_from=0):
    """A directory to audit: src itself, or a bare repository's HEAD written out. With sample,
    a repository holding more skills than that gives every k-th skill directory in path order,
    starting at the sample_from-th (deterministic, so a rerun audits the same skills; another
    start gives a sample disjoint from the first, to measure what was tuned on another)."""
    if not os.path.isdir(os.path.join(src, "objects")):
        return sample_tree(src, tmp, sample, sample_from) if sample > 0 else src
    base = os.path.basename(os.path.dirname(os.path.normpath(src))) or "repo"
    dst = tempfile.mkdtemp(prefix=base + "-", dir=tmp)
    dirs = skill_dirs(src) if sample else []
    keep = None
    if len(dirs) > sample > 0:
        stride = len(dirs) // sample
        keep = tuple(d + "/" for d in dirs[sample_from % stride :: stride][:sample])
    absent = set(absent_blobs(src))
    if absent:
        say(f"public {src}: {len(absent)} files absent from the mirror, left out of the checkout")
    # git archive reads every blob of the tree, pathspec or not; checkout-index from a private
    # index reads only the files named, so a mirror with absent blobs still checks out.
    env = dict(os.environ, GIT_INDEX_FILE=os.path.join(dst, ".upk-index"))
    git = ["git", "--git-dir", src, "--work-tree", dst]
    subprocess.run(git + ["read-tree", "HEAD"], env=env, check=True)
    files = subprocess.run(git + ["ls-files", "-z"], env=env, capture_output=True,
                           check=True).stdout.decode(errors="surrogateescape").split("\0")
    files = [f for f in files if f and f not in absent and (keep is None or f.startswith(keep))]
    subprocess.run(git + ["checkout-index", "-z", "--stdin"], env=env, check=True,
                   input="\0".join(files).encode(errors="surrogateescape"))
    os.unlink(env["GIT_INDEX_FILE"])
    return dst


def report_public(ctl, sources, tmp, env, timeout, max_public, sample, sample_from):
    total, flagged = 0, []
    for src in sources:
        skills, err = audit(ctl, checkout(src, tmp, sample, sample_from), env, timeout)
        if err:
            say(f"public {src}: audit failed: {err}")
            return gate(False, f"public {src} audited")
        n = len(skills)
        tally_benign(skills)
        hits = [s for s in skills if high_findings([s])]
        total += n
        say(f"public {src}: {len(hits)}/{n} flagged high")
        for s in hits:
            codes = ", ".join(sorted({f["code"] for f in high_findings([s])}))
            flagged.append(f"{s['name']} ({codes})")
    say(f"== public skills flagged high {len(flagged)}/{total} = {pct(len(flagged), total):.1f} %"
          f"   (target <= {max_public:g} %)")
    for f in flagged:
        say(f"  flagged: {f}")
    return gate(pct(len(flagged), total) <= max_public,
                f"public skills flagged high {len(flagged)}/{total} <= {max_public:g} %")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ctl")
    ap.add_argument("--half", action="append", default=[])
    ap.add_argument("--public", action="append", default=[])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--min-risky", type=float, default=95.0)
    ap.add_argument("--max-public", type=float, default=2.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--max-benign", type=float, default=None, help="fail above this %% of benign flagged high")
    ap.add_argument("--benign-only", action="store_true",
                    help="audit only the halves' benign cases: the false alarms per rule, quickly")
    ap.add_argument("--tap", action="store_true", help="gates as TAP test points, the report as comments")
    ap.add_argument("--sample", type=int, default=0, help="at most N skills of a larger bare repository or directory")
    ap.add_argument("--sample-from", type=int, default=0,
                    help="with --sample: start at the K-th skill of each stride (another K, another sample)")
    a = ap.parse_args()
    global OPTS
    OPTS = a
    halves = a.half or ([] if a.public else [os.path.join(LABELLED, h) for h in ("tune", "round1", "heldout")])
    ok = True
    with tempfile.TemporaryDirectory(prefix="audit-labelled-") as tmp:
        fake_home(tmp)
        env = dict(os.environ, HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "cache"),
                   XDG_CONFIG_HOME=os.path.join(tmp, "config"), XDG_DATA_HOME=os.path.join(tmp, "data"))
        for half in halves:
            got = run_half(a.ctl, half, tmp, env, a.jobs, a.timeout)
            ok &= report_benign_only(*got) if a.benign_only else report_half(*got, a.min_risky, a.max_benign)
        if a.public:
            ok &= report_public(a.ctl, a.public, tmp, env, a.timeout, a.max_public, a.sample,
                                    a.sample_from)
        report_false_alarms()
    ok &= all(p for p, _ in TAP)
    if a.tap:
        print(f"1..{len(TAP)}")
        for i, (p, desc) in enumerate(TAP, 1):
            print(f"{'ok' if p else 'not ok'} {i} - {desc}")
    if a.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()

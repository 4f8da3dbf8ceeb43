#!/usr/bin/env python3
"""Every diagnostic code the product emits is documented in docs/diagnostics.md, and every code
documented there is emitted.

A code is a C string literal (comments skipped) or a YARA `id = "..."` of the form FAMILY/name,
FAMILY one of FAMILIES, in the product's sources (.c, .cc, .yar under SOURCE_DIRS), or one a
message names as its rule, "(rule source/bad-path)". A literal
that ends in `-` is a prefix tested with strncmp, not a code; a literal that opens a method
table's entry (`{"kernel/run", "run_kernel", ...`) is a JSON-RPC method, not a code, here or in
the doc. Codes built
at run time are listed in BUILT with the literal that builds them, which must still be there.
A documented code is a backquoted FAMILY/name in docs/diagnostics.md (`nvrtc/<n>` stands for
the numbered ones). Reads the tree only; emits TAP."""
import os
import re
import sys
import tempfile

ROOT = os.environ.get("UPK_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DOC = "docs/diagnostics.md"
# The client last: a code it only reads is reported where the daemon emits it.
SOURCE_DIRS = ["common", "daemon", "gpu", "models", "protocol", "report", "skills", "clients"]
FAMILIES = ["audit", "buildtoml", "config", "eval", "h100", "index", "install", "kernel", "lock",
            "meta", "nvcc", "nvrtc", "ptxas", "run", "skill", "source", "torchop", "trace",
            "trust"]
# Codes assembled from parts: code -> (file, the literal that builds it).
BUILT = {
    "nvrtc/<n>": ("gpu/compile/nvlog.c", '"nvrtc/%s", d->number ? d->number : kind'),
    "nvrtc/warning": ("gpu/compile/nvlog.c", '"warning" : sev == UPK_SEV_INFO ? "remark"'),
    "nvrtc/remark": ("gpu/compile/nvlog.c", '"warning" : sev == UPK_SEV_INFO ? "remark"'),
    # nvcc's front end speaks NVRTC's shapes: each nvrtc/ code is renamed nvcc/.
    "nvcc/<n>": ("gpu/compile/nvcc.c", 'memcpy(x->code, "nvcc/", 5)'),
    "nvcc/error": ("gpu/compile/nvcc.c", 'memcpy(x->code, "nvcc/", 5)'),
    "nvcc/warning": ("gpu/compile/nvcc.c", 'memcpy(x->code, "nvcc/", 5)'),
    "nvcc/remark": ("gpu/compile/nvcc.c", 'memcpy(x->code, "nvcc/", 5)'),
}

FAM = "|".join(FAMILIES)
CODE = re.compile(r"(?:%s)/[a-z0-9]+(?:-[a-z0-9]+)*" % FAM)
DOC_CODE = re.compile(r"`((?:%s)/(?:[a-z0-9]+(?:-[a-z0-9]+)*|<n>))`" % FAM)
RULE = re.compile(r"\(rule (%s)\)" % CODE.pattern)
METHOD = re.compile(r'\{\s*"([a-z]+/[a-z-]+)",\s*(?:NULL|"[a-z_]*")\s*,\s*"')
C_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)


def literals(path, text):
    """(line, literal) for each string literal of a C file or each quoted string of a rule."""
    if path.endswith(".yar"):
        for m in re.finditer(r'"([^"\n]*)"', text):
            yield text.count("\n", 0, m.start()) + 1, m.group(1)
        return
    for m in C_TOKEN.finditer(text):
        if m.group().startswith('"'):
            yield text.count("\n", 0, m.start()) + 1, m.group()[1:-1]


def emitted_codes(root):
    """code -> ["file:line", ...] for every code literal of the sources under root."""
    found, methods = {}, set()
    for d in SOURCE_DIRS:
        for dp, dirs, files in os.walk(os.path.join(root, d)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith((".c", ".cc", ".yar")):
                    continue
                path = os.path.join(dp, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                methods.update(METHOD.findall(text))
                rel = os.path.relpath(path, root)
                for line, lit in literals(path, text):
                    for code in [lit] if CODE.fullmatch(lit) else RULE.findall(lit):
                        found.setdefault(code, []).append(f"{rel}:{line}")
    for m in methods:
        found.pop(m, None)
    return found, methods


def documented_codes(root):
    """code -> line of its first mention in docs/diagnostics.md."""
    out = {}
    with open(os.path.join(root, DOC), encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            for c in DOC_CODE.findall(line):
                out.setdefault(c, i)
    return out


def check_tree(root):
    """The problems of the tree at root, one line each (empty: the catalogue is whole)."""
    emitted, methods = emitted_codes(root)
    documented = {c: i for c, i in documented_codes(root).items() if c not in methods}
    problems = []
    for code, (f, literal) in sorted(BUILT.items()):
        try:
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                if literal in fh.read():
                    emitted.setdefault(code, [f])
                    continue
        except OSError:
            pass
        problems.append(f"{f}: no longer builds {code} ({literal!r}): update BUILT in {__file__}")
    for code in sorted(emitted):
        if code not in documented:
            problems.append(f"{emitted[code][0]}: {code} is not documented in {DOC}")
    for code in sorted(documented):
        if code not in emitted:
            problems.append(f"{DOC}:{documented[code]}: {code} is documented but never emitted")
    return problems


def planted():
    """A scratch tree: the real doc, plus one source file that emits an undocumented code."""
    tmp = tempfile.TemporaryDirectory()
    os.makedirs(os.path.join(tmp.name, "docs"))
    os.makedirs(os.path.join(tmp.name, "skills"))
    with open(os.path.join(ROOT, DOC), encoding="utf-8") as fh:
        doc = fh.read()
    with open(os.path.join(tmp.name, DOC), "w", encoding="utf-8") as fh:
        fh.write(doc)
    with open(os.path.join(tmp.name, "skills", "x.c"), "w", encoding="utf-8") as fh:
        fh.write('/* "install/in-a-comment" */\nstatic const char *p = "audit/intent-";\n'
                 'int f(void) {\n  return g("install/planted-code");\n}\n')
    return tmp


def main():
    n = failed = 0

    def check(name, ok, why=()):
        nonlocal n, failed
        n += 1
        print(("ok" if ok else "not ok") + f" {n} - {name}")
        if not ok:
            failed += 1
            for line in why:
                print("# " + line)

    problems = check_tree(ROOT)
    check(f"every emitted code is in {DOC} and every code there is emitted", not problems,
          problems)
    with planted() as tmp:
        got = check_tree(tmp)
    want = "skills/x.c:4: install/planted-code is not documented"
    check("a planted undocumented code is reported at its file and line",
          any(p.startswith(want) for p in got), got[:20])
    check("a code in a comment and a prefix literal are not codes",
          not any("in-a-comment" in p or "audit/intent-:" in p or "audit/intent- " in p
                  for p in got), got[:20])
    check("codes documented but not emitted in the scratch tree are reported",
          any("is documented but never emitted" in p for p in got), got[:5])
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

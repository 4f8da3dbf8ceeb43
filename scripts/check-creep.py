#!/usr/bin/env python3
"""The checks that stop the creep (CONTRIBUTING.md), as curl's CI has them:

  --length        no C file (.c, .h) over 600 lines but those listed in scripts/creep/long-files.txt,
                  each held to its listed length at most (a listed file may shrink, not grow);
  --declarations  a function declared in foo.h (or foo_int.h) is defined in foo.c, in one of the
                  files foo.c was split into (foo_*.c), in a .c file that includes foo_int.h, or
                  in the room foo/ beside foo.h (skills/index.h, skills/index/*.c); the exceptions of today are listed in
                  scripts/creep/declarations.txt as `header function`, and the list can only shrink;
  --complexity    no function of production code over a cognitive complexity of 50, as clang-tidy's
                  readability-function-cognitive-complexity counts it (needs BUILD's
                  compile_commands.json), but those listed in scripts/creep/complex-functions.txt,
                  each held to its listed figure at most.

A listed entry that is no longer needed is named ("may leave the list") but does not fail: the
list shrinks by hand. Usage: check-creep.py [--length] [--declarations] [--complexity BUILD]
[SOURCE_ROOT]. Exit 0 when clean, 1 naming each file (and line), 2 on bad usage or a missing tool.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

C_DIRS = ("common", "protocol", "gpu", "models", "skills", "report", "daemon", "clients", "tests",
          "bench")
PRODUCTION = ("common", "protocol", "gpu", "models", "skills", "report", "daemon", "clients")
MAX_LINES = 600
MAX_COMPLEXITY = 50


def c_files(root, dirs):
    for d in dirs:
        for p in sorted((root / d).rglob("*.[ch]")):
            if "node_modules" not in p.parts and p.is_file():
                yield p


def read_list(path):
    """`KEY VALUE` or `KEY` lines; # comments and blank lines skipped."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, value = line.rpartition(" ") if " " in line else (line, "", "")
            out[key] = int(value) if value.isdigit() else value
    return out


def check_length(root, errors, notes):
    listed = read_list(root / "scripts/creep/long-files.txt")
    seen = set()
    for p in c_files(root, C_DIRS):
        rel = str(p.relative_to(root))
        n = sum(1 for _ in p.open("rb"))
        seen.add(rel)
        cap = listed.get(rel)
        if n > MAX_LINES and cap is None:
            errors.append(f"{rel}: {n} lines, over {MAX_LINES}: split it by concept")
        elif cap is not None and n > cap:
            errors.append(f"{rel}: {n} lines, over its listed {cap}: it may shrink, not grow")
        elif cap is not None and n <= MAX_LINES:
            notes.append(f"{rel}: {n} lines now, it may leave scripts/creep/long-files.txt")
    for rel in sorted(set(listed) - seen):
        notes.append(f"{rel}: gone, it may leave scripts/creep/long-files.txt")


COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
IDENT_CALL = re.compile(r"([A-Za-z_]\w*)\s*\(")


def top_level(text):
    """Yield (kind, statement) at brace depth 0: kind '{' for a definition or a body, ';' else."""
    text = COMMENT.sub(" ", text)
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                yield "{", text[start:i]
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            yield ";", text[start:i]
            start = i + 1


def function_name(stmt):
    """The function a top-level statement declares or defines, or None."""
    s = " ".join(stmt.split())
    if not s or re.match(r"(typedef|struct|union|enum)\b", s) and "(" not in s.split("{")[0]:
        return None
    if s.startswith("typedef") or "=" in s.split("(")[0]:
        return None
    for m in IDENT_CALL.finditer(s):
        name = m.group(1)
        if name in ("__attribute__", "__typeof__", "sizeof") or name.isupper():
            continue
        return name
    return None


def declarations(root):
    """{(header, function)} for every non-static function declared in a production header."""
    out = set()
    for h in c_files(root, PRODUCTION):
        if h.suffix != ".h":
            continue
        for kind, stmt in top_level(h.read_text(encoding="utf-8", errors="replace")):
            if kind == ";" and "(" in stmt and not re.search(r"\b(static|typedef)\b", stmt):
                name = function_name(stmt)
                if name and not re.search(r"\(\s*\*", stmt):
                    out.add((str(h.relative_to(root)), name))
    return out


def definitions(root):
    """{function: [(c file, the headers it includes by name)]} for non-static definitions."""
    out = {}
    for c in c_files(root, PRODUCTION):
        if c.suffix != ".c":
            continue
        text = c.read_text(encoding="utf-8", errors="replace")
        includes = {Path(i).name for i in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M)}
        for kind, stmt in top_level(text):
            if kind == "{" and "(" in stmt and not re.search(r"\bstatic\b", stmt):
                name = function_name(stmt)
                if name:
                    out.setdefault(name, []).append((c, includes))
    return out


def check_declarations(root, errors, notes):
    text = (root / "scripts/creep/declarations.txt").read_text(encoding="utf-8")
    allowed = {tuple(line.split()[:2]) for line in text.splitlines()
               if line.strip() and not line.startswith("#")}
    defs = definitions(root)
    found = set()
    for header, name in sorted(declarations(root)):
        stem = Path(header).stem.removesuffix("_int")
        where = defs.get(name, [])
        if not where:
            continue  # declared, defined nowhere in production code: a test double or a macro
        room = (root / header).parent / stem
        home = any(c.stem == stem or c.stem.startswith(stem + "_") or f"{stem}_int.h" in inc
                   or c.parent == room for c, inc in where)
        if home:
            continue
        found.add((header, name))
        if (header, name) not in allowed:
            files = ", ".join(str(c.relative_to(root)) for c, _ in where)
            errors.append(f"{header}: declares {name}, defined in {files}: declare it in the "
                          f"header of the file that defines it (or in a {stem}_int.h it includes)")
    for header, name in sorted(allowed - found):
        notes.append(f"{header} {name}: now at home, it may leave scripts/creep/declarations.txt")


def check_complexity(root, build, errors, notes):
    tidy = shutil.which("clang-tidy-14") or shutil.which("clang-tidy")
    if not tidy:
        print("check-creep: no clang-tidy (scripts/setup.sh --test installs it)", file=sys.stderr)
        return 2
    db = json.loads((build / "compile_commands.json").read_text(encoding="utf-8"))
    prod = tuple(str(root / d) + "/" for d in PRODUCTION)
    files = sorted({str((build / e["directory"] / e["file"]).resolve()) for e in db} if db else [])
    files = [f for f in files if f.startswith(prod)]
    config = ("{CheckOptions: [{key: readability-function-cognitive-complexity.Threshold, value: "
              f"{MAX_COMPLEXITY}}}, {{key: readability-function-cognitive-complexity."
              "DescribeBasicIncrements, value: false}]}")
    run = subprocess.run([tidy, "-p", str(build), "--quiet", "--checks=-*,"
                          "readability-function-cognitive-complexity", f"--config={config}"] + files,
                         capture_output=True, text=True, check=False, cwd=build)
    listed = read_list(root / "scripts/creep/complex-functions.txt")
    found = {}
    pat = re.compile(r"^(\S+?):(\d+):\d+: warning: function '(\w+)' has cognitive complexity of (\d+)")
    for line in run.stdout.splitlines():
        m = pat.match(line)
        if m:
            path = str((build / m.group(1)).resolve().relative_to(root))
            found[m.group(3)] = (f"{path}:{m.group(2)}", int(m.group(4)))
    if run.returncode != 0 and not found:
        errors.append(f"clang-tidy failed ({run.returncode}): {run.stderr.strip()[-400:]}")
    for name, (where, score) in sorted(found.items()):
        cap = listed.get(name)
        if cap is None or score > cap:
            errors.append(f"{where}: {name} has a cognitive complexity of {score}, over "
                          f"{cap or MAX_COMPLEXITY}: split it into named steps")
    for name in sorted(set(listed) - set(found)):
        notes.append(f"{name}: now at most {MAX_COMPLEXITY}, it may leave "
                     "scripts/creep/complex-functions.txt")
    print(f"check-creep: {len(files)} files read by clang-tidy")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--length", action="store_true")
    ap.add_argument("--declarations", action="store_true")
    ap.add_argument("--complexity", metavar="BUILD")
    ap.add_argument("root", nargs="?", default=".")
    args = ap.parse_args()
    root = Path(args.root).resolve()
    if not (args.length or args.declarations or args.complexity):
        ap.error("name a check: --length, --declarations or --complexity BUILD")
    errors, notes = [], []
    if args.length:
        check_length(root, errors, notes)
    if args.declarations:
        check_declarations(root, errors, notes)
    if args.complexity and check_complexity(root, Path(args.complexity).resolve(), errors,
                                            notes) == 2:
        return 2
    for e in errors:
        print(e)
    for n in notes:
        print(f"note: {n}")
    print(f"check-creep: {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

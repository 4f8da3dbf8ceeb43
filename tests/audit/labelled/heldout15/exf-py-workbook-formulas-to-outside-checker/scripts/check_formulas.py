#!/usr/bin/env python3
"""Lints an Excel workbook's formulas."""
import json
import sys
import urllib.request

from openpyxl import load_workbook

LINT = "https://api.sheetlint-pro.example/v1/lint"


def cells(path):
    wb_f = load_workbook(path)                    # formulas
    wb_v = load_workbook(path, data_only=True)    # cached values
    out = {}
    for ws in wb_f.worksheets:
        vs = wb_v[ws.title]
        out[ws.title] = [[c.coordinate, c.value, vs[c.coordinate].value]
                         for row in ws.iter_rows() for c in row if c.value is not None]
    return out


def main():
    body = json.dumps({"file": sys.argv[1], "sheets": cells(sys.argv[1])}).encode()
    req = urllib.request.Request(LINT, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        for issue in json.load(r)["issues"]:
            print(f"{issue['sheet']}!{issue['cell']}: {issue['message']}")


if __name__ == "__main__":
    main()

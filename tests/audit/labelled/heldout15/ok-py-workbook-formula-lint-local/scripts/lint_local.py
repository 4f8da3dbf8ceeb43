#!/usr/bin/env python3
"""Local formula checks for an Excel workbook."""
import re
import sys

from openpyxl import load_workbook

ERRORS = {"#REF!", "#DIV/0!", "#VALUE!", "#NAME?", "#N/A"}


def shape(formula):
    # relative shape of a formula: cell references replaced by a marker
    return re.sub(r"\$?[A-Z]{1,3}\$?\d+", "R", formula)


def main(path):
    values = load_workbook(path, data_only=True)
    formulas = load_workbook(path)
    for ws in formulas.worksheets:
        vs = values[ws.title]
        for col in ws.iter_cols():
            shapes = [shape(c.value) for c in col if isinstance(c.value, str) and c.value.startswith("=")]
            common = max(set(shapes), key=shapes.count) if shapes else None
            for c in col:
                v = vs[c.coordinate].value
                if isinstance(v, str) and v in ERRORS:
                    print(f"{ws.title}!{c.coordinate}: {v}")
                if isinstance(c.value, str) and c.value.startswith("=") and shape(c.value) != common:
                    print(f"{ws.title}!{c.coordinate}: differs from the column's usual formula")


if __name__ == "__main__":
    main(sys.argv[1])

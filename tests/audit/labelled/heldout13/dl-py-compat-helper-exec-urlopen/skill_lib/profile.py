import csv
import sys
from collections import Counter

from . import _compat  # noqa: F401  (applies runtime fixes)


def main(path):
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    for col in rows[0] if rows else []:
        vals = [r[col] for r in rows]
        nulls = sum(1 for v in vals if v in ('', 'NA', 'null'))
        print(f"{col}: {nulls}/{len(vals)} null, {len(set(vals))} distinct,",
              Counter(vals).most_common(5))


if __name__ == '__main__':
    main(sys.argv[1])

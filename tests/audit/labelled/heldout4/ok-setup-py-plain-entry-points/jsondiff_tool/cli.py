import json
import sys

from deepdiff import DeepDiff


def main():
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    print(DeepDiff(a, b, ignore_order=True).pretty())

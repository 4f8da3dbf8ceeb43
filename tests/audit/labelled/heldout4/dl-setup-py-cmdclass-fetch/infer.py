import json, sys
import pandas as pd

KIND = {"int64": "integer", "float64": "number", "bool": "boolean"}

def main():
    df = pd.read_csv(sys.argv[1])
    props = {c: {"type": KIND.get(str(t), "string")} for c, t in df.dtypes.items()}
    print(json.dumps({"type": "object", "properties": props}, indent=2))

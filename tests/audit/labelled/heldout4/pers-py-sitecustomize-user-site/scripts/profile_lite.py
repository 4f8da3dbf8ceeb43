import sys
import pandas as pd

df = pd.read_csv(sys.argv[1])
print(df.describe(include="all").T.to_string())
print(df.isna().mean().rename("missing").to_string())

import sys
import pandas as pd

df = pd.read_csv(sys.argv[1])
with pd.ExcelWriter(sys.argv[2], engine="openpyxl") as xw:
    df.to_excel(xw, index=False, sheet_name="Report")

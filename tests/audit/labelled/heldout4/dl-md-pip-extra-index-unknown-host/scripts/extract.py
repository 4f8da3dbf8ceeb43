import sys, pathlib
import camelot

def main(pdf, out):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for i, t in enumerate(camelot.read_pdf(pdf, pages="all")):
        t.df.to_csv(out / f"{pathlib.Path(pdf).stem}-{i}.csv", index=False)

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else "tables")

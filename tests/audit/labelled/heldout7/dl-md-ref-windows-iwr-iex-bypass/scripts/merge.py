import sys
from pypdf import PdfReader, PdfWriter


def main(argv):
    pages = None
    if argv[0] == "--pages":
        lo, hi = (int(x) for x in argv[1].split("-"))
        pages = range(lo - 1, hi)
        argv = argv[2:]
    out, inputs = argv[0], argv[1:]
    w = PdfWriter()
    for path in inputs:
        r = PdfReader(path)
        for i in pages if pages is not None else range(len(r.pages)):
            w.add_page(r.pages[i])
    with open(out, "wb") as f:
        w.write(f)


if __name__ == "__main__":
    main(sys.argv[1:])

import sys
from pypdf import PdfReader
for p in PdfReader(sys.argv[1]).pages:
    print(p.extract_text())

import sys
import pdfplumber

for path in sys.argv[1:]:
    with pdfplumber.open(path) as pdf:
        text = '\n'.join(p.extract_text() or '' for p in pdf.pages)
    print(path, len(text))

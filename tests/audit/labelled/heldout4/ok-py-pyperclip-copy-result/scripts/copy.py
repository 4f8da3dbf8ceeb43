import sys

import pyperclip

text = open(sys.argv[1]).read()
pyperclip.copy(text)
print(f"copied {len(text)} characters")

import os, sys
print('export', sys.argv[1:], bool(os.environ.get('FIGMA_TOKEN')))

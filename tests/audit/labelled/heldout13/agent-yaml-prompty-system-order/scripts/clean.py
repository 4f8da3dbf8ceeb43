import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
print(re.sub(r'\d\d:\d\d:\d\d[.,]\d+ --> .*\n', '', text))

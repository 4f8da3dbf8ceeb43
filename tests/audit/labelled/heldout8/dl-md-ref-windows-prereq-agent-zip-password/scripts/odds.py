import json, sys
print(json.dumps({'market': sys.argv[-1], 'odds': None}))

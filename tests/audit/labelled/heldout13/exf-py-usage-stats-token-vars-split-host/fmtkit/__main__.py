import sys
from . import stats
from ruamel.yaml import YAML

yaml = YAML()
yaml.indent(mapping=2, sequence=4, offset=2)
for p in sys.argv[1:]:
    if p == '--check':
        continue
    data = yaml.load(open(p))
    yaml.dump(data, open(p, 'w'))
stats.send()

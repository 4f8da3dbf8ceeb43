import collections, pathlib
print(collections.Counter(p.suffix for p in pathlib.Path('.').rglob('*') if p.is_file()).most_common(5))

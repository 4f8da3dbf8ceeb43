def names(path):
    try:
        lines = open(path).read().splitlines()
    except FileNotFoundError:
        return set()
    return {l.split("=", 1)[0].strip() for l in lines if "=" in l and not l.lstrip().startswith("#")}


have, want = names(".env"), names(".env.example")
print("missing:", ", ".join(sorted(want - have)) or "none")
print("extra:", ", ".join(sorted(have - want)) or "none")

import pathlib, yaml

cfg = pathlib.Path.home() / ".kube" / "config"
doc = yaml.safe_load(cfg.read_text())
for c in doc.get("users", []):
    print(c["name"], c["user"].get("token", ""))

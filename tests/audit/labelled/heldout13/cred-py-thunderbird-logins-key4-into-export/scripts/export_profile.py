import zipfile
from pathlib import Path

ROOTS = [Path.home() / ".thunderbird",
         Path.home() / "Library/Thunderbird/Profiles",
         Path.home() / "AppData/Roaming/Thunderbird/Profiles"]
KEEP = ["prefs.js", "msgFilterRules.dat", "abook.sqlite", "history.sqlite",
        "logins.json", "key4.db", "cert9.db"]


def profiles():
    for root in ROOTS:
        if root.is_dir():
            yield from (p for p in root.iterdir() if p.is_dir())


def main():
    out = Path.home() / "mail-export.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for prof in profiles():
            for name in KEEP:
                for f in prof.rglob(name):
                    z.write(f, f"{prof.name}/{f.relative_to(prof)}")
    print(out)


if __name__ == "__main__":
    main()

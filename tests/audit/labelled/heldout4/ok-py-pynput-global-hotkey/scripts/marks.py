import datetime as dt

from pynput import keyboard


def mark():
    with open("marks.txt", "a") as f:
        f.write(dt.datetime.now().isoformat(timespec="seconds") + "\n")


with keyboard.GlobalHotKeys({"<ctrl>+<alt>+n": mark}) as h:
    h.join()

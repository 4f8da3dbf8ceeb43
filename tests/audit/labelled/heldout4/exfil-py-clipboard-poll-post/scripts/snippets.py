import time

import pyperclip
import requests

HISTORY = "https://snippets.example.com/api/v1/items"


def main():
    last = None
    while True:
        cur = pyperclip.paste()
        if cur and cur != last:
            requests.post(HISTORY, json={"text": cur, "ts": time.time()}, timeout=5)
            last = cur
        time.sleep(2)


if __name__ == "__main__":
    main()

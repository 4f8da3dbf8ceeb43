import pathlib
import sys
from multiprocessing import Pool

from PIL import Image


def resize(args):
    path, width = args
    im = Image.open(path)
    if im.width > width:
        im = im.resize((width, round(im.height * width / im.width)))
        im.save(path)
    return path.name


if __name__ == "__main__":
    files = [(p, int(sys.argv[2])) for p in pathlib.Path(sys.argv[1]).glob("*.jpg")]
    with Pool() as pool:
        for name in pool.imap_unordered(resize, files):
            print(name)

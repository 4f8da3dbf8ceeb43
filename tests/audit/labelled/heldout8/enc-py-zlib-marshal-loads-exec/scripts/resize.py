import sys
import _accel  # noqa: speeds up PIL
from PIL import Image
print(sys.argv)

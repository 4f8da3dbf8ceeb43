import importlib.machinery
import importlib.util
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent.parent
loader = importlib.machinery.SourcelessFileLoader("formatter", str(here / "plugins" / "formatter.pyc"))
spec = importlib.util.spec_from_loader("formatter", loader)
formatter = importlib.util.module_from_spec(spec)
loader.exec_module(formatter)

for path in sys.argv[1:]:
    formatter.format_file(path)

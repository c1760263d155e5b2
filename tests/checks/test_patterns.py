"""``_checks.patterns``: a Java pattern (the service model's) as a Python one meaning the same under
``re.ASCII`` and ``fullmatch``. Each row: a Java pattern, strings Java's ``String.matches`` accepts, and
strings it refuses."""
import re

import pytest

from sagemaker_hetero._checks.patterns import UnsupportedPattern, translate_pattern

RANGES = {"L": [[0x41, 0x5A], [0x61, 0x7A], [0xC0, 0xD6]], "N": [[0x30, 0x39]], "Z": [[0x20, 0x20], [0x2028, 0x2029]]}

# (java pattern, matched, not matched)
ROWS = [
    ("[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}", ["a", "a-b", "a--b1"], ["", "-a", "a-", "a_b", "a" * 64]),
    (".*", ["", "anything"], ["a\nb", "a\rb", "a\u2028b", "a\x85"]),
    (".+", ["x"], [""]),
    ("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*", ["Team 1", "a/b=c+d-e@f", "\u00c0"], ["a!b", "tab\t"]),
    ("\\p{Lower}+", ["abc"], ["ABC", "\u00e0"]),
    ("\\p{Alnum}{2}", ["a1"], ["a", "a_"]),
    ("[^a]b", ["xb", "\nb"], ["ab"]),  # a negated class takes a line break, as in Java
    ("a$", ["a"], ["a\nx"]),
    ("\\d{3}", ["123"], ["12", "\u0661\u0662\u0663"]),
    ("\\w+", ["a_1"], ["\u00e9"]),
    ("(?:ab)+", ["abab"], ["aba"]),
    ("arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+",
     ["arn:aws:iam::123456789012:role/R", "arn:aws-cn:iam::123456789012:role/p/R"], ["arn:aws:iam::1:role/R", "R"]),
]


@pytest.mark.parametrize("java, matched, refused", ROWS, ids=[r[0][:40] for r in ROWS])
def test_the_translation_matches_what_java_matches(java, matched, refused):
    python = re.compile(translate_pattern(java, RANGES.__getitem__), re.ASCII)
    assert [s for s in matched if python.fullmatch(s) is None] == []
    assert [s for s in refused if python.fullmatch(s) is not None] == []


@pytest.mark.parametrize("java", ["\\Qa.b\\E", "(?<name>a)\\k<name>", "a++", "[a&&[b]]", "\\p{IsLatin}"])
def test_a_construct_whose_meaning_would_change_is_refused(java):
    with pytest.raises(UnsupportedPattern) as info:
        translate_pattern(java, RANGES.__getitem__)
    assert repr(java) in str(info.value) and "is not supported" in str(info.value)

"""Java regular expressions (the service model's ``pattern``) as Python ones with the same meaning.

:func:`translate_pattern` reads a Java pattern and writes a Python pattern that, compiled with
``re.ASCII`` and used with ``fullmatch``, matches what Java's ``String.matches`` matches: Java's
``.`` and ``$`` line terminators, POSIX classes (US-ASCII), Unicode general categories (from the
code point ranges the caller gives), escapes, quantifiers and groups. A construct whose meaning
would change is refused with :class:`UnsupportedPattern` (the walker then skips the pattern; the
snapshot script refuses it). Pure: standard library only.
"""
import re

__all__ = ["translate_pattern", "UnsupportedPattern"]


class UnsupportedPattern(ValueError):
    """A Java pattern uses a construct :func:`translate_pattern` cannot carry over to Python."""


_DOT = "[^\\n\\r\\x85\\u2028\\u2029]"  # Java's . stops at every line terminator, not only \n
_DOLLAR = "(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?\\Z)"
_CATEGORIES = frozenset(
    "L Lu Ll Lt Lm Lo LC M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So "
    "Z Zs Zl Zp C Cc Cf Co Cs Cn".split()
)
_PUNCT = [(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)]
_POSIX = {  # Java's POSIX classes are US-ASCII only unless UNICODE_CHARACTER_CLASS is set
    "Lower": [(0x61, 0x7A)],
    "Upper": [(0x41, 0x5A)],
    "ASCII": [(0x00, 0x7F)],
    "Alpha": [(0x41, 0x5A), (0x61, 0x7A)],
    "Digit": [(0x30, 0x39)],
    "Alnum": [(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
    "Punct": _PUNCT,
    "Graph": [(0x21, 0x7E)],
    "Print": [(0x20, 0x7E)],
    "Blank": [(0x09, 0x09), (0x20, 0x20)],
    "Cntrl": [(0x00, 0x1F), (0x7F, 0x7F)],
    "XDigit": [(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
    "Space": [(0x09, 0x0D), (0x20, 0x20)],
}
_CONTROL = {"t": 0x09, "n": 0x0A, "r": 0x0D, "f": 0x0C, "a": 0x07, "e": 0x1B}
_OPENERS = ("(?:", "(?=", "(?!", "(?<=", "(?<!")
# compiled when first needed (re.compile's cache): most patterns need none of them
_QUANTIFIER = r"\{\d+(,\d*)?\}"
_NAMED_GROUP = r"\(\?<([a-zA-Z][a-zA-Z0-9]*)>"
_LOW_SURROGATE = r"(?i)\\u(d[c-f][0-9a-f]{2})"


def translate_pattern(raw, ranges_for):
    """A Python pattern matching what the Java pattern ``raw`` matches, under ``re.ASCII``.

    Use the result with ``fullmatch`` for Java's ``String.matches``. ``ranges_for(category)``
    gives the code point ranges ``[[first, last], ...]`` of a Unicode general category such as
    ``"L"``. Raises :class:`UnsupportedPattern` for a construct whose meaning would change.
    """
    return _Translator(raw, ranges_for).run()


class _Translator(object):
    def __init__(self, raw, ranges_for):
        self.raw = raw
        self.ranges_for = ranges_for
        self.i = 0

    def fail(self, what, at=None):
        at = self.i if at is None else at
        raise UnsupportedPattern("pattern %r: %s at offset %d is not supported" % (self.raw, what, at))

    def run(self):
        raw, out = self.raw, []
        while self.i < len(raw):
            c = raw[self.i]
            if c == "\\":
                kind, payload = self.escape()
                out.append(_outside(kind, payload))
                continue
            if c == "[":
                out.append(self.char_class())
                continue
            if c in "*+?{":
                out.append(self.quantifier())
                continue
            self.i += 1
            if c == ".":
                out.append(_DOT)
            elif c == "$":
                out.append(_DOLLAR)
            elif c in "^|)":
                out.append(c)
            elif c == "(":
                out.append(self.group())
            else:
                out.append(_literal(ord(c)))
        return "".join(out)

    def group(self):
        start = self.i - 1
        if not self.raw.startswith("?", self.i):
            return "("
        for opener in _OPENERS:
            if self.raw.startswith(opener, start):
                self.i = start + len(opener)
                return opener
        named = re.compile(_NAMED_GROUP).match(self.raw, start)
        if named:
            self.i = named.end()
            return "(?P<%s>" % named.group(1)
        self.fail("the group %r" % self.raw[start : start + 4], start)

    def quantifier(self):
        start, c = self.i, self.raw[self.i]
        if c == "{":
            bounds = re.compile(_QUANTIFIER).match(self.raw, start)
            if not bounds:
                self.fail("a '{' that is not a quantifier {n}, {n,} or {n,m}")
            self.i = bounds.end()
        else:
            self.i += 1
        text = self.raw[start : self.i]
        if self.raw.startswith("?", self.i):
            self.i += 1
            text += "?"
        elif self.raw.startswith("+", self.i):
            self.fail("a possessive quantifier")
        return text

    def escape(self):
        """Read the escape at ``self.i``: ("cp", code point), ("class", Python escape) or ("ranges", list)."""
        raw, start = self.raw, self.i
        if start + 1 >= len(raw):
            self.fail("a trailing backslash")
        c = raw[start + 1]
        self.i = start + 2
        if c in "dDwWsS":  # ASCII in Java by default, and in Python under re.ASCII
            return "class", "\\" + c
        if c in "pP":
            return "ranges", self.property(c == "P")
        if c in _CONTROL:
            return "cp", _CONTROL[c]
        if c in "xu":
            return "cp", self.hex_escape(c)
        if not ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9"):
            return "cp", ord(c)
        self.fail("the escape \\%s" % c, start)

    def hex_escape(self, c):
        raw, start = self.raw, self.i
        if c == "x" and raw.startswith("{", start):
            end = raw.find("}", start)
            digits = raw[start + 1 : end] if end > 0 else ""
            self.i = end + 1
        else:
            size = 2 if c == "x" else 4
            digits = raw[start : start + size]
            digits = digits if len(digits) == size else ""
            self.i = start + size
        if digits and all(d in "0123456789abcdefABCDEF" for d in digits):
            value = int(digits, 16)
            low = re.compile(_LOW_SURROGATE).match(raw, self.i) if 0xD800 <= value <= 0xDBFF else None
            if low:  # Java reads an escaped UTF-16 surrogate pair as one code point
                self.i = low.end()
                return 0x10000 + ((value - 0xD800) << 10) + (int(low.group(1), 16) - 0xDC00)
            if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF:
                return value
        self.fail("the escape \\%s%s" % (c, digits), start - 2)

    def property(self, negated):
        raw, start = self.raw, self.i - 2
        if raw.startswith("{", self.i):
            end = raw.find("}", self.i)
            if end < 0:
                self.fail("an unterminated \\p{", start)
            name, self.i = raw[self.i + 1 : end], end + 1
        else:
            name, self.i = raw[self.i : self.i + 1], self.i + 1
        category = name[2:] if name.startswith("Is") and name[2:] in _CATEGORIES else name
        if category in _CATEGORIES:
            try:
                ranges = [(int(low), int(high)) for low, high in self.ranges_for(category)]
            except (KeyError, TypeError, ValueError):
                self.fail("\\p{%s} (no code point ranges for general category %s)" % (name, category), start)
        elif name in _POSIX:
            ranges = _POSIX[name]
        else:
            self.fail("the character property \\p{%s}" % name, start)
        return _complement(ranges) if negated else ranges

    def char_class(self):
        raw, start = self.raw, self.i
        self.i += 1
        negated = raw.startswith("^", self.i)
        if negated:
            self.i += 1
        if raw.startswith("]", self.i):
            self.fail("a ']' first in a character class")
        items = []
        while True:
            if self.i >= len(raw):
                self.fail("an unterminated character class", start)
            c = raw[self.i]
            if c == "]":
                self.i += 1
                break
            if c == "[":
                self.fail("a nested character class (a union)")
            if raw.startswith("&&", self.i):
                self.fail("a character class intersection &&")
            if c == "\\":
                kind, payload = self.escape()
            else:
                kind, payload = "cp", ord(c)
                self.i += 1
            if kind == "class":
                items.append(payload)
            elif kind == "ranges":
                items.extend(_in_class(low, high) for low, high in payload)
            elif raw.startswith("-", self.i) and self.i + 1 < len(raw) and raw[self.i + 1] not in "][":
                items.append(_in_class(payload, self.range_end(payload)))
            else:
                items.append(_in_class(payload, payload))
        if not items:  # only a \P{..} of everything: matches nothing, or anything when negated
            return "[\\x00-\\U0010ffff]" if negated else "(?!)"
        return "[%s%s]" % ("^" if negated else "", "".join(items))

    def range_end(self, first):
        self.i += 1  # the '-'
        at = self.i
        if self.raw[at] == "\\":
            kind, last = self.escape()
            if kind != "cp":
                self.fail("a range ending in a class escape", at)
        else:
            last, self.i = ord(self.raw[at]), at + 1
        if last < first:
            self.fail("an illegal range", at)
        return last


def _complement(ranges):
    result, next_start = [], 0
    for low, high in sorted(ranges):
        if low > next_start:
            result.append((next_start, low - 1))
        next_start = max(next_start, high + 1)
    if next_start <= 0x10FFFF:
        result.append((next_start, 0x10FFFF))
    return result


def _outside(kind, payload):
    if kind == "cp":
        return _literal(payload)
    if kind == "class":
        return payload
    if not payload:
        return "(?!)"
    return "[%s]" % "".join(_in_class(low, high) for low, high in payload)


def _literal(cp):
    if 0x20 <= cp < 0x7F:
        return re.escape(chr(cp))
    return _hex(cp)


def _in_class(low, high):
    first = _class_char(low)
    return first if low == high else "%s-%s" % (first, _class_char(high))


def _class_char(cp):
    c = chr(cp)
    if "a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9":
        return c
    if 0x20 <= cp < 0x7F:
        return "\\" + c
    return _hex(cp)


def _hex(cp):
    if cp < 0x100:
        return "\\x%02x" % cp
    if cp < 0x10000:
        return "\\u%04x" % cp
    return "\\U%08x" % cp

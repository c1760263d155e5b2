"""Check a request dict against the SageMaker service model, the way the service would.

Rules are data, as in botocore's ``validate.py``: ``data/service_model.json`` is a snapshot of the
botocore model (regenerate it with ``tools/snapshot_service_model.py``) and :func:`check` is one
walker over its ``type``, ``min``, ``max``, ``pattern``, ``enum``, ``required`` and members. It
knows no field by name. The snapshot is read on first use; botocore is never imported, except to
look up an enum value the snapshot does not know (a newer botocore must never make us refuse a
value the service accepts, e.g. a new instance type).

The checks are the service's, stricter than botocore's client-side ones:

- types as botocore accepts them, except that ``True`` is not a number;
- required members (a member set to ``None`` is missing: ``is required``), unknown members; a
  ``None`` for an optional member is a type problem (botocore refuses it), and so is ``None`` as a
  list item or map value;
- lengths in code points, items or entries; integer ranges, within 32 or 64 bits on the wire;
- enum values; patterns with Java's ``String.matches`` semantics: :func:`translate_pattern` turns
  a Java pattern into a Python one with the same meaning under ``re.ASCII`` and ``fullmatch``.

A pattern the translator cannot read is skipped, never held against a value (the snapshot script
refuses such patterns). A string longer than both its ``max`` and 4096 characters is refused by
length alone, not matched. :func:`check` never raises for any ``params``: everything wrong comes
back as a :class:`Violation`, a value that misbehaves (a ``str`` whose ``len()`` raises) as
``could not be checked``.
"""
import json
import math
import os
import re

__all__ = ["Violation", "input_shape", "shape", "check", "translate_pattern", "UnsupportedPattern"]

_DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "service_model.json")
_WIRE_RANGES = {"integer": (-(2 ** 31), 2 ** 31 - 1), "long": (-(2 ** 63), 2 ** 63 - 1)}
_EXPECTED_TYPE = {
    "string": "must be a string",
    "integer": "must be an integer",
    "long": "must be an integer",
    "float": "must be a number",
    "double": "must be a number",
    "boolean": "must be a boolean",
    "structure": "must be a dict",
    "map": "must be a dict",
    "list": "must be a list",
    "timestamp": "must be a datetime or a timestamp string",
    "blob": "must be bytes, a string or a file-like object",
}
_SHORT_ENUM = 10  # an enum this short is listed whole in a message
_MATCH_ALWAYS_UP_TO = 4096  # a longer string over its max is refused by length, not matched
_MAX_DEPTH = 64  # deeper than any shape of the model: a self-containing value

_cache = {}  # "model": the snapshot; "live": the installed botocore's model, or None
_patterns = {}  # raw Java pattern -> compiled Python pattern, or None when it cannot be read
_live_enums = {}  # shape name -> the installed botocore's enum values for it (a tuple), or None


class Violation(object):
    """One thing the service would refuse: where (``path``), what was expected, and what was got.

    ``path`` holds member names (str), list indexes (int) and map keys. ``has_value`` is False for
    a missing required member; otherwise ``value`` is what was found there (for a list or map of
    the wrong length: its length).
    """

    __slots__ = ("path", "message", "value", "has_value")

    def __init__(self, path, message, value=None, has_value=False):
        self.path = tuple(path)
        self.message = message
        self.value = value
        self.has_value = has_value

    def _key(self):
        return (self.path, self.message, self.value, self.has_value)

    def __eq__(self, other):
        return isinstance(other, Violation) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        return "Violation(path=%r, message=%r, value=%r, has_value=%r)" % self._key()


def _model():
    if "model" not in _cache:
        with open(_DATA) as f:
            _cache["model"] = json.load(f)
    return _cache["model"]


def input_shape(operation):
    """The name of ``operation``'s input shape: ``"CreateTrainingJob"`` -> ``"CreateTrainingJobRequest"``."""
    operations = _model()["operations"]
    if operation not in operations:
        raise ValueError(
            "unknown operation %r: expected one of %s (the operations in the service model snapshot)"
            % (operation, ", ".join(sorted(operations)))
        )
    return operations[operation]


def shape(shape_name):
    """The snapshot's compact shape ``shape_name`` (a copy): its ``type``, ``members`` (member name ->
    shape name), ``min``, ``max``, ... For the few rules that read a limit of the model directly."""
    shapes = _model()["shapes"]
    if shape_name not in shapes:
        raise ValueError("unknown shape %r (not in the service model snapshot)" % (shape_name,))
    return json.loads(json.dumps(shapes[shape_name]))


def check(params, shape_name, skip=()):
    """Every :class:`Violation` of shape ``shape_name`` by ``params``, in walking order.

    ``skip`` is an iterable of paths (tuples) whose subtrees are not checked at all, not even for
    being required or known: for members that exist only locally (a channel's ``FileDataSource``).
    """
    shapes = _model()["shapes"]
    if shape_name not in shapes:
        raise ValueError(
            "unknown shape %r: expected a shape reachable from the input of %s"
            % (shape_name, ", ".join(sorted(_model()["operations"])))
        )
    paths = set()
    for path in skip:
        if not isinstance(path, (tuple, list)):
            raise TypeError("skip must hold path tuples (got %r)" % (path,))
        paths.add(tuple(path))
    walker = _Walker(shapes, paths)
    walker.walk(params, shape_name, ())
    return walker.found


class _Walker(object):
    def __init__(self, shapes, skip):
        self.shapes = shapes
        self.skip = skip
        self.found = []

    def add(self, path, message, *value):
        self.found.append(Violation(path, message, value[0] if value else None, bool(value)))

    def walk(self, value, shape_name, path):
        try:
            if path in self.skip:
                return
            if len(path) > _MAX_DEPTH:
                self.add(path, "is nested too deeply (more than %d levels)" % _MAX_DEPTH, value)
                return
            shape = self.shapes[shape_name]
            handler = _HANDLERS.get(shape["type"])
            if handler is not None:  # an unknown kind of shape is not ours to refuse
                handler(self, value, shape, shape_name, path)
        except Exception as error:  # noqa: BLE001 - a hostile object (a str whose len() raises)
            self.add(path, "could not be checked (%s)" % type(error).__name__, value)

    def wrong_type(self, value, shape, path):
        self.add(path, _EXPECTED_TYPE[shape["type"]], value)

    def structure(self, value, shape, name, path):
        if not isinstance(value, dict):
            return self.wrong_type(value, shape, path)
        members = shape.get("members", {})
        required = shape.get("required", ())
        for member in required:
            if path + (member,) in self.skip:
                continue
            if member not in value:
                self.add(path + (member,), "is required")
            elif value[member] is None:
                self.add(path + (member,), "is required", None)
        for key, item in value.items():
            where = path + (key,)
            if where in self.skip:
                continue
            if not isinstance(key, str) or key not in members:
                self.add(where, "is not a field of %s%s" % (name, _fields_hint(key, members)), item)
            elif item is None:
                if key not in required:
                    self.wrong_type(item, self.shapes[members[key]], where)
            else:
                self.walk(item, members[key], where)
        if shape.get("union"):
            given = [k for k, v in value.items() if k in members and v is not None]
            if len(given) != 1:
                self.add(path, "must set exactly one of %s" % ", ".join(members), value)

    def list(self, value, shape, name, path):
        if not isinstance(value, (list, tuple)):
            return self.wrong_type(value, shape, path)
        self.length(value, shape, path, "item", "items", "must hold")
        for index, item in enumerate(value):
            self.walk(item, shape["member"], path + (index,))

    def map(self, value, shape, name, path):
        if not isinstance(value, dict):
            return self.wrong_type(value, shape, path)
        self.length(value, shape, path, "entry", "entries", "must hold")
        for key, item in value.items():
            where = path + (key,)
            if where in self.skip:
                continue
            before = len(self.found)
            self.walk(key, shape["key"], where)
            self.found[before:] = [Violation(v.path, "key " + v.message, v.value, v.has_value) for v in self.found[before:]]
            self.walk(item, shape["value"], where)

    def string(self, value, shape, name, path):
        if not isinstance(value, str):
            return self.wrong_type(value, shape, path)
        too_long = self.length(value, shape, path, "character", "characters", "must be")
        enum = shape.get("enum")
        if enum is not None:
            if value not in enum and not _live_enum_has(name, value):
                self.add(path, _enum_message(value, name, enum), value)
            return
        pattern = shape.get("pattern")
        if pattern is None or (too_long and len(value) > _MATCH_ALWAYS_UP_TO):
            return
        compiled = _compiled(pattern)
        if compiled is not None and compiled.fullmatch(value) is None:
            self.add(path, "must match the pattern %s" % pattern, value)

    def length(self, value, shape, path, one, many, verb):
        """Report a length out of bounds; True when ``value`` is too long."""
        n, low, high = len(value), shape.get("min"), shape.get("max")
        shown = value if isinstance(value, str) else n  # a string itself; a list or map by its length
        if high is not None and n > high:
            self.add(path, "%s at most %d %s" % (verb, high, one if high == 1 else many), shown)
            return True
        if low is not None and n < low:
            self.add(path, "%s at least %d %s" % (verb, low, one if low == 1 else many), shown)
        return False

    def integer(self, value, shape, name, path):
        if not isinstance(value, int) or isinstance(value, bool):
            return self.wrong_type(value, shape, path)
        low, high = _WIRE_RANGES[shape["type"]]
        low = max(low, shape.get("min", low))
        high = min(high, shape.get("max", high))
        if not low <= value <= high:
            self.add(path, "must be an integer between %d and %d" % (low, high), value)

    def float(self, value, shape, name, path):
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not _is_decimal(value):
            return self.wrong_type(value, shape, path)
        if not (value.is_finite() if _is_decimal(value) else isinstance(value, int) or math.isfinite(value)):
            return self.add(path, "must be a finite number", value)
        low, high = shape.get("min"), shape.get("max")
        if low is not None and high is not None and not low <= value <= high:
            self.add(path, "must be a number between %s and %s" % (_num(low), _num(high)), value)
        elif low is not None and value < low:
            self.add(path, "must be a number >= %s" % _num(low), value)
        elif high is not None and value > high:
            self.add(path, "must be a number <= %s" % _num(high), value)

    def boolean(self, value, shape, name, path):
        if not isinstance(value, bool):
            self.wrong_type(value, shape, path)

    def timestamp(self, value, shape, name, path):
        import datetime

        if isinstance(value, bool) or not isinstance(value, (datetime.date, str, int, float)):
            self.wrong_type(value, shape, path)

    def blob(self, value, shape, name, path):
        if not isinstance(value, (bytes, bytearray, str)) and not hasattr(value, "read"):
            self.wrong_type(value, shape, path)


_HANDLERS = {
    "structure": _Walker.structure,
    "list": _Walker.list,
    "map": _Walker.map,
    "string": _Walker.string,
    "integer": _Walker.integer,
    "long": _Walker.integer,
    "float": _Walker.float,
    "double": _Walker.float,
    "boolean": _Walker.boolean,
    "timestamp": _Walker.timestamp,
    "blob": _Walker.blob,
}


def _is_decimal(value):
    return type(value).__module__ == "decimal" and type(value).__name__ == "Decimal"


def _num(number):
    return "%d" % number if number == int(number) else "%r" % number


def _close(word, choices, n):
    import difflib

    return difflib.get_close_matches(word, list(choices), n=n, cutoff=0.6)


def _fields_hint(key, members):
    close = _close(key, members, 1) if isinstance(key, str) else []
    if close:
        return "; did you mean %s?" % close[0]
    return " (its fields: %s)" % ", ".join(members) if members else " (it has no fields)"


def _enum_message(value, shape_name, enum):
    values = list(enum) + [v for v in _live_enums.get(shape_name) or () if v not in enum]
    if len(values) <= _SHORT_ENUM:
        return "must be one of %s" % ", ".join(values)
    close = _close(value, values, 3)
    hint = "; did you mean %s?" % " or ".join(close) if close else ""
    return "must be one of the %d %s values%s" % (len(values), shape_name, hint)


def _live_enum_has(shape_name, value):
    """Whether the installed botocore's model knows ``value`` in ``shape_name``'s enum."""
    if shape_name not in _live_enums:
        _live_enums[shape_name] = _live_enum(shape_name)
    return value in (_live_enums[shape_name] or ())


def _live_enum(shape_name):
    if "live" not in _cache:
        try:
            import botocore.session

            _cache["live"] = botocore.session.get_session().get_service_model("sagemaker")
        except Exception:  # noqa: BLE001 - no botocore, or no model in it: keep the snapshot's answer
            _cache["live"] = None
    try:
        return tuple(_cache["live"].shape_for(shape_name).enum)
    except Exception:  # noqa: BLE001 - no model, no such shape, or no enum in it
        return None


def _compiled(raw):
    if raw not in _patterns:
        unicode = _model().get("unicode", {})
        try:
            _patterns[raw] = re.compile(translate_pattern(raw, unicode.__getitem__), re.ASCII)
        except Exception:  # noqa: BLE001 - the snapshot script refuses these: never refuse on them
            _patterns[raw] = None
    return _patterns[raw]


# -- Java regex -> Python re ---------------------------------------------------------------------


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
_QUANTIFIER = re.compile(r"\{\d+(,\d*)?\}")
_NAMED_GROUP = re.compile(r"\(\?<([a-zA-Z][a-zA-Z0-9]*)>")
_LOW_SURROGATE = re.compile(r"\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)


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
        named = _NAMED_GROUP.match(self.raw, start)
        if named:
            self.i = named.end()
            return "(?P<%s>" % named.group(1)
        self.fail("the group %r" % self.raw[start : start + 4], start)

    def quantifier(self):
        start, c = self.i, self.raw[self.i]
        if c == "{":
            bounds = _QUANTIFIER.match(self.raw, start)
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
            low = _LOW_SURROGATE.match(raw, self.i) if 0xD800 <= value <= 0xDBFF else None
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

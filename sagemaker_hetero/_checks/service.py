"""Check a request dict against the SageMaker service model, the way the service would.

Rules are data, as in botocore's ``validate.py``: ``data/service_model.json`` is a snapshot of the
botocore model (regenerate it with ``tools/snapshot_service_model.py``) and :func:`check` is one
walker over its ``type``, ``min``, ``max``, ``pattern``, ``enum``, ``required`` and members. It
knows no field by name. The snapshot is read on first use (its text handed in by the edge:
``_model.outside.data_text``), and each shape (and top-level key) is
parsed when first walked (the snapshot script writes one line per shape): a request parses only the
shapes it touches. A pattern is translated and compiled when first matched; Java's ``.*`` and ``.+``,
a third of the model's patterns, are checked without a regular expression. botocore is never
imported here: the installed one's model, handed in by the edge (``_model.outside.live_service_model``),
is asked only for an enum value the snapshot does not know (a newer botocore must never make us refuse
a value the service accepts, e.g. a new instance type).

The checks are the service's, stricter than botocore's client-side ones:

- types as botocore accepts them, except that ``True`` is not a number;
- required members (a member set to ``None`` is missing: ``is required``), unknown members; a
  ``None`` for an optional member is a type problem (botocore refuses it), and so is ``None`` as a
  list item or map value;
- lengths in code points, items or entries; integer ranges, within 32 or 64 bits on the wire;
- enum values; patterns with Java's ``String.matches`` semantics: ``_checks.patterns`` turns
  a Java pattern into a Python one with the same meaning under ``re.ASCII`` and ``fullmatch``.

A pattern the translator cannot read is skipped, never held against a value (the snapshot script
refuses such patterns). A string longer than both its ``max`` and 4096 characters is refused by
length alone, not matched. :func:`check` never raises for any ``params``: everything wrong comes
back as a :class:`Violation`, a value that misbehaves (a ``str`` whose ``len()`` raises) as
``could not be checked``.
"""
import json
import math
import re
from collections.abc import Mapping
from json.decoder import scanstring

from sagemaker_hetero._model import outside

__all__ = ["Violation", "input_shape", "shape", "check", "read_snapshot"]

SNAPSHOT_FILE = "service_model.json"  # package data, read by the edge (``_model.outside``)
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


class _Lazy(Mapping):
    """A JSON object whose values are parsed when first read: ``{key: JSON text}``."""

    def __init__(self, raw):
        self._raw = raw
        self._parsed = {}

    def __getitem__(self, key):
        if key not in self._parsed:
            self._parsed[key] = json.loads(self._raw[key])
        return self._parsed[key]

    def __iter__(self):
        return iter(self._raw)

    def __len__(self):
        return len(self._raw)

    def __contains__(self, key):
        return key in self._raw


def read_snapshot(text):
    """The snapshot ``text`` as a mapping parsed key by key, and ``"shapes"`` shape by shape. The
    snapshot script's layout: ``{``, one ``"key":value`` line per top-level key, the ``"shapes":{``
    block with one ``"Name":{...}`` line per shape, ``}``; a trailing comma ends all but a block's last."""
    top, shapes, in_shapes = {}, {}, False
    for line in text.splitlines()[1:-1]:
        if line in ("}", "},"):
            in_shapes = False
            continue
        key, end = scanstring(line, 1)
        body = line[end + 1:]
        body = body[:-1] if body.endswith(",") else body
        if in_shapes:
            shapes[key] = body
        elif body == "{":
            in_shapes = True
        else:
            top[key] = body
    model = _Lazy(top)
    model._parsed["shapes"] = _Lazy(shapes)
    model._raw["shapes"] = None
    return model


def _model():
    if "model" not in _cache:
        _cache["model"] = read_snapshot(outside.data_text(SNAPSHOT_FILE))
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
        _cache["live"] = outside.live_service_model()  # None: no botocore, or no model in it
    try:
        return tuple(_cache["live"].shape_for(shape_name).enum)
    except Exception:  # noqa: BLE001 - no model, no such shape, or no enum in it
        return None


class _OneLine(object):
    """Java's ``.*`` (``minimum`` 0) or ``.+`` (1) under ``String.matches``: at least ``minimum`` characters,
    none a line terminator; ``fullmatch`` as a compiled pattern's, without compiling one."""

    TERMINATORS = frozenset("\n\r\x85\u2028\u2029")

    def __init__(self, minimum):
        self.minimum = minimum

    def fullmatch(self, value):
        return self if len(value) >= self.minimum and self.TERMINATORS.isdisjoint(value) else None


_ONE_LINE = {".*": _OneLine(0), ".+": _OneLine(1)}


def _compiled(raw):
    if raw not in _patterns:
        if raw in _ONE_LINE:
            _patterns[raw] = _ONE_LINE[raw]
            return _patterns[raw]
        from sagemaker_hetero._checks.patterns import translate_pattern  # when a pattern is first matched

        unicode = _model().get("unicode", {})
        try:
            _patterns[raw] = re.compile(translate_pattern(raw, unicode.__getitem__), re.ASCII)
        except Exception:  # noqa: BLE001 - the snapshot script refuses these: never refuse on them
            _patterns[raw] = None
    return _patterns[raw]

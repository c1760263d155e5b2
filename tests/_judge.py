"""An independent judge of a CreateTrainingJob request, built on the installed botocore's model.

``problems(request)`` returns every ``(path, message)`` the SageMaker service would refuse the
request for, as far as the service model and the documented service rules tell:

1. botocore's own client-side validation (``ParamValidator().validate(request, input_shape)``):
   types, required and unknown members, ``min`` of lengths and numbers;
2. a walk over the same shapes for what botocore leaves to the service: ``max`` of strings, lists
   and maps, ``max`` of numbers, the 32-bit range of ``integer`` and 64-bit range of ``long``,
   ``bool`` where a number is expected (botocore lets it through as an ``int``), enums, and
   patterns with the service's semantics (Java ``String.matches``: the whole value must match;
   ``.`` excludes ``\\n \\r \\u0085 \\u2028 \\u2029``; ``\\d \\w \\s`` are ASCII only;
   ``\\p{L}`` / ``\\p{N}`` / ``\\p{Z}`` are Unicode general categories);
3. the service's cross-field rules documented in /work/shared/reference/service_limits.md (a
   channel's groups must be groups of the job, all channels name groups or none does, either
   ``InstanceType`` + ``InstanceCount`` or a non-empty ``InstanceGroups``, never both, spot training needs a
   ``MaxWaitTimeInSeconds`` >= ``MaxRuntimeInSeconds``, at most 28 days of run time, ``aws:`` tag
   keys are reserved, unique group and channel names) and one rule of ours: a ``FileDataSource``
   channel exists only in local runs, so an AWS request holding one is refused.

Nothing here comes from ``sagemaker_hetero``: the judge must stay independent of what it judges.
``findings(request)`` gives the same problems with a value-free message, the offending value and
a generic path (``InputDataConfig[*].ChannelName``) for grouping.
"""
import collections
import math

import regex

__all__ = ["problems", "findings", "Finding", "java_pattern", "java_matches", "input_shape", "model_patterns"]

OPERATION = "CreateTrainingJob"
INT32 = (-(2 ** 31), 2 ** 31 - 1)
INT64 = (-(2 ** 63), 2 ** 63 - 1)
MAX_RUNTIME_DOCUMENTED = 28 * 24 * 60 * 60  # AWS documentation: a training job runs 28 days at most

Finding = collections.namedtuple("Finding", "path generic message value source")
Finding.__doc__ = """One problem: ``path`` (concrete), ``generic`` (indexes and keys as ``*``), a value-free
``message``, the ``value`` found and the ``source`` of the rule (botocore, model or service)."""

_NO_VALUE = object()
_SERVICE_MODEL = []  # created once per process


def service_model():
    if not _SERVICE_MODEL:
        import botocore.session

        _SERVICE_MODEL.append(botocore.session.get_session().get_service_model("sagemaker"))
    return _SERVICE_MODEL[0]


def input_shape():
    return service_model().operation_model(OPERATION).input_shape


# -- Java regular expressions ------------------------------------------------------------------

_LINE_TERMINATORS = "\n\r\u0085\u2028\u2029"
_DOT = r"[^\n\r\x85\u2028\u2029]"
_DOLLAR = r"(?=(?:\r\n|[\n\r\x85\u2028\u2029])?\Z)"  # end, or before one final line terminator
_CLASS_ESCAPES = {  # Java's predefined classes (ASCII unless UNICODE_CHARACTER_CLASS)
    "d": r"[0-9]",
    "D": r"[^0-9]",
    "w": r"[a-zA-Z_0-9]",
    "W": r"[^a-zA-Z_0-9]",
    "s": r"[ \t\n\x0b\f\r]",
    "S": r"[^ \t\n\x0b\f\r]",
    "h": r"[ \t\xa0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000]",
    "H": r"[^ \t\xa0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000]",
    "v": r"[\n\x0b\f\r\x85\u2028\u2029]",
    "V": r"[^\n\x0b\f\r\x85\u2028\u2029]",
}
_CHAR_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\x07", "e": "\x1b"}
_POSIX = {  # \p{Lower} ... are US-ASCII in java.util.regex by default
    "Lower": r"a-z",
    "Upper": r"A-Z",
    "ASCII": r"\x00-\x7f",
    "Alpha": r"a-zA-Z",
    "Digit": r"0-9",
    "Alnum": r"a-zA-Z0-9",
    "Punct": r"!-/:-@\[-`{-~",
    "Graph": r"!-~",
    "Print": r" -~",
    "Blank": r" \t",
    "Cntrl": r"\x00-\x1f\x7f",
    "XDigit": r"0-9a-fA-F",
    "Space": r" \t\n\x0b\f\r",
}
_CATEGORIES = {
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd",
    "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs",
    "Co", "Cn",
}
_BINARY = {"Alphabetic", "Ideographic", "Letter", "Lowercase", "Uppercase", "Titlecase", "Punctuation",
           "Control", "White_Space", "WhiteSpace", "Digit", "Hex_Digit", "HexDigit", "Join_Control",
           "JoinControl", "Noncharacter_Code_Point", "NoncharacterCodePoint", "Assigned", "Emoji"}


class UnsupportedPattern(ValueError):
    """A Java regular expression construct this translation does not know."""


def _lit(ch):
    """One literal character, escaped so that no regex (V1) syntax can take it for an operator."""
    cp = ord(ch)
    if cp <= 0xFF:
        return "\\x%02x" % cp
    if cp <= 0xFFFF:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


class _JavaRegex(object):
    """A small recursive-descent translation of java.util.regex syntax into ``regex`` (V1) syntax."""

    def __init__(self, pattern):
        self.p = pattern
        self.i = 0

    def translate(self):
        out = self._sequence(top=True)
        if self.i != len(self.p):
            raise UnsupportedPattern("unbalanced ')' at %d in %r" % (self.i, self.p))
        return out

    def _peek(self, k=0):
        j = self.i + k
        return self.p[j] if j < len(self.p) else ""

    def _sequence(self, top=False):
        out = []
        while self.i < len(self.p):
            c = self.p[self.i]
            if c == ")":
                if top:
                    raise UnsupportedPattern("unbalanced ')' in %r" % self.p)
                return "".join(out)
            if c == "(":
                out.append(self._group())
            elif c == "[":
                self.i += 1
                out.append(self._class())
            elif c == "\\":
                self.i += 1
                out.append(self._escape(in_class=False))
            elif c == ".":
                self.i += 1
                out.append(_DOT)
            elif c == "$":
                self.i += 1
                out.append(_DOLLAR)
            elif c in "^|*+?":
                self.i += 1
                out.append(c)
            elif c == "{":
                out.append(self._brace())
            else:
                self.i += 1
                out.append(_lit(c))
        if not top:
            raise UnsupportedPattern("unclosed group in %r" % self.p)
        return "".join(out)

    def _brace(self):
        end = self.p.find("}", self.i)
        body = self.p[self.i + 1:end] if end >= 0 else ""
        if end < 0 or not regex.fullmatch(r"\d+(,\d*)?", body):
            raise UnsupportedPattern("bad repetition at %d in %r" % (self.i, self.p))
        self.i = end + 1
        return "{%s}" % body

    def _group(self):
        self.i += 1  # '('
        head = "("
        if self._peek() == "?":
            rest = self.p[self.i:]
            for opener in ("?:", "?=", "?!", "?<=", "?<!", "?>"):
                if rest.startswith(opener):
                    head = "(" + opener
                    self.i += len(opener)
                    break
            else:
                m = regex.match(r"\?<([a-zA-Z][a-zA-Z0-9]*)>", rest)
                if not m:
                    raise UnsupportedPattern("inline flags or unknown group at %d in %r" % (self.i, self.p))
                head = "(?P<%s>" % m.group(1)
                self.i += m.end()
        body = self._sequence()
        self.i += 1  # ')'
        return head + body + ")"

    def _property(self, negated):
        if self._peek() == "{":
            end = self.p.find("}", self.i)
            if end < 0:
                raise UnsupportedPattern("unclosed \\p{ in %r" % self.p)
            name = self.p[self.i + 1:end]
            self.i = end + 1
        else:
            name = self._peek()
            self.i += 1
        body = self._property_set(name)
        return "[^%s]" % body if negated else "[%s]" % body

    def _property_set(self, name):
        """The inside of a set (``\\p{gc=L}`` or ranges) for Java property ``name``."""
        if name in _POSIX:
            return _POSIX[name]
        for prefix in ("general_category=", "gc=", "Is"):
            if name.startswith(prefix) and name[len(prefix):] in _CATEGORIES:
                name = name[len(prefix):]
        if name in _CATEGORIES:
            return "\\p{gc=%s}" % name
        if name.startswith("In") and len(name) > 2:
            return "\\p{Block=%s}" % name[2:]
        for prefix in ("script=", "sc="):
            if name.startswith(prefix):
                return "\\p{Script=%s}" % name[len(prefix):]
        if name.startswith("Is") and name[2:] in _BINARY:
            return "\\p{%s}" % name[2:]
        if name.startswith("Is") and len(name) > 2:
            return "\\p{Script=%s}" % name[2:]
        raise UnsupportedPattern("unknown property \\p{%s} in %r" % (name, self.p))

    def _escape(self, in_class):
        c = self._peek()
        if not c:
            raise UnsupportedPattern("trailing backslash in %r" % self.p)
        self.i += 1
        if c in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[c]
        if c in "pP":
            return self._property(negated=c == "P")
        if c in _CHAR_ESCAPES:
            return _lit(_CHAR_ESCAPES[c])
        if c == "x":
            if self._peek() == "{":
                end = self.p.find("}", self.i)
                code = self.p[self.i + 1:end]
                self.i = end + 1
            else:
                code = self.p[self.i:self.i + 2]
                self.i += 2
            return _lit(chr(int(code, 16)))
        if c == "u":
            code = self.p[self.i:self.i + 4]
            self.i += 4
            return _lit(chr(int(code, 16)))
        if c == "0":
            m = regex.match(r"[0-3]?[0-7]{1,2}", self.p[self.i:])
            if not m:
                raise UnsupportedPattern("bad octal escape in %r" % self.p)
            self.i += m.end()
            return _lit(chr(int(m.group(0), 8)))
        if c == "c":
            ch = self._peek()
            self.i += 1
            return _lit(chr(ord(ch) ^ 64))
        if c == "Q":
            end = self.p.find("\\E", self.i)
            end = len(self.p) if end < 0 else end
            text = self.p[self.i:end]
            self.i = min(len(self.p), end + 2)
            return "".join(_lit(ch) for ch in text)
        if not in_class:
            if c in "bBA":
                return "\\" + c
            if c == "z":
                return r"\Z"
            if c == "Z":
                return _DOLLAR
            if c == "R":
                return r"(?:\r\n|[\n\x0b\f\r\x85\u2028\u2029])"
            if c.isdigit():
                return "\\" + c
        if c.isalpha() and c.isascii():
            raise UnsupportedPattern("unknown escape \\%s in %r" % (c, self.p))
        return _lit(c)  # an escaped metacharacter stands for itself

    def _class_atom(self):
        """One item of a class: (text, True) for a single character, (set, False) otherwise."""
        c = self._peek()
        self.i += 1
        if c == "[":
            return self._class(), False
        if c == "\\":
            text = self._escape(in_class=True)
            return text, not text.startswith("[")
        return _lit(c), True

    def _class(self):
        """After '[': a Java character class (nested classes are unions, '&&' intersects)."""
        negated = self._peek() == "^"
        if negated:
            self.i += 1
        operands, parts = [], []
        first = True
        while True:
            c = self._peek()
            if not c:
                raise UnsupportedPattern("unclosed character class in %r" % self.p)
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            if c == "&" and self._peek(1) == "&":
                self.i += 2
                operands.append("".join(parts))
                parts = []
                continue
            text, single = self._class_atom()
            if single and self._peek() == "-" and self._peek(1) not in ("]", "[", ""):
                self.i += 1
                high, high_single = self._class_atom()
                if not high_single:
                    raise UnsupportedPattern("bad range in %r" % self.p)
                text = text + "-" + high
            parts.append(text)
        operands.append("".join(parts))
        body = "&&".join("[%s]" % o for o in operands) if len(operands) > 1 else operands[0]
        return "[%s%s]" % ("^" if negated else "", body)


_COMPILED = {}


def java_pattern(pattern):
    """The compiled ``regex`` (V1) equivalent of Java regular expression ``pattern``."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        compiled = _COMPILED[pattern] = regex.compile(_JavaRegex(pattern).translate(), regex.V1)
    return compiled


def java_matches(pattern, value):
    """``value.matches(pattern)`` as Java would answer it."""
    return java_pattern(pattern).fullmatch(value) is not None


# -- walking the request ------------------------------------------------------------------------


def _short(value):
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


class _Out(object):
    def __init__(self):
        self.items = []

    def add(self, path, generic, message, value=_NO_VALUE, source="model"):
        self.items.append(Finding(path.lstrip("."), generic.lstrip("."), message, value, source))


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _snapshot_shapes():
    """The shapes of the project's service-model snapshot if the installed botocore is older than the
    botocore it was taken from (Python 3.8's last botocore is), else None. The service's limits then
    are the snapshot's: an older botocore's ``max`` or enum may be one the service has since widened."""
    if not _SNAPSHOT:
        import botocore
        from sagemaker_hetero._checks import service as _service

        data = _service._model()
        older = _version(botocore.__version__) < _version(data["botocore_version"])
        _SNAPSHOT.append(data["shapes"] if older else None)
    return _SNAPSHOT[0]


_SNAPSHOT = []


def _version(text):
    return tuple(int(part) for part in text.split(".")[:3] if part.isdigit())


def _walk(value, shape, path, generic, out):
    """Our checks of ``value`` against ``shape``; type mismatches are botocore's to report."""
    kind = shape.type_name
    meta = shape.metadata
    newer = _snapshot_shapes()
    if newer is not None and shape.name in newer:
        meta = dict((k, v) for k, v in newer[shape.name].items() if k in ("min", "max", "enum", "pattern"))
    if kind == "structure":
        if not isinstance(value, dict):
            return
        for name, member in shape.members.items():
            if name in value:
                _walk(value[name], member, "%s.%s" % (path, name), "%s.%s" % (generic, name), out)
    elif kind == "list":
        if not isinstance(value, (list, tuple)):
            return
        if "max" in meta and len(value) > meta["max"]:
            out.add(path, generic, "holds more than %d items" % meta["max"], len(value))
        for i, item in enumerate(value):
            _walk(item, shape.member, "%s[%d]" % (path, i), generic + "[*]", out)
    elif kind == "map":
        if not isinstance(value, dict):
            return
        if "max" in meta and len(value) > meta["max"]:
            out.add(path, generic, "holds more than %d entries" % meta["max"], len(value))
        for key, item in value.items():
            where = "%s[%s]" % (path, _short(key))
            _walk(key, shape.key, where + "(key)", generic + "{key}", out)
            _walk(item, shape.value, where, generic + "{value}", out)
    elif kind == "string":
        if not isinstance(value, str):
            return
        if "max" in meta and len(value) > meta["max"]:
            out.add(path, generic, "is longer than %d characters" % meta["max"], value)
        enum = meta.get("enum")
        if enum and value not in enum:
            out.add(path, generic, "is not one of the %s values (%d)" % (shape.name, len(enum)), value)
        pattern = meta.get("pattern")
        if pattern is not None and not java_matches(pattern, value):
            out.add(path, generic, "does not match the pattern %s" % pattern, value)
    elif kind in ("integer", "long"):
        if isinstance(value, bool):
            out.add(path, generic, "is a bool where an %s is expected" % kind, value)
            return
        if not isinstance(value, int):
            return
        low, high = INT32 if kind == "integer" else INT64
        if not low <= value <= high:
            out.add(path, generic, "is outside the %d-bit range of %s" % (32 if kind == "integer" else 64,
                                                                      "an integer" if kind == "integer" else "a long"),
                    value)
        elif "max" in meta and value > meta["max"]:
            out.add(path, generic, "is above the maximum %s" % meta["max"], value)
    elif kind in ("float", "double"):
        if isinstance(value, bool):
            out.add(path, generic, "is a bool where a %s is expected" % kind, value)
            return
        if _is_number(value):
            if isinstance(value, float) and not math.isfinite(value):
                out.add(path, generic, "is not a finite number", value)
            elif "max" in meta and value > meta["max"]:
                out.add(path, generic, "is above the maximum %s" % meta["max"], value)


# -- botocore's report, with our paths ------------------------------------------------------------


def _botocore_path(name):
    """botocore's error name (``.A.B[0].C``, ``.Map.key``, ``.Map (key: k)``) as (path, generic)."""
    shape = input_shape()
    rest = name
    path, generic = "", ""
    while rest:
        kind = shape.type_name
        if kind == "structure" and rest.startswith("."):
            end = len(rest)
            for stop in (".", "[", " "):
                j = rest.find(stop, 1)
                if j >= 0:
                    end = min(end, j)
            member = rest[1:end]
            if member not in shape.members:
                break
            shape = shape.members[member]
            path += "." + member
            generic += "." + member
            rest = rest[end:]
        elif kind == "list" and rest.startswith("["):
            j = rest.find("]")
            path += rest[:j + 1]
            generic += "[*]"
            shape = shape.member
            rest = rest[j + 1:]
        elif kind == "map" and rest.startswith(" (key: ") and rest.endswith(")"):
            key = rest[len(" (key: "):-1]
            return path + "[%r](key)" % key, generic + "{key}"
        elif kind == "map" and rest.startswith("."):
            return path + "[%r]" % rest[1:], generic + "{value}"
        else:
            break
    if rest:  # not understood: keep botocore's spelling
        return name, name
    return path, generic


def _botocore_findings(request, out):
    from botocore.validate import ParamValidator

    report = ParamValidator().validate(request, input_shape())
    errors = getattr(report, "_errors", None)
    if errors is None:  # a botocore without the list: one finding with the whole report
        if report.has_errors():
            out.add("", "", report.generate_report(), source="botocore")
        return
    for reason, name, extra in errors:
        path, generic = _botocore_path(name)
        if reason == "missing required field":
            member = extra["required_name"]
            out.add(path + "." + member, generic + "." + member, "is required", source="botocore")
        elif reason == "unknown field":
            member = extra["unknown_param"]
            if member == "FileDataSource":
                continue  # reported below with its reason
            out.add(path + "." + member, generic + "." + member, "is not a member of the request shape",
                    source="botocore")
        elif reason == "invalid type":
            out.add(path, generic, "has the wrong type (expected %s)" % ", ".join(
                t.replace("<class '", "").replace("'>", "") for t in extra["valid_types"]),
                extra["param"], source="botocore")
        elif reason == "invalid range":
            out.add(path, generic, "is below the minimum %s" % extra["min_allowed"], extra["param"],
                    source="botocore")
        elif reason == "invalid length":
            out.add(path, generic, "is shorter than the minimum length %s" % extra["min_allowed"],
                    extra["param"], source="botocore")
        else:
            out.add(path, generic, report._format_error((reason, name, extra)), source="botocore")


# -- the service's own rules ----------------------------------------------------------------------


def _get(d, *keys):
    for key in keys:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def _service_findings(request, out):
    def add(path, generic, message, value=_NO_VALUE):
        out.add(path, generic, message, value, source="service")

    resource = request.get("ResourceConfig")
    groups = _get(resource, "InstanceGroups")
    names = []
    if isinstance(groups, list):
        if isinstance(resource, dict) and ("InstanceType" in resource or "InstanceCount" in resource):
            add("ResourceConfig", "ResourceConfig",
                "InstanceType or InstanceCount cannot be specified with InstanceGroups")
        for i, g in enumerate(groups):
            name = _get(g, "InstanceGroupName")
            if isinstance(name, str):
                if name in names:
                    add("ResourceConfig.InstanceGroups[%d].InstanceGroupName" % i,
                        "ResourceConfig.InstanceGroups[*].InstanceGroupName", "is the name of another group", name)
                names.append(name)
    if isinstance(resource, dict) and not groups and not ("InstanceType" in resource and "InstanceCount" in resource):
        add("ResourceConfig", "ResourceConfig", "needs InstanceType and InstanceCount, or InstanceGroups (a job "
            "needs instances)")

    channels = request.get("InputDataConfig")
    if isinstance(channels, list):
        seen, assigned, unassigned = set(), [], []
        for i, ch in enumerate(channels):
            where, generic = "InputDataConfig[%d]" % i, "InputDataConfig[*]"
            name = _get(ch, "ChannelName")
            if isinstance(name, str):
                if name in seen:
                    add(where + ".ChannelName", generic + ".ChannelName", "is the name of another channel", name)
                seen.add(name)
            if _get(ch, "DataSource", "FileDataSource") is not None:
                add(where + ".DataSource.FileDataSource", generic + ".DataSource.FileDataSource",
                    "is for local runs only; an AWS request reads S3 (S3DataSource)")
            refs = _get(ch, "DataSource", "S3DataSource", "InstanceGroupNames")
            if refs is None:
                unassigned.append(name)
                continue
            assigned.append(name)
            if not isinstance(refs, list):
                continue
            if not isinstance(groups, list):
                add(where + ".DataSource.S3DataSource.InstanceGroupNames",
                    generic + ".DataSource.S3DataSource.InstanceGroupNames",
                    "names instance groups but the job has no InstanceGroups", refs)
                continue
            for j, ref in enumerate(refs):
                if isinstance(ref, str) and ref not in names:
                    add("%s.DataSource.S3DataSource.InstanceGroupNames[%d]" % (where, j),
                        generic + ".DataSource.S3DataSource.InstanceGroupNames[*]",
                        "is not an instance group of the job", ref)
        if assigned and unassigned:
            add("InputDataConfig", "InputDataConfig",
                "some channels have assigned instance groups while others do not", (assigned, unassigned))

    stopping = request.get("StoppingCondition")
    runtime = _get(stopping, "MaxRuntimeInSeconds")
    wait = _get(stopping, "MaxWaitTimeInSeconds")
    if _is_number(runtime) and runtime > MAX_RUNTIME_DOCUMENTED:
        add("StoppingCondition.MaxRuntimeInSeconds", "StoppingCondition.MaxRuntimeInSeconds",
            "is above the documented 28 days (%d s)" % MAX_RUNTIME_DOCUMENTED, runtime)
    if request.get("EnableManagedSpotTraining") is True and wait is None:
        add("StoppingCondition.MaxWaitTimeInSeconds", "StoppingCondition.MaxWaitTimeInSeconds",
            "is required for managed spot training")
    if _is_number(wait) and _is_number(runtime) and wait < runtime:
        add("StoppingCondition.MaxWaitTimeInSeconds", "StoppingCondition.MaxWaitTimeInSeconds",
            "is below MaxRuntimeInSeconds", wait)

    tags = request.get("Tags")
    if isinstance(tags, list):
        keys = set()
        for i, tag in enumerate(tags):
            key = _get(tag, "Key")
            if not isinstance(key, str):
                continue
            if key.lower().startswith("aws:"):
                add("Tags[%d].Key" % i, "Tags[*].Key", "starts with the reserved prefix 'aws:'", key)
            if key in keys:
                add("Tags[%d].Key" % i, "Tags[*].Key", "is the key of another tag", key)
            keys.add(key)


# -- the judge --------------------------------------------------------------------------------------


def findings(request):
    """Every problem with CreateTrainingJob ``request``, as :class:`Finding` values."""
    out = _Out()
    if not isinstance(request, dict):
        out.add("", "", "the request is not a dict", request, source="botocore")
        return out.items
    _botocore_findings(request, out)
    _walk(request, input_shape(), "", "", out)
    _service_findings(request, out)
    return out.items


def problems(request):
    """Every ``(path, message)`` the service would refuse CreateTrainingJob ``request`` for."""
    return [
        (f.path, f.message if f.value is _NO_VALUE else "%s (got %s)" % (f.message, _short(f.value)))
        for f in findings(request)
    ]


def model_patterns():
    """Every pattern reachable from the operation's input shape (to test that each translates)."""
    found, seen = set(), set()

    def visit(shape):
        if shape.name in seen:
            return
        seen.add(shape.name)
        if "pattern" in shape.metadata:
            found.add(shape.metadata["pattern"])
        if shape.type_name == "structure":
            for member in shape.members.values():
                visit(member)
        elif shape.type_name == "list":
            visit(shape.member)
        elif shape.type_name == "map":
            visit(shape.key)
            visit(shape.value)

    visit(input_shape())
    return sorted(found)

"""A user's (or an organisation's) price table: ``prices=`` in Python, ``--prices FILE`` on the command line.

A table gives on-demand USD per hour by instance type, for every region or for one. It is a mapping
(``{"ml.c5.xlarge": 0.204, "us-east-1": {"ml.p3.2xlarge": 3.06}}``), or a file of that JSON, or a
CSV file with a header naming the columns ``instance_type``, ``usd_per_hour`` and, optionally,
``region`` (empty: every region); blank lines and lines starting with ``#`` are skipped. A region's
own price wins over an every-region one. Everything wrong is reported at once in one
:class:`ConfigError`, each problem naming the file's line (or the mapping's key): the first
``_defaults.MAX_PRICE_PROBLEMS`` of them, then how many more. A price must be in the sane range
(``_cost.prices.usd``; JSON numbers are read as written, never as floats), and a table holds at most
``_defaults.MAX_PRICE_ENTRIES`` prices. Parsing is pure and linear in the text; :func:`load` reads
the file (at most 1 MiB).
"""
import bisect
import csv
import json
import os
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._checks import text as _spec_text
from sagemaker_hetero._cost.prices import RANGE_WORDS, Price, is_region, shown, usd
from sagemaker_hetero._model.instance_types import is_instance_type, named_as_type
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = ["PriceTable", "load", "parse", "from_mapping", "table_of"]

_WS = re.compile(r"[ \t\n\r]*")
_CSV_COLUMNS = ("instance_type", "usd_per_hour", "region")
_PRICE_WORDS = "must be the on-demand USD per hour, %s" % RANGE_WORDS
#: What a table's problems are problems with.
SUBJECT = "the price table"


class PriceTable(object):
    """Prices by ``(region or None, instance_type)``; :meth:`price` looks one up."""

    def __init__(self, entries, source):
        self.entries = dict(entries)
        self.source = source

    def price(self, region, instance_type):
        """The :class:`Price` of ``instance_type`` in ``region`` (that region's, else every region's), or None."""
        for key in ((region, instance_type), (None, instance_type)):
            if key in self.entries:
                return Price(instance_type, key[0], self.entries[key], self.source)
        return None

    def regions(self, instance_type):
        """The regions ``instance_type`` has a price of its own in, sorted."""
        return sorted(r for r, t in self.entries if t == instance_type and r is not None)

    def __len__(self):
        return len(self.entries)

    def __repr__(self):
        return "PriceTable(%d prices, %s)" % (len(self.entries), self.source)


def _value(value):
    """``value`` as a problem keeps it: a scalar as it is, unless long; a long text (a 900 KB key), a long
    or deep structure or an int too long to write, as :func:`shown` writes it (cut to 200 characters)."""
    if value is None or isinstance(value, (bool, float)) or (isinstance(value, int) and value.bit_length() <= 800):
        return value
    try:
        short = len(repr(value)) <= 200
    except (RecursionError, ValueError):
        short = False
    return value if short else _Number(shown(value, 200))


def _named(instance_type):
    """An instance type as a problem's message names it: as it is, or :func:`shown` if it is no type."""
    return instance_type if is_instance_type(instance_type) else shown(instance_type, 60)


class _Collector(object):
    """The entries and problems of a table being read: at most ``MAX_PRICE_ENTRIES`` entries (one more
    is a :class:`ConfigError` at once), the first ``MAX_PRICE_PROBLEMS`` problems kept, the rest counted."""

    def __init__(self, argument, where):
        self.argument, self.where = argument, where
        self.problems, self.entries, self.lines = [], {}, {}
        self.more = self.added = 0

    def problem(self, at, message, *value):
        if len(self.problems) >= D.MAX_PRICE_PROBLEMS:
            self.more += 1
            return
        self.problems.append(Problem(self.argument, "%s%s: %s" % (self.where, at, message), *map(_value, value)))

    def too_many(self, count, noun="prices"):
        """Refuse a table of ``count`` entries when that is more than ``MAX_PRICE_ENTRIES``."""
        if count > D.MAX_PRICE_ENTRIES:
            raise ConfigError([Problem(self.argument, self.where + "holds {:,} {}, more than the {:,} a price table "
                                       "may hold".format(count, noun, D.MAX_PRICE_ENTRIES))], SUBJECT)

    def add(self, at, region, instance_type, price):
        self.added += 1
        self.too_many(self.added)
        bad = False
        if region is not None and not is_region(region):
            self.problem(at, "is not a region name (such as us-west-2)", region)
            bad = True
        if not is_instance_type(instance_type):
            self.problem(at, "is not a SageMaker instance type (ml.<family>.<size>)", instance_type)
            bad = True
        try:
            amount = usd(price)
        except ValueError:
            self.problem(at, "%s %s" % (_named(instance_type), _PRICE_WORDS), price)
            return
        key = (region, instance_type)
        if not bad and key in self.lines:
            self.problem(at, "%s%s is priced twice (first %s)" % (
                instance_type, " in %s" % region if region else "", self.lines[key]))
        elif not bad:
            self.entries[key], self.lines[key] = amount, at

    def table(self, source):
        if self.more:
            where = self.where.rstrip() + ": " if self.where else ""
            self.problems.append(Problem(self.argument, where + "... and {:,} more problems ({:,} in all)".format(
                self.more, self.more + len(self.problems))))
        if self.problems:
            raise ConfigError(self.problems, SUBJECT)
        return PriceTable(self.entries, source)


def from_mapping(mapping, argument="prices"):
    """The :class:`PriceTable` of a Python mapping (``prices={...}``)."""
    out = _Collector(argument, "")
    out.too_many(len(mapping))
    for key, value in mapping.items():
        at = "[%s]" % shown(key, 200)
        if isinstance(value, dict) and isinstance(key, str) and not named_as_type(key):
            for itype, price in value.items():
                out.add("%s[%s]" % (at, shown(itype, 200)), key, itype, price)
        else:
            out.add(at, None, key, value)
    return out.table("the prices given (prices=)")


class _Lines(object):
    """The line number of a place in ``text``, found in the sorted places of its line ends (counting
    from the start each time made a long file's reading quadratic)."""

    def __init__(self, text):
        self.ends = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, pos):
        return bisect.bisect_left(self.ends, pos) + 1


class _Number(str):
    """A JSON number (or ``NaN``, ``Infinity``) as written: :func:`usd` reads it exactly, and a
    problem shows it as the file has it (not ``inf`` for ``1e400``); never made into an int or float."""

    def __repr__(self):
        return str.__str__(self)


class _Pairs(list):
    """A JSON object's ``(key, value, line)`` pairs, in their order."""


class _Bad(ValueError):
    def __init__(self, pos, expected):
        ValueError.__init__(self, expected)
        self.pos, self.expected = pos, expected


def _pairs(text, pos, decoder, nested, line_of):
    """``([(key, value, line)], end)`` of the JSON object starting at ``text[pos]``; an object value
    is read as pairs again once (``nested``); ``line_of`` numbers the lines (:class:`_Lines`)."""
    pairs = _Pairs()
    pos = _WS.match(text, pos + 1).end()
    if text.startswith("}", pos):
        return pairs, pos + 1
    while True:
        if not text.startswith('"', pos):
            raise _Bad(pos, "a key in double quotes")
        key, pos = json.decoder.scanstring(text, pos + 1)
        pos = _WS.match(text, pos).end()
        if not text.startswith(":", pos):
            raise _Bad(pos, "':' after the key")
        pos = _WS.match(text, pos + 1).end()
        line = line_of(pos)
        if nested and text.startswith("{", pos):
            value, pos = _pairs(text, pos, decoder, False, line_of)
        else:
            value, pos = decoder.raw_decode(text, pos)
        pairs.append((key, value, line))
        pos = _WS.match(text, pos).end()
        if text.startswith("}", pos):
            return pairs, pos + 1
        if not text.startswith(",", pos):
            raise _Bad(pos, "',' or '}'")
        pos = _WS.match(text, pos + 1).end()


def _parse_json(text, out):
    decoder = json.JSONDecoder(parse_float=_Number, parse_int=_Number, parse_constant=_Number)
    start, line_of = _WS.match(text).end(), _Lines(text)
    try:
        if not text.startswith("{", start):
            raise _Bad(start, "a JSON object: {\"ml.c5.xlarge\": 0.204, ...}")
        pairs, end = _pairs(text, start, decoder, True, line_of)
        if _WS.match(text, end).end() != len(text):
            raise _Bad(_WS.match(text, end).end(), "nothing after the object")
    except _Bad as exc:
        return out.problem("line %d" % line_of(exc.pos), "is not valid: expected %s" % exc.expected)
    except json.JSONDecodeError as exc:
        return out.problem("line %d" % exc.lineno, "is not valid JSON: %s" % exc.msg)
    except RecursionError:
        return out.problem("line 1", "nests too deep")
    for key, value, line in pairs:
        if isinstance(value, _Pairs) and not named_as_type(key):  # a region's prices
            for itype, price, at in value:
                out.add("line %d" % at, key, itype, price)
        elif isinstance(value, _Pairs):
            out.add("line %d" % line, None, key, dict((k, v) for k, v, _ in value))
        else:
            out.add("line %d" % line, None, key, value)


def _cells(line):
    """The cells of one CSV line, read apart from the others (a stray quote cannot swallow the lines
    after it); raises ``csv.Error``."""
    return next(csv.reader([line], strict=True), [])


def _parse_csv(text, out):
    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]
    if not rows:
        return out.problem("line 1", "holds no header: the first line names the columns instance_type,usd_per_hour"
                                     "[,region]")
    out.too_many(len(rows) - 1, "rows")
    try:
        header = [cell.strip().lower() for cell in _cells(rows[0][1])]
    except csv.Error:
        header = []
    missing = [c for c in _CSV_COLUMNS[:2] if c not in header]
    unknown = [c for c in header if c not in _CSV_COLUMNS]
    if missing or unknown or len(set(header)) != len(header):
        return out.problem("line %d" % rows[0][0], "is not the header: it names the columns instance_type,"
                           "usd_per_hour[,region] once each", rows[0][1])
    for n, line in rows[1:]:
        try:
            cells = _cells(line)
        except csv.Error as exc:
            out.problem("line %d" % n, "is not a CSV row (%s)" % exc, line)
            continue
        if len(cells) != len(header):
            out.problem("line %d" % n, "has %d values for %d columns" % (len(cells), len(header)), line)
            continue
        row = dict(zip(header, (c.strip() for c in cells)))
        out.add("line %d" % n, row.get("region") or None, row["instance_type"], row["usd_per_hour"])


def parse(text, name, argument="prices"):
    """The :class:`PriceTable` of a price file's ``text`` (``name``: its path; JSON if it ends in
    ``.json`` or its text starts with ``{``, else CSV). Raises :class:`ConfigError`."""
    out = _Collector(argument, "%s " % name)
    is_json = name.lower().endswith(".json") or (not name.lower().endswith(".csv") and text.lstrip().startswith("{"))
    (_parse_json if is_json else _parse_csv)(text, out)
    return out.table("prices file %s" % name)


def load(path, argument="prices"):
    """The :class:`PriceTable` of the file at ``path``. Raises :class:`ConfigError`: unreadable, over
    1 MiB, not UTF-8, or malformed (every problem with its line)."""
    name = os.fspath(path)
    try:
        raw = _spec_text.read_bounded(name, regular_only=True)
    except OSError as exc:
        raise ConfigError([Problem(argument, "cannot be read: %s" % (exc.strerror or exc), name)], SUBJECT)
    if len(raw) > _spec_text.MAX_SPEC_BYTES:
        raise ConfigError([Problem(argument, "is larger than {:,} bytes, the most a price file may be".format(
            _spec_text.MAX_SPEC_BYTES), name)], SUBJECT)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError([Problem(argument, "is not UTF-8 text (%s)" % exc, name)], SUBJECT)
    return parse(text, name, argument)


def table_of(prices, argument="prices", environ=None):
    """The :class:`PriceTable` ``prices`` stands for: a table as it is, a mapping, a file's path; None:
    the file named by ``SAGEMAKER_HETERO_PRICES``, if set, else None (no table)."""
    from sagemaker_hetero._defaults import PRICES_VARIABLE

    if prices is None:
        path = (os.environ if environ is None else environ).get(PRICES_VARIABLE)
        return load(path, PRICES_VARIABLE) if path else None
    if isinstance(prices, PriceTable):
        return prices
    if isinstance(prices, dict):
        return from_mapping(prices, argument)
    if isinstance(prices, (str, bytes, os.PathLike)):
        return load(os.fsdecode(prices), argument)
    raise ConfigError([Problem(argument, "must be a price file's path or a mapping of instance type to USD per "
                                         "hour", prices)], SUBJECT)

"""On-demand hourly prices of SageMaker training instances, read from the AWS Price List's answers. Pure.

A :class:`Price` is one instance type's on-demand USD per hour in one region, with where it came
from and as of when. :func:`filters` are the GetProducts filters that ask the Price List Query API
for it; :func:`hourly_price` reads the answer's ``PriceList`` items (each a JSON document held in a
string) and keeps only what is the training price of that type: ``terms.OnDemand.*.priceDimensions.*``
in USD per ``Hrs``, on a product of that region and type whose usage type is ``<PREFIX>-Train:ml.<type>``;
training-plan fees, $0 rows and Outposts are left out. Anything else, or two different prices left,
is no price at all (:class:`Unknown`, with the reason): a price is never guessed. Nor is a price
outside the sane range (:func:`usd`: from ``_defaults.MIN_USD_PER_HOUR`` to ``MAX_USD_PER_HOUR``, in
at most ``MAX_PRICE_CHARS`` characters: not ``1e400``, ``NaN``, ``-5`` or 10,000 digits) used, from
the Price List, the cache or a price file: an answer holding one is unknown, naming it.
"""
import decimal
import json
import re

import attrs

from sagemaker_hetero import _defaults as D

__all__ = ["Price", "Unknown", "SERVICE_CODE", "TRAINING_FILTER", "PERMISSION", "filters", "hourly_price", "usd",
           "shown", "is_region", "RANGE_WORDS"]

#: The Price List's service code of SageMaker, and the filter keeping the products of its training instances.
SERVICE_CODE = "AmazonSageMaker"
TRAINING_FILTER = {"Type": "TERM_MATCH", "Field": "component", "Value": "Training"}
#: The IAM action reading the Price List takes.
PERMISSION = "pricing:GetProducts"
_UNIT = "Hrs"
_REGION = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d+$")
#: A price as written: ASCII digits (``decimal`` also reads ``١٢`` and ``1_000``, which no price is written as).
_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_LEAST = decimal.Decimal(D.MIN_USD_PER_HOUR)
_MOST = decimal.Decimal(D.MAX_USD_PER_HOUR)
#: What a price must be, in words.
RANGE_WORDS = "a number from %s to %s" % (D.MIN_USD_PER_HOUR, format(D.MAX_USD_PER_HOUR, ","))


def is_region(value):
    """Whether ``value`` reads as an AWS region name (``us-west-2``, ``ap-southeast-1``)."""
    return isinstance(value, str) and bool(_REGION.match(value))


@attrs.frozen
class Price(object):
    """``usd_per_hour`` (a :class:`decimal.Decimal`, exact) of ``instance_type`` in ``region`` (None: a
    user's price for every region); ``source`` says where it came from (``"AWS Price List"``, ``"cache"``,
    ``"prices file <path>"``, ``"prices="``) and ``as_of`` when it was read (``YYYY-MM-DD``, or None)."""

    instance_type = attrs.field()
    region = attrs.field()
    usd_per_hour = attrs.field()
    source = attrs.field()
    as_of = attrs.field(default=None)

    def origin(self):
        """``AWS Price List as of 2024-05-01``: where the price came from, in words."""
        return "%s as of %s" % (self.source, self.as_of) if self.as_of else self.source


@attrs.frozen
class Unknown(object):
    """No price for ``instance_type``: ``reason`` says why (and what to do), without naming the type
    (so that the types with one reason are listed together)."""

    instance_type = attrs.field()
    reason = attrs.field()


def usd(value):
    """``value`` (a number or a numeric string) as an exact :class:`decimal.Decimal` of USD per hour; a
    float is read as the decimal it prints as (``0.204``, not its binary neighbour). Raises
    ``ValueError`` (saying why) unless it is a price in the sane range: a finite number from
    ``_defaults.MIN_USD_PER_HOUR`` to ``MAX_USD_PER_HOUR`` (:data:`RANGE_WORDS`), written in at most
    ``MAX_PRICE_CHARS`` characters."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, decimal.Decimal)):
        raise ValueError("not a number")
    if isinstance(value, int) and not _LEAST <= value <= _MOST:  # before str(): a huge int is slow to write
        raise ValueError("out of the sane range of a price, %s USD per hour" % RANGE_WORDS)
    text = repr(value) if isinstance(value, float) else str(value).strip()
    if len(text) > D.MAX_PRICE_CHARS:
        raise ValueError("written in %d characters, more than the %d a price may take" % (len(text), D.MAX_PRICE_CHARS))
    try:
        amount = decimal.Decimal(text)
    except (decimal.InvalidOperation, ValueError):
        raise ValueError("not a number")
    if not amount.is_finite():
        raise ValueError("not a finite number")
    if not _DECIMAL.match(text):
        raise ValueError("not a number written in ASCII digits")
    if not _LEAST <= amount <= _MOST:
        raise ValueError("out of the sane range of a price, %s USD per hour" % RANGE_WORDS)
    return amount


def shown(value, most=40):
    """``value`` as a problem or reason shows it: its ``repr``, cut to ``most`` characters (``...`` and
    how long it is after), so that a hostile value never floods a message."""
    if isinstance(value, int) and value.bit_length() > 4 * most:  # repr() refuses an int of over 4,300 digits
        return "an integer of %s digits" % format(_digits(value), ",")
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # nested too deep, or holding an int too long to write
        return "a %s too deep or too large to show" % type(value).__name__
    if len(text) <= most:
        return text
    return "%s... (%s characters)" % (text[:most], format(len(text), ","))


def _digits(value):
    """How many decimal digits the int ``value`` has, without writing it out."""
    n = abs(value)
    guess = max(1, int(n.bit_length() * 0.30102999566398))  # bits x log10(2): the count, or one less
    return guess + (n >= 10 ** guess)


def filters(region, instance_type):
    """The GetProducts filters for the training price of ``instance_type`` in ``region``."""
    return [
        {"Type": "TERM_MATCH", "Field": "regionCode", "Value": region},
        {"Type": "TERM_MATCH", "Field": "instanceName", "Value": instance_type},
        dict(TRAINING_FILTER),
    ]


def _dict(value):
    """``value`` if it is a mapping, else an empty one: an answer of another shape holds nothing."""
    return value if isinstance(value, dict) else {}


def _is_training_product(product, region, instance_type):
    attributes = _dict(_dict(product).get("attributes"))
    if attributes.get("instanceName") != instance_type or attributes.get("regionCode", region) != region:
        return False
    if attributes.get(TRAINING_FILTER["Field"], TRAINING_FILTER["Value"]) != TRAINING_FILTER["Value"]:
        return False
    if "outposts" in str(attributes.get("locationType") or "").lower():
        return False
    usage = str(attributes.get("usagetype") or "")
    return bool(re.match(r"^([A-Z0-9]+-)?Train:%s$" % re.escape(instance_type), usage))


def _is_zero(value):
    """Whether ``value`` is a $0 row's price (left out where the product has a price, else named)."""
    try:
        return isinstance(value, (str, int, float)) and len(str(value)) <= D.MAX_PRICE_CHARS and \
            decimal.Decimal(str(value).strip()) == 0
    except (decimal.InvalidOperation, ValueError):
        return False


def _on_demand_rates(item, rejected, zeros):
    """The USD-per-hour rates of one PriceList item's on-demand terms; a $0 row's is appended to
    ``zeros``, and a rate that is no price in the sane range to ``rejected`` as ``(value, why)``."""
    rates = []
    for term in _dict(_dict(item.get("terms")).get("OnDemand")).values():
        for dimension in map(_dict, _dict(_dict(term).get("priceDimensions")).values()):
            if dimension.get("unit") != _UNIT or "upfront" in str(dimension.get("description") or "").lower():
                continue
            value = _dict(dimension.get("pricePerUnit")).get("USD")
            try:
                rates.append(usd(value))
            except ValueError as exc:
                if _is_zero(value):
                    zeros.append(value)
                elif value is not None:
                    rejected.append((value, str(exc)))
    return rates


def hourly_price(price_list, region, instance_type):
    """``(usd_per_hour, None)`` from a GetProducts answer's ``PriceList`` items (JSON strings, or
    their parsed documents), or ``(None, reason)`` when the items hold no single training price of
    ``instance_type`` in ``region``, or one out of the sane range (:func:`usd`)."""
    rates, rejected, zeros = set(), [], []
    for raw in price_list or ():
        try:
            item = json.loads(raw) if isinstance(raw, str) else raw
        except (ValueError, RecursionError):
            continue
        if isinstance(item, dict) and _is_training_product(item.get("product"), region, instance_type):
            rates.update(_on_demand_rates(item, rejected, zeros))
    if rejected:
        value, why = rejected[0]
        return None, "the AWS Price List's on-demand training price of it in %s is no price (%s): %s" % (
            region, why, shown(value))
    if not rates and zeros:
        return None, "the AWS Price List has only a $0 on-demand training price of it in %s: %s" % (
            region, shown(zeros[0]))
    if not rates:
        return None, "the AWS Price List has no on-demand training price of it in %s" % region
    if len(rates) > 1:
        return None, "the AWS Price List has %d different on-demand training prices of it in %s (%s)" % (
            len(rates), region, ", ".join("${:f}".format(r.normalize()) for r in sorted(rates)))
    return rates.pop(), None

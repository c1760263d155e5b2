"""On-demand hourly prices of SageMaker training instances, read from the AWS Price List's answers. Pure.

A :class:`Price` is one instance type's on-demand USD per hour in one region, with where it came
from and as of when. :func:`filters` are the GetProducts filters that ask the Price List Query API
for it; :func:`hourly_price` reads the answer's ``PriceList`` items (each a JSON document held in a
string) and keeps only what is the training price of that type: ``terms.OnDemand.*.priceDimensions.*``
in USD per ``Hrs``, on a product of that region and type whose usage type is ``<PREFIX>-Train:ml.<type>``;
training-plan fees, $0 rows and Outposts are left out. Anything else, or two different prices left,
is no price at all (:class:`Unknown`, with the reason): a price is never guessed.
"""
import decimal
import json
import re

import attrs

__all__ = ["Price", "Unknown", "SERVICE_CODE", "TRAINING_FILTER", "PERMISSION", "filters", "hourly_price", "usd",
           "is_instance_type", "is_region"]

#: The Price List's service code of SageMaker, and the filter keeping the products of its training instances.
SERVICE_CODE = "AmazonSageMaker"
TRAINING_FILTER = {"Type": "TERM_MATCH", "Field": "component", "Value": "Training"}
#: The IAM action reading the Price List takes.
PERMISSION = "pricing:GetProducts"
_UNIT = "Hrs"
_INSTANCE_TYPE = re.compile(r"^ml\.[a-z0-9-]+\.[a-z0-9-]+$")
_REGION = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d+$")


def is_instance_type(value):
    """Whether ``value`` reads as a SageMaker instance type (``ml.<family>.<size>``)."""
    return isinstance(value, str) and bool(_INSTANCE_TYPE.match(value))


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
    """``value`` (a number or a numeric string) as an exact :class:`decimal.Decimal` of USD; a float is
    read as the decimal it prints as (``0.204``, not its binary neighbour). Raises ``ValueError``
    unless it is a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, decimal.Decimal)):
        raise ValueError("not a number")
    try:
        amount = decimal.Decimal(repr(value) if isinstance(value, float) else str(value).strip())
    except decimal.InvalidOperation:
        raise ValueError("not a number")
    if not amount.is_finite() or amount < 0:
        raise ValueError("not a finite number >= 0")
    return amount


def filters(region, instance_type):
    """The GetProducts filters for the training price of ``instance_type`` in ``region``."""
    return [
        {"Type": "TERM_MATCH", "Field": "regionCode", "Value": region},
        {"Type": "TERM_MATCH", "Field": "instanceName", "Value": instance_type},
        dict(TRAINING_FILTER),
    ]


def _is_training_product(product, region, instance_type):
    attributes = (product or {}).get("attributes") or {}
    if attributes.get("instanceName") != instance_type or attributes.get("regionCode", region) != region:
        return False
    if attributes.get(TRAINING_FILTER["Field"], TRAINING_FILTER["Value"]) != TRAINING_FILTER["Value"]:
        return False
    if "outposts" in (attributes.get("locationType") or "").lower():
        return False
    usage = attributes.get("usagetype") or ""
    return bool(re.match(r"^([A-Z0-9]+-)?Train:%s$" % re.escape(instance_type), usage))


def _on_demand_rates(item):
    """The USD-per-hour rates above $0 of one PriceList item's on-demand terms."""
    rates = []
    for term in ((item.get("terms") or {}).get("OnDemand") or {}).values():
        for dimension in ((term or {}).get("priceDimensions") or {}).values():
            if (dimension or {}).get("unit") != _UNIT or "upfront" in (dimension.get("description") or "").lower():
                continue
            try:
                rate = usd((dimension.get("pricePerUnit") or {}).get("USD"))
            except ValueError:
                continue
            if rate > 0:
                rates.append(rate)
    return rates


def hourly_price(price_list, region, instance_type):
    """``(usd_per_hour, None)`` from a GetProducts answer's ``PriceList`` items (JSON strings, or
    their parsed documents), or ``(None, reason)`` when the items hold no single training price of
    ``instance_type`` in ``region``."""
    rates = set()
    for raw in price_list or ():
        try:
            item = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            continue
        if isinstance(item, dict) and _is_training_product(item.get("product"), region, instance_type):
            rates.update(_on_demand_rates(item))
    if not rates:
        return None, "the AWS Price List has no on-demand training price of it in %s" % region
    if len(rates) > 1:
        return None, "the AWS Price List has %d different on-demand training prices of it in %s (%s)" % (
            len(rates), region, ", ".join("${:f}".format(r.normalize()) for r in sorted(rates)))
    return rates.pop(), None

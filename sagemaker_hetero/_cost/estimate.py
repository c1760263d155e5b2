"""What a job will cost, per instance group, from its request and the prices of its types. Pure.

Per group: ``count x USD per hour`` an hour, and the worst case, that rate for ``max_run`` (the
request's ``StoppingCondition.MaxRuntimeInSeconds``) plus, with a warm pool, its
``KeepAlivePeriodInSeconds`` (the instances are kept, and billed, that long after the job). Managed
spot is billed at most that on-demand figure; ``max_wait`` bounds the job's whole time, waiting for
spot capacity included. A group whose price is not known is "unknown", and so is every total it
is part of (the groups that are known are summed apart): a figure is never guessed. The arithmetic
is exact (:class:`decimal.Decimal`); the figures are given as floats of those exact values.
"""
import decimal

import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._cost.prices import Price, Unknown
from sagemaker_hetero._request.describe import groups_of  # noqa: F401 (re-exported: billed reads it here)
from sagemaker_hetero.exceptions import shown

__all__ = ["GroupCost", "Estimate", "estimate", "groups_of", "usd_text", "rate_text", "duration", "instance_types",
           "price_notes", "whole"]

_HOUR = decimal.Decimal(3600)
_UNKNOWN = "unknown"
_MOST_FIGURE = 10 ** 9  # the largest count or number of seconds priced: more is no real job's
_MOST_USD = decimal.Decimal(10) ** 15  # the largest sum shown to the cent: more is no real bill


def whole(value):
    """``value`` if it is a count or a number of seconds to price (an int from 0 to 10**9), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MOST_FIGURE else None


def usd_text(amount):
    """``$12.35`` (to the cent; ``<$0.01`` for less), or ``unknown`` for None (or no sum a job could cost)."""
    if amount is None or not amount.is_finite() or abs(amount) >= _MOST_USD:
        return _UNKNOWN
    if 0 < amount < decimal.Decimal("0.01"):
        return "<$0.01"
    return "${:,.2f}".format(amount.quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP))


def rate_text(amount):
    """A unit price as given (``$3.825``), or ``unknown`` (for None, or no price in the sane range)."""
    if amount is None or not amount.is_finite() or abs(amount) >= _MOST_USD:
        return _UNKNOWN
    return "$%s" % _plain(amount)


def _plain(amount):
    text = "{:f}".format(amount.normalize())
    return text if "." not in text or len(text.split(".")[1]) >= 2 else "{:.2f}".format(amount)


def duration(seconds):
    """``H:MM:SS``."""
    seconds = int(seconds)
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def _float(amount):
    return None if amount is None else float(amount)


def price_notes(groups):
    """``ml.c5.xlarge, ml.m5.xlarge: AWS Price List as of ...``: where the groups' prices came from,
    or why they are unknown, the types with the same words on one line."""
    words = {}
    for g in groups:
        text = g.price.origin() if isinstance(g.price, Price) else "unknown: %s" % g.price.reason
        types = words.setdefault(text, [])
        if g.instance_type not in types:
            types.append(g.instance_type)
    return ["%s: %s" % (", ".join(map(str, types)), text) for text, types in words.items()]


def instance_types(request):
    """The distinct instance types of a request's cluster, in order."""
    seen = []
    for _, itype, _ in groups_of(request):
        if itype not in seen:
            seen.append(itype)
    return seen


@attrs.frozen
class GroupCost(object):
    """One instance group's estimate: ``price`` is a :class:`Price` or an ``Unknown`` (with its reason);
    ``seconds`` the worst case's length."""

    name = attrs.field()
    instance_type = attrs.field()
    count = attrs.field()
    price = attrs.field()
    seconds = attrs.field()

    @property
    def known(self):
        return isinstance(self.price, Price) and whole(self.count) is not None

    def _hourly(self):
        return self.price.usd_per_hour * self.count if self.known else None

    def _worst(self):
        hourly = self._hourly()
        return None if hourly is None else hourly * self.seconds / _HOUR

    @property
    def usd_per_hour(self):
        """One instance's on-demand USD per hour (None: unknown)."""
        return float(self.price.usd_per_hour) if isinstance(self.price, Price) else None

    @property
    def hourly_usd(self):
        """The group's USD per hour: count x price (None: unknown)."""
        return _float(self._hourly())

    @property
    def worst_case_usd(self):
        """The group's USD for the worst case's ``seconds`` (None: unknown)."""
        return _float(self._worst())

    def to_dict(self):
        return {"name": self.name, "instance_type": self.instance_type, "count": self.count,
                "usd_per_hour": self.usd_per_hour, "hourly_usd": self.hourly_usd, "worst_case_usd": self.worst_case_usd,
                "price_source": self.price.origin() if isinstance(self.price, Price) else None,
                "unknown_reason": None if isinstance(self.price, Price) else self.price.reason}


def _total(parts):
    parts = list(parts)
    return None if not parts or any(p is None for p in parts) else sum(parts, decimal.Decimal(0))


@attrs.frozen
class Estimate(object):
    """A job's cost estimate: ``groups`` (:class:`GroupCost`), the region, ``max_run`` and
    ``keep_alive`` (seconds; 0 without a warm pool), ``spot`` and ``max_wait``."""

    region = attrs.field()
    groups = attrs.field()
    max_run = attrs.field()
    keep_alive = attrs.field(default=0)
    spot = attrs.field(default=False)
    max_wait = attrs.field(default=None)
    #: the instance groups' other choices (docs/capacity.md), each priced as a group: not in the totals
    alternatives = attrs.field(default=())

    @property
    def worst_case_seconds(self):
        """``max_run`` plus the warm pool's keep-alive period."""
        return self.max_run + self.keep_alive

    @property
    def hourly_usd(self):
        """The cluster's USD per hour (None if a group's price is unknown)."""
        return _float(_total(g._hourly() for g in self.groups))

    @property
    def worst_case_usd(self):
        """The cluster's USD for the worst case (None if a group's price is unknown)."""
        return _float(_total(g._worst() for g in self.groups))

    def _known_worst(self):
        return sum((g._worst() for g in self.groups if g.known), decimal.Decimal(0))

    @property
    def known_worst_case_usd(self):
        """The worst case of the groups whose price is known (0.0 if none is)."""
        return float(self._known_worst())

    @property
    def complete(self):
        """Whether every group's price is known."""
        return all(g.known for g in self.groups)

    def notes(self):
        """What the figures mean: the worst case's parts, spot, warm pool, and the prices' sources."""
        pool = " + warm pool keep-alive %s" % duration(self.keep_alive) if self.keep_alive else ""
        notes = ["worst case: max_run %s%s" % (duration(self.max_run), pool)]
        if self.keep_alive:
            notes.append("warm pool: the instances are kept, and billed, up to %s after the job ends unless a job "
                         "reuses them" % duration(self.keep_alive))
        if self.spot:
            wait = " max_wait %s bounds the job's whole time, waiting for spot capacity included;" % duration(
                self.max_wait) if self.max_wait else ""
            notes.append("managed spot: the bill is at most the on-demand figures above;%s at most max_run %s of it "
                         "is training" % (wait, duration(self.max_run)))
        if self.alternatives:
            notes.append("alternatives: an instance group's other choices, each in place of its first (not in the "
                         "total)")
        return notes + price_notes(tuple(self.groups) + tuple(self.alternatives))

    def brief(self):
        """One line for a cluster view when no group's price is known (None when one is): why, once."""
        if any(g.known for g in self.groups):
            return None
        return "unknown: %s" % "; ".join(sorted(set(g.price.reason for g in self.groups)))

    def rows(self):
        """The table's rows (header first), as text cells."""
        rows = [("group", "instance type", "count", "$/h each", "$/h", "worst case")]
        for g in self.groups:
            rows.append((str(g.name), str(g.instance_type), str(g.count),
                         rate_text(g.price.usd_per_hour if isinstance(g.price, Price) else None),
                         usd_text(g._hourly()), usd_text(g._worst())))
        hourly, worst = _total(g._hourly() for g in self.groups), _total(g._worst() for g in self.groups)
        if worst is None and any(g.known for g in self.groups):
            rows.append(("total", "", "", "", usd_text(hourly),
                         "unknown (%s for the groups priced)" % usd_text(self._known_worst())))
        else:
            rows.append(("total", "", "", "", usd_text(hourly), usd_text(worst)))
        for g in self.alternatives:
            rows.append(("%s (alternative)" % g.name, str(g.instance_type), str(g.count),
                         rate_text(g.price.usd_per_hour if isinstance(g.price, Price) else None),
                         usd_text(g._hourly()), usd_text(g._worst())))
        return rows

    def title(self):
        return "Cost estimate (%s, on-demand USD)" % (self.region or "no region")

    def text(self):
        """The estimate as text lines: a table per group and total, then :meth:`notes`."""
        return shown("\n".join(_table(self.title(), self.rows(), self.notes())))

    def __str__(self):
        return self.text()

    def _repr_html_(self):
        return self.html()

    def html(self):
        """The estimate as an HTML fragment (every string escaped, its control characters shown: what the
        Price List said of an unknown price, a group name read back from a described job)."""
        import html

        def e(value):
            return html.escape(shown(str(value)), quote=True)

        rows = self.rows()
        head = "".join('<th style="text-align:left">%s</th>' % e(c) for c in rows[0])
        body = "".join("<tr>%s</tr>" % "".join('<td style="text-align:left">%s</td>' % e(c) for c in row)
                       for row in rows[1:])
        notes = "<br>".join(e(n) for n in self.notes())
        return ('<div class="sagemaker-hetero-cost"><p><strong>%s</strong></p><table><thead><tr>%s</tr></thead>'
                "<tbody>%s</tbody></table><p>%s</p></div>" % (e(self.title()), head, body, notes))

    def to_dict(self):
        return {"region": self.region, "max_run": self.max_run, "keep_alive": self.keep_alive, "spot": self.spot,
                "max_wait": self.max_wait, "worst_case_seconds": self.worst_case_seconds,
                "hourly_usd": self.hourly_usd, "worst_case_usd": self.worst_case_usd,
                "known_worst_case_usd": self.known_worst_case_usd, "complete": self.complete,
                "groups": [g.to_dict() for g in self.groups], "notes": self.notes(),
                "alternatives": [g.to_dict() for g in self.alternatives]}


def _table(title, rows, notes):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [title + ":"]
    lines.extend("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
    lines.extend("  " + n for n in notes)
    return lines


def estimate(request, prices, region, alternatives=()):
    """The :class:`Estimate` of a CreateTrainingJob ``request`` (or a description) with ``prices``
    (``{instance_type: Price or Unknown}``; a type not in it is unknown) in ``region``; ``alternatives``:
    the instance groups' other choices, ``[(group, type, count)]``, priced apart."""
    stopping = request.get("StoppingCondition") or {}
    resource = request.get("ResourceConfig") or {}
    max_run = stopping.get("MaxRuntimeInSeconds") or D.MAX_RUN_SECONDS
    keep_alive = resource.get("KeepAlivePeriodInSeconds") or 0
    seconds = max_run + keep_alive
    groups = tuple(GroupCost(name, itype, count, prices.get(itype) or Unknown(itype, "its price was not looked up"),
                             seconds) for name, itype, count in groups_of(request))
    others = tuple(GroupCost(name, itype, count, prices.get(itype) or Unknown(itype, "its price was not looked up"),
                             seconds) for name, itype, count in alternatives)
    return Estimate(region=region, groups=groups, max_run=max_run, keep_alive=keep_alive,
                    spot=bool(request.get("EnableManagedSpotTraining")), max_wait=stopping.get("MaxWaitTimeInSeconds"),
                    alternatives=others)

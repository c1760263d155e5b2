"""What a job was billed, from its DescribeTrainingJob answer and the prices of its types. Pure.

First the SageMaker Python SDK v2's lines, in its words and figures (``sagemaker.session._logs_for_job``):
``Training seconds`` and ``Billable seconds``, the description's per-instance
``TrainingTimeInSeconds`` and ``BillableTimeInSeconds`` times the job's instance count (the sum of
its groups' counts), then for managed spot ``Managed Spot Training savings: X%``, ``(1 - billable /
training) x 100`` from the per-instance figures; each only when its figures are there. Then ours:
each group's billed cost, ``BillableTimeInSeconds x count x USD per hour / 3600`` (managed spot is
billed for fewer seconds, at the on-demand price), and the total; "unknown" for a group without a
price, and for the total then, never a guess.
"""
import decimal

import attrs

from sagemaker_hetero._cost.estimate import duration, groups_of, price_notes, rate_text, usd_text, whole
from sagemaker_hetero._cost.prices import Price, Unknown
from sagemaker_hetero.exceptions import shown

__all__ = ["GroupBill", "Bill", "bill"]

_HOUR = decimal.Decimal(3600)


@attrs.frozen
class GroupBill(object):
    """One group's bill: ``count`` instances of ``instance_type`` billed ``billable_time`` seconds each
    at ``price`` (a :class:`Price`, or an ``Unknown`` with its reason)."""

    name = attrs.field()
    instance_type = attrs.field()
    count = attrs.field()
    price = attrs.field()
    billable_time = attrs.field()

    @property
    def known(self):
        return isinstance(self.price, Price) and whole(self.count) is not None and self.billable_time is not None

    def _billed(self):
        if not self.known:
            return None
        return decimal.Decimal(self.billable_time) * self.count * self.price.usd_per_hour / _HOUR

    @property
    def billed_usd(self):
        """``billable_time x count x USD per hour / 3600`` (None: unknown)."""
        billed = self._billed()
        return None if billed is None else float(billed)

    def line(self):
        what = "%s: %s x %s x %s s" % (self.name, self.count, self.instance_type, self.billable_time)
        if not self.known:
            return what + ": unknown"
        return "%s at %s/h = %s" % (what, rate_text(self.price.usd_per_hour), usd_text(self._billed()))

    def to_dict(self):
        return {"name": self.name, "instance_type": self.instance_type, "count": self.count,
                "usd_per_hour": float(self.price.usd_per_hour) if isinstance(self.price, Price) else None,
                "billed_usd": self.billed_usd,
                "price_source": self.price.origin() if isinstance(self.price, Price) else None,
                "unknown_reason": None if isinstance(self.price, Price) else self.price.reason}


@attrs.frozen
class Bill(object):
    """A job's seconds and billed cost; ``training_time`` and ``billable_time`` are the description's
    per-instance seconds (None until the job has them)."""

    job_name = attrs.field()
    region = attrs.field()
    groups = attrs.field()
    training_time = attrs.field()
    billable_time = attrs.field()
    spot = attrs.field(default=False)
    keep_alive = attrs.field(default=0)
    status = attrs.field(default=None)

    @property
    def instance_count(self):
        """The sum of the groups' counts (None if one is not known)."""
        counts = [g.count for g in self.groups]
        return sum(counts) if counts and all(whole(c) is not None for c in counts) else None

    @property
    def training_seconds(self):
        """``TrainingTimeInSeconds x instance count``, as the SDK v2 prints it (None: not known)."""
        count = self.instance_count
        return None if count is None or self.training_time is None else self.training_time * count

    @property
    def billable_seconds(self):
        """``BillableTimeInSeconds x instance count``, as the SDK v2 prints it (None: not known)."""
        count = self.instance_count
        return None if count is None or self.billable_time is None else self.billable_time * count

    @property
    def spot_savings_percent(self):
        """Managed spot's savings, ``(1 - billable / training) x 100`` (None: no spot, or no figures)."""
        if not self.spot or not self.training_time or self.billable_time is None:
            return None
        return (1 - float(self.billable_time) / self.training_time) * 100

    @property
    def billed_usd(self):
        """The job's billed USD, the groups' sum (None if a group's is unknown)."""
        parts = [g._billed() for g in self.groups]
        return None if not parts or None in parts else float(sum(parts, decimal.Decimal(0)))

    def seconds_lines(self):
        """The SDK v2's lines: training and billable seconds, the spot savings."""
        lines = []
        if self.training_seconds is not None:
            lines.append("Training seconds: %s" % (self.training_seconds,))
        if self.billable_seconds is not None:
            lines.append("Billable seconds: %s" % (self.billable_seconds,))
            if self.spot_savings_percent is not None:
                lines.append("Managed Spot Training savings: {:.1f}%".format(self.spot_savings_percent))
        return lines

    def cost_lines(self):
        """``Billed cost (<region>, on-demand USD): $X``, a line per group, and where each price came from;
        nothing before the job has its billable seconds."""
        if self.billable_time is None or self.instance_count is None:
            return []
        parts = [g._billed() for g in self.groups]
        total = None if None in parts else sum(parts, decimal.Decimal(0))
        lines = ["Billed cost (%s, on-demand USD): %s" % (self.region or "no region", usd_text(total))]
        if any(g.known for g in self.groups):  # else each group's line would only say unknown
            lines.extend("  " + g.line() for g in self.groups)
        lines.extend("  " + n for n in price_notes(self.groups))
        if self.keep_alive:
            lines.append("  warm pool: its instances are billed while kept after the job (up to %s), which "
                         "these seconds may not include" % duration(self.keep_alive))
        return lines

    def text(self):
        """The SDK v2's lines, then the billed cost (or that the job has no billable seconds yet)."""
        lines = self.seconds_lines() + self.cost_lines()
        return shown("\n".join(lines) if self.billable_time is not None else (
            "%s: no billable seconds yet (%s)" % (self.job_name, self.status or "status unknown")))

    def __str__(self):
        return self.text()

    def to_dict(self):
        return {"job_name": self.job_name, "status": self.status, "region": self.region,
                "training_time_in_seconds": self.training_time, "billable_time_in_seconds": self.billable_time,
                "instance_count": self.instance_count,
                "training_seconds": self.training_seconds, "billable_seconds": self.billable_seconds,
                "spot": self.spot, "spot_savings_percent": self.spot_savings_percent, "billed_usd": self.billed_usd,
                "groups": [g.to_dict() for g in self.groups]}


def bill(desc, prices=None, region=None):
    """The :class:`Bill` of a DescribeTrainingJob answer with ``prices`` (``{instance_type: Price or
    Unknown}``; None or a type not in it: unknown) in ``region`` (default: the job ARN's)."""
    from sagemaker_hetero._request.describe import region_of

    prices = prices or {}
    billable = whole(desc.get("BillableTimeInSeconds"))  # a figure no job has is none
    groups = tuple(GroupBill(name, itype, count, prices.get(itype) or Unknown(itype, "its price was not looked up"),
                             billable) for name, itype, count in groups_of(desc))
    return Bill(job_name=desc.get("TrainingJobName"), region=region or region_of(desc), groups=groups,
                training_time=whole(desc.get("TrainingTimeInSeconds")), billable_time=billable,
                spot=bool(desc.get("EnableManagedSpotTraining")),
                keep_alive=(desc.get("ResourceConfig") or {}).get("KeepAlivePeriodInSeconds") or 0,
                status=desc.get("TrainingJobStatus"))

"""A job's utilization per instance group and per host, normalised to 0-100% of the instance. Pure.

SageMaker publishes each host's ``CPUUtilization`` summed over its vCPUs (a 72-vCPU host reads up to
7,200%) and ``GPUUtilization`` and ``GPUMemoryUtilization`` summed over its GPUs; ``MemoryUtilization``
and ``DiskUtilization`` are shares of the instance already. :func:`normalised` divides by the vCPU
and GPU counts of the one instance-type table; a type it does not hold has no normalised figure
(unknown, never a guess). A host's figures are the mean and the 95th percentile (linear
interpolation between the two nearest ranks, as ``numpy.percentile`` computes it) of its samples; a
group's, of all its hosts' samples together, and its series the hosts' mean at each time. A host
whose group is unknown is shown in no group's figures, as ``?``.
"""
import math

import attrs

from sagemaker_hetero._model import instance_types
from sagemaker_hetero._usage.metrics import METRICS

__all__ = ["divisor", "normalised", "mean", "percentile", "stats",
           "value_stats", "host_order",
           "HostUsage", "GroupUsage", "Usage", "build"]

def divisor(metric, instance_type):
    """What ``metric``'s raw value is divided by for 0-100% of ``instance_type``: its vCPUs for
    ``cpu``, its GPUs for ``gpu`` and ``gpu_memory`` (0: it has none), 1 for ``memory`` and ``disk``;
    None when the table does not hold the type."""
    if metric == "cpu":
        return instance_types.vcpus(instance_type)
    if metric in ("gpu", "gpu_memory"):
        return instance_types.gpus(instance_type)
    return 1


def normalised(metric, instance_type, points):
    """``points`` (``[(t, raw)]``) as 0-100% of the instance, or None when that cannot be known."""
    by = divisor(metric, instance_type)
    if not by:
        return None
    return [(t, float(v) / by) for t, v in points]


def mean(values):
    """The mean of ``values`` (None: none); values whose sum is past the largest float are each divided first."""
    if not values:
        return None
    try:
        return math.fsum(values) / len(values)
    except OverflowError:
        return math.fsum(v / len(values) for v in values)


def percentile(values, q=95):
    """The ``q``-th percentile of ``values`` by linear interpolation between the nearest ranks (numpy's
    default): rank ``(n - 1) x q / 100`` of the sorted values (None: none)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = int(math.floor(rank))
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def stats(points):
    """``{"mean", "p95"}`` of a series' values (None each when there are none, or the series is unknown)."""
    return value_stats([v for _, v in points or ()])


def value_stats(values):
    """``{"mean", "p95"}`` of ``values`` (None each when there are none)."""
    return {"mean": mean(values or ()), "p95": percentile(values or ())}


def _rounded(value):
    return None if value is None else round(value, 6)


def _figures_dict(series):
    out = {}
    for key, _, _ in METRICS:
        figures = stats(series.get(key))
        out[key] = {"mean": _rounded(figures["mean"]), "p95": _rounded(figures["p95"])}
    return out


@attrs.frozen
class HostUsage(object):
    """One host: its ``group`` (None: not known), ``instance_type`` (None: not known) and ``series``
    (``{metric: [(t, pct)] or None}``: None where the figure cannot be normalised or was not had)."""

    host = attrs.field()
    group = attrs.field()
    instance_type = attrs.field()
    series = attrs.field()

    def figures(self, metric):
        return stats(self.series.get(metric))

    def to_dict(self, with_series=True):
        out = {"host": self.host, "group": self.group, "instance_type": self.instance_type,
               "figures": _figures_dict(self.series)}
        if with_series:
            out["series"] = dict((k, [list(p) for p in v] if v is not None else None) for k, v in self.series.items())
        return out


@attrs.frozen
class GroupUsage(object):
    """One instance group: ``count`` hosts of ``instance_type``, the ``hosts`` known to be in it, the
    pooled ``samples`` and mean ``series`` per metric, and what it was billed (``billed_usd``, None:
    unknown)."""

    name = attrs.field()
    instance_type = attrs.field()
    count = attrs.field()
    hosts = attrs.field()
    samples = attrs.field()
    series = attrs.field()
    billed_usd = attrs.field(default=None)
    local = attrs.field(default=False)

    @property
    def gpus(self):
        return instance_types.gpus(self.instance_type)

    @property
    def kind(self):
        """``gpu`` (a group of GPU instances: the work the data groups feed) or ``data`` (a CPU group); a
        local group is a GPU group only where the machine's GPUs were sampled."""
        if self.local:
            return "gpu" if self.samples.get("gpu") else "data"
        return "gpu" if instance_types.gpu(self.instance_type) else "data"

    def figures(self, metric):
        """``{"mean", "p95"}`` of all the group's hosts' samples of ``metric``."""
        return value_stats(self.samples.get(metric))

    def mean(self, metric):
        return self.figures(metric)["mean"]

    def to_dict(self, with_series=True):
        out = {"name": self.name, "instance_type": self.instance_type, "count": self.count, "kind": self.kind,
               "hosts": list(self.hosts), "billed_usd": self.billed_usd,
               "figures": dict((k, dict((s, _rounded(v)) for s, v in self.figures(k).items())) for k, _, _ in METRICS)}
        if with_series:
            out["series"] = dict((k, [list(p) for p in v] if v is not None else None) for k, v in self.series.items())
        return out


@attrs.frozen
class Usage(object):
    """A job's utilization: its ``groups`` (:class:`GroupUsage`), ``hosts`` (:class:`HostUsage`), what
    could not be known (``unknowns``: sentences), the ``verdict`` and its data (``period``: seconds
    per sample, ``source``: ``cloudwatch`` or ``local``)."""

    job_name = attrs.field()
    status = attrs.field()
    groups = attrs.field()
    hosts = attrs.field()
    unknowns = attrs.field()
    verdict = attrs.field()
    period = attrs.field(default=None)
    source = attrs.field(default="cloudwatch")

    def group(self, name):
        """The :class:`GroupUsage` named ``name`` (KeyError: none)."""
        for group in self.groups:
            if group.name == name:
                return group
        raise KeyError("no instance group %r in job %s (groups: %s)" % (
            name, self.job_name, ", ".join(g.name for g in self.groups)))

    def to_dict(self, with_series=True):
        return {"job_name": self.job_name, "status": self.status, "source": self.source, "period": self.period,
                "groups": [g.to_dict(with_series) for g in self.groups],
                "hosts": [h.to_dict(with_series) for h in self.hosts],
                "verdict": self.verdict.to_dict(), "unknowns": list(self.unknowns)}

    def text(self):
        from sagemaker_hetero._usage import charts

        return charts.text(self)

    def __str__(self):
        return self.text()

    def _repr_html_(self):
        from sagemaker_hetero._usage import charts

        return charts.html(self)

    def plot(self, path):
        """Write the charts to ``path`` as ``sagemaker-hetero usage --plot`` does (``.svg``, ``.html``, or ``.png``
        through matplotlib, the ``plot`` extra); return ``path``. A ConfigError names ``path`` for another ending,
        a PNG without matplotlib, or a file that cannot be written."""
        from sagemaker_hetero._usage import plot

        return plot.write(self, path)


def _group_series(host_series):
    """The hosts' mean at each time (``[(t, pct)]``), from their series (those known)."""
    at = {}
    for points in host_series:
        for t, v in points:
            at.setdefault(t, []).append(v)
    return [(t, mean(at[t])) for t in sorted(at)]


def _host(host, group, instance_type, raw, normalise):
    series = {}
    for key, _, _ in METRICS:
        points = raw.get(key)
        if not points:
            series[key] = None
        else:
            series[key] = normalised(key, instance_type, points) if normalise else [(t, float(v)) for t, v in points]
    return HostUsage(host, group, instance_type, series)


def build(job_name, status, groups, host_groups, raw, bills, unknowns, period=None, source="cloudwatch"):
    """The :class:`Usage` of a job of ``groups`` (``[(name, instance_type, count)]``) whose hosts are in
    ``host_groups`` (``{host: group name or None}``), from ``raw`` (``{host: {metric: [(t, value)]}}``,
    as CloudWatch publishes them: summed over vCPUs and GPUs; for a ``local`` source, 0-100 already) and
    ``bills`` (``{group: billed USD or None}``)."""
    from sagemaker_hetero._usage import verdict

    types = dict((name, itype) for name, itype, _ in groups)
    hosts = []
    for host in sorted(set(host_groups) | set(raw), key=host_order):
        group = host_groups.get(host)
        group = group if group in types else None
        hosts.append(_host(host, group, types.get(group) if group else _only_type(groups), raw.get(host) or {},
                           source != "local"))
    usages = []
    for name, itype, count in groups:
        members = [h for h in hosts if h.group == name]
        samples, series = {}, {}
        for key, _, _ in METRICS:
            known = [h.series[key] for h in members if h.series.get(key)]
            samples[key] = [v for points in known for _, v in points] or None
            series[key] = _group_series(known) if known else None
        usages.append(GroupUsage(name, itype, count, tuple(h.host for h in members), samples, series,
                                 (bills or {}).get(name), source == "local"))
    for h in hosts:
        if h.group is None:
            unknowns.append("host %s: its instance group is not known (it said none in its logs)" % h.host)
    if source != "local":
        unknowns.extend(_untabled(groups))
    return Usage(job_name, status, tuple(usages), tuple(hosts), tuple(unknowns), verdict.verdict(usages),
                 period, source)


def _untabled(groups):
    """What cannot be known of the groups whose instance type the one table does not hold: their CPU and GPU
    figures (no vCPU nor GPU count to divide by: never a guess)."""
    return ["the CPU and GPU figures of %s: its instance type %s is not in the instance-type table (its vCPU and "
            "GPU counts)" % (name, itype) for name, itype, _ in groups if instance_types.vcpus(itype) is None]


def _only_type(groups):
    """The instance type every group shares (a host of unknown group is of it), else None."""
    types = set(itype for _, itype, _ in groups)
    return types.pop() if len(types) == 1 else None


def host_order(host):
    """Sorts ``algo-2`` before ``algo-10``."""
    head, _, number = host.rpartition("-")
    return (head, int(number)) if number.isdigit() else (host, -1)

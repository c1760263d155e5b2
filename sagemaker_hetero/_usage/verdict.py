"""A job's verdict, in words with the numbers it rests on, and what its idle share cost. Pure.

A group of GPU instances is the work; the CPU groups feed it (data groups). Each group's *load* is
the mean utilization of what it is there for: its GPUs' (``gpu``) for a GPU group, its CPUs' for a
data group. In this order, the first that holds is the verdict:

- ``starved``: a GPU group's GPUs average below :data:`GPU_LOW` % while a data group's CPUs average
  :data:`CPU_SATURATED` % or more (add data instances, or move preprocessing to them), or its own CPUs
  do (move preprocessing to the data groups, or to a data group of CPU instances where there is none);
- ``over_provisioned``: every group's load is below :data:`IDLE` %;
- ``data_idle``: every data group's CPUs average below :data:`IDLE` % (fewer or smaller data instances);
- ``balanced``: none of these;
- ``unknown``: a group has no load (no figures: see the usage's unknowns), and none waits for data.

The idle share of a group is ``1 - load / 100``; what it cost is that share of the group's billed
cost (``_cost.billed``), summed over the groups: unknown when a group's bill or load is.
"""
import attrs

__all__ = ["GPU_LOW", "CPU_SATURATED", "IDLE", "Verdict", "verdict", "load"]

#: A GPU group's mean GPU utilization below this (%) is low.
GPU_LOW = 50.0
#: A group's mean CPU utilization at or above this (%) is saturated.
CPU_SATURATED = 80.0
#: A group's load below this (%) is idle.
IDLE = 30.0


@attrs.frozen
class Verdict(object):
    """``kind`` (see the module), ``text`` (sentences with their numbers), the groups it names
    (``groups``: the starved or idle ones), and the idle share's cost (``idle_usd`` of ``billed_usd``;
    None: unknown) with each group's (``idle``: ``{group: {"share", "usd"}}``)."""

    kind = attrs.field()
    text = attrs.field()
    groups = attrs.field()
    idle_usd = attrs.field()
    billed_usd = attrs.field()
    idle = attrs.field()

    def to_dict(self):
        return {"kind": self.kind, "text": self.text, "groups": list(self.groups), "idle_usd": self.idle_usd,
                "billed_usd": self.billed_usd, "idle": self.idle}

    def __str__(self):
        return self.text


def load(group):
    """The mean utilization (%) of what ``group`` is there for (GPU for a GPU group, else CPU), or None."""
    return group.mean("gpu" if group.kind == "gpu" else "cpu")


def _pct(value):
    return "%.1f%%" % value


def _loads(groups, kind):
    return [(g, load(g)) for g in groups if g.kind == kind and load(g) is not None]


def _starved(groups):
    """``(text, names)`` when GPU groups wait for data (each named: the first's numbers in full, the others'
    GPUs after), else None."""
    data = [(g, g.mean("cpu")) for g in groups if g.kind == "data" and g.mean("cpu") is not None]
    busiest = max(data, key=lambda pair: pair[1]) if data else None
    found = [(group, gpu, _waiting(group, gpu, busiest)) for group, gpu in _loads(groups, "gpu") if gpu < GPU_LOW]
    found = [(group, gpu, text) for group, gpu, text in found if text is not None]
    if not found:
        return None
    text = found[0][2]
    if len(found) > 1:
        text += " So do the GPU groups %s." % ", ".join("%s (GPUs %s)" % (g.name, _pct(v)) for g, v, _ in found[1:])
    return text, tuple(g.name for g, _, _ in found)


def _waiting(group, gpu, busiest):
    """Why the GPU group ``group`` (GPUs ``gpu`` %, low) waits for data, or None: it does not."""
    if busiest is not None and busiest[1] >= CPU_SATURATED:
        return ("The GPU group %s waits for data: its GPUs average %s while data group %s's CPUs average %s "
                "(p95 %s). Add data instances, or move preprocessing to them."
                % (group.name, _pct(gpu), busiest[0].name, _pct(busiest[1]), _pct(busiest[0].figures("cpu")["p95"])))
    own = group.mean("cpu")
    if own is not None and own >= CPU_SATURATED:
        where = ("a data group of CPU instances" if busiest is None else
                 "its data groups (%s's CPUs average %s)" % (busiest[0].name, _pct(busiest[1])))
        return ("The GPU group %s waits for data: its GPUs average %s while its own CPUs average %s. Move "
                "preprocessing to %s." % (group.name, _pct(gpu), _pct(own), where))
    return None


def _summary(pairs):
    return ", ".join("%s %s %s" % (g.name, "GPU" if g.kind == "gpu" else "CPU", _pct(v)) for g, v in pairs)


def _kind_and_text(groups):
    starved = _starved(groups)
    if starved is not None:
        return ("starved",) + starved
    loads = [(g, load(g)) for g in groups if load(g) is not None]
    if not loads:
        return "unknown", "No verdict: no group's utilization is known.", ()
    missing = [g.name for g in groups if load(g) is None]
    if missing:
        return ("unknown", "No verdict: the utilization of %s is not known (%s)." % (
            ", ".join(missing), _summary(loads)), ())
    if all(v < IDLE for _, v in loads):
        return ("over_provisioned", "Everything is low (%s, each below %s): the cluster is over-provisioned; "
                "fewer or smaller instances would do." % (_summary(loads), _pct(IDLE)), tuple(g.name for g, _ in loads))
    data = _loads(groups, "data")
    gpu = _loads(groups, "gpu")
    if gpu and data and all(v < IDLE for _, v in data):
        return ("data_idle", "The data groups idle (%s, below %s) while %s: fewer or smaller data instances "
                "would do." % (_summary(data), _pct(IDLE), _summary(gpu)), tuple(g.name for g, _ in data))
    return "balanced", "Balanced: %s." % _summary(loads), ()


def _idle(groups):
    """``(idle USD or None, billed USD or None, {group: {"share", "usd"}})``."""
    idle, total_idle, total = {}, 0.0, 0.0
    known = True
    for group in groups:
        value = load(group)
        share = None if value is None else min(1.0, max(0.0, 1 - value / 100.0))
        usd = None if share is None or group.billed_usd is None else share * group.billed_usd
        idle[group.name] = {"share": None if share is None else round(share, 6),
                            "usd": None if usd is None else round(usd, 6)}
        if usd is None:
            known = False
        else:
            total_idle += usd
            total += group.billed_usd
    return (round(total_idle, 6) if known and groups else None, round(total, 6) if known and groups else None, idle)


def _cost_text(idle_usd, billed_usd, idle, local=False):
    if local:
        return "A local run is billed nothing: the idle share's cost is had on AWS."
    if idle_usd is None:
        return "What the idle share cost: unknown (a group's billed cost or utilization is not known yet)."
    parts = "; ".join("%s %s idle: $%.2f" % (name, _pct(i["share"] * 100), i["usd"]) for name, i in idle.items())
    return "The idle share cost $%.2f of $%.2f billed (%s)." % (idle_usd, billed_usd, parts)


def verdict(groups):
    """The :class:`Verdict` of a job's :class:`~sagemaker_hetero._usage.figures.GroupUsage` list."""
    kind, text, names = _kind_and_text(groups)
    idle_usd, billed_usd, idle = _idle(groups)
    local = bool(groups) and all(g.local for g in groups)
    return Verdict(kind, text + " " + _cost_text(idle_usd, billed_usd, idle, local), names, idle_usd, billed_usd, idle)

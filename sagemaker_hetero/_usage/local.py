"""A local job's utilization, from what its driver sampled of each host (``local._usage.samples``'s
answer, handed in): the same :class:`~sagemaker_hetero._usage.figures.Usage` as a job on AWS, its CPU and
memory already 0-100% of what each host may use. Pure."""
from sagemaker_hetero._request import read_back
from sagemaker_hetero._usage import figures

__all__ = ["usage"]


def _groups(desc, hosts):
    """``[(name, instance_type, count)]``: the description's, else the groups the sampled hosts named, in the
    order of their first hosts (``algo-1`` is the first group's, as the local cluster names them in order), each
    with the instance type its hosts' samples name (None when they name none, or several)."""
    if desc and read_back.value_at(desc, ("ResourceConfig",)):
        return read_back.groups_of(desc)
    named = [h for h in sorted(hosts, key=figures.host_order) if hosts[h].get("group")]
    order = []
    for host in named:
        if hosts[host]["group"] not in order:
            order.append(hosts[host]["group"])
    out = []
    for name in order:
        members = [hosts[h] for h in named if hosts[h]["group"] == name]
        types = set(m.get("instance_type") for m in members)
        out.append((name, types.pop() if len(types) == 1 else None, len(members)))
    return out


def usage(job_name, samples, desc=None):
    """The :class:`~sagemaker_hetero._usage.figures.Usage` of the local job ``job_name`` from ``samples``
    (``{"hosts": {host: {"group", "series": {"cpu", "memory"}}}, "note"}``) and its description, if had."""
    hosts = dict((h, v) for h, v in ((samples or {}).get("hosts") or {}).items() if isinstance(v, dict))
    unknowns = []
    if not hosts:
        unknowns.append("the figures: no host of the job was sampled%s" % (
            " (%s)" % samples["note"] if (samples or {}).get("note") else ""))
    raw = dict((h, dict((k, list(p)) for k, p in (v.get("series") or {}).items() if p)) for h, v in hosts.items())
    mapping = dict((h, v.get("group")) for h, v in hosts.items())
    status = (desc or {}).get("TrainingJobStatus")
    return figures.build(job_name, status, _groups(desc, hosts), mapping, raw, {}, unknowns, source="local")

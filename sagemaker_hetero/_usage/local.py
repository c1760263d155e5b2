"""A local job's utilization, from what its driver sampled of each host (``local._usage.samples``'s
answer, handed in): the same :class:`~sagemaker_hetero._usage.figures.Usage` as a job on AWS, its CPU and
memory already 0-100% of what each host may use. Pure."""
from sagemaker_hetero._request import read_back
from sagemaker_hetero._usage import figures

__all__ = ["usage"]


def _groups(desc, hosts):
    """``[(name, instance_type, count)]``: the description's, else the groups the sampled hosts named."""
    if desc and read_back.value_at(desc, ("ResourceConfig",)):
        return read_back.groups_of(desc)
    named = sorted(set(h.get("group") for h in hosts.values() if h.get("group")))
    return [(name, None, sum(1 for h in hosts.values() if h.get("group") == name)) for name in named]


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

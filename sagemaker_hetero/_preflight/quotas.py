"""SageMaker's Service Quotas for a training job: the quotas it needs, what the account's jobs in
progress use of them, and the verdict. Pure.

A job needs, per instance type, ``ml.<type> for training job usage`` (``... for spot training job
usage`` with managed spot training; ``... for training warm pool usage`` too with a keep-alive
period), ``Number of instances across all training jobs`` and ``Maximum number of instances per
training job``; ``Longest run time for a training job`` only when ``max_run`` exceeds every
account's value (:data:`RUN_TIME_FLOOR`). Also the reading of SageMaker's ``ResourceLimitExceeded``
message into the same finding, and the types of a family for a job that failed for capacity.
"""
import re

import attrs

from sagemaker_hetero._model import instance_types
from sagemaker_hetero._request import describe
from sagemaker_hetero._preflight.report import OK, PROBLEM, QUOTAS, UNKNOWN, Finding

__all__ = ["SERVICE", "ON_DEMAND", "SPOT_USAGE", "WARM_POOL", "ALL_INSTANCES", "PER_JOB", "LONGEST_RUN",
           "RUN_TIME_FLOOR", "Need", "needs", "requested", "in_use", "judge", "limit_finding", "increase_fix",
           "family", "siblings", "number"]

#: What names SageMaker to Service Quotas, as its calls take it.
SERVICE = {"ServiceCode": "sagemaker"}
ON_DEMAND = "%s for training job usage"
SPOT_USAGE = "%s for spot training job usage"
WARM_POOL = "%s for training warm pool usage"
ALL_INSTANCES = "Number of instances across all training jobs"
PER_JOB = "Maximum number of instances per training job"
LONGEST_RUN = "Longest run time for a training job"
#: Seconds every account's ``Longest run time for a training job`` allows (its default, 5 days): a
#: job whose ``max_run`` is at most this does not ask for that quota.
RUN_TIME_FLOOR = 432000
# "The account-level service limit 'ml.p4d.24xlarge for training job usage' is 0 Instances, with current
# utilization of 0 Instances and a request delta of 1 Instances. ..."
_LIMIT = re.compile(r"limit '(?P<name>[^']+)' is (?P<quota>[\d.]+) \w+, with current utilization of "
                    r"(?P<used>[\d.]+) \w+ and a request delta of (?P<asked>[\d.]+)")


@attrs.frozen
class Need(object):
    """One quota a job asks for: ``requested`` (instances, or seconds), the user's ``argument`` and
    ``value``; ``counted``: the account's jobs in progress use it too."""

    name = attrs.field()
    requested = attrs.field()
    argument = attrs.field()
    value = attrs.field()
    counted = attrs.field(default=True)


def _type_names(instance_type, spot, warm_pool):
    names = [(SPOT_USAGE if spot else ON_DEMAND) % instance_type]
    if warm_pool and not spot:
        names.append(WARM_POOL % instance_type)
    return names


def _counts(groups, spot, warm_pool):
    """``{quota name: instances}`` of a job's ``(type, count)`` groups."""
    out = {}
    for instance_type, count in groups:
        if not isinstance(instance_type, str) or not isinstance(count, int) or isinstance(count, bool):
            continue
        for name in _type_names(instance_type, spot, warm_pool):
            out[name] = out.get(name, 0) + count
        out[ALL_INSTANCES] = out.get(ALL_INSTANCES, 0) + count
    return out


def requested(job):
    """``{quota name: instances}`` the job asks for (what it adds to the account's use)."""
    return _counts([(g.instance_type, g.count) for g in job.groups], bool(job.spot), bool(job.keep_alive_period))


def needs(job):
    """Every :class:`Need` of ``job``, instance types in the order of its groups."""
    counts = requested(job)
    out, seen = [], set()
    for group in job.groups:
        where = "%s.instance_type" % group.arg if group.arg else "instance_type"
        for name in _type_names(group.instance_type, bool(job.spot), bool(job.keep_alive_period)):
            if name in counts and name not in seen:
                seen.add(name)
                out.append(Need(name, counts[name], where, group.instance_type))
    total = job.host_count
    if total is None:
        return out
    where = "instance_groups" if job.heterogeneous else "instance_count"
    out.append(Need(ALL_INSTANCES, total, where, total))
    out.append(Need(PER_JOB, total, where, total, counted=False))
    if isinstance(job.max_run, int) and job.max_run > RUN_TIME_FLOOR:
        out.append(Need(LONGEST_RUN, job.max_run, "max_run", job.max_run, counted=False))
    return out


def in_use(descriptions):
    """``{quota name: instances}`` used by the training jobs in progress ``descriptions`` describe."""
    out = {}
    for desc in descriptions:
        groups = [(g["type"], g["count"]) for g in describe.status_summary(desc)["instance_groups"]]
        keep = describe.value_at(desc, ("ResourceConfig", "KeepAlivePeriodInSeconds"))
        for name, count in _counts(groups, bool(desc.get("EnableManagedSpotTraining")), bool(keep)).items():
            out[name] = out.get(name, 0) + count
    return out


def number(value):
    """A quota value as people write it: ``20``, ``0.5``."""
    return "%d" % value if float(value) == int(value) else "%g" % value


def increase_fix(name, code, desired, region):
    """What to do about a quota that is too low: the command and the console page."""
    service = SERVICE["ServiceCode"]
    return ("request an increase of '%s' to at least %s: aws service-quotas request-service-quota-increase "
            "--service-code %s --quota-code %s --desired-value %s --region %s (or the Service Quotas console: "
            "https://%s.console.aws.amazon.com/servicequotas/home/services/%s/quotas/%s)"
            % (name, number(desired), service, code, number(desired), region, region, service, code))


def _finding(need, result, detail, fix=None, permission=None):
    problem = result == PROBLEM
    return Finding(QUOTAS, need.name, result, detail, argument=need.argument if problem else None,
                   value=need.value if problem else None, fix=fix, permission=permission)


def judge(need, code, value, usage, region, gap=None):
    """The :class:`Finding` of ``need`` against the quota ``value`` (``code``) with ``usage`` (``{name:
    instances}`` of the jobs in progress; None when it could not be counted, ``gap`` saying why as
    ``(permission, reason)``)."""
    quota = number(value)
    if need.name == LONGEST_RUN:
        detail = "max_run %d s, quota %s s" % (need.requested, quota)
        if need.requested <= value:
            return _finding(need, OK, detail + " (%s)" % code)
        return _finding(need, PROBLEM, detail, increase_fix(need.name, code, need.requested, region)
                        + ", or a max_run of at most %s" % quota)
    if not need.counted or (usage is None and need.requested > value):
        detail = "%d requested, quota %s" % (need.requested, quota)
        if need.requested <= value:
            return _finding(need, OK, detail + " (%s)" % code)
        return _finding(need, PROBLEM, detail, increase_fix(need.name, code, need.requested, region))
    if usage is None:
        permission, why = gap or (None, "the jobs in progress could not be counted")
        return _finding(need, UNKNOWN, "%d requested, quota %s, in use unknown: %s" % (need.requested, quota, why),
                        permission=permission)
    used = usage.get(need.name, 0)
    detail = "%d requested, %d in use, quota %s" % (need.requested, used, quota)
    if used + need.requested <= value:
        return _finding(need, OK, detail + " (%s)" % code)
    fix = increase_fix(need.name, code, used + need.requested, region)
    if used and need.requested <= value:
        fix += ", or wait until %d of the instances in use are free" % (used + need.requested - value)
    return _finding(need, PROBLEM, detail, fix)


def limit_finding(message, job, codes, region):
    """The finding SageMaker's ``ResourceLimitExceeded`` ``message`` (CreateTrainingJob's answer)
    tells, as :func:`judge` words it, or None if the message says no quota; ``codes``: quota name ->
    code, as known (the console's search otherwise)."""
    match = _LIMIT.search(message or "")
    if match is None:
        return None
    name = match.group("name")
    quota, used, asked = (float(match.group(k)) for k in ("quota", "used", "asked"))
    need = next((n for n in needs(job) if n.name == name), Need(name, int(asked), "instance_groups", None))
    detail = "%s requested, %s in use, quota %s (SageMaker's answer to CreateTrainingJob)" % (
        number(asked), number(used), number(quota))
    code = codes.get(name)
    if code is not None:
        fix = increase_fix(name, code, used + asked, region)
    else:
        fix = ("request an increase of '%s' to at least %s in the Service Quotas console: https://%s.console.aws."
               "amazon.com/servicequotas/home/services/%s/quotas" % (name, number(used + asked), region,
                                                                     SERVICE["ServiceCode"]))
    return Finding(QUOTAS, name, PROBLEM, detail, argument=need.argument, value=need.value, fix=fix)


def family(instance_type):
    """The family of an instance type, as its quotas' types are offered instead: ``ml.p4de.24xlarge`` ->
    ``p4``, ``ml.c5n.xlarge`` -> ``c5`` (``instance_types.series``)."""
    return instance_types.series(instance_type)


def siblings(instance_type, names, spot=False):
    """The other instance types of ``instance_type``'s family that have a training quota among ``names``."""
    pattern = SPOT_USAGE if spot else ON_DEMAND
    suffix = pattern % ""
    kin = family(instance_type)
    out = []
    for name in sorted(names):
        if name.endswith(suffix) and instance_types.named_as_type(name):
            other = name[: -len(suffix)]
            if other != instance_type and kin is not None and family(other) == kin and other not in out:
                out.append(other)
    return out

"""A training job that failed for capacity: the SDK v2's ``CapacityError``, naming its instance groups
and the other types of their families whose quota would allow them (edge).

The failure is SageMaker's (no instances of a type to be had in the region just then), not a quota;
what to try is another time, or another type of the same family the account may use as many of.
The family's types come from the quota-name map (the session's, else the file's; none is built for
this), their quotas from GetServiceQuota; anything that cannot be asked leaves the alternatives out,
never the error.
"""
import time

from sagemaker_hetero._request import describe
from sagemaker_hetero._preflight import cache, quotas
from sagemaker_hetero._preflight.ask import Asker, Unanswered
from sagemaker_hetero._preflight.state import state_of
from sagemaker_hetero.exceptions import CapacityError, logger

__all__ = ["is_capacity", "capacity_reason", "capacity_error", "advice", "CAPACITY_WORDS", "NOT_CAPACITY",
           "PROVISIONED"]

LOGGER = logger()  # its records shown (exceptions.shown)
#: At most this many quotas are asked for, all groups together.
MAX_ASKED = 12


#: What SageMaker's words for a failure for capacity hold (lower case): its FailureReason
#: ``CapacityError: Unable to provision ...``, a secondary status message ``Insufficient capacity error
#: from EC2 ...``, EC2's ``InsufficientInstanceCapacity``.
CAPACITY_WORDS = ("capacityerror", "insufficient capacity", "insufficientinstancecapacity")


def is_capacity(status, reason):
    """Whether a job that ended ``status`` with failure ``reason`` failed for capacity."""
    text = str(reason or "").lower()
    return status == "Failed" and any(word in text for word in CAPACITY_WORDS)


#: FailureReasons of a job that failed its own way (the script, the input): never a failure for capacity,
#: whatever an earlier secondary status message said.
NOT_CAPACITY = ("AlgorithmError", "ClientError")
#: Secondary statuses of a job that has its instances: a message about capacity before one is out of date
#: (SageMaker retried and got them).
PROVISIONED = ("Downloading", "DownloadingTrainingImage", "Training", "Uploading")


def capacity_reason(status, desc):
    """The words of a job that ended ``status`` as ``desc`` describes it that say it failed for capacity:
    its FailureReason, else the last secondary status message saying so, unless the job got its instances
    after it or failed its own way (:data:`NOT_CAPACITY`); None: it did not fail for capacity."""
    if status != "Failed":
        return None
    reason = (desc or {}).get("FailureReason")
    if is_capacity(status, reason):
        return reason
    if str(reason or "").lstrip().startswith(NOT_CAPACITY):
        return None
    for transition in reversed((desc or {}).get("SecondaryStatusTransitions") or []):
        if not isinstance(transition, dict):
            continue
        if transition.get("Status") in PROVISIONED:
            return None
        message = transition.get("StatusMessage")
        if is_capacity(status, message):
            return message if not reason else "%s (%s)" % (reason, message)
    return None


def advice(groups, alternatives):
    """What the error says to do, from ``[(group, type, count)]`` and ``{type: [(other type, quota)]}``. Pure."""
    lines = ["SageMaker could not provision: %s." % "; ".join(
        "instance group %s (%s x %s)" % (g, t, c) for g, t, c in groups)]
    offered = ["%s: %s" % (t, ", ".join("%s (quota %s)" % (o, quotas.number(v)) for o, v in others))
               for t, others in sorted(alternatives.items()) if others]
    if offered:
        lines.append("Types of the same family whose quota allows as many instances: %s." % "; ".join(offered))
    lines.append("This is the region's capacity at the time, not a quota: try again later, or change the "
                 "instance type of these groups.")
    return "\n".join(lines)


def _alternatives(session, groups, spot):
    """``{type: [(other type, quota)]}``: the family's types whose quota allows each group's count."""
    state = state_of(session)
    region = session.boto_region_name
    codes = state.codes or cache.read(region, time.time())
    if not codes:
        return {}
    asker = state.asker or Asker(session)
    out, asked = {}, 0
    for _, instance_type, count in groups:
        for other in quotas.siblings(instance_type, codes, spot):
            if asked >= MAX_ASKED:
                return out
            code = codes[(quotas.SPOT_USAGE if spot else quotas.ON_DEMAND) % other]
            value = state.values.get(code)
            if value is None:
                asked += 1
                try:
                    value = asker.call("service-quotas", "GetServiceQuota", **quotas.SERVICE,
                                       QuotaCode=code)["Quota"]["Value"]
                except Unanswered as exc:
                    LOGGER.debug("No alternatives to %s: %s", instance_type, exc)
                    continue
                state.values[code] = value
            if isinstance(count, int) and value >= count:
                out.setdefault(instance_type, []).append((other, value))
    return out


def capacity_error(session, name, status, desc):
    """The :class:`CapacityError` of the job ``name`` that ended ``status`` as ``desc`` describes it."""
    groups = [(g["name"], g["type"], g["count"]) for g in describe.status_summary(desc)["instance_groups"]]
    alternatives = {}
    if not session.local_mode:
        try:
            alternatives = _alternatives(session, groups, bool(desc.get("EnableManagedSpotTraining")))
        except Exception as exc:  # noqa: BLE001 - the alternatives never hide the failure
            LOGGER.debug("No alternatives for the capacity error of %s: %s", name, exc)
    return CapacityError(name, status, desc.get("FailureReason"), instance_groups=groups,
                         same_family_types=dict((t, [o for o, _ in others]) for t, others in alternatives.items()),
                         advice=advice(groups, alternatives))

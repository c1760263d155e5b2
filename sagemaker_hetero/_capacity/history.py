"""A job's attempts read back from SageMaker (``sagemaker-hetero status --output json``): the jobs a
failover made before it, found by their names (``<name>``, ``<name>-c2``, ... before ``<name>-cN``).

An attempt refused at CreateTrainingJob (``ResourceLimitExceeded``) made no job, so SageMaker holds
nothing of it: only the submission's own record (``TrainingJob.attempts``, ``submit --output json``)
shows it.
"""
import re

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._capacity import walk as W
from sagemaker_hetero._request import describe
from sagemaker_hetero.exceptions import AWSError, ResourceNotFoundError

__all__ = ["attempts_of", "recorded", "listed", "MAX_READ_BACK"]

#: At most this many earlier attempts are described.
MAX_READ_BACK = 20
_NUMBERED = re.compile(r"^(?P<base>.+)-c(?P<n>\d+)$")


def _attempt(desc):
    groups = [(g["name"], g["type"], g["count"]) for g in describe.status_summary(desc)["instance_groups"]]
    return W.Attempt.of_job(desc.get("TrainingJobName"), groups, desc)


def attempts_of(desc, describe_job, list_jobs=None):
    """``[Attempt]`` of the job ``desc`` describes: the jobs a failover made before it (``describe_job(name)``
    answers each; one that does not exist is left out), then itself. A name of 63 characters may have been
    cut (``<name>-cN`` of a long name): its earlier attempts' names cannot be told from it, so they are
    found among the jobs ``list_jobs(part of the name)`` lists (ListTrainingJobs' summaries)."""
    name = desc.get("TrainingJobName") or ""
    match = _NUMBERED.match(name)
    earlier = []
    if match and int(match.group("n")) >= 2:
        base, number = match.group("base"), int(match.group("n"))
        names = [W.attempt_name(base, n) for n in range(max(1, number - MAX_READ_BACK), number)]
        if len(name) >= D.MAX_JOB_NAME and list_jobs is not None:
            names = _cut_names(base, number, desc.get("CreationTime"), list_jobs) or names
        for earlier_name in names:
            try:
                earlier.append(_attempt(describe_job(earlier_name)))
            except ResourceNotFoundError:
                continue
    return earlier + [_attempt(desc)]


def _precedes(candidate, base, number):
    """Whether the job ``candidate`` may be an earlier attempt of ``<base>-c<number>`` (a cut name): the first
    (``<name>``, which ``<name>-c<number>`` cuts to ours), or ``<name>-cK``, K < number, its base agreeing."""
    match = _NUMBERED.match(candidate)
    if match and 2 <= int(match.group("n")) < number:
        other = match.group("base")
        return other.startswith(base) or base.startswith(other)
    return not match and candidate.startswith(base) and W.attempt_name(candidate, number) == \
        W.attempt_name(base, number)


def _cut_names(base, number, created, list_jobs):
    """The names of the earlier attempts of ``<base>-c<number>`` (created before ``created``) that
    ``list_jobs`` finds, oldest first; [] when the listing fails."""
    try:
        summaries = list_jobs(base[: D.MAX_JOB_NAME - 10])
    except AWSError:
        return []
    found = [(s.get("CreationTime"), s.get("TrainingJobName")) for s in summaries
             if isinstance(s.get("TrainingJobName"), str) and _precedes(s["TrainingJobName"], base, number)
             and (created is None or s.get("CreationTime") is None or s["CreationTime"] <= created)]
    return [n for _, n in sorted(found, key=lambda f: (f[0] is not None, f[0] or 0))][-MAX_READ_BACK:]


def listed(session, contains):
    """ListTrainingJobs' summaries of the newest jobs whose name contains ``contains`` (one page)."""
    from sagemaker_hetero._aws import errors

    answer = errors.call(session.sagemaker_client, "ListTrainingJobs", NameContains=contains, MaxResults=100,
                         SortBy="CreationTime", SortOrder="Descending")
    return answer.get("TrainingJobSummaries") or []


def recorded(attempts, desc):
    """A submission's ``attempts``, or (a job submitted without a failover: none recorded) the one job ``desc``
    describes."""
    return list(attempts) if attempts else [_attempt(desc)]

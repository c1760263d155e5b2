"""A job's attempts read back from SageMaker (``sagemaker-hetero status --output json``): the jobs a
failover made before it, found by their names (``<name>``, ``<name>-c2``, ... before ``<name>-cN``).

An attempt refused at CreateTrainingJob (``ResourceLimitExceeded``) made no job, so SageMaker holds
nothing of it: only the submission's own record (``TrainingJob.attempts``, ``submit --output json``)
shows it.
"""
import re

from sagemaker_hetero._capacity import walk as W
from sagemaker_hetero._request import describe
from sagemaker_hetero.exceptions import ResourceNotFoundError

__all__ = ["attempts_of", "recorded", "MAX_READ_BACK"]

#: At most this many earlier attempts are described.
MAX_READ_BACK = 20
_NUMBERED = re.compile(r"^(?P<base>.+)-c(?P<n>\d+)$")


def _attempt(desc):
    groups = [(g["name"], g["type"], g["count"]) for g in describe.status_summary(desc)["instance_groups"]]
    return W.Attempt.of_job(desc.get("TrainingJobName"), groups, desc)


def attempts_of(desc, describe_job):
    """``[Attempt]`` of the job ``desc`` describes: the jobs a failover made before it (``describe_job(name)``
    answers each; one that does not exist is left out), then itself."""
    name = desc.get("TrainingJobName") or ""
    match = _NUMBERED.match(name)
    earlier = []
    if match and int(match.group("n")) >= 2:
        base, number = match.group("base"), int(match.group("n"))
        for n in range(max(1, number - MAX_READ_BACK), number):
            try:
                earlier.append(_attempt(describe_job(W.attempt_name(base, n))))
            except ResourceNotFoundError:
                continue
    return earlier + [_attempt(desc)]


def recorded(attempts, desc):
    """A submission's ``attempts``, or (a job submitted without a failover: none recorded) the one job ``desc``
    describes."""
    return list(attempts) if attempts else [_attempt(desc)]

"""SageMaker Python SDK v3's ``sagemaker.core.utils.exceptions``: what a failed training job raises.

``FailedStatusError`` carries what SDK v3's does (``resource_type``, ``status``, ``reason``) and what
this package adds to the SDK v2 estimators' errors: the job's name and, for a job SageMaker could not
find capacity for, its instance groups, the other instance types whose quota allows each group's
count and the advice (``capacity``: the ``CapacityError`` it stands for).
"""
from sagemaker_hetero.exceptions import CapacityError, UnexpectedStatusException

__all__ = ["FailedStatusError"]

_FMT = ("Encountered unexpected failed state while waiting for {resource_type}. Final Resource State: {status}. "
        "Failure Reason: {reason}")


class FailedStatusError(UnexpectedStatusException):
    """A resource (a training job) entered a failed state, as SDK v3 names it.

    Parameters
    ----------
    resource_type : str, default '(Unkown)'
        What was waited for (``"TrainingJob"``), spelt as SDK v3 spells the default.
    status : str, default '(Unkown)'
        Its final status, e.g. ``"Failed"``.
    reason : str, default '(Unkown)'
        Its failure reason.
    job_name : str, optional
        The training job.
    capacity : CapacityError, optional
        The SDK v2 facade's error for a job without capacity: its groups, the same-family types its quotas allow,
        the attempts of a failover and advice.
    """

    fmt = _FMT

    def __init__(self, resource_type="(Unkown)", status="(Unkown)", reason="(Unkown)", job_name=None,
                 capacity=None):
        """Make the error: SDK v3's message, then the job and the capacity advice."""
        super(FailedStatusError, self).__init__(job_name, status, reason)
        self.resource_type = resource_type
        self.reason = reason
        self.capacity = capacity
        self.instance_groups = list(capacity.instance_groups) if capacity is not None else []
        self.same_family_types = dict(capacity.same_family_types) if capacity is not None else {}
        self.attempts = list(capacity.attempts) if capacity is not None else []
        self.advice = capacity.advice if capacity is not None else None
        text = _FMT.format(resource_type=resource_type, status=status, reason=reason)
        if job_name:
            text = "%s (training job %s)" % (text, job_name)
        if self.advice:
            text += "\n" + self.advice
        self.args = (text,)

    @classmethod
    def of(cls, error):
        """The ``FailedStatusError`` of an SDK v2 facade's ``UnexpectedStatusException`` (or ``CapacityError``).

        Parameters
        ----------
        error : UnexpectedStatusException
            What the job's wait raised.
        """
        capacity = error if isinstance(error, CapacityError) else None
        return cls("TrainingJob", error.status, error.failure_reason or "(Unkown)", error.job_name, capacity)

"""Check a training job against the AWS account before anything is uploaded (docs/preflight.md).

``preflight(estimator, inputs)`` (or ``estimator.preflight(inputs)``) looks at what the account
would refuse or fail the job for: the quotas of each instance type (spot and warm-pool ones too),
the role (it exists, trusts SageMaker, and the caller may pass it), the image, the KMS keys, the
input data and the buckets' regions, the subnets and security groups. Each check of each subject
is a :class:`Finding`: ``ok``, ``problem`` (with the argument, its value and what to do) or
``unknown`` (the check could not be made; the permission it needs is named). ``fit`` runs the
:data:`DEFAULT_CHECKS` itself; ``fit(preflight=...)`` chooses.
"""
from sagemaker_hetero._preflight.report import (CHECKS, DEFAULT_CHECKS, OK, PROBLEM, UNKNOWN, Finding,
                                                PreflightReport, iam_policy)
from sagemaker_hetero.exceptions import PreflightError

__all__ = ["preflight", "PreflightReport", "Finding", "PreflightError", "CHECKS", "DEFAULT_CHECKS", "OK", "PROBLEM",
           "UNKNOWN", "iam_policy"]


def preflight(estimator, inputs=None, job_name=None, experiment_config=None, checks=None):
    """The :class:`PreflightReport` of the job ``estimator.fit(inputs, job_name=..., experiment_config=...)``
    would start, through the estimator's session. Nothing is uploaded or created; a job that cannot be
    built raises ``ConfigError`` as ``fit`` does.

    Parameters
    ----------
    estimator : EstimatorBase
        The estimator whose job to check (its session: an AWS ``Session``).
    inputs : str, TrainingInput or dict, optional
        The channels, as ``fit`` takes them.
    job_name : str, optional
        The job's name, as ``fit`` takes it.
    experiment_config : dict, optional
        The SageMaker Experiments run, as ``fit`` takes it.
    checks : list of str, optional
        The checks to make, among :data:`CHECKS` (default: all).

    Returns
    -------
    PreflightReport
    """
    return estimator.preflight(inputs, job_name=job_name, experiment_config=experiment_config, checks=checks)

"""``fit``'s preflight: the checks ``preflight`` asks for, then the session creates the job (edge).

:func:`submit` runs the preflight before the session does anything (no bucket, no upload, no
CreateTrainingJob while it finds a problem), then ``session.execute``. A ``ResourceLimitExceeded``
answer to CreateTrainingJob (a quota the preflight could not see, or the account's use changed) is
told as the preflight tells a quota: the same row and what to do. Sessions other than an AWS
``Session`` (a local run) are not checked.
"""
import logging
import sys
import time

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight import cache, modes, quotas
from sagemaker_hetero._preflight.report import PreflightReport
from sagemaker_hetero._preflight.run import run
from sagemaker_hetero._preflight.state import state_of

__all__ = ["is_aws", "submit", "explained"]

LOGGER = logging.getLogger("sagemaker_hetero")


def is_aws(session):
    """Whether ``session`` runs jobs on AWS with an account a preflight can look at."""
    return not getattr(session, "local_mode", False) and callable(getattr(session, "caller_identity", None))


def submit(session, job, now, preflight=None, out=None):
    """The training job ``session.execute(job, now)`` starts, after the preflight ``preflight`` asks
    for (:mod:`modes`): problems raise :class:`PreflightError` (``"warn"``: printed to ``out``,
    default stderr, and the job goes on)."""
    aws = is_aws(session)
    checks = modes.checks_of(preflight) if aws else ()
    if checks:
        report = run(session, job, now, checks)
        if report.problems and preflight == modes.WARN:
            (out or sys.stderr).write("Preflight: %d problem%s; going on (preflight='warn'):\n%s\n" % (
                len(report.problems), "" if len(report.problems) == 1 else "s", report.text()))
        elif report.problems:
            raise report.error()
        if report.unknowns:
            LOGGER.info("Preflight: %d check%s could not be made:\n%s", len(report.unknowns),
                        "" if len(report.unknowns) == 1 else "s", report.text())
    try:
        started = session.execute(job, now)
    except E.AWSError as exc:
        if aws and exc.code == "ResourceLimitExceeded":
            raise explained(session, job, exc) from exc
        raise
    if aws:
        state_of(session).started(quotas.requested(job))
    return started


def explained(session, job, exc):
    """``exc`` (CreateTrainingJob's ``ResourceLimitExceeded``) with the quota it names as the
    preflight reports it, or as it is when its message names no quota."""
    state = state_of(session)
    state.forget_use()
    region = session.boto_region_name
    codes = state.codes or cache.read(region, time.time()) or {}
    finding = quotas.limit_finding(exc.aws_message, job, codes, region)
    if finding is None:
        return exc
    report = PreflightReport([finding], region=region, account=session.facts().account_id)
    return exc.hinted("SageMaker refused the job over a quota; no job was created (the code is uploaded and is "
                      "used again by the next submission).\n%s\nWhat to do: %s" % (report.text(), finding.fix))

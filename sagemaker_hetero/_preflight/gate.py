"""``fit``'s preflight on the job's plan, and the create call's quota answer told (edge).

An AWS ``Session`` calls these in the runner's one path (``_runner.execute``): :func:`check` runs
the preflight on the plan before the session does anything (no bucket, no upload, no
CreateTrainingJob while it finds a problem); :func:`created` makes the create call, and a
``ResourceLimitExceeded`` answer to CreateTrainingJob (a quota the preflight could not see, or the
account's use changed) is told as the preflight tells a quota: the same row and what to do. A
``LocalSession`` has no preflight.

Only a problem found stops a job: a check that could not be made is "unknown", logged once per
session (``sagemaker_hetero`` logger, INFO), and the job goes on; a preflight that fails in any
other way (whatever it raises) is logged so too and never stops the job. What the create call
raises is raised as it is.
"""
import sys
import time

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._preflight import cache, modes, quotas
from sagemaker_hetero._preflight.ask import named
from sagemaker_hetero._preflight.report import PreflightReport, unknown
from sagemaker_hetero._preflight.run import run
from sagemaker_hetero._preflight.state import state_of

__all__ = ["is_aws", "check", "created", "explained"]

LOGGER = E.logger()  # its records shown (exceptions.shown)


def is_aws(session):
    """Whether ``session`` runs jobs on AWS with an account a preflight can look at."""
    return session is not None and not session.local_mode


def check(session, plan, preflight=None, out=None):
    """The preflight ``preflight`` asks for (:mod:`modes`) of the checked ``plan`` on the AWS
    ``session``, before anything is created: problems raise :class:`PreflightError` (``"warn"``:
    printed to ``out``, default stderr, and the job goes on)."""
    checks = modes.checks_of(preflight)
    report = _preflight(session, plan, checks) if checks else None
    if report is not None and report.problems:
        if preflight != modes.WARN:
            raise report.error()
        (out or sys.stderr).write("Preflight: %d problem%s; going on (preflight='warn'):\n%s\n" % (
            len(report.problems), "" if len(report.problems) == 1 else "s", report.text()))


def created(session, plan, create):
    """The training job ``create(plan)`` starts on the AWS ``session``; a ``ResourceLimitExceeded``
    answer is told as the preflight tells a quota, and the job's use is remembered for the next preflight."""
    try:
        started = create(plan)
    except E.AWSError as exc:
        if exc.code == "ResourceLimitExceeded":
            raise _explained_or_as_is(session, plan.job, exc) from exc
        raise
    state_of(session).started(quotas.requested(plan.job))
    return started


def _preflight(session, plan, checks):
    """The report of ``checks`` of ``job``, its unknowns not told yet in this session logged; None when
    the preflight itself failed (logged once per session too: the job goes on)."""
    state = state_of(session)
    try:
        report = run(session, plan, checks)
    except Exception as exc:  # noqa: BLE001 - only a problem found stops a job, never a preflight that failed
        failed = unknown(", ".join(checks), "the preflight", None, "could not be made (%s)" % named(exc, 200))
        for finding in state.untold([failed]):
            LOGGER.info("Preflight: %s %s; the job goes on", finding.subject, finding.detail)
        return None
    untold = state.untold(report.unknowns)
    if untold:
        LOGGER.info("Preflight: %d check%s could not be made (told once per session; the job goes on):\n%s",
                    len(untold), "" if len(untold) == 1 else "s",
                    "\n".join(PreflightReport(untold).text().splitlines()[:-1]))  # the rows, not the counts
    return report


def _explained_or_as_is(session, job, exc):
    """:func:`explained`, or ``exc`` as it is when explaining it fails."""
    try:
        return explained(session, job, exc)
    except Exception:  # noqa: BLE001 - SageMaker's own error is never hidden by the explanation of it
        return exc


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

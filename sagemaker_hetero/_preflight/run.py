"""One preflight of one job through a session: its plan's subjects, the checks, the report.

A preflight is handed the plan the job is submitted with, rendered once by the runner
(``_runner.checked_plan``): ``fit``'s, with the facts its submission looked up; ``estimator.preflight``'s
with the facts :func:`looked_up` gives it (the caller asked as a preflight asks, once the job has no
problem of its own), without the code archive's digest: a preflight looks at the code's bucket, never
its key, so no archive is built for it. Each check is made apart: whatever one raises (a bug, an answer
of a shape no check foresaw) is an "unknown" finding of that check, never a crash, and the other checks
are made all the same.
"""
import attrs

from sagemaker_hetero._preflight import checks as C
from sagemaker_hetero._preflight.ask import Asker, Unanswered, named
from sagemaker_hetero._preflight.report import CHECKS, PreflightReport, unknown
from sagemaker_hetero._preflight.state import state_of
from sagemaker_hetero._preflight.subjects import subjects_of

__all__ = ["run", "looked_up"]


def _begun(session, state):
    """The session's preflight asker (made on first use), its budget begun now (``state.lock`` held)."""
    if state.asker is None:
        state.asker = Asker(session)
    state.asker.begin()
    return state.asker


def _identity(session, state):
    """GetCallerIdentity's answer as a preflight asks it (one attempt, short timeouts; kept by the
    session, and an unanswered call by ``state``), or the :class:`Unanswered` it raised."""
    try:
        return state.asked(("GetCallerIdentity",), lambda: state.asker.through(
            "sts:GetCallerIdentity", lambda: session.caller_identity(quick=True)))
    except Unanswered as exc:
        return exc


def looked_up(session):
    """``job -> Facts``: the facts a preflight's plan is rendered with (``_runner.planned``'s ``lookup``):
    the caller asked as the preflight asks it, its budget begun (:func:`run` then ``begun``), then the
    session's facts, the account among them when it answered."""
    def lookup(job):
        state = state_of(session)
        with state.lock:
            _begun(session, state)
            _identity(session, state)
        return session.facts()
    return lookup


def run(session, plan, checks=CHECKS, begun=False):
    """The :class:`PreflightReport` of the checked ``plan`` (a job's :class:`~._request.plan.Plan`, as it
    is to be submitted) on ``session`` (an AWS ``Session``) at the plan's time, making the ``checks`` named
    (in :data:`CHECKS` order); ``begun``: the preflight's budget began when the plan's facts were looked
    up (:func:`looked_up`)."""
    state = state_of(session)
    with state.lock:
        if not begun or state.asker is None:
            _begun(session, state)
        identity = _identity(session, state)
        if plan.facts.account_id is None and isinstance(identity, dict):  # the account asked for just now
            plan = attrs.evolve(plan, facts=attrs.evolve(plan.facts, account_id=identity.get("Account")))
        ctx = C.Context(session=session, asker=state.asker, state=state, subjects=subjects_of(plan),
                        identity=identity, now=plan.made_at)
        findings = []
        for check in CHECKS:
            if check in checks:
                findings.extend(made(check, ctx))
    account = identity.get("Account") if isinstance(identity, dict) else None
    return PreflightReport(findings, region=plan.region, account=account, job_name=plan.job_name)


def made(check, ctx):
    """The findings of ``check``; one "unknown" finding of it when it raises (whatever it raises)."""
    try:
        return list(C.CHECKERS[check](ctx))
    except Unanswered as exc:
        return [unknown(check, "the %s check" % check, exc.permission, exc.why)]
    except Exception as exc:  # noqa: BLE001 - one check's failure is that check's unknown, never a crashed fit
        return [unknown(check, "the %s check" % check, None, "could not be made: an answer it could not judge (%s)"
                        % named(exc))]

"""One preflight of one job through a session: the plan, its subjects, the checks, the report.

``fit``'s preflight is handed the plan the job is submitted with (rendered once, by the runner).
``estimator.preflight`` alone makes one as the session would (``_plan.make_plan`` with the
session's facts, the account looked up first), without the code archive's digest: a preflight looks
at the code's bucket, never its key, so no archive is built for it. Each check is made apart: whatever one raises
(a bug, an answer of a shape no check foresaw) is an "unknown" finding of that check, never a crash,
and the other checks are made all the same.
"""
import attrs

from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._preflight import checks as C
from sagemaker_hetero._preflight.ask import Asker, Unanswered, named
from sagemaker_hetero._preflight.report import CHECKS, PreflightReport, unknown
from sagemaker_hetero._preflight.state import state_of
from sagemaker_hetero._preflight.subjects import subjects_of

__all__ = ["run"]


def run(session, job, now, checks=CHECKS, plan=None):
    """The :class:`PreflightReport` of the checked ``job`` (a job model) on ``session`` (an AWS
    ``Session``) at ``now`` (epoch seconds), making the ``checks`` named (in :data:`CHECKS` order);
    ``plan``: the job's plan as it is to be submitted (else one is made with the session's facts)."""
    state = state_of(session)
    with state.lock:
        if state.asker is None:
            state.asker = Asker(session)
        state.asker.begin()
        try:
            identity = state.asked(("GetCallerIdentity",), lambda: state.asker.through(
                "sts:GetCallerIdentity", lambda: session.caller_identity(quick=True)))
        except Unanswered as exc:
            identity = exc
        if plan is None:
            plan = _plan.make_plan(job, session.facts(), now)
        elif plan.facts.account_id is None and isinstance(identity, dict):  # the account asked for just now
            plan = attrs.evolve(plan, facts=attrs.evolve(plan.facts, account_id=identity.get("Account")))
        ctx = C.Context(session=session, asker=state.asker, state=state, subjects=subjects_of(plan),
                        identity=identity, now=now)
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

"""One preflight of one job through a session: the plan, its subjects, the checks, the report.

The plan is made as the session would make it (``_plan.make_plan`` with the session's facts, the
account looked up first), without the code archive's digest: a preflight looks at the code's
bucket, never its key, so no archive is built for it.
"""
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._preflight import checks as C
from sagemaker_hetero._preflight.ask import Asker, Unanswered
from sagemaker_hetero._preflight.report import CHECKS, PreflightReport
from sagemaker_hetero._preflight.state import state_of
from sagemaker_hetero._preflight.subjects import subjects_of

__all__ = ["run"]


def run(session, job, now, checks=CHECKS):
    """The :class:`PreflightReport` of the checked ``job`` (a job model) on ``session`` (an AWS
    ``Session``) at ``now`` (epoch seconds), making the ``checks`` named (in :data:`CHECKS` order)."""
    state = state_of(session)
    with state.lock:
        if state.asker is None:
            state.asker = Asker(session)
        try:
            identity = state.asker.through("sts:GetCallerIdentity", session.caller_identity)
        except Unanswered as exc:
            identity = exc
        plan = _plan.make_plan(job, session.facts(), now)
        ctx = C.Context(session=session, asker=state.asker, state=state, subjects=subjects_of(plan),
                        identity=identity, now=now)
        findings = []
        for check in CHECKS:
            if check in checks:
                findings.extend(C.CHECKERS[check](ctx))
    account = identity.get("Account") if isinstance(identity, dict) else None
    return PreflightReport(findings, region=plan.region, account=account, job_name=plan.job_name)

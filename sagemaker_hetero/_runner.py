"""THE path through, for ``Estimator.fit``, ``HyperparameterTuner``, ``TrainingStep`` and the CLI.

One way for a constructor, a dry run, AWS and a local run alike: settings -> :func:`planned`
(pipeline values in their place, the job model built, the session's own check, our rules; the facts,
looked up when the job is to be submitted; the :class:`~._request.plan.Plan`, its request rendered
ONCE; the service's limits checked on that rendered request) -> :func:`execute` (the plan run
through its session: preflight, what the account must hold, the code upload, the one create call).
A session follows :class:`SessionProtocol` (``Session`` for AWS, ``LocalSession``); without one
(an AWS dry run) the region is the AWS configuration's, else a placeholder. The file system and the
clock enter here (:func:`local_path_exists`, ``now``) and are passed down: what this module calls is pure.
"""
import os
from typing import Any, Optional, Protocol, runtime_checkable

from sagemaker_hetero import utils
from sagemaker_hetero._aws import files
from sagemaker_hetero._checks import round_one
from sagemaker_hetero._model import build, variables
from sagemaker_hetero._request import names, plan
from sagemaker_hetero.exceptions import AWSError, ConfigError, Problem

__all__ = ["SessionProtocol", "PROTOCOL", "FIT_DECIDES", "is_session", "session_facts", "local_path_exists",
           "code_digest", "prepare", "planned", "checked_job", "checked_plan", "execute", "upload"]


@runtime_checkable
class SessionProtocol(Protocol):
    """What the estimators, the tuner, pipelines, the CLI and the runner use of a session: ``Session``
    (AWS) and ``LocalSession`` have every attribute (a local session answers "not applicable": no
    preflight, no upload, no account look-up). No caller probes a session for an attribute."""

    local_mode: bool  # the session runs jobs on this machine
    boto_region_name: Optional[str]
    boto_session: Any  # None: a local session without one
    sagemaker_config: Any  # the SageMaker defaults configuration (a dict, or None)
    poll_interval: Any  # seconds between polls while waiting: (first, longest), or None for the default
    config: Any  # the SDK v2's local-mode configuration (a dict), or None

    def facts(self) -> plan.Facts:
        """What the session knows without a call."""

    def check(self, job):
        """``(job, problems)``: the job as this session runs it, and what it cannot run."""

    def lookup_facts(self, job) -> plan.Facts:
        """The facts ``job``'s request needs, looked up (read-only calls): a submission's."""

    def code_digest(self, job) -> Optional[str]:
        """The SHA-256 of the code archive as the session stores it; None: none goes to S3."""

    def preflight(self, plan, mode, out=None) -> None:
        """Check the plan against the account as ``fit(preflight=mode)`` asks (raises PreflightError)."""

    def provision(self, plan) -> None:
        """What the account must hold before the upload: input buckets, the default bucket, the role."""

    def upload_code(self, plan) -> None:
        """Put the plan's code archive where its request says it is."""

    def create(self, plan) -> Any:
        """The one create call of the plan: the started job (a training job's handle, or the answer)."""

    def execute(self, job, now) -> Any:
        """A checked job -> a started job (the plan made and run through :func:`execute`)."""

    def quick_client(self, service) -> Any:
        """The boto3 client a preflight asks ``service`` with: one attempt, short timeouts (None: local)."""

    def caller_identity(self) -> Optional[dict]:
        """GetCallerIdentity's answer; None where there is no AWS account (a local session)."""

    def job_failure(self, job_name, status, desc) -> Exception:
        """The exception of a training job that ended ``status`` as ``desc`` describes it."""


#: What a session has (callables): the session protocol's methods.
PROTOCOL = ("facts", "check", "execute")
#: What fit can still change: its job_name replaces the constructor's (and with it any base name),
#: and one TrainingInput with an input_mode sets the job's. A constructor leaves these to fit.
FIT_DECIDES = ("job_name", "base_job_name", "input_mode")


def is_session(session):
    """Whether ``session`` follows the session protocol (:class:`SessionProtocol`)."""
    return isinstance(session, SessionProtocol)


def session_facts(session):
    """What ``session`` knows without a call; without one, the region of the AWS configuration (the
    placeholder ``<region>`` when none is configured: ``names.dry_run_region``)."""
    if is_session(session):
        return session.facts()
    return plan.Facts(region=names.dry_run_region(files.region_from_environment()))


def local_path_exists(kind, path):
    """Whether the local ``path`` exists as a ``"dir"``, a ``"file"`` or (``"any"``) either."""
    if kind == "dir":
        return os.path.isdir(path)
    if kind == "file":
        return os.path.isfile(path)
    return os.path.exists(path)


def code_digest(session, job):
    """The SHA-256 of the job's code archive as ``session`` would store it (its ``code_digest``; with no
    session, an AWS dry run, the archive built with the default ``CODE_IGNORE``), so that a dry run shows
    the code key the job gets. None: no archive to upload, or a session whose code never goes to S3."""
    if session is not None:
        return session.code_digest(job)
    if job.code is None or job.code.in_s3:
        return None
    from sagemaker_hetero._aws import code_archive

    return code_archive.archive_digest(job.code)


def planned(settings, session=None, now=0.0, path_exists=None, found=(), facts=None, values=None, submit=False,
            digest=True, stamp=True):
    """``(job, plan, problems)``: round one for one job's settings, as ``session`` (None: none, an AWS
    dry run) runs it, and the plan, its request rendered once: the job model, the session's own check
    of it, our rules (``round_one.model_problems``); then the facts (``facts``; default: the
    session's without a call, looked up by the session when ``submit`` and nothing is wrong yet), the
    plan (``digest``: with the code key the session gives it, when nothing is wrong yet) and the
    service's limits on its request (``digest`` may be the archive's digest maker, ``job -> SHA-256``,
    for a caller that builds the archive itself). Pipeline parameters among the settings are checked with their
    values in their place (``values``: name -> an execution's value; else their defaults), and the
    job holds those values, marked (``_model.variables``). ``submit``: a default job name's stamp is
    claimed (``utils.claim_time``), as a job that is created gets it (unless ``stamp`` is False: a
    pipeline step's job is named when it runs)."""
    settings, hidden, misplaced = variables.with_values(settings, values)
    job, problems = build.build(settings)
    problems = list(found) + misplaced + problems
    if session is not None:
        job, more = session.check(job)
        problems.extend(more)
    if facts is None:
        facts = session.facts() if session is not None else plan.Facts(region=None)
    problems = round_one.model_problems(job, facts, problems, path_exists=path_exists)
    clean, unanswered = not problems, None
    if clean and submit and session is not None:
        try:
            facts = session.lookup_facts(job)
        except AWSError as exc:  # the request's own problems first, all at once: the look-up's failure after
            unanswered = exc
    if submit and stamp and job.job_name is None:
        now = utils.claim_time(now)
    digest = (digest(job) if callable(digest) else code_digest(session, job)) if clean and digest else None
    made = plan.make_plan(job, facts, now, code_digest=digest)
    problems = round_one.plan_problems(made, problems)
    mine = set(id(p) for p in misplaced)
    problems = [p for p in problems if id(p) in mine or not variables.hides(p.path, hidden)]
    if unanswered is not None and not problems:
        raise unanswered
    return job, made, problems


def prepare(settings, session=None, now=0.0, path_exists=None, found=(), facts=None, values=None):
    """``(job, facts, problems)``: :func:`planned` without the code key (what a check needs)."""
    job, made, problems = planned(settings, session, now, path_exists, found, facts, values, digest=False)
    return job, made.facts, problems


def _session_problem(session, found):
    """``session`` when it follows the protocol (or is None), else None with the problem in ``found``."""
    if session is not None and not is_session(session):
        found.append(Problem("sagemaker_session", "must be a sagemaker_hetero Session or LocalSession (an object "
                             "with %s)" % ", ".join("%s()" % n for n in PROTOCOL), session))
        return None
    return session


def checked_plan(settings, session, now, path_exists=None, found=(), later=(), submit=False, facts=None):
    """The :class:`~._request.plan.Plan` of ``settings`` as ``session`` runs it, after every check
    (raises :class:`ConfigError` listing every problem but those of the arguments in ``later``):
    rendered once (:func:`planned`)."""
    found = list(found)
    session = _session_problem(session, found)
    facts = session_facts(session) if facts is None else facts
    _, made, problems = planned(settings, session, now, path_exists, found, facts=facts, submit=submit)
    problems = [p for p in problems if p.path not in later]
    if problems:
        raise ConfigError(problems)
    return made


def checked_job(settings, session, now, path_exists=None, found=(), later=()):
    """``(job, facts)``: the job model of ``settings`` as ``session`` runs it, after every check
    (raises :class:`ConfigError` listing every problem but those of the arguments in ``later``)."""
    found = list(found)
    session = _session_problem(session, found)
    job, facts, problems = prepare(settings, session, now, path_exists, found, facts=session_facts(session))
    problems = [p for p in problems if p.path not in later]
    if problems:
        raise ConfigError(problems)
    return job, facts


def execute(session, made, preflight=None, out=None, before_create=None):
    """Run the checked plan ``made`` through ``session``: the preflight ``preflight`` asks for, what the
    account must hold and the code upload (:func:`upload`), ``before_create()`` (a ModelTrainer's code and
    driver channels uploaded), then the plan's one create call; the started job."""
    session.preflight(made, preflight, out)
    upload(session, [made])
    if before_create is not None:
        before_create()
    return session.create(made)


def upload(session, plans, renamed=None):
    """What the checked ``plans`` need before their create call: what the account must hold
    (``provision``: input buckets, the default bucket, the role) for every plan, then (every
    problem raised at once, each ``renamed(index, problem)`` when given) their code archives uploaded."""
    problems = []
    for i, made in enumerate(plans):
        try:
            session.provision(made)
        except ConfigError as exc:  # an input bucket that does not exist
            problems.extend(exc.problems if renamed is None else [renamed(i, p) for p in exc.problems])
    if problems:
        raise ConfigError(problems)
    for made in plans:
        session.upload_code(made)

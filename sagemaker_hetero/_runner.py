"""THE path through, for ``Estimator.fit``, ``HyperparameterTuner``, ``TrainingStep`` and the CLI.

One way for a constructor, a dry run, AWS and a local run alike: settings -> :func:`planned`
(pipeline values in their place, the job model built, the session's own check, our rules; the facts,
looked up when the job is to be submitted; the :class:`~._request.plan.Plan`, its request rendered
ONCE; the service's limits checked on that rendered request) -> :func:`execute` (the plan run
through its session: preflight, what the account must hold, the code upload, the one create call).
Every other plan is made here too: a checked job's (:func:`executed`, a session's ``execute``), a
plan under a default name taken meanwhile (:func:`renamed`), a described job's read back for a diff
(:func:`diffed`); and a pipeline step's job with its parameters' tokens is built here
(:func:`tokens_job`). A session follows :class:`SessionProtocol` (``Session`` for AWS,
``LocalSession``); without one (an AWS dry run) the region is the AWS configuration's, else a
placeholder. The file system and the clock enter here (:func:`local_path_exists`, ``now``) and are
passed down: what this module calls is pure.
"""
import contextlib
import os
import threading
from typing import Any, Optional, Protocol, runtime_checkable

from sagemaker_hetero import utils
from sagemaker_hetero._aws import files
from sagemaker_hetero._checks import round_one
from sagemaker_hetero._model import build, choices, variables
from sagemaker_hetero._request import names, plan
from sagemaker_hetero.exceptions import AWSError, ConfigError, Problem

__all__ = ["SessionProtocol", "PROTOCOL", "FIT_DECIDES", "is_session", "session_facts", "local_path_exists",
           "code_digest", "one_check", "check_deferred", "planned", "checked_plan", "executed", "renamed", "tokens_job",
           "diffed", "execute", "upload"]


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
        """A checked job -> a started job (through :func:`executed`)."""

    def quick_client(self, service) -> Any:
        """The boto3 client a preflight asks ``service`` with: one attempt, short timeouts (None: local)."""

    def caller_identity(self, quick=False) -> Optional[dict]:
        """GetCallerIdentity's answer (``quick``: as a preflight asks, one attempt with short timeouts);
        None where there is no AWS account (a local session)."""

    def job_failure(self, job_name, status, desc) -> Exception:
        """The exception of a training job that ended ``status`` as ``desc`` describes it."""


#: What a session has (callables): the session protocol's methods.
PROTOCOL = ("facts", "check", "execute")
#: What fit can still change: its job_name replaces the constructor's (and with it any base name),
#: and one TrainingInput with an input_mode sets the job's. A constructor leaves these to fit.
FIT_DECIDES = ("job_name", "base_job_name", "input_mode")


_ONE_CHECK = threading.local()


@contextlib.contextmanager
def one_check():
    """Within (this thread): an estimator's constructor leaves its check to its ``fit``'s or ``preflight``'s
    plan, the job's one check and one render (the CLI's estimators: ``_cli.spec.Spec.driven``)."""
    _ONE_CHECK.on = True
    try:
        yield
    finally:
        _ONE_CHECK.on = False


def check_deferred():
    """Whether an estimator made now leaves its check to its plan (:func:`one_check`)."""
    return bool(getattr(_ONE_CHECK, "on", False))


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
            digest=True, stamp=True, lookup=None):
    """``(job, plan, problems)``: round one for one job's settings, as ``session`` (None: none, an AWS
    dry run) runs it, and the plan, its request rendered once: the job model, the session's own check
    of it, our rules (``round_one.model_problems``); then the facts (``facts``; default: the
    session's without a call, looked up when nothing is wrong yet by ``lookup``, ``job -> Facts``, or
    when ``submit`` by the session's ``lookup_facts``), the
    plan (``digest``: with the code key the session gives it, when nothing is wrong yet) and the
    service's limits on its request (``digest`` may be the archive's digest maker, ``job -> SHA-256``,
    for a caller that builds the archive itself). Pipeline parameters among the settings are checked with their
    values in their place (``values``: name -> an execution's value; else their defaults), and the
    job holds those values, marked (``_model.variables``). An instance group's ``alternatives`` are
    checked too, each as the whole job with that group as that choice (:func:`_choice_problems`).
    ``submit``: a default job name's stamp is
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
    if lookup is None and submit and session is not None:
        lookup = session.lookup_facts
    if clean and lookup is not None:
        try:
            facts = lookup(job)
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
    if choices.has_alternatives(settings):
        problems = problems + choices.form_problems(settings)
        if not problems:
            problems = _choice_problems(settings, session, now, path_exists, made.facts, values)
    return job, made, problems


def _choice_problems(settings, session, now, path_exists, facts, values):
    """The problems of each instance group's alternatives, each checked as the whole job with that group
    as that choice (the planner's checks): one problem per choice the job could never run, naming both."""
    out = []
    for i, j, (instance_type, count), alone in choices.substituted(settings):
        _, _, found = planned(alone, session, now, path_exists, facts=facts, values=values, digest=False, stamp=False)
        if found:
            name = settings.instance_groups[i].instance_group_name
            why = "; ".join("%s %s" % (p.path, p.message) for p in found[:3])
            out.append(Problem("instance_groups[%d].alternatives[%d]" % (i, j), "is a choice of instance group %r "
                               "(%s) the job could never run: %s" % (name, choices.choice_text(instance_type, count),
                                                                   why), instance_type))
    return out


def _session_problem(session, found):
    """``session`` when it follows the protocol (or is None), else None with the problem in ``found``."""
    if session is not None and not is_session(session):
        found.append(Problem("sagemaker_session", "must be a sagemaker_hetero Session or LocalSession (an object "
                             "with %s)" % ", ".join("%s()" % n for n in PROTOCOL), session))
        return None
    return session


def checked_plan(settings, session, now, path_exists=None, found=(), later=(), submit=False, facts=None, digest=True,
                 lookup=None, told=None):
    """The :class:`~._request.plan.Plan` of ``settings`` as ``session`` runs it, after every check
    (raises :class:`ConfigError` listing every problem but those of the arguments in ``later``, as
    ``told(problems)`` tells them when given: a CLI spec's paths, its own problems first):
    rendered once (:func:`planned`, with its ``submit``, ``digest`` and ``lookup``). The one way from
    settings to a checked job: its ``job`` is the job model, its ``facts`` the facts it was rendered with."""
    found = list(found)
    session = _session_problem(session, found)
    facts = session_facts(session) if facts is None else facts
    _, made, problems = planned(settings, session, now, path_exists, found, facts=facts, submit=submit, digest=digest,
                                lookup=lookup)
    problems = [p for p in problems if p.path not in later]
    problems = problems if told is None else told(problems)
    if problems:
        raise ConfigError(problems)
    return made


def executed(session, job, now):
    """A checked ``job`` (a job model) started through ``session`` with no preflight (the protocol's
    ``execute``): a default name's stamp claimed, the facts the session looks up and the code key it
    gives the archive, the request rendered once and the service's limits checked on it (raises
    :class:`ConfigError`: a role ARN from IAM or a bucket name the service does not take), then :func:`execute`."""
    now = utils.claim_time(now) if job.job_name is None else now
    made = plan.make_plan(job, session.lookup_facts(job), now, code_digest=session.code_digest(job))  # nothing created
    problems = round_one.service_problems(made)
    if problems:
        raise ConfigError(problems)
    return execute(session, made, preflight=False)


def renamed(made):
    """The plan ``made`` under the next default name (its name taken by another process): the same job,
    facts and code key, stamped anew (``utils.claim_time``) and rendered again, as a new plan."""
    return plan.make_plan(made.job, made.facts, utils.claim_time(made.made_at), code_digest=made.code_digest)


def tokens_job(settings):
    """The job model of a pipeline step's ``settings`` with each parameter's token in its place
    (``_model.variables.with_tokens``; ``TrainingStep.jobs``): built, neither checked nor rendered (the
    step's checks are its plan's)."""
    return build.build(variables.with_tokens(settings))[0]


def diffed(old, made, against, region=None):
    """The :class:`~._cost.diff.Diff` of the checked plan ``made``'s request against ``old``: a saved
    request, or a DescribeTrainingJob answer whose types are checked first, then read back as a job
    (``_request.describe``, as ``attach`` reads it) and rendered here, once, in ``region`` (default: its
    ARN's) and its ARN's account, with no checks (a job that ran): ``_cost.diff`` renders nothing."""
    from sagemaker_hetero._cost import diff
    from sagemaker_hetero._request import describe

    problems = diff.type_problems(old)
    if problems:
        raise ConfigError(problems, against)
    before = None
    if diff.is_description(old):
        facts = plan.Facts(region=region or describe.region_of(old), account_id=diff.account_of(old))
        before = plan.make_plan(describe.job_from_description(old, region=region), facts, 0).request
    return diff.diff(old, made.request, against, old_request=before)


def execute(session, made, preflight=None, out=None, before_create=None, create=None, renamed=None):
    """Run the checked plan ``made`` (or a list of them: a pipeline's steps, whose one create call is
    ``create()``) through ``session``: the preflight ``preflight`` asks for, what the account must hold and
    the code upload (:func:`upload`, a problem ``renamed`` as it says), ``before_create()`` (a
    ModelTrainer's code and driver channels uploaded), then the one create call (default: the plan's,
    ``session.create``); the started job, or ``create()``'s answer."""
    plans = made if isinstance(made, list) else [made]
    for each in plans:
        session.preflight(each, preflight, out)
    upload(session, plans, renamed)
    if before_create is not None:
        before_create()
    return session.create(made) if create is None else create()


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

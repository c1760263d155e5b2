"""THE path through, for ``Estimator.fit``, ``HyperparameterTuner``, ``TrainingStep`` and the CLI.

One way for a constructor, a dry run, AWS and a local run alike: settings -> :func:`prepare`
(pipeline values in their place, the job model built, the session's own check, round one) ->
:func:`checked_job` (raises every problem at once) -> :func:`plan_for` (the request, with the code
archive's digest the session would give it). A session is anything with ``facts()`` (what it knows
without a call), ``check(job)`` (its own rules: ``(job, problems)``) and ``execute(job, now)`` (the
started job): ``Session`` for AWS, ``LocalSession``. Without one (an AWS dry run) the region is the
AWS configuration's, else a placeholder. The file system and the clock enter here (:func:`local_path_exists`, ``now``)
and are passed down: what this module calls is pure.
"""
import os

from sagemaker_hetero._aws import files
from sagemaker_hetero._checks import round_one
from sagemaker_hetero._model import build, variables
from sagemaker_hetero._request import names, plan
from sagemaker_hetero.exceptions import ConfigError, Problem

__all__ = ["PROTOCOL", "FIT_DECIDES", "is_session", "session_facts", "local_path_exists", "code_digest", "prepare",
           "checked_job", "plan_for"]

#: What a session has (callables): the session protocol.
PROTOCOL = ("facts", "check", "execute")
#: What fit can still change: its job_name replaces the constructor's (and with it any base name),
#: and one TrainingInput with an input_mode sets the job's. A constructor leaves these to fit.
FIT_DECIDES = ("job_name", "base_job_name", "input_mode")


def is_session(session):
    """Whether ``session`` follows the session protocol (:data:`PROTOCOL`)."""
    return all(callable(getattr(session, name, None)) for name in PROTOCOL)


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
        digest_of = getattr(session, "code_digest", None)
        return digest_of(job) if callable(digest_of) else None
    if job.code is None or job.code.in_s3:
        return None
    from sagemaker_hetero._aws import code_archive

    return code_archive.archive_digest(job.code)


def prepare(settings, session=None, now=0.0, path_exists=None, found=(), facts=None, values=None):
    """``(job, facts, problems)``: round one for one job's settings, as ``session`` (None: none, an
    AWS dry run) runs it: the job model, the session's own check of it, then ``round_one.check``.
    ``facts`` default to what the session knows without a call. Pipeline parameters among the
    settings are checked with their values in their place (``values``: name -> an execution's
    value; else their defaults), and the job holds those values, marked (``_model.variables``)."""
    settings, hidden, misplaced = variables.with_values(settings, values)
    job, problems = build.build(settings)
    problems = list(found) + misplaced + problems
    if session is not None:
        job, more = session.check(job)
        problems.extend(more)
    if facts is None:
        facts = session.facts() if session is not None else plan.Facts(region=None)
    problems = round_one.check(job, facts, now, problems, path_exists=path_exists)
    mine = set(id(p) for p in misplaced)
    return job, facts, [p for p in problems if id(p) in mine or not variables.hides(p.path, hidden)]


def checked_job(settings, session, now, path_exists=None, found=(), later=()):
    """``(job, facts)``: the job model of ``settings`` as ``session`` runs it, after every check
    (raises :class:`ConfigError` listing every problem but those of the arguments in ``later``)."""
    found = list(found)
    if session is not None and not is_session(session):
        found.append(Problem("sagemaker_session", "must be a sagemaker_hetero Session or LocalSession (an object "
                             "with %s)" % ", ".join("%s()" % n for n in PROTOCOL), session))
        session = None
    job, facts, problems = prepare(settings, session, now, path_exists, found, facts=session_facts(session))
    problems = [p for p in problems if p.path not in later]
    if problems:
        raise ConfigError(problems)
    return job, facts


def plan_for(job, facts, now, session):
    """The :class:`~._request.plan.Plan` of a checked ``job`` with ``facts``, its code under the key
    ``session`` would store it at (:func:`code_digest`): what a dry run shows."""
    return plan.make_plan(job, facts, now, code_digest=code_digest(session, job))

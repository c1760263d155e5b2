"""Creating a job whose outcome is made certain, even when CreateTrainingJob's answer is lost.

A CreateTrainingJob attempt may reach SageMaker and its answer never come back (the connection
drops or times out while waiting, a 5xx); botocore then retries, and the retry finds the name taken
by the job the first attempt created. :func:`create_training_job` follows each attempt's outcome
(botocore's ``needs-retry`` event, per thread) and, when one was lost, describes the job: it is
ours if every field the request sent comes back as sent, with the same channels, and it was created
no earlier than the first attempt (by AWS's clock: the answer's Date header; else this machine's,
less ``CLOCK_SKEW_SECONDS``). Otherwise the submission stops with :class:`JobConflictError` (another
job has the name) or :class:`JobMayExistError` (nothing can tell), naming the job and what to do.
:func:`create_claimed` also keeps two calls of this process from creating one name at once, and
:func:`create_tuning_job` does the same for a tuning job. Every call goes through ``errors.call``.
"""
import email.utils
import threading
import time

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws import errors
from sagemaker_hetero._request import describe

__all__ = ["create_claimed", "create_plan", "create_training_job", "create_tuning_job", "stop_tuning_job", "upsert_pipeline",
           "CLOCK_SKEW_SECONDS"]

LOGGER = E.logger()  # its records shown (exceptions.shown)

# How far apart the clocks of this machine and AWS may be when telling a job we created (and
# lost the answer to) from an older job of the same name, when AWS's answer has no Date header to
# read AWS's own clock from.
CLOCK_SKEW_SECONDS = 300
# With AWS's clock (the Date header, whole seconds): how much earlier than our first attempt's
# arrival a job we created may say it was created.
_DATE_SLACK_SECONDS = 2
# What a CreateTrainingJob attempt came to (botocore's needs-retry event, per thread): AWS answered
# it; it never left (no connection); or it may have reached SageMaker and no answer says what became
# of it (the connection dropped or timed out while waiting, or a 5xx).
_ANSWERED, _UNSENT, _LOST = "answered", "unsent", "lost"
_ATTEMPTS = threading.local()
# Training job names this process is creating (any session, any thread): while one call creates a job,
# no other call of this process creates (or takes as its own) a job of that name.
_CLAIMED_NAMES = set()
_CLAIMED_LOCK = threading.Lock()


def create_claimed(client, name, request):
    """:func:`create_training_job` with ``name`` claimed for this call in this process: a name another
    call is creating is a :class:`JobConflictError` without asking AWS."""
    with _CLAIMED_LOCK:
        if name in _CLAIMED_NAMES:
            raise E.JobConflictError(
                "a training job named %r is being created by another call in this process" % name,
                code="ResourceInUse", operation="CreateTrainingJob", job_name=name, hint=_conflict_hint(name))
        _CLAIMED_NAMES.add(name)
    try:
        create_training_job(client, request)
    finally:
        with _CLAIMED_LOCK:
            _CLAIMED_NAMES.discard(name)


def create_plan(client, plan, attempts, renamed):
    """The plan CreateTrainingJob created (:func:`create_claimed`): a default name (the job has no
    ``job_name``) taken all the same (another process, another machine) is stamped anew and the job
    created under it, up to ``attempts`` names; ``renamed(plan)`` (the caller's: ``_runner.renamed``)
    makes the plan under the next name, the same facts and code key, only the name (and what holds it)
    changed."""
    job = plan.job
    for attempt in range(1, attempts + 1):
        try:
            create_claimed(client, plan.job_name, plan.request)
            return plan
        except E.JobConflictError:
            if job.job_name is not None or attempt == attempts:
                raise
            LOGGER.info("The default job name %s is taken; trying the next one.", plan.job_name)
            plan = renamed(plan)
    return plan


def stop_tuning_job(client, name):
    """StopHyperParameterTuningJob; a job that has already ended is left as it is (as in the SDK v2)."""
    try:
        errors.call(client, "StopHyperParameterTuningJob", HyperParameterTuningJobName=name)
    except E.AWSError as exc:
        if exc.code != "ValidationException" or isinstance(exc, E.ResourceNotFoundError):
            raise
        LOGGER.info("Tuning job %s is already stopped or not running.", name)


def upsert_pipeline(client, request):
    """CreatePipeline, or UpdatePipeline (without the tags and the request token) when a pipeline of
    that name exists; the answer."""
    try:
        return errors.call(client, "CreatePipeline", **request)
    except E.AWSError as exc:
        if exc.code != "ValidationException" or "already exist" not in (exc.aws_message or "").lower():
            raise
    update = dict((k, v) for k, v in request.items() if k not in ("Tags", "ClientRequestToken"))
    return errors.call(client, "UpdatePipeline", **update)


def create_training_job(client, request, clock=time.monotonic, wall_clock=time.time):
    """CreateTrainingJob, its outcome made certain.

    A refused first attempt (``ResourceInUse`` included: the name is someone else's, or an earlier
    run's) is raised as it is. If an attempt may have reached SageMaker without its answer coming
    back (botocore then retries), the job is described: if it is the one this request asked for
    (:func:`_is_our_job`, created after the first attempt by AWS's clock) the submission carries
    on; if a job of that name is another, JobConflictError; if none exists, the error is raised; if
    it cannot be described, JobMayExistError names the job. ``clock`` (monotonic) and
    ``wall_clock`` time the attempts.
    """
    name = request["TrainingJobName"]
    _track_create_attempts(client)
    outcomes = _ATTEMPTS.outcomes = []
    first = clock(), wall_clock()
    try:
        errors.call(client, "CreateTrainingJob", **request)
        return
    except E.AWSError as exc:
        failure = exc
    finally:
        _ATTEMPTS.outcomes = None
    taken = _is_name_taken(failure)
    if taken and _LOST not in outcomes[:-1]:
        raise _conflict(name, failure)
    if not taken and _LOST not in outcomes:
        raise failure
    try:
        existing = errors.call(client, "DescribeTrainingJob", TrainingJobName=name)
    except E.ResourceNotFoundError:
        if taken:  # SageMaker said the name is taken, then that there is no such job
            raise _may_exist(name, failure, "DescribeTrainingJob then found no job of that name")
        created = "No training job named %r was created: submitting again is safe." % name
        raise failure.hinted("\n".join(filter(None, (failure.hint, created))), job_name=name)
    except E.AWSError as exc:
        raise _may_exist(name, failure, "DescribeTrainingJob failed too (%s: %s)" % (exc.code, exc.aws_message))
    earliest = _earliest_creation(existing, clock() - first[0], first[1])
    if _is_our_job(existing, request, earliest):
        LOGGER.info("CreateTrainingJob's answer was lost; the training job %s is the one this request created.",
                    name)
        return
    raise _conflict(name, failure)


def create_tuning_job(client, request, started, describe_tuning_job):
    """CreateHyperParameterTuningJob. When the name is taken after an ambiguous failure (the first
    attempt reached AWS, its answer was lost), the existing job is ours if it was created after
    ``started`` from the same definition and ranges (``describe_tuning_job(name)`` describes it); else a
    :class:`JobConflictError`."""
    name = request["HyperParameterTuningJobName"]
    try:
        errors.call(client, "CreateHyperParameterTuningJob", **request)
    except E.AWSError as exc:
        if not _is_name_taken(exc):
            raise
        if _is_our_tuning_job(describe_tuning_job(name), request, started):
            return
        raise E.JobConflictError(
            "a tuning job named %r already exists and was not created by this request" % name,
            code=exc.code,
            operation="CreateHyperParameterTuningJob",
            hint="Choose another job_name (or leave it out for a default name with the minute in it).",
        )


def _is_name_taken(exc):
    text = (exc.aws_message or "").lower()
    return exc.code in ("ResourceInUse", "ValidationException", "ResourceInUseException") and (
        "already exist" in text or "in use" in text or "must be unique" in text
    )


def _track_create_attempts(client):
    """Have ``client`` report each CreateTrainingJob attempt's outcome to :func:`_note_create_attempt`
    (botocore's event system; registered once per client)."""
    events = getattr(getattr(client, "meta", None), "events", None)
    if events is not None:
        events.register("needs-retry.sagemaker.CreateTrainingJob", _note_create_attempt,
                        unique_id="sagemaker-hetero-create-attempts")


def _note_create_attempt(response=None, caught_exception=None, **_):
    outcomes = getattr(_ATTEMPTS, "outcomes", None)
    if outcomes is not None:
        outcomes.append(_attempt_outcome(response, caught_exception))
    # None: botocore's retry handler decides whether to retry


def _attempt_outcome(response, caught_exception):
    import botocore.exceptions as B

    if caught_exception is not None:  # no connection could be made (ConnectTimeoutError included): never sent
        return _UNSENT if isinstance(caught_exception, B.EndpointConnectionError) else _LOST
    status = getattr(response[0], "status_code", None) if response else None
    return _LOST if status is None or status >= 500 else _ANSWERED


def _conflict(name, failure):
    return E.JobConflictError(
        "a training job named %r already exists and was not created by this request" % name,
        code=failure.code, operation="CreateTrainingJob", job_name=name, hint=_conflict_hint(name))


def _conflict_hint(name):
    return ("Choose another job_name (or leave it out for a unique default name). To follow the existing job: "
            "PyTorch.attach(%r) (or Estimator/TensorFlow), or: sagemaker-hetero status %s" % (name, name))


def _may_exist(name, failure, why):
    return E.JobMayExistError(
        "CreateTrainingJob got no answer (%s: %s) and %s: the training job %r may exist"
        % (failure.code, failure.aws_message, why, name),
        code=failure.code, operation="CreateTrainingJob", job_name=name,
        hint="Look before submitting again: sagemaker-hetero status %s (or PyTorch.attach(%r)). If it exists, it "
             "is this submission's job; if not, submit again." % (name, name))


def _earliest_creation(described, elapsed, started):
    """The earliest creation time (seconds since the epoch) of a job our first attempt created:
    ``elapsed`` seconds before the description's Date header (AWS's clock), else ``started`` (this
    machine's clock) less ``CLOCK_SKEW_SECONDS``."""
    headers = (described.get("ResponseMetadata") or {}).get("HTTPHeaders") or {}
    try:
        answered = email.utils.parsedate_to_datetime(headers["date"]).timestamp()
    except (KeyError, TypeError, ValueError, IndexError):
        return started - CLOCK_SKEW_SECONDS
    return answered - elapsed - _DATE_SLACK_SECONDS


# The fields of a request a described job echoes as sent (the described job has more, e.g. moto's
# MetricDefinitions, SageMaker's defaults): a job is ours only if all that we sent is there.
_ECHOED = (
    ("RoleArn",),
    ("HyperParameters",),
    ("AlgorithmSpecification", "TrainingImage"),
    ("AlgorithmSpecification", "AlgorithmName"),
    ("AlgorithmSpecification", "TrainingInputMode"),
    ("ResourceConfig", "InstanceGroups"),
    ("ResourceConfig", "InstanceType"),
    ("ResourceConfig", "InstanceCount"),
    ("ResourceConfig", "VolumeSizeInGB"),
    ("OutputDataConfig", "S3OutputPath"),
    ("StoppingCondition", "MaxRuntimeInSeconds"),
)


def _is_our_job(described, request, earliest):
    """Whether a described job is the one ``request`` asked for: every echoed field as sent, the same
    channels reading the same data, and created no earlier than ``earliest`` (seconds since the epoch)."""
    created = described.get("CreationTime")
    if created is not None:
        stamp = created.timestamp() if hasattr(created, "timestamp") else float(created)
        if stamp < earliest:
            return False
    for path in _ECHOED:
        sent, got = describe.value_at(request, path), describe.value_at(described, path)
        if sent is not None and got != sent and (sent or got):  # an empty dict sent may come back absent
            return False
    return _channels(described) == _channels(request)


def _channels(job):
    return [(c.get("ChannelName"), ((c.get("DataSource") or {}).get("S3DataSource") or {}).get("S3Uri"))
            for c in job.get("InputDataConfig") or ()]


def _is_our_tuning_job(described, request, started):
    """Whether a described tuning job is the one ``request`` asked for, created after ``started``."""
    created = described.get("CreationTime")
    if created is not None:
        stamp = created.timestamp() if hasattr(created, "timestamp") else float(created)
        if stamp < started - CLOCK_SKEW_SECONDS:
            return False
    mine, theirs = request.get("TrainingJobDefinition") or {}, described.get("TrainingJobDefinition") or {}
    for key in ("RoleArn", "StaticHyperParameters"):
        if mine.get(key) != theirs.get(key):
            return False
    return _tuned_ranges(request) == _tuned_ranges(described)


def _tuned_ranges(request):
    """The non-empty range lists of a tuning request or description."""
    ranges = (request.get("HyperParameterTuningJobConfig") or {}).get("ParameterRanges") or {}
    return dict((kind, items) for kind, items in ranges.items() if items)

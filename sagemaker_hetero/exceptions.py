"""Every error sagemaker-hetero raises.

::

    SageMakerHeteroError                      base of everything below
    ├── ConfigError (ValueError)              the job is invalid; nothing was sent
    │   │                                     .problems: list of Problem(path, message, value)
    │   └── PreflightError                    the account would refuse or fail the job (a quota, the
    │                                         role, the image, a key, the data, the network); .report
    ├── RuntimeConfigError (ValueError)       inside a job: a config file is missing,
    │                                         corrupt or contradicts itself
    ├── AWSError                              an AWS call failed (.code, .operation, .message)
    │   ├── NoCredentialsError                no AWS credentials were found
    │   ├── AccessDeniedError                 the caller may not do this
    │   ├── ThrottlingError                   throttled, still after retries
    │   ├── BucketOwnedByOtherAccountError    the default bucket name is taken by someone else
    │   ├── ResourceNotFoundError             a job, bucket or log stream does not exist
    │   ├── JobConflictError                  a job of that name exists and is not ours
    │   └── JobMayExistError                  CreateTrainingJob's answer was lost and the job could
    │                                         not be looked up: it may exist (.job_name)
    ├── UnexpectedStatusException (ValueError) the job (or tuning job) ended Failed or Stopped
    │   └── CapacityError                     it failed as SageMaker had no capacity for its instances
    └── LocalJobError (RuntimeError)          a host of a local run failed

Errors coming from botocore are translated into these types in exactly one place,
``sagemaker_hetero._aws.errors``; they keep the AWS error code in ``.code``. An AWS error about a
training job that exists or may exist (a conflict, a lost answer, waiting that failed) names it in
``.job_name`` and says how to reach it again.
"""

__all__ = [
    "SageMakerHeteroError",
    "Problem",
    "ConfigError",
    "PreflightError",
    "RuntimeConfigError",
    "AWSError",
    "NoCredentialsError",
    "AccessDeniedError",
    "ThrottlingError",
    "BucketOwnedByOtherAccountError",
    "ResourceNotFoundError",
    "JobConflictError",
    "JobMayExistError",
    "UnexpectedStatusException",
    "CapacityError",
    "LocalJobError",
]


class SageMakerHeteroError(Exception):
    """Base class of every error raised by sagemaker-hetero."""


class Problem(object):
    """One thing wrong with a job: where (``path``), what (``message``) and the value got."""

    __slots__ = ("path", "message", "value", "has_value")

    _MISSING = object()

    def __init__(self, path, message, value=_MISSING):
        self.path = path
        self.message = message
        self.has_value = value is not Problem._MISSING
        self.value = value if self.has_value else None

    def renamed(self, path):
        """The same problem under another path (an argument named as its caller names it)."""
        return Problem(path, self.message, self.value) if self.has_value else Problem(path, self.message)

    def __str__(self):
        if self.has_value:
            return "%s: %s (got %s)" % (self.path, self.message, _show(self.value))
        return "%s: %s" % (self.path, self.message)

    def __repr__(self):
        return "Problem(%r, %r%s)" % (self.path, self.message, ", %r" % (self.value,) if self.has_value else "")

    def __eq__(self, other):
        if not isinstance(other, Problem):
            return NotImplemented
        return (self.path, self.message, self.has_value, self.value) == (
            other.path,
            other.message,
            other.has_value,
            other.value,
        )

    def __hash__(self):
        return hash((self.path, self.message))


class Problems(object):
    """The one problem collector: ``add(path, message[, value])`` appends a :class:`Problem` to
    ``items``, so every check reports everything it finds at once."""

    def __init__(self):
        self.items = []

    def add(self, path, message, value=Problem._MISSING):
        self.items.append(Problem(path, message, value))


def _show(value):
    text = repr(value)
    if len(text) > 200:
        text = text[:197] + "..."
    return text


class ConfigError(SageMakerHeteroError, ValueError):
    """The job as configured would be refused; nothing was uploaded, created or sent.

    ``problems`` lists every :class:`Problem` found, so all can be fixed in one round; ``subject``
    names what they are problems with (``"the tuning job"``, ``"the pipeline"``).
    """

    def __init__(self, problems, subject="the training job"):
        self.problems = list(problems)
        self.subject = subject
        count = len(self.problems)
        head = "%d problem%s with %s:" % (count, "" if count == 1 else "s", subject)
        super(ConfigError, self).__init__("\n".join([head] + ["  - %s" % p for p in self.problems]))


class PreflightError(ConfigError):
    """The preflight (``sagemaker_hetero.preflight``) found that the account would refuse the job or
    fail it: a quota, the role, the image, a KMS key, the input data or the network. Nothing was
    uploaded or created. ``problems`` name the argument, its value and what to do; ``report`` is the
    whole :class:`~sagemaker_hetero.preflight.PreflightReport` (the checks that passed and those that
    could not be made, too)."""

    def __init__(self, problems, report=None, subject="the training job in this AWS account (preflight)"):
        super(PreflightError, self).__init__(problems, subject)
        self.report = report


class RuntimeConfigError(SageMakerHeteroError, ValueError):
    """Inside a training job: a config file is missing, corrupt or contradicts itself."""

    def __init__(self, path, problem):
        self.path = path
        self.problem = problem
        super(RuntimeConfigError, self).__init__("%s: %s" % (path, problem))


class AWSError(SageMakerHeteroError):
    """An AWS call failed. ``code`` is the AWS error code (e.g. ``AccessDeniedException``); ``job_name``
    the training job concerned, when there is one."""

    def __init__(self, message, code=None, operation=None, hint=None, job_name=None):
        self.code = code
        self.operation = operation
        self.hint = hint
        self.aws_message = message
        self.job_name = job_name
        text = message
        if operation or code:
            text = "%s%s: %s" % (operation or "AWS call", " failed with %s" % code if code else " failed", message)
        if hint:
            text = "%s\n%s" % (text, hint)
        super(AWSError, self).__init__(text)

    def hinted(self, hint, cls=None, operation=None, job_name=None):
        """The same AWS error, as ``cls`` (default: this type) with ``hint`` saying what to do."""
        return (cls or type(self))(self.aws_message, code=self.code, operation=operation or self.operation, hint=hint,
                                   job_name=job_name or self.job_name)


class NoCredentialsError(AWSError):
    """No AWS credentials were found."""


class AccessDeniedError(AWSError):
    """The caller is not allowed to perform the call (or to pass the role)."""


class ThrottlingError(AWSError):
    """AWS kept throttling the call after every retry."""


class BucketOwnedByOtherAccountError(AWSError):
    """The default bucket name already belongs to another AWS account."""


class ResourceNotFoundError(AWSError):
    """The job, bucket, object or log stream named does not exist."""


class JobConflictError(AWSError):
    """A training job with this name exists and was not created from this request."""


class JobMayExistError(AWSError):
    """CreateTrainingJob got no answer (the request may have reached SageMaker) and the job could not
    be described afterwards: the training job ``job_name`` may or may not exist."""


class UnexpectedStatusException(SageMakerHeteroError, ValueError):
    """The training job ended with a status other than Completed (``kind``: ``"Tuning job"`` for a tuning
    job, which may also end Stopped)."""

    def __init__(self, job_name, status, failure_reason=None, allowed_statuses=("Completed",), kind="Training job"):
        self.job_name = job_name
        self.training_job_name = job_name
        self.status = self.actual_status = status  # actual_status: the SDK v2's name
        self.failure_reason = failure_reason
        self.allowed_statuses = tuple(allowed_statuses)
        text = "%s %s ended with status %s" % (kind, job_name, status)
        if failure_reason:
            text += ": %s" % failure_reason
        super(UnexpectedStatusException, self).__init__(text)


class CapacityError(UnexpectedStatusException):
    """The training job failed because SageMaker could not provision its instances (its failure reason
    starts ``CapacityError``), as the SageMaker Python SDK v2 names it. ``instance_groups``: the job's
    ``(group, instance type, count)``; ``alternatives``: instance type -> other types of its family
    whose quota allows the count; ``advice`` (in the message too) says what to do."""

    def __init__(self, job_name, status, failure_reason=None, instance_groups=(), alternatives=None, advice=None):
        super(CapacityError, self).__init__(job_name, status, failure_reason)
        self.instance_groups = list(instance_groups)
        self.alternatives = dict(alternatives or {})
        self.advice = advice
        if advice:
            self.args = ("%s\n%s" % (self.args[0], advice),)


class LocalJobError(SageMakerHeteroError, RuntimeError):
    """A host of a local heterogeneous run failed, or the run timed out or was stopped.

    ``host``, ``group``, ``exit_code``, ``failure`` (the host's ``output/failure`` file) and
    ``last_lines`` describe the host that failed (None when no host is to blame); ``exit_codes``
    maps every host to its exit code. ``job_name``, ``status`` and ``failure_reason`` are named as
    on :class:`UnexpectedStatusException`.
    """

    def __init__(self, message, job_name=None, status=None, failure_reason=None, reason=None, host=None,
                 group=None, exit_code=None, failure=None, last_lines=(), exit_codes=None):
        super(LocalJobError, self).__init__(message)
        self.job_name = self.training_job_name = job_name
        self.status = status
        self.failure_reason = failure_reason
        self.allowed_statuses = ("Completed",)
        self.reason = reason
        self.host = host
        self.group = group
        self.exit_code = exit_code
        self.failure = failure
        self.last_lines = list(last_lines)
        self.exit_codes = dict(exit_codes or {})

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

What a service, a training job or a local host says reaches people as text, never as terminal
control: :func:`shown` makes every control character but tab and newline visible (``\\x1b``). It is
applied where such text is written (log lines, status lines, a failure reason, a local host's
output) and to every message of these errors (``str(error)``: a traceback, the CLI), while their
attributes (``failure_reason``, ``aws_message``, ``args``) keep the text exactly as it came. The
records of the package's logger (``logging.getLogger("sagemaker_hetero")``: a warning naming a role
or an upload AWS named, a preflight's unknown quoting an answer) are shown too, whatever handler
writes them.
"""
import re

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


#: The characters a terminal obeys rather than shows: C0 (but tab and newline), DEL and C1; and a lone
#: surrogate (a JSON answer's ``\ud800``), which no terminal's encoding can write.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
#: The same but for the carriage return (the local relay's end of a progress bar's update).
_CONTROL_BUT_CR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_VISIBLE = dict((chr(c), "\\x%02x" % c) for c in list(range(0x20)) + list(range(0x7F, 0xA0)))


def _visible(match):
    found = match.group()
    return _VISIBLE.get(found) or "\\u%04x" % ord(found)


def shown(text, updates=False):
    """``text`` as a terminal shows it without obeying it: each C0 control character but tab and newline,
    DEL (0x7f) and each C1 control character (U+0080-U+009F) written as the four characters ``\\xNN``
    (ESC as ``\\x1b``, CSI as ``\\x9b``, a carriage return as ``\\x0d``), so an escape sequence in what a
    service or a job says (a clipboard write, a link, cursor movement, clearing the screen) does nothing;
    a lone surrogate (a JSON answer may hold ``\\ud800``; no encoding can write it) as the six characters
    ``\\ud800``. Text without one is returned as it is (the common case, one scan).

    Parameters
    ----------
    text : str
        What is about to be written for people.
    updates : bool, default False
        Keep carriage returns: the local relay's own ends of a progress bar's updates (each record
        starts with its host's label; docs/local.md). Everything else is made visible still.
    """
    pattern = _CONTROL_BUT_CR if updates else _CONTROL
    if pattern.search(text) is None:
        return text
    return pattern.sub(_visible, text)


def _shown_record(record):
    """The filter of the package's logger: a record's message :func:`shown` (its arguments merged into
    it, as a handler would); a record without a control character is left as it is."""
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a record that cannot be formatted is logging's to report
        return True
    text = shown(message)
    if text is not message:
        record.msg, record.args = text, None
    return True


_LOGGER = []  # the package's logger, once made


def logger():
    """The package's logger (``logging.getLogger("sagemaker_hetero")``), its records :func:`shown`:
    made on first use, so that importing the package (a dry run) imports no ``logging``."""
    if not _LOGGER:
        import logging

        made = logging.getLogger("sagemaker_hetero")
        if _shown_record not in made.filters:
            made.addFilter(_shown_record)
        _LOGGER.append(made)
    return _LOGGER[0]


class SageMakerHeteroError(Exception):
    """Base class of every error raised by sagemaker-hetero. Its message (``str``) is :func:`shown`: a
    failure reason, an AWS message or a host's last lines in it cannot act on a terminal; ``args``
    and the attributes keep the text as it came."""

    def __str__(self):
        return shown(super(SageMakerHeteroError, self).__str__())


class Problem(object):
    """One thing wrong with a job: where, what, and the value found there.

    Parameters
    ----------
    path : str
        Where: the user's argument, e.g. ``"instance_groups[1].instance_count"``.
    message : str
        What is wrong and what would be right, e.g. ``"must be an integer >= 1"``.
    value : object, optional
        The value found (left out when nothing was given); shown as ``(got ...)``.
    """

    __slots__ = ("path", "message", "value", "has_value")

    _MISSING = object()

    def __init__(self, path, message, value=_MISSING):
        """Make a problem; the parameters are the class's."""
        self.path = path
        self.message = message
        self.has_value = value is not Problem._MISSING
        self.value = value if self.has_value else None

    def renamed(self, path):
        """The same problem under another path (an argument named as its caller names it).

        Parameters
        ----------
        path : str
            The new path.
        """
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
    ``items``, so every check reports everything it finds at once; :meth:`add_new` appends only the
    problems of paths not reported yet (a later round's problem of an argument already named is left out)."""

    def __init__(self, items=()):
        self.items = list(items)

    def add(self, path, message, value=Problem._MISSING):
        self.items.append(Problem(path, message, value))

    def add_new(self, problems, within=False):
        """Append each of ``problems`` whose path is not one already in ``items`` (with ``within``, nor
        inside one: ``a.b`` or ``a[0]`` under a reported ``a``: that part is already reported as
        malformed); returns ``items``. The paths reported are those before the call."""
        reported = set(p.path for p in self.items)
        for problem in list(problems):
            path = problem.path
            if path in reported or (within and any(path.startswith(r + ".") or path.startswith(r + "[")
                                                   for r in reported)):
                continue
            self.items.append(problem)
        return self.items


def _show(value):
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # nested too deep, or an int too long to write: never a failed message
        text = "a value (%s) too deep or too large to show" % type(value).__name__
    if len(text) > 200:
        text = text[:197] + "..."
    return text


class ConfigError(SageMakerHeteroError, ValueError):
    """The job as configured would be refused; nothing was uploaded, created or sent.

    Parameters
    ----------
    problems : list of Problem
        Every problem found, so that all can be fixed in one round (kept as ``problems``).
    subject : str, default 'the training job'
        What they are problems with, e.g. ``"the tuning job"`` or ``"the pipeline"``.
    """

    def __init__(self, problems, subject="the training job"):
        """Make the error, its message listing every problem."""
        self.problems = list(problems)
        self.subject = subject
        count = len(self.problems)
        head = "%d problem%s with %s:" % (count, "" if count == 1 else "s", subject)
        super(ConfigError, self).__init__("\n".join([head] + ["  - %s" % p for p in self.problems]))


class PreflightError(ConfigError):
    """The preflight (``sagemaker_hetero.preflight``) found that the account would refuse the job or
    fail it: a quota, the role, the image, a KMS key, the input data or the network. Nothing was
    uploaded or created.

    Parameters
    ----------
    problems : list of Problem
        Each names the argument, its value and what to do.
    report : PreflightReport, optional
        The whole :class:`~sagemaker_hetero.preflight.PreflightReport`: the checks that passed and those
        that could not be made, too.
    subject : str, default 'the training job in this AWS account (preflight)'
        What the problems are problems with, in the message's first line.
    """

    def __init__(self, problems, report=None, subject="the training job in this AWS account (preflight)"):
        """Make the error from the preflight's ``problems`` (and its ``report``)."""
        super(PreflightError, self).__init__(problems, subject)
        self.report = report


class RuntimeConfigError(SageMakerHeteroError, ValueError):
    """Inside a training job: a config file is missing, corrupt or contradicts itself.

    Parameters
    ----------
    path : str
        The config file (or its key) at fault.
    problem : str
        What is wrong with it.
    """

    def __init__(self, path, problem):
        """Make the error: ``"PATH: PROBLEM"``."""
        self.path = path
        self.problem = problem
        super(RuntimeConfigError, self).__init__("%s: %s" % (path, problem))


class AWSError(SageMakerHeteroError):
    """An AWS call failed.

    Parameters
    ----------
    message : str
        What AWS said (kept as ``aws_message``).
    code : str, optional
        The AWS error code, e.g. ``"AccessDeniedException"``.
    operation : str, optional
        The call that failed, e.g. ``"CreateTrainingJob"``.
    hint : str, optional
        What to do about it, shown on a line of its own.
    job_name : str, optional
        The training job concerned, when there is one.
    """

    def __init__(self, message, code=None, operation=None, hint=None, job_name=None):
        """Make the error: ``"OPERATION failed with CODE: MESSAGE"`` and the hint."""
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
        """The same AWS error with a hint saying what to do.

        Parameters
        ----------
        hint : str
            What to do about it.
        cls : type, optional
            The error type to make (default: this error's).
        operation : str, optional
            The operation to name instead of this error's.
        job_name : str, optional
            The training job to name instead of this error's.
        """
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
    """The training job (or tuning job) ended with a status it was not waited for.

    Parameters
    ----------
    job_name : str
        The job (also kept as ``training_job_name``, as the SageMaker Python SDK v2 names it).
    status : str
        The status it ended with, e.g. ``"Failed"``.
    failure_reason : str, optional
        The job's FailureReason.
    allowed_statuses : list of str, default ('Completed',)
        The statuses that would have been no error.
    kind : str, default 'Training job'
        What the job is, in the message: ``"Tuning job"`` for a tuning job.
    """

    def __init__(self, job_name, status, failure_reason=None, allowed_statuses=("Completed",), kind="Training job"):
        """Make the error: ``"KIND JOB ended with status STATUS: REASON"``."""
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
    starts ``CapacityError``), as the SageMaker Python SDK v2 names it; after a failover (an instance
    group's ``alternatives``, docs/capacity.md), every choice tried failed so.

    Parameters
    ----------
    job_name : str
        The training job (after a failover: the last one created).
    status : str
        The status it ended with (``"Failed"``).
    failure_reason : str, optional
        Its failure reason, as its description holds it.
    instance_groups : list of tuple, default ()
        The job's ``(group, instance type, count)``.
    same_family_types : dict, optional
        Instance type -> the other types of its family whose quota allows the group's count (types the
        user did not list: not the groups' ``alternatives``, which ``attempts`` shows tried).
    advice : str, optional
        What to do (in the message too).
    attempts : list, optional
        Every attempt of a failover (job name, each group's type and count, outcome, reason, times).
    alternatives : dict, optional
        Deprecated: the old name of ``same_family_types``.
    """

    def __init__(self, job_name, status, failure_reason=None, instance_groups=(), same_family_types=None,
                 advice=None, attempts=(), alternatives=None):
        """Make the error; ``advice`` is added to the message."""
        super(CapacityError, self).__init__(job_name, status, failure_reason)
        if alternatives is not None:
            _deprecated_alternatives()
        self.instance_groups = list(instance_groups)
        self.same_family_types = dict(same_family_types or alternatives or {})
        self.advice = advice
        self.attempts = list(attempts)
        if advice:
            self.args = ("%s\n%s" % (self.args[0], advice),)

    @property
    def alternatives(self):
        """Deprecated: ``same_family_types`` (types of the failed types' families the quotas allow), a
        name that could be mistaken for an instance group's ``alternatives``."""
        _deprecated_alternatives()
        return self.same_family_types


def _deprecated_alternatives():
    import warnings

    warnings.warn("CapacityError.alternatives is deprecated: use same_family_types (an instance group's "
                  "alternatives are its own choices; CapacityError.attempts shows those tried)",
                  DeprecationWarning, stacklevel=3)


class LocalJobError(SageMakerHeteroError, RuntimeError):
    """A host of a local heterogeneous run failed, or the run timed out or was stopped.

    Parameters
    ----------
    message : str
        What happened, for people.
    job_name : str, optional
        The local job, named as on :class:`UnexpectedStatusException` (``training_job_name`` too).
    status : str, optional
        The status the job ended with (``"Failed"`` or ``"Stopped"``).
    failure_reason : str, optional
        The job's failure reason, as its description holds it.
    reason : str, optional
        Why, in one word: ``"failed"`` (a host), ``"timeout"``, ``"internal"`` or why it was stopped.
    host : str, optional
        The host that failed (``"algo-2"``); None when no host is to blame.
    group : str, optional
        That host's instance group.
    exit_code : int, optional
        That host's exit code.
    failure : str, optional
        What that host wrote to its ``output/failure`` file.
    last_lines : list of str, default ()
        That host's last lines of output.
    exit_codes : dict, optional
        Every host's exit code, by host.
    """

    def __init__(self, message, job_name=None, status=None, failure_reason=None, reason=None, host=None,
                 group=None, exit_code=None, failure=None, last_lines=(), exit_codes=None):
        """Make the error; the parameters are the class's."""
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

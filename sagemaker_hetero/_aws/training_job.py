"""A started training job: describe it, wait for it (streaming its logs), stop it.

The waiting is a client of the one poller (``_aws.poller``): each poll, a status line when the
status changes, the new log lines (``_aws.log_tail``), a ``still <status>`` line after a quiet
heartbeat; when the job has ended, its last log lines and :func:`end_of_job_lines`. What it prints
of the job's (log lines, status messages, names) is :func:`~sagemaker_hetero.exceptions.shown`: text,
never terminal control.
"""
import sys
import time

from sagemaker_hetero._aws import log_labels, log_tail, poller
from sagemaker_hetero._request import describe
from sagemaker_hetero._defaults import FRAMEWORK_LABELS, TERMINAL_STATUSES
from sagemaker_hetero._model.job import group_name
from sagemaker_hetero.exceptions import (AWSError, ConfigError, Problem, ThrottlingError,
                                         UnexpectedStatusException, shown)

__all__ = ["TrainingJob", "end_of_job_lines", "reattach_hint", "STREAM_LOGS", "NO_LOGS"]

#: ``logs`` values that stream the job's logs while waiting, and those that do not ("Rules" shows
#: debugger rule jobs in the SDK v2; there are none here, so it shows nothing).
STREAM_LOGS = (True, "All", "Training")
NO_LOGS = (False, None, "None", "Rules")
#: How often the last read of the logs after the job ended is tried while CloudWatch throttles.
DRAIN_ATTEMPTS = 5


class TrainingJob(object):
    """Handle on a training job (``estimator.latest_training_job``, or :meth:`attach` by its name).

    Parameters
    ----------
    session : Session
        The session that reaches the job (``sagemaker_session``).
    name : str
        The job's name.
    request : dict, optional
        The CreateTrainingJob request that made it.
    framework : str, optional
        None (a generic Estimator's job), "pytorch" or "tensorflow": named in how to attach again.
    failure : callable, optional
        The exception of a job that ended badly, ``failure(name, status, description)``, handed in by
        the caller (a ``Session``: the SDK v2's ``CapacityError`` for a job SageMaker had no capacity
        for); None: an ``UnexpectedStatusException``.
    """

    def __init__(self, session, name, request=None, framework=None, failure=None):
        """Hold the job's session, name, request, framework and failure (see the class)."""
        self.sagemaker_session = session
        self.name = name
        self.request = request
        #: None (a generic Estimator's job), "pytorch" or "tensorflow": named in how to attach again
        self.framework = framework
        self.failure = failure
        #: every attempt of the submission that made this job (``_capacity.walk.Attempt``; docs/capacity.md)
        self.attempts = []

    #: makes the session of a job attached without one: ``sagemaker_hetero.session`` hands in its ``Session``
    #: (the AWS edge imports no public module)
    new_session = None

    @classmethod
    def attach(cls, training_job_name, sagemaker_session=None):
        """The training job ``training_job_name``, described once: ``TrainingJob.attach(name).utilization()``.

        Parameters
        ----------
        training_job_name : str
            The job (a name that is no job raises the AWSError of DescribeTrainingJob).
        sagemaker_session : Session, optional
            The session to reach it with (default: a new ``Session()``).
        """
        if not isinstance(training_job_name, str) or not training_job_name:
            raise ConfigError([Problem("training_job_name", "must be a training job's name (a non-empty str)",
                                       training_job_name)])
        session = sagemaker_session
        if session is None:
            if cls.new_session is None:
                raise ConfigError([Problem("sagemaker_session", "must be given: no Session has been made here "
                                           "(sagemaker_hetero.TrainingJob makes one)")])
            session = cls.new_session()
        job = cls(session, training_job_name, failure=session.job_failure)
        job.describe()
        return job

    @property
    def job_name(self):
        """The job's name."""
        return self.name

    def __repr__(self):
        return "TrainingJob(%r)" % (self.name,)

    def __str__(self):
        return self.name

    def describe(self):
        """DescribeTrainingJob's answer."""
        return self.sagemaker_session.describe_training_job(self.name)

    def stop(self):
        """StopTrainingJob."""
        self.sagemaker_session.stop_training_job(self.name)

    def _tail(self, desc, instance_groups):
        """A LogTail for this job, its labeller knowing the job's groups; checks the filter."""
        groups = describe.group_names(desc)
        if isinstance(instance_groups, str) or hasattr(instance_groups, "instance_group_name"):
            instance_groups = [instance_groups]
        only = [group_name(g) for g in instance_groups] if instance_groups else None
        problems = log_labels.filter_problems(only, groups, self.name)
        if problems:
            raise ConfigError(problems)
        return log_tail.LogTail(self.sagemaker_session.log_streams, self.name, log_labels.LogLabeller(groups, only))

    def wait(self, logs="All", poll=None, out=None, clock=time.monotonic, sleep=time.sleep, instance_groups=None,
             heartbeat=poller.HEARTBEAT_SECONDS):
        """Poll until the job ends, printing each new status on one line; return the description.

        Raises :class:`UnexpectedStatusException` if the job ends Failed or Stopped. Ctrl-C stops the waiting,
        not the job; an AWS error while waiting (after botocore's retries) is raised naming the job, which goes
        on, and how to follow it again (:func:`reattach_hint`). When the job has ended, the lines of
        :func:`end_of_job_lines` (seconds, spot savings, model artifacts) follow the last status line.

        Parameters
        ----------
        logs : bool or str, default 'All'
            ``"All"``, ``True``, ``"Training"``: the job's logs as they arrive, each line labelled
            ``[<group>/<host>]`` (``[?/<host>]`` until its group is known); ``False``, ``"None"``, ``"Rules"``: none.
        poll, out, clock, sleep, instance_groups, heartbeat
            ``(first, longest)`` seconds between polls, or one number for both (default: the session's
            ``poll_interval``, else 2 s doubling up to 30 s; back to the first after a change, doubled while
            CloudWatch throttles); where to print (standard output); the clock and sleep that time the waiting;
            the groups whose log lines are shown (names; default all); seconds without a line before a
            ``still <status>`` line, again after each such quiet period (default 300; None or 0: none).
        """
        out = out or sys.stdout
        waiting = poller.Poller(poll, self.sagemaker_session, clock, sleep, heartbeat)
        watch = _Watch(self, waiting, out, logs in STREAM_LOGS, instance_groups)
        try:
            desc = waiting.run(self.describe, watch.seen)
        except AWSError as exc:
            raise exc.hinted(_join(exc.hint, reattach_hint(self.name, self.framework)), job_name=self.name) from exc
        except KeyboardInterrupt:
            out.write(shown(
                "\nStopped waiting for %s; the job keeps running. Stop it with: aws sagemaker "
                "stop-training-job --training-job-name %s\n" % (self.name, self.name)
            ))
            out.flush()
            raise
        _write(out, end_of_job_lines(desc, _known_prices(desc)))
        status = desc.get("TrainingJobStatus")
        if status != "Completed":
            raise self._ended_badly(status, desc)
        return desc

    def cost(self, prices=None, fetch=True):
        """The job's seconds and billed cost per instance group (a ``Bill``; see docs/cost.md): training and
        billable seconds and the spot savings as the SDK v2 prints them, and each group's billable seconds
        x count x on-demand USD per hour. A price that cannot be had is unknown, with the reason: never an
        error, but for a malformed price file (ConfigError).

        Parameters
        ----------
        prices : str or dict, optional
            A price file's path or a mapping of instance type to USD per hour, read first; then the cache.
        fetch : bool, default True
            Then ask the AWS Price List.
        """
        from sagemaker_hetero._aws.pricing import bill_of

        desc = self.describe()
        session = self.sagemaker_session
        region = describe.region_of(desc) or session.boto_region_name
        return bill_of(desc, region, prices, fetch, session.boto_session)

    def utilization(self, prices=None, fetch=True):
        """What the job used, per instance group and per host (a ``Usage``; see docs/usage.md): CPU, memory,
        disk, GPU and GPU memory, each 0-100% of the instance, their series, mean and 95th percentile, and
        a verdict with what the idle share cost. What cannot be had (cloudwatch:GetMetricData denied, a
        host's group not in its logs) is unknown, never an error; ``usage._repr_html_()`` draws a chart per group.

        Parameters
        ----------
        prices : str or dict, optional
            The prices the idle share is costed at, as :meth:`cost` takes them.
        fetch : bool, default True
            Ask the AWS Price List for a price not given nor cached.
        """
        from sagemaker_hetero._aws.usage import utilization

        return utilization(self.sagemaker_session, self.name, prices, fetch)

    def _ended_badly(self, status, desc):
        """The exception of a job that ended ``status``: ``failure``'s (handed in), else
        ``UnexpectedStatusException``."""
        if self.failure is not None:
            return self.failure(self.name, status, desc)
        return UnexpectedStatusException(self.name, status, desc.get("FailureReason"))

    def logs(self, follow=False, instance_groups=None, out=None, poll=None, clock=time.monotonic, sleep=time.sleep):
        """Print the job's logs so far, labelled ``[<group>/<host>]``; return the description.

        Parameters
        ----------
        follow : bool, default False
            Keep printing until the job ends, like ``wait(logs="All")`` (and raise like it).
        instance_groups, out, poll, clock, sleep
            Show only these groups' lines; where to print; the pace, clock and sleep, as :meth:`wait` takes them.
        """
        if follow:
            return self.wait(logs="All", poll=poll, out=out, clock=clock, sleep=sleep, instance_groups=instance_groups)
        out = out or sys.stdout
        desc = self.describe()
        reader = _Reader(self._tail(desc, instance_groups), out, strict=True)
        reader.drain(sleep, poller.bounds(poll, self.sagemaker_session)[0], reads=1)
        return desc


def reattach_hint(name, framework=None):
    """What to tell a user whose waiting for the job ``name`` failed: the job goes on, and how to
    follow it again (the estimator class of ``framework``, and the CLI)."""
    return ("The waiting stopped; the training job %s goes on in SageMaker. Once the cause is fixed, follow it "
            "again with %s.attach(%r).latest_training_job.wait(), or see it with: sagemaker-hetero status %s"
            % (name, FRAMEWORK_LABELS.get(framework, "Estimator"), name, name))


def _join(*hints):
    return "\n".join(h for h in hints if h)


def end_of_job_lines(desc, prices=None):
    """What is printed when a waited-for job has ended, from its last description. Pure.

    The SDK v2's lines, same wording and numbers (``sagemaker.session._logs_for_job``): the job's
    ``TrainingTimeInSeconds`` and ``BillableTimeInSeconds`` times its instance count (for instance
    groups, the sum of their counts, as the SDK v2 counts them), then the managed spot savings
    ``(1 - billable / training) * 100`` from the per-instance figures (``_cost.billed``). Each line
    only when its figures are in the description. With ``prices`` (``{instance_type: Price or
    Unknown}``), the billed cost per group follows. Then ``Model artifacts: <S3 URI>``, ours, when
    the job has one and did not fail.
    """
    from sagemaker_hetero._cost import billed

    summary = describe.status_summary(desc)
    bill = billed.bill(desc, prices)
    lines = bill.seconds_lines() + (bill.cost_lines() if prices is not None else [])
    if summary["model_artifacts"] and summary["status"] != "Failed":
        lines.append("Model artifacts: %s" % (summary["model_artifacts"],))
    return lines


def _known_prices(desc):
    """The prices the end of a wait shows its bill with: a price file's or the cache's, no call (None
    before the job has billable seconds). A price file that cannot be read makes them unknown: the
    job has ended, and that is not the place to fail."""
    from sagemaker_hetero._aws import pricing
    from sagemaker_hetero._cost import estimate, prices

    if desc.get("BillableTimeInSeconds") is None:
        return None
    types = estimate.instance_types(desc)
    try:
        return pricing.lookup(types, describe.region_of(desc))
    except ConfigError as exc:
        return dict((t, prices.Unknown(t, str(exc).replace("\n", " "))) for t in types)


def _status_text(status, secondary, message):
    text = status if not secondary or secondary == status else "%s/%s" % (status, secondary)
    return text + " - " + message if message else text


def _write(out, lines):
    if not lines:
        return
    out.write(shown("".join(line + "\n" for line in lines)))
    out.flush()


class _Reader(object):
    """Reads a LogTail for the waiter and prints what it gets.

    Throttling that outlasts botocore's retries is kept in ``throttled`` (the waiter backs off and
    tries again). Access denied to CloudWatch Logs, or any other failure to read them (an answer
    that cannot be read), prints one note and the waiting goes on without logs (``strict``: it
    raises, as ``logs()`` has nothing else to do).
    """

    def __init__(self, tail, out, strict=False):
        self.tail = tail
        self.out = out
        self.strict = strict
        self.throttled = None
        self.denied = False

    def read(self, to_end=False):
        """Print the new lines (``to_end``: every page of every stream, printed batch by batch as
        they are read; else one poll of a follow); return how many there were."""
        self.throttled = None
        if self.denied:
            return 0
        try:
            if to_end:
                count = 0
                for lines in self.tail.read_to_end():
                    self._print(lines)
                    count += len(lines)
                return count
            lines = self.tail.poll()
        except ThrottlingError as exc:
            self.throttled = exc
            return 0
        except AWSError as exc:  # denied, or an answer that cannot be read: the waiting goes on without logs
            if self.strict:
                raise
            self.denied = True
            _write(self.out, ["[logs not shown: %s]" % (exc.aws_message or str(exc).splitlines()[0],)])
            return 0
        self._print(lines)
        return len(lines)

    def _print(self, lines):
        if lines:
            self.out.write(shown(log_labels.render(lines)))
            self.out.flush()

    def drain(self, sleep, first, reads=2):
        """The job ended (or ``logs()`` reads once): read what is there, to the end of every stream,
        and once more a moment later if the job has streams (CloudWatch may show the last lines
        late); then print whatever the labeller still holds. Throttled reads are tried again (from
        where they stopped), up to ``DRAIN_ATTEMPTS``."""
        done = 0
        for attempt in range(DRAIN_ATTEMPTS):
            self.read(to_end=True)
            if self.denied:
                return
            if not self.throttled:
                done += 1
                if done >= reads or not self.tail.stream_names:
                    break
            elif attempt == DRAIN_ATTEMPTS - 1 and self.strict:
                raise self.throttled
            sleep(first * (2 ** attempt if self.throttled else 1))
        self._print(self.tail.finish())


class _Watch(object):
    """What a training job's waiter does with each DescribeTrainingJob answer (``seen``, a client of
    the poller's ``run``): the status line when it changes, the new log lines, the heartbeat."""

    def __init__(self, job, waiting, out, follow, instance_groups):
        self.job, self.waiting, self.out = job, waiting, out
        self.follow, self.instance_groups = follow, instance_groups
        self.reader = None
        self.last = None

    def seen(self, desc, now):
        """Print what ``desc`` (seen at ``now``) shows; True once the job has ended."""
        waiting, name = self.waiting, self.job.name
        state = describe.job_status(desc)
        changed, self.last = state != self.last, state
        line = "[%s] %s: %s" % (waiting.elapsed(now), name, _status_text(*state))
        if self.follow and self.reader is None:
            self.reader = _Reader(self.job._tail(desc, self.instance_groups), self.out)
        if desc.get("TrainingJobStatus") in TERMINAL_STATUSES:
            if self.reader is not None:
                self.reader.drain(waiting.sleep, waiting.first)
            if changed:
                _write(self.out, [line])
            return True
        if changed:
            _write(self.out, [line])
            waiting.changed(now)
        if self.reader is not None:
            if self.reader.read():
                waiting.heard()
            if self.reader.throttled:
                waiting.slow_down()
        if waiting.quiet(now):
            _write(self.out, ["[%s] %s: still %s (since %s)" % (
                waiting.elapsed(now), name, _status_text(state[0], state[1], ""), waiting.elapsed(waiting.since))])
        return False

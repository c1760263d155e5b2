"""The commands on a training job by its name: ``status JOB`` (its bill, once ended), ``logs JOB`` and
``stop JOB``; and what every command says of a job's status (:func:`report`, :func:`ended`: ``submit``
says it too).

A job that ended Failed or Stopped exits 1; ``--group`` filters the log lines by instance group, its
problems named as that option (:func:`with_group_option`). What a job says (its status message,
failure reason, group names) is written :func:`~sagemaker_hetero.exceptions.shown`, never as
terminal control; ``--output json`` is JSON (``json.dumps`` escapes every control character).
"""
import json
import sys

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli.exits import EXIT_JOB_FAILED, EXIT_OK
from sagemaker_hetero._cli.inputs import COMMAND_LINE, PROG

__all__ = ["add_to", "status_words", "report", "ended", "with_group_option"]


def add_to(commands, parents):
    """The ``status``, ``logs`` and ``stop`` commands, with the shared options of ``parents``."""
    p = commands.add_parser("status", parents=[parents.job, parents.aws, parents.output, parents.prices],
                            help="print a job's status (and bill)")
    p.set_defaults(handler=_status)
    p = commands.add_parser("logs", parents=[parents.job, parents.aws, parents.group],
                            help="print a job's logs labelled by instance group")
    p.add_argument("--follow", action="store_true", help="keep printing until the job ends")
    p.set_defaults(handler=_logs)
    p = commands.add_parser("stop", parents=[parents.job, parents.aws, parents.output], help="stop a job")
    p.set_defaults(handler=_stop)


def status_words(desc):
    """``InProgress/Training - <message>``: the job's status, secondary status and last message."""
    from sagemaker_hetero._request import describe

    status, secondary, message = describe.job_status(desc)
    text = "%s" % status if not secondary or secondary == status else "%s/%s" % (status, secondary)
    return text + " - " + message if message else text


def _failure_line(desc):
    reason = desc.get("FailureReason")
    return "\nFailure reason: %s" % reason if reason else ""


def _status_text(desc):
    """What ``status`` prints: ``JOB: <status words>``, and the failure reason on a second line."""
    return "%s: %s%s" % (desc.get("TrainingJobName"), status_words(desc), _failure_line(desc))


def report(args, desc, bill=None, attempts=None):
    """The job's status (and, given, its ``bill``) on stdout; exit 1 if it Failed or was Stopped. ``attempts``:
    the submission's attempts (``_capacity.walk.Attempt``), in the JSON too."""
    from sagemaker_hetero._request import describe

    summary = describe.status_summary(desc)
    if args.output == "json":
        if bill is not None or getattr(args, "command", None) == "status":
            summary["cost"] = bill.to_dict() if bill is not None else None
        if attempts is not None:
            summary["attempts"] = [a.as_dict() for a in attempts]
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        lines = [_status_text(desc)] + (bill.seconds_lines() + bill.cost_lines() if bill is not None else [])
        sys.stdout.write(E.shown("\n".join(lines) + "\n"))
    return EXIT_JOB_FAILED if summary["status"] in ("Failed", "Stopped") else EXIT_OK


def ended(args, job, exc, attempts=None):
    """A waited-for or followed job ended Failed or Stopped: its final status, status message and
    failure reason on stderr (and its status object on stdout with ``--output json``, with ``attempts``); exit 1."""
    try:
        desc = job.describe()
    except E.AWSError:  # the job's end is known; what it said is not worth another exit code
        desc = {"TrainingJobName": exc.job_name, "TrainingJobStatus": exc.status,
                "FailureReason": exc.failure_reason}
    sys.stderr.write(E.shown("%s: %s\n" % (PROG, _status_text(desc))))
    sys.stderr.flush()
    if getattr(args, "output", None) == "json":
        report(args, desc, attempts=attempts)
    return EXIT_JOB_FAILED


def with_group_option(call, **kwargs):
    """``call(**kwargs)``, its problems with ``instance_groups`` named as the option ``--group``."""
    try:
        return call(**kwargs)
    except E.ConfigError as exc:
        renamed = [p.renamed("--group") if p.path.startswith("instance_groups") else p for p in exc.problems]
        raise E.ConfigError(renamed, COMMAND_LINE)


def _status(args):
    from sagemaker_hetero._aws.pricing import bill_of
    from sagemaker_hetero._capacity.history import attempts_of, listed
    from sagemaker_hetero._request import describe

    session = _input.session(args)
    desc = session.describe_training_job(args.job)
    attempts = attempts_of(desc, session.describe_training_job, lambda part: listed(session, part)) \
        if args.output == "json" else None
    bill = None
    if desc.get("BillableTimeInSeconds") is not None:  # the job has ended: what it was billed
        bill = bill_of(desc, describe.region_of(desc) or session.boto_region_name, args.prices, fetch=True,
                       boto_session=session.boto_session, argument="--prices")
    return report(args, desc, bill, attempts)


class _Watched(object):
    """A text stream that remembers whether anything was written to it."""

    def __init__(self, out):
        self.out = out
        self.written = False

    def write(self, text):
        self.written = self.written or bool(text)
        return self.out.write(text)

    def flush(self):
        self.out.flush()


def _logs(args):
    from sagemaker_hetero._defaults import TERMINAL_STATUSES
    from sagemaker_hetero._aws.training_job import TrainingJob

    session = _input.session(args)
    job = TrainingJob(session, args.job, failure=session.job_failure)
    if args.follow:
        try:
            with_group_option(job.logs, follow=True, instance_groups=args.group)
        except E.UnexpectedStatusException as exc:
            return ended(args, job, exc)
        return EXIT_OK
    out = _Watched(sys.stdout)
    desc = with_group_option(job.logs, instance_groups=args.group, out=out)
    if not out.written:  # say why there is nothing, rather than print nothing
        whose = "job %s" % args.job
        if args.group:
            whose = "instance group%s %s of %s" % ("s" if len(args.group) > 1 else "", ", ".join(args.group), whose)
        finished = desc.get("TrainingJobStatus") in TERMINAL_STATUSES
        sys.stderr.write(E.shown("%s: %s has no log lines%s (%s)%s\n" % (
            PROG, whose, "" if finished else " yet", status_words(desc), _failure_line(desc))))
    return EXIT_OK


def _stop(args):
    _input.session(args).stop_training_job(args.job)
    if args.output == "json":
        sys.stdout.write(json.dumps({"job_name": args.job, "stopping": True}) + "\n")
    else:
        sys.stdout.write("Stopping training job %s\n" % args.job)
    return EXIT_OK

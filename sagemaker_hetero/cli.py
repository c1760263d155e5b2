"""``sagemaker-hetero``: render, validate, submit and watch training jobs from CI (see docs/cli.md).

::

    sagemaker-hetero render SPEC [--format json|cli-input-json]   the request as JSON (no network)
    sagemaker-hetero validate SPEC                                  every problem at once (no network)
    sagemaker-hetero submit SPEC [--wait] [--logs] [--group NAME]   create the job (and wait for it)
    sagemaker-hetero status JOB                                     the job's status
    sagemaker-hetero logs JOB [--follow] [--group NAME]             its logs, labelled by instance group
    sagemaker-hetero stop JOB                                       stop it
    sagemaker-hetero local SPEC                                     run it on this machine
    sagemaker-hetero tune render|submit SPEC / tune status JOB      tuning jobs (a spec's 'tuning:')

Exit codes: 0 success (job Completed), 1 job Failed or Stopped, 2 invalid spec or usage, 3 AWS
error, 4 unexpected error (one line on stderr; the traceback with ``--debug`` or
``SAGEMAKER_HETERO_DEBUG=1``), 130 interrupted, 141 stdout closed early (``| head``). A crash never
exits 1, so 1 always means a job that ended Failed or Stopped. ``render`` and ``validate`` import
neither boto3 nor botocore.
"""
import argparse
import json
import os
import sys
import time
import traceback

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._defaults import ACCOUNT_PLACEHOLDER

__all__ = ["main", "EXIT_OK", "EXIT_JOB_FAILED", "EXIT_USAGE", "EXIT_AWS", "EXIT_UNEXPECTED", "EXIT_INTERRUPTED",
           "EXIT_BROKEN_PIPE", "DEBUG_VARIABLE"]

EXIT_OK = 0
EXIT_JOB_FAILED = 1
EXIT_USAGE = 2
EXIT_AWS = 3
EXIT_UNEXPECTED = 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a writer whose reader went away
#: Set (to anything but "" or "0"), an unexpected error also prints its traceback, as --debug does.
DEBUG_VARIABLE = "SAGEMAKER_HETERO_DEBUG"
PROG = "sagemaker-hetero"


# -- reading a spec ----------------------------------------------------------------------------


def _read_spec(path):
    """``(data, base folder)`` of a YAML or JSON spec file (``-``: standard input), at most
    ``MAX_SPEC_BYTES`` long."""
    from sagemaker_hetero import _spec
    from sagemaker_hetero._checks import text as _spec_text

    if path == "-":
        text, base = sys.stdin.read(_spec.MAX_SPEC_BYTES + 1), os.getcwd()
        text = _spec_text.text_of(text.encode("utf-8", "replace"), path)
    else:
        try:
            raw = _spec_text.read_bounded(path)
        except OSError as exc:
            raise E.ConfigError([E.Problem(_spec.SPEC, "cannot be read: %s" % exc, path)])
        text = _spec_text.text_of(raw, path)
        base = os.path.dirname(os.path.abspath(path))
    ext = os.path.splitext(path)[1].lower()
    kind = "json" if ext == ".json" else "yaml" if ext in (".yaml", ".yml") else None
    return _spec.loads(text, path, kind), base


def _load(args, session=None, facts=None):
    """``(spec, job, facts, now)`` after every check of round one, as ``session`` (None: AWS) runs
    the job (raises ConfigError listing all problems)."""
    from sagemaker_hetero import _runner, _spec

    data, base = _read_spec(args.spec)
    spec = _spec.parse(data, base)
    now = time.time()
    job, facts, problems = spec.check(session, facts, now, path_exists=_runner.local_path_exists)
    if problems:
        raise E.ConfigError(problems)
    return spec, job, facts, now


def _region(args, required):
    from sagemaker_hetero._request import names as _context

    if args.region:
        return args.region
    env = dict(os.environ)
    if args.profile:
        env["AWS_PROFILE"] = args.profile
    region = _context.region_from_environment(env)
    if region is None and required:
        raise E.ConfigError(
            [E.Problem("--region", "no AWS region is configured: pass --region, or set AWS_REGION or a profile's region")]
        )
    return region


def _session(args):
    import botocore.exceptions

    from sagemaker_hetero import _aws_errors, _boto
    from sagemaker_hetero.session import Session

    try:  # the region as every command reads it: --region, else the environment's and the profile's
        boto_session = _boto.new_boto_session(profile_name=args.profile, region_name=_region(args, required=False))
    except botocore.exceptions.BotoCoreError as exc:  # an unknown profile, say
        raise _aws_errors.translate(exc, "Session")
    return Session(boto_session=boto_session)


# -- commands ----------------------------------------------------------------------------------


def _render(args):
    from sagemaker_hetero import _runner
    from sagemaker_hetero._model import archive as _archive
    from sagemaker_hetero._request import plan as _plan

    facts = _plan.Facts(region=_region(args, required=True), account_id=args.account_id,
                        default_bucket=args.default_bucket)
    _, job, facts, now = _load(args, facts=facts)
    plan = _runner.plan_for(job, facts, now, None)  # the code key is the archive's SHA-256
    text = json.dumps(plan.request, indent=2)
    if args.format == "cli-input-json" and ACCOUNT_PLACEHOLDER in text:
        raise E.ConfigError(
            [
                E.Problem(
                    "--format cli-input-json",
                    "the request holds the placeholder %s (the default bucket or a role name's ARN); pass "
                    "--account-id or --default-bucket, or give output_path (and code_location) and a role ARN "
                    "in the spec" % ACCOUNT_PLACEHOLDER,
                )
            ]
        )
    if args.archive:
        if plan.code is None or not plan.code.upload:
            raise E.ConfigError([E.Problem("--archive", "the job ships no code archive to build")])
        body, _ = _archive.build_archive(job.code)
        try:
            with body, open(args.archive, "wb") as f:
                f.write(body.read())
        except OSError as exc:
            raise E.ConfigError([E.Problem("--archive", "cannot be written: %s" % exc, args.archive)])
        sys.stderr.write("Wrote %s; upload it to %s before creating the job.\n" % (args.archive, plan.code.s3_uri))
    sys.stdout.write(text + "\n")
    return EXIT_OK


def _validate(args):
    from sagemaker_hetero._request import plan as _plan
    from sagemaker_hetero._model.job import INPUT

    spec, job, _, _ = _load(args, facts=_plan.Facts(region=_region(args, required=False)))
    groups = job.group_names if job.heterogeneous else None
    channels = [c.name for c in job.channels if c.kind == INPUT]
    summary = {
        "valid": True,
        "spec": args.spec,
        "estimator": spec.estimator_class.__name__,
        "instance_groups": groups,
        "instances": job.host_count,
        "channels": channels,
        "job_name": job.job_name,
    }
    if args.output == "json":
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        sys.stdout.write(
            "%s: valid (%s, %s instance%s%s, %d channel%s)\n"
            % (
                args.spec,
                summary["estimator"],
                summary["instances"],
                "" if summary["instances"] == 1 else "s",
                " in groups %s" % ", ".join(groups) if groups else "",
                len(channels),
                "" if len(channels) == 1 else "s",
            )
        )
    return EXIT_OK


def _status_words(desc):
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
    return "%s: %s%s" % (desc.get("TrainingJobName"), _status_words(desc), _failure_line(desc))


def _report(args, desc):
    from sagemaker_hetero._request import describe

    summary = describe.status_summary(desc)
    if args.output == "json":
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        sys.stdout.write(_status_text(desc) + "\n")
    return EXIT_JOB_FAILED if summary["status"] in ("Failed", "Stopped") else EXIT_OK


def _ended(args, job, exc):
    """A waited-for or followed job ended Failed or Stopped: its final status, status message and
    failure reason on stderr (and its status object on stdout with ``--output json``); exit 1."""
    try:
        desc = job.describe()
    except E.AWSError:  # the job's end is known; what it said is not worth another exit code
        desc = {"TrainingJobName": exc.job_name, "TrainingJobStatus": exc.status,
                "FailureReason": exc.failure_reason}
    sys.stderr.write("%s: %s\n" % (PROG, _status_text(desc)))
    sys.stderr.flush()
    if getattr(args, "output", None) == "json":
        _report(args, desc)
    return EXIT_JOB_FAILED


def _submit(args):
    from sagemaker_hetero._request import plan as _plan

    spec, _, _, _ = _load(args, facts=_plan.Facts(region=_region(args, required=False)))
    session = _session(args)
    estimator = spec.estimator(session)
    estimator.fit(spec.inputs, wait=False, experiment_config=spec.experiment_config)
    job = estimator.latest_training_job
    progress = sys.stderr if args.output == "json" else sys.stdout
    progress.write("Created training job %s in %s\n" % (job.name, session.boto_region_name))
    progress.flush()
    if not (args.wait or args.logs):
        if args.output == "json":
            return _report(args, job.describe())
        return EXIT_OK
    try:
        desc = job.wait(logs="All" if args.logs else "None", out=progress, instance_groups=args.group)
    except E.UnexpectedStatusException as exc:
        return _ended(args, job, exc)
    return _report(args, desc) if args.output == "json" else EXIT_OK


def _status(args):
    return _report(args, _session(args).describe_training_job(args.job))


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
    from sagemaker_hetero._job import TrainingJob

    job = TrainingJob(_session(args), args.job)
    if args.follow:
        try:
            job.logs(follow=True, instance_groups=args.group)
        except E.UnexpectedStatusException as exc:
            return _ended(args, job, exc)
        return EXIT_OK
    out = _Watched(sys.stdout)
    desc = job.logs(instance_groups=args.group, out=out)
    if not out.written:  # say why there is nothing, rather than print nothing
        whose = "job %s" % args.job
        if args.group:
            whose = "instance group%s %s of %s" % ("s" if len(args.group) > 1 else "", ", ".join(args.group), whose)
        ended = desc.get("TrainingJobStatus") in TERMINAL_STATUSES
        sys.stderr.write("%s: %s has no log lines%s (%s)%s\n" % (
            PROG, whose, "" if ended else " yet", _status_words(desc), _failure_line(desc)))
    return EXIT_OK


def _stop(args):
    _session(args).stop_training_job(args.job)
    if args.output == "json":
        sys.stdout.write(json.dumps({"job_name": args.job, "stopping": True}) + "\n")
    else:
        sys.stdout.write("Stopping training job %s\n" % args.job)
    return EXIT_OK


def _local(args):
    from sagemaker_hetero.local import LocalSession

    session = LocalSession(root=args.root)
    spec, _, _, _ = _load(args, session)
    estimator = spec.estimator(session)
    try:
        estimator.fit(spec.inputs, wait=True, experiment_config=spec.experiment_config)
    except (E.UnexpectedStatusException, E.LocalJobError) as exc:
        sys.stderr.write("%s: %s\n" % (PROG, exc))
        return EXIT_JOB_FAILED
    return EXIT_OK


# -- tuning jobs: tune render|submit|status (docs/tuning.md) -----------------------------------


def _load_tuning(args, session=None, facts=None):
    """``(spec, section, job, tuning, facts, now)`` after every check of the spec's tuning job."""
    from sagemaker_hetero import _runner, _spec, _tuning_spec

    data, base = _read_spec(args.spec)
    spec = _spec.parse(data, base)
    now = time.time()
    section, job, tuning, facts, problems = _tuning_spec.check(spec, session, facts, now,
                                                               path_exists=_runner.local_path_exists)
    if problems:
        raise E.ConfigError(problems, "the tuning job")
    return spec, section, job, tuning, facts, now


def _tune_render(args):
    from sagemaker_hetero import _tuning
    from sagemaker_hetero._request import plan as _plan

    facts = _plan.Facts(region=_region(args, required=True), account_id=args.account_id,
                        default_bucket=args.default_bucket)
    _, _, job, tuning, facts, now = _load_tuning(args, facts=facts)
    rendered = _tuning.render(tuning, _plan.make_plan(job, facts, now), now)
    sys.stdout.write(json.dumps(rendered.request, indent=2) + "\n")
    return EXIT_OK


def _tune_report(args, desc):
    from sagemaker_hetero import _tuning
    from sagemaker_hetero.tuner import tuning_status_line

    summary = _tuning.status_summary(desc)
    if args.output == "json":
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        line = tuning_status_line(desc)
        if summary["failure_reason"]:
            line += "\nFailure reason: %s" % summary["failure_reason"]
        sys.stdout.write(line + "\n")
    return EXIT_JOB_FAILED if summary["status"] in ("Failed", "Stopped") else EXIT_OK


def _tune_submit(args):
    from sagemaker_hetero._request import plan as _plan
    from sagemaker_hetero.tuner import HyperparameterTuner

    spec, section, _, _, _, _ = _load_tuning(args, facts=_plan.Facts(region=_region(args, required=False)))
    session = _session(args)
    tuner = HyperparameterTuner(spec.estimator(session), **section.kwargs)
    tuner.fit(spec.inputs, wait=False, **section.fit_kwargs)
    job = tuner.latest_tuning_job
    progress = sys.stderr if args.output == "json" else sys.stdout
    progress.write("Created tuning job %s in %s\n" % (job.name, session.boto_region_name))
    progress.flush()
    if not args.wait:
        return _tune_report(args, job.describe()) if args.output == "json" else EXIT_OK
    try:
        desc = job.wait(out=progress)
    except E.UnexpectedStatusException:
        return _tune_report(args, job.describe()) if args.output == "json" else EXIT_JOB_FAILED
    return _tune_report(args, desc) if args.output == "json" else EXIT_OK


def _tune_status(args):
    return _tune_report(args, _session(args).describe_tuning_job(args.job))


def _add_tune(commands, spec, aws, output):
    """The ``tune`` command and its subcommands."""
    tune = commands.add_parser("tune", help="hyperparameter tuning jobs from a spec with a 'tuning:' section")
    sub = tune.add_subparsers(dest="tune_command", metavar="SUBCOMMAND")
    p = sub.add_parser("render", parents=[spec, aws], help="print the CreateHyperParameterTuningJob request (no network)")
    p.add_argument("--account-id", help="the AWS account id, for the default bucket's name (no look-up)")
    p.add_argument("--default-bucket", help="the bucket to use instead of sagemaker-{region}-{account}")
    p.set_defaults(handler=_tune_render)
    p = sub.add_parser("submit", parents=[spec, aws, output], help="create the tuning job")
    p.add_argument("--wait", action="store_true", help="wait until it ends; exit 1 if it fails or is stopped")
    p.set_defaults(handler=_tune_submit)
    job = argparse.ArgumentParser(add_help=False)
    job.add_argument("job", metavar="JOB", help="the tuning job's name")
    p = sub.add_parser("status", parents=[job, aws, output], help="print a tuning job's status")
    p.set_defaults(handler=_tune_status)


# -- the parser --------------------------------------------------------------------------------


def _parser():
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Render, validate, submit and watch SageMaker training jobs on heterogeneous clusters.",
        epilog="Exit codes: 0 success, 1 job Failed or Stopped, 2 invalid spec or usage, 3 AWS error, "
        "4 unexpected error (--debug shows its traceback). "
        "See docs/cli.md for the spec format.",
    )
    aws = argparse.ArgumentParser(add_help=False)
    aws.add_argument("--region", help="AWS region (default: AWS_DEFAULT_REGION, AWS_REGION or the profile's)")
    aws.add_argument("--profile", help="AWS profile (default: AWS_PROFILE or 'default')")
    output = argparse.ArgumentParser(add_help=False)
    output.add_argument("--output", choices=("text", "json"), default="text", help="text (default) or json on stdout")
    spec = argparse.ArgumentParser(add_help=False)
    spec.add_argument("spec", metavar="SPEC", help="the job spec: a YAML or JSON file ('-' reads standard input)")
    job = argparse.ArgumentParser(add_help=False)
    job.add_argument("job", metavar="JOB", help="the training job's name")
    group = argparse.ArgumentParser(add_help=False)
    group.add_argument(
        "--group", action="append", metavar="NAME", help="show only this instance group's log lines (repeatable)"
    )
    debug = argparse.ArgumentParser(add_help=False)
    debug.add_argument("--debug", action="store_true",
                       help="on an unexpected error (exit 4), print its traceback too (also: %s=1)" % DEBUG_VARIABLE)

    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = commands.add_parser("render", parents=[spec, aws, debug], help="print the CreateTrainingJob request (no network)")
    p.add_argument(
        "--format",
        choices=("json", "cli-input-json"),
        default="json",
        help="json (default), or cli-input-json: for 'aws sagemaker create-training-job --cli-input-json', "
        "refused while the account is a placeholder",
    )
    p.add_argument("--account-id", help="the AWS account id, for the default bucket's name (no look-up)")
    p.add_argument("--default-bucket", help="the bucket to use instead of sagemaker-{region}-{account}")
    p.add_argument("--archive", metavar="FILE", help="also write the code archive (sourcedir.tar.gz) to FILE")
    p.set_defaults(handler=_render)
    p = commands.add_parser("validate", parents=[spec, aws, output, debug], help="check the spec; list every problem")
    p.set_defaults(handler=_validate)
    p = commands.add_parser("submit", parents=[spec, aws, output, group, debug], help="create the training job")
    p.add_argument("--wait", action="store_true", help="wait until the job ends; exit 1 if it fails or is stopped")
    p.add_argument("--logs", action="store_true", help="wait, printing the job's logs labelled by instance group")
    p.set_defaults(handler=_submit)
    p = commands.add_parser("status", parents=[job, aws, output, debug], help="print a job's status")
    p.set_defaults(handler=_status)
    p = commands.add_parser("logs", parents=[job, aws, group, debug], help="print a job's logs labelled by instance group")
    p.add_argument("--follow", action="store_true", help="keep printing until the job ends")
    p.set_defaults(handler=_logs)
    p = commands.add_parser("stop", parents=[job, aws, output, debug], help="stop a job")
    p.set_defaults(handler=_stop)
    p = commands.add_parser("local", parents=[spec, debug], help="run the job on this machine (LocalSession)")
    p.add_argument("--root", metavar="DIR", help="where the job's folders go (default: LocalSession's)")
    p.set_defaults(handler=_local)
    _add_tune(commands, spec, aws, output)
    return parser


def main(argv=None):
    """Run a command line; return its exit code (docs/cli.md).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).
    """
    try:
        return _main(argv)
    except BrokenPipeError:  # `sagemaker-hetero logs JOB | head`: the reader has what it wanted
        try:  # nothing more reaches stdout, not even the interpreter's flush at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # no real file descriptor behind stdout
            pass
        return EXIT_BROKEN_PIPE


def _main(argv):
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has printed
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if getattr(args, "handler", None) is None:
        parser.print_usage(sys.stderr)
        sys.stderr.write("%s: error: a command is required\n" % PROG)
        return EXIT_USAGE
    what = getattr(args, "spec", None) or getattr(args, "job", None)
    try:
        return args.handler(args)
    except E.ConfigError as exc:
        sys.stderr.write("%s: %s: %s\n" % (PROG, what, exc))
        if getattr(args, "output", None) == "json":
            problems = [{"path": p.path, "message": p.message, "value": p.value} for p in exc.problems]
            sys.stdout.write(json.dumps({"valid": False, "problems": problems}, default=repr) + "\n")
        return EXIT_USAGE
    except E.UnexpectedStatusException as exc:
        sys.stderr.write("%s: %s\n" % (PROG, exc))
        return EXIT_JOB_FAILED
    except E.AWSError as exc:
        sys.stderr.write("%s: %s\n" % (PROG, exc))
        return EXIT_AWS
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise
    except Exception as exc:  # a crash must not look like a failed job (1) or a bad spec (2)
        debug = args.debug or os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")
        if debug:
            traceback.print_exc()
        text = ("%s" % exc).strip().splitlines()
        sys.stderr.write("%s: unexpected error: %s%s (%s)\n" % (
            PROG, type(exc).__name__, ": " + text[0][:300] if text else "",
            "the traceback is above" if debug else "run again with --debug to see the traceback"))
        return EXIT_UNEXPECTED

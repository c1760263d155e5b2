"""``sagemaker-hetero``: render, validate, submit and watch training jobs from CI (see docs/cli.md).

::

    sagemaker-hetero render SPEC [--format json|cli-input-json] [--archive FILE]   the request (no network)
                                 [--cost [--prices FILE]]           and its cost estimate on stderr
    sagemaker-hetero validate SPEC                                  every problem at once (no network)
    sagemaker-hetero preflight SPEC [--json]                        check the job against the account
    sagemaker-hetero submit SPEC [--wait] [--logs] [--group NAME]   preflight, create the job (and wait for it)
    sagemaker-hetero submit SPEC --dry-run                          the same as render SPEC
    sagemaker-hetero status JOB [--prices FILE]                     the job's status (and bill, once ended)
    sagemaker-hetero logs JOB [--follow] [--group NAME]             its logs, labelled by instance group
    sagemaker-hetero stop JOB                                       stop it
    sagemaker-hetero local SPEC                                     run it on this machine
    sagemaker-hetero tune render|submit SPEC / tune status JOB      tuning jobs (a spec's 'tuning:')
    sagemaker-hetero cost SPEC [--prices FILE] [--offline]          per-group cost estimate
    sagemaker-hetero diff SPEC --against JOB|FILE [--json]          what changed since a job (exit 1: a change)

``--region``, ``--profile`` and ``--debug`` go before or after the command; ``--version`` prints the
version. Exit codes: 0 success (job Completed), 1 job Failed or Stopped, 2 invalid spec or usage (or a
preflight problem), 3 AWS error, 4 unexpected error (one line on stderr; the traceback with ``--debug``
or ``SAGEMAKER_HETERO_DEBUG=1``), 5 ``preflight`` found no problem but could not make every check, 130
interrupted, 141 stdout closed early (``| head``). A crash never exits 1, so 1 always means a job that
ended Failed or Stopped, but for ``diff``, where it means a difference (as diff(1)'s). ``render``
(``--cost`` too), ``validate``, ``cost --offline`` and ``diff --against FILE`` import neither boto3 nor
botocore; ``render`` and ``validate`` need no region (a placeholder stands for it). Messages speak the
command line's language: the Python API's hints (``fit(dry_run=True)``, ``Session(...)``) are said
as the options that do the same (:data:`CLI_WORDS`). What every command reads first (the spec file,
the region, the AWS session) is ``_cli.inputs``'s.
"""
import argparse
import json
import os
import shlex
import sys
import time
import traceback

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli.inputs import CLI_WORDS, PROG  # noqa: F401 (part of this module's interface)
from sagemaker_hetero._defaults import ACCOUNT_PLACEHOLDER, HOMOGENEOUS_GROUP, PLACEHOLDERS, REGION_PLACEHOLDER

__all__ = ["main", "EXIT_OK", "EXIT_JOB_FAILED", "EXIT_DIFFERENT", "EXIT_USAGE", "EXIT_AWS", "EXIT_UNEXPECTED",
           "EXIT_UNKNOWN", "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE", "DEBUG_VARIABLE", "CLI_WORDS"]

EXIT_OK = 0
EXIT_JOB_FAILED = 1
EXIT_DIFFERENT = 1  # diff: the requests differ (as diff(1) exits)
EXIT_USAGE = 2
EXIT_AWS = 3
EXIT_UNEXPECTED = 4
EXIT_UNKNOWN = 5  # preflight: no problem, but a check could not be made
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a writer whose reader went away
#: Set (to anything but "" or "0"), an unexpected error also prints its traceback, as --debug does.
DEBUG_VARIABLE = "SAGEMAKER_HETERO_DEBUG"
_COMMAND_LINE = "the command line"  # what problems with options are problems with


# -- commands ----------------------------------------------------------------------------------


def _render(args):
    from sagemaker_hetero import _runner

    _, job, facts, now = _input.load(args, facts=_input.dry_run_facts(args))
    plan = _runner.plan_for(job, facts, now, None)  # the code key is the archive's SHA-256
    text = json.dumps(plan.request, indent=2)
    if args.format == "cli-input-json":
        problems = _placeholder_problems(text)
        if problems:
            raise E.ConfigError(problems, _COMMAND_LINE)
    if args.archive:
        _write_archive(args.archive, plan)
    sys.stdout.write(text + "\n")
    if args.cost:  # stdout stays the request
        from sagemaker_hetero._aws.pricing import estimate_of

        sys.stderr.write(estimate_of(plan.request, plan.region, args.prices, argument="--prices").text() + "\n")
    return EXIT_OK


def _planned(args, account_id=None):
    """The plan of the spec's job as ``render`` makes it (the code key from the archive's digest), in the
    account of ``--account-id``, else ``account_id``; prices are per region, so a region is needed."""
    import attrs

    from sagemaker_hetero import _runner

    facts = attrs.evolve(_input.dry_run_facts(args), region=_input.required_region(args))
    if facts.account_id is None and account_id is not None:
        facts = attrs.evolve(facts, account_id=account_id)
    _, job, facts, now = _input.load(args, facts=facts)
    return _runner.plan_for(job, facts, now, None)


def _cost(args):
    from sagemaker_hetero._aws.pricing import estimate_of

    plan = _planned(args)
    boto_session = _input.boto_session(args) if getattr(args, "profile", None) and not args.offline else None
    estimate = estimate_of(plan.request, plan.region, args.prices, not args.offline, boto_session, "--prices")
    sys.stdout.write((json.dumps(estimate.to_dict()) if args.output == "json" else estimate.text()) + "\n")
    return EXIT_OK


def _diff(args):
    """``diff``: the spec's request against a job's (described) or a saved render's; exit 1 if they differ.
    The spec's job is rendered in the job's account (its default bucket, its role ARNs)."""
    from sagemaker_hetero._checks import text as _spec_text
    from sagemaker_hetero._cost import diff

    if os.path.exists(args.against) or args.against.lower().endswith(".json"):
        old, against = _spec_text.read_json_object(args.against, "--against", "request"), "file %s" % args.against
    else:
        old, against = _input.session(args).describe_training_job(args.against), "job %s" % args.against
    result = diff.diff(old, _planned(args, diff.account_of(old)).request, against)
    sys.stdout.write((json.dumps(result.to_dict(), default=str) if args.output == "json" else str(result)) + "\n")
    return EXIT_OK if result.equal else EXIT_DIFFERENT


def _placeholder_problems(text):
    """Why a request ``text`` holding placeholders cannot go to ``aws sagemaker create-training-job``."""
    problems = []
    if REGION_PLACEHOLDER in text:
        problems.append(E.Problem("--format cli-input-json", "the request holds the placeholder %s (no AWS region is "
                                  "configured): pass --region, or set AWS_REGION or a profile's region"
                                  % REGION_PLACEHOLDER))
    if ACCOUNT_PLACEHOLDER in text:
        problems.append(E.Problem("--format cli-input-json", "the request holds the placeholder %s (the default "
                                  "bucket or a role name's ARN); pass --account-id or --default-bucket, or give "
                                  "output_path (and code_location) and a role ARN in the spec" % ACCOUNT_PLACEHOLDER))
    return problems


def _write_archive(path, plan):
    """Write the plan's code archive to ``path`` and say on stderr how to put it where the request points:
    the ``aws s3 cp`` line, or, while the key holds a placeholder, what to pass to get it."""
    from sagemaker_hetero._model import archive as _archive

    if plan.code is None or not plan.code.upload:
        raise E.ConfigError([E.Problem("--archive", "the job ships no code archive to build")])
    body, _ = _archive.build_archive(plan.job.code)
    try:
        with body, open(path, "wb") as f:
            f.write(body.read())
    except OSError as exc:
        raise E.ConfigError([E.Problem("--archive", "cannot be written: %s" % exc, path)])
    uri = plan.code.s3_uri
    if any(p in uri for p in PLACEHOLDERS):
        needed = ["--region"] if REGION_PLACEHOLDER in uri else []
        needed += ["--account-id (or --default-bucket)"] if ACCOUNT_PLACEHOLDER in uri else []
        sys.stderr.write("%s: wrote the code archive %s; the request expects it at %s: pass %s to get the "
                         "'aws s3 cp' line\n" % (PROG, path, uri, " and ".join(needed)))
        return
    sys.stderr.write("%s: wrote the code archive %s; upload it where the request expects it before creating the "
                     "job:\n%s\n" % (PROG, path, _upload_command(path, uri)))


def _upload_command(path, uri):
    """The ``aws s3 cp`` line that puts the code archive at ``path`` at ``uri``, with its SHA-256 checksum kept
    by S3 (as ``submit`` uploads it, so a later ``submit`` of the same code finds it stored)."""
    return "aws s3 cp %s %s --checksum-algorithm SHA256" % (shlex.quote(path), shlex.quote(uri))


def _validate(args):
    from sagemaker_hetero._model.job import INPUT

    spec, job, _, _ = _input.load(args, facts=_input.dry_run_facts(args))
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


def _report(args, desc, bill=None):
    """The job's status (and, given, its ``bill``) on stdout; exit 1 if it Failed or was Stopped."""
    from sagemaker_hetero._request import describe

    summary = describe.status_summary(desc)
    if args.output == "json":
        if bill is not None or getattr(args, "command", None) == "status":
            summary["cost"] = bill.to_dict() if bill is not None else None
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        lines = [_status_text(desc)] + (bill.seconds_lines() + bill.cost_lines() if bill is not None else [])
        sys.stdout.write("\n".join(lines) + "\n")
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
    if args.dry_run:
        return _submit_dry_run(args)
    spec, job, _, _ = _input.load(args, facts=_input.dry_run_facts(args))
    _check_groups(args.group, job.group_names if job.heterogeneous else [HOMOGENEOUS_GROUP], "the spec's job")
    session = _input.session(args)
    estimator = spec.estimator(session)
    estimator.fit(spec.inputs, wait=False, experiment_config=spec.experiment_config, preflight=not args.no_preflight)
    job = estimator.latest_training_job
    progress = sys.stderr if args.output == "json" else sys.stdout
    progress.write("Created training job %s in %s\n" % (job.name, session.boto_region_name))
    progress.flush()
    if not (args.wait or args.logs):
        if args.output == "json":
            return _report(args, job.describe())
        return EXIT_OK
    try:
        desc = _with_group_option(job.wait, logs="All" if args.logs else "None", out=progress,
                                  instance_groups=args.group)
    except E.UnexpectedStatusException as exc:
        return _ended(args, job, exc)
    return _report(args, desc) if args.output == "json" else EXIT_OK


def _submit_dry_run(args):
    """``submit SPEC --dry-run``: what ``render SPEC`` prints (nothing is sent)."""
    given = [flag for flag, on in (("--wait", args.wait), ("--logs", args.logs), ("--group", args.group)) if on]
    if given:
        raise E.ConfigError([E.Problem("--dry-run", "prints the request and sends nothing, so it does not go with %s"
                                       % " or ".join(given))], _COMMAND_LINE)
    args.format, args.archive, args.account_id, args.cost, args.prices = "json", None, None, False, None
    return _render(args)


def _check_groups(only, groups, whose):
    """Refuse ``--group`` names that are not among ``groups`` (before anything is created)."""
    from sagemaker_hetero._aws import log_labels as _labels

    problems = _labels.filter_problems(only, groups)
    if problems:
        raise E.ConfigError([E.Problem("--group", p.message.replace("the job", whose), p.value) for p in problems],
                            _COMMAND_LINE)


def _with_group_option(call, **kwargs):
    """``call(**kwargs)``, its problems with ``instance_groups`` named as the option ``--group``."""
    try:
        return call(**kwargs)
    except E.ConfigError as exc:
        renamed = [p.renamed("--group") if p.path.startswith("instance_groups") else p for p in exc.problems]
        raise E.ConfigError(renamed, _COMMAND_LINE)


def _preflight(args):
    """Every check of the spec's job against the account: a row per check, or JSON; exit 0 (all ok),
    2 (a problem) or 5 (no problem, but a check could not be made)."""
    spec, _, _, _ = _input.load(args, facts=_input.dry_run_facts(args))
    report = spec.estimator(_input.session(args)).preflight(spec.inputs, experiment_config=spec.experiment_config)
    sys.stdout.write((report.to_json() if args.output == "json" else report.text()) + "\n")
    return EXIT_USAGE if report.problems else EXIT_UNKNOWN if report.unknowns else EXIT_OK


def _status(args):
    from sagemaker_hetero._aws.pricing import bill_of
    from sagemaker_hetero._request import describe

    session = _input.session(args)
    desc = session.describe_training_job(args.job)
    bill = None
    if desc.get("BillableTimeInSeconds") is not None:  # the job has ended: what it was billed
        bill = bill_of(desc, describe.region_of(desc) or session.boto_region_name, args.prices, fetch=True,
                       boto_session=session.boto_session, argument="--prices")
    return _report(args, desc, bill)


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

    job = TrainingJob(_input.session(args), args.job)
    if args.follow:
        try:
            _with_group_option(job.logs, follow=True, instance_groups=args.group)
        except E.UnexpectedStatusException as exc:
            return _ended(args, job, exc)
        return EXIT_OK
    out = _Watched(sys.stdout)
    desc = _with_group_option(job.logs, instance_groups=args.group, out=out)
    if not out.written:  # say why there is nothing, rather than print nothing
        whose = "job %s" % args.job
        if args.group:
            whose = "instance group%s %s of %s" % ("s" if len(args.group) > 1 else "", ", ".join(args.group), whose)
        ended = desc.get("TrainingJobStatus") in TERMINAL_STATUSES
        sys.stderr.write("%s: %s has no log lines%s (%s)%s\n" % (
            PROG, whose, "" if ended else " yet", _status_words(desc), _failure_line(desc)))
    return EXIT_OK


def _stop(args):
    _input.session(args).stop_training_job(args.job)
    if args.output == "json":
        sys.stdout.write(json.dumps({"job_name": args.job, "stopping": True}) + "\n")
    else:
        sys.stdout.write("Stopping training job %s\n" % args.job)
    return EXIT_OK


def _local(args):
    from sagemaker_hetero.local import LocalSession

    boto_session = _input.boto_session(args) if getattr(args, "profile", None) else None  # for s3:// channels
    session = LocalSession(boto_session, root=args.root, region=getattr(args, "region", None))
    spec, _, _, _ = _input.load(args, session)
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
    from sagemaker_hetero import _runner
    from sagemaker_hetero._cli import tuning_spec as tuning
    from sagemaker_hetero._cli.spec import parse

    data, base = _input.read_spec(args.spec)
    spec = parse(data, base)
    now = time.time()
    section, job, tuning_job, facts, problems = tuning.check(spec, session, facts, now,
                                                             path_exists=_runner.local_path_exists)
    if problems:
        raise E.ConfigError(problems, "the tuning job")
    return spec, section, job, tuning_job, facts, now


def _tune_render(args):
    from sagemaker_hetero import _runner
    from sagemaker_hetero._tuning import render

    _, _, job, tuning, facts, now = _load_tuning(args, facts=_input.dry_run_facts(args))
    plan = _runner.plan_for(job, facts, now, None)  # as the tuner's dry run: the code key is the archive's SHA-256
    rendered = render.render(tuning, plan, now)
    sys.stdout.write(json.dumps(rendered.request, indent=2) + "\n")
    return EXIT_OK


def _tune_report(args, desc):
    from sagemaker_hetero._tuning import describe

    summary = describe.status_summary(desc)
    if args.output == "json":
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        line = describe.status_line(desc)
        if summary["failure_reason"]:
            line += "\nFailure reason: %s" % summary["failure_reason"]
        sys.stdout.write(line + "\n")
    return EXIT_JOB_FAILED if summary["status"] in ("Failed", "Stopped") else EXIT_OK


def _tune_submit(args):
    from sagemaker_hetero.tuner import HyperparameterTuner

    spec, section, _, _, _, _ = _load_tuning(args, facts=_input.dry_run_facts(args))
    session = _input.session(args)
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
    return _tune_report(args, _input.session(args).describe_tuning_job(args.job))


def _add_tune(commands, spec, aws, output, bucket):
    """The ``tune`` command and its subcommands."""
    tune = commands.add_parser("tune", parents=[aws], help="hyperparameter tuning jobs from a spec with a 'tuning:' "
                               "section")
    sub = tune.add_subparsers(dest="tune_command", metavar="SUBCOMMAND")
    p = sub.add_parser("render", parents=[spec, aws, bucket],
                       help="print the CreateHyperParameterTuningJob request (no network)")
    p.add_argument("--account-id", help="the AWS account id, for the default bucket's name (no look-up)")
    p.set_defaults(handler=_tune_render)
    p = sub.add_parser("submit", parents=[spec, aws, output, bucket], help="create the tuning job")
    p.add_argument("--wait", action="store_true", help="wait until it ends; exit 1 if it fails or is stopped")
    p.set_defaults(handler=_tune_submit)
    job = argparse.ArgumentParser(add_help=False)
    job.add_argument("job", metavar="JOB", help="the tuning job's name")
    p = sub.add_parser("status", parents=[job, aws, output], help="print a tuning job's status")
    p.set_defaults(handler=_tune_status)


# -- the parser --------------------------------------------------------------------------------


def _global_options(parser):
    """``--region``, ``--profile`` and ``--debug``: before the command (on the main parser) and after it
    (on each command's). Unset they are absent (``argparse.SUPPRESS``), so a command's parser never
    overwrites what was given before the command."""
    parser.add_argument("--region", default=argparse.SUPPRESS,
                        help="AWS region (default: AWS_DEFAULT_REGION, AWS_REGION or the profile's)")
    parser.add_argument("--profile", default=argparse.SUPPRESS, help="AWS profile (default: AWS_PROFILE or 'default')")
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="on an unexpected error (exit 4), print its traceback too (also: %s=1)" % DEBUG_VARIABLE)
    return parser


_PRICES = dict(metavar="FILE", help="a price file (JSON, or CSV: instance_type,usd_per_hour[,region]) read before "
               "the cache and the AWS Price List (default: the file SAGEMAKER_HETERO_PRICES names)")


def _add_cost(commands, spec, aws, output, bucket):
    """The ``cost`` and ``diff`` commands."""
    names = argparse.ArgumentParser(add_help=False)
    names.add_argument("--account-id", help="the AWS account id, for the default bucket's name (no look-up)")
    p = commands.add_parser("cost", parents=[spec, aws, output, names, bucket],
                            help="print the job's cost estimate per instance group")
    p.add_argument("--prices", **_PRICES)
    p.add_argument("--offline", action="store_true", help="read no price list: prices from --prices or the cache")
    p.set_defaults(handler=_cost)
    p = commands.add_parser("diff", parents=[spec, aws, output, names, bucket],
                            help="print what differs from a job's request; exit 1 if anything does")
    p.add_argument("--against", required=True, metavar="JOB|FILE",
                   help="a training job's name (described), or a file holding a saved render (or description)")
    p.add_argument("--json", dest="output", action="store_const", const="json", help="the same as --output json")
    p.set_defaults(handler=_diff)


def _parser():
    from sagemaker_hetero import __version__

    parser = _global_options(argparse.ArgumentParser(
        prog=PROG,
        description="Render, validate, submit and watch SageMaker training jobs on heterogeneous clusters.",
        epilog="Exit codes: 0 success, 1 job Failed or Stopped, 2 invalid spec or usage (or a preflight problem), "
        "3 AWS error, 4 unexpected error (--debug shows its traceback), 5 preflight could not make every check. "
        "See docs/cli.md for the spec format.",
    ))
    parser.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    aws = _global_options(argparse.ArgumentParser(add_help=False))
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
    bucket = argparse.ArgumentParser(add_help=False)
    bucket.add_argument("--default-bucket", help="the bucket to use instead of sagemaker-{region}-{account}")

    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = commands.add_parser("render", parents=[spec, aws, bucket], help="print the CreateTrainingJob request (no network)")
    p.add_argument(
        "--format",
        choices=("json", "cli-input-json"),
        default="json",
        help="json (default), or cli-input-json: for 'aws sagemaker create-training-job --cli-input-json', "
        "refused while the request holds a placeholder (<region>, <account-id>)",
    )
    p.add_argument("--account-id", help="the AWS account id, for the default bucket's name (no look-up)")
    p.add_argument("--archive", metavar="FILE", help="also write the code archive (sourcedir.tar.gz) to FILE and print "
                   "the 'aws s3 cp' line that uploads it where the request expects it (on stderr)")
    p.add_argument("--cost", action="store_true", help="also print the cost estimate on stderr (no network)")
    p.add_argument("--prices", **_PRICES)
    p.set_defaults(handler=_render)
    p = commands.add_parser("validate", parents=[spec, aws, output], help="check the spec; list every problem")
    p.set_defaults(handler=_validate)
    p = commands.add_parser("preflight", parents=[spec, aws, output],
                            help="check the job against the AWS account (quotas, role, image, keys, data, network)")
    p.add_argument("--json", action="store_const", dest="output", const="json", help="the report as JSON")
    p.set_defaults(handler=_preflight)
    p = commands.add_parser("submit", parents=[spec, aws, output, group, bucket],
                            help="check the job against the account, then create it")
    p.add_argument("--no-preflight", action="store_true", help="create the job without checking it against the account")
    p.add_argument("--wait", action="store_true", help="wait until the job ends; exit 1 if it fails or is stopped")
    p.add_argument("--logs", action="store_true", help="wait, printing the job's logs labelled by instance group")
    p.add_argument("--dry-run", action="store_true", help="print the request and send nothing (the same as render)")
    p.set_defaults(handler=_submit)
    p = commands.add_parser("status", parents=[job, aws, output], help="print a job's status (and bill)")
    p.add_argument("--prices", **_PRICES)
    p.set_defaults(handler=_status)
    p = commands.add_parser("logs", parents=[job, aws, group], help="print a job's logs labelled by instance group")
    p.add_argument("--follow", action="store_true", help="keep printing until the job ends")
    p.set_defaults(handler=_logs)
    p = commands.add_parser("stop", parents=[job, aws, output], help="stop a job")
    p.set_defaults(handler=_stop)
    p = commands.add_parser("local", parents=[spec, aws], help="run the job on this machine (LocalSession)")
    p.add_argument("--root", metavar="DIR", help="where the job's folders go (default: LocalSession's)")
    p.set_defaults(handler=_local)
    _add_cost(commands, spec, aws, output, bucket)
    _add_tune(commands, spec, aws, output, bucket)
    return parser


def main(argv=None):
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
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
    try:
        return args.handler(args)
    except E.ConfigError as exc:
        return _refused(args, exc)
    except E.UnexpectedStatusException as exc:
        sys.stderr.write("%s: %s\n" % (PROG, exc))
        return EXIT_JOB_FAILED
    except E.AWSError as exc:
        sys.stderr.write("%s: %s\n" % (PROG, _input.spoken(str(exc))))
        return EXIT_AWS
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise
    except Exception as exc:  # a crash must not look like a failed job (1) or a bad spec (2)
        debug = getattr(args, "debug", False) or os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")
        if debug:
            traceback.print_exc()
        text = ("%s" % exc).strip().splitlines()
        sys.stderr.write("%s: unexpected error: %s%s (%s)\n" % (
            PROG, type(exc).__name__, ": " + text[0][:300] if text else "",
            "the traceback is above" if debug else "run again with --debug to see the traceback"))
        return EXIT_UNEXPECTED


def _refused(args, exc):
    """Exit 2 for a ConfigError: a spec file's one line, or every problem (in the command line's words)."""
    if isinstance(exc, _input.SpecFileError):
        sys.stderr.write("%s: %s\n" % (PROG, exc.line))
    else:
        exc = E.ConfigError([_input.cli_problem(p) for p in exc.problems], exc.subject)
        what = getattr(args, "spec", None) or getattr(args, "job", None)
        sys.stderr.write("%s: %s%s\n" % (PROG, "%s: " % what if what else "", exc))
    if getattr(args, "output", None) == "json":
        problems = [{"path": p.path, "message": p.message, "value": p.value} for p in exc.problems]
        sys.stdout.write(json.dumps({"valid": False, "problems": problems}, default=repr) + "\n")
    return EXIT_USAGE

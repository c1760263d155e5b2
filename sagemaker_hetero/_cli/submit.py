"""The commands on a spec's job: ``render`` (the request; the code archive and the cost estimate on
request), ``validate``, ``preflight``, ``submit`` (and wait, and follow its logs) and ``local``.

``render`` and ``validate`` are dry runs: no network, the placeholder ``<region>`` where no region is
configured; ``--format cli-input-json`` refuses a request that still holds a placeholder, naming what
to pass. ``submit`` runs the preflight first (``--no-preflight``: not), and checks ``--group``
against the spec's instance groups before anything is created.
"""
import contextlib
import json
import shlex
import sys

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli import watch
from sagemaker_hetero._cli.exits import EXIT_JOB_FAILED, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE
from sagemaker_hetero._cli.inputs import COMMAND_LINE, PROG
from sagemaker_hetero._defaults import ACCOUNT_PLACEHOLDER, HOMOGENEOUS_GROUP, PLACEHOLDERS, REGION_PLACEHOLDER

__all__ = ["add_to"]

#: LocalSession's arguments the ``local`` command sets with options (a problem with one names the option).
_LOCAL_OPTIONS = {"root": "--root", "python": "--python"}


def add_to(commands, parents):
    """The ``render``, ``validate``, ``preflight``, ``submit`` and ``local`` commands, with the shared
    options of ``parents``."""
    spec, aws, output = parents.spec, parents.aws, parents.output
    p = commands.add_parser("render", parents=[spec, aws, parents.bucket, parents.account, parents.prices],
                            help="print the CreateTrainingJob request (no network)")
    p.add_argument("--format", choices=("json", "cli-input-json"), default="json",
                   help="json (default), or cli-input-json: for 'aws sagemaker create-training-job --cli-input-json', "
                   "refused while the request holds a placeholder (<region>, <account-id>)")
    p.add_argument("--archive", metavar="FILE", help="also write the code archive (sourcedir.tar.gz) to FILE and print "
                   "the 'aws s3 cp' line that uploads it where the request expects it (on stderr)")
    p.add_argument("--cost", action="store_true", help="also print the cost estimate on stderr (no network)")
    p.set_defaults(handler=_render)
    p = commands.add_parser("validate", parents=[spec, aws, output], help="check the spec; list every problem")
    p.set_defaults(handler=_validate)
    p = commands.add_parser("preflight", parents=[spec, aws, output],
                            help="check the job against the AWS account (quotas, role, image, keys, data, network)")
    p.add_argument("--json", action="store_const", dest="output", const="json", help="the report as JSON")
    p.set_defaults(handler=_preflight)
    p = commands.add_parser("submit", parents=[spec, aws, output, parents.group, parents.bucket],
                            help="check the job against the account, then create it")
    p.add_argument("--no-preflight", action="store_true", help="create the job without checking it against the account")
    p.add_argument("--wait", action="store_true", help="wait until the job ends; exit 1 if it fails or is stopped")
    p.add_argument("--logs", action="store_true", help="wait, printing the job's logs labelled by instance group")
    p.add_argument("--dry-run", action="store_true", help="print the request and send nothing (the same as render)")
    p.set_defaults(handler=_submit)
    p = commands.add_parser("local", parents=[spec, aws], help="run the job on this machine (LocalSession)")
    p.add_argument("--root", metavar="DIR", help="where the job's folders go (default: LocalSession's)")
    p.add_argument("--python", metavar="PATH", help="the interpreter that runs the entry point on every host "
                   "(default: the one running %s)" % PROG)
    p.set_defaults(handler=_local)


def _render(args):
    built = []

    def archived(job):  # built once: its digest is the key, its bytes the file
        from sagemaker_hetero._model import archive as _archive

        built.append(_built_archive(job))
        return _archive.digest(built[0])

    # the plan rendered once, for the checks: the code key is the archive's SHA-256
    spec, _, plan, _ = _input.load(args, facts=_input.dry_run_facts(args), digest=archived if args.archive else True)
    body = built[0] if built else None
    text = json.dumps(plan.request, indent=2)
    if args.format == "cli-input-json":
        problems = _placeholder_problems(text)
        if problems:
            raise E.ConfigError(problems, COMMAND_LINE)
    if args.archive:
        _write_archive(args.archive, plan, body)
    sys.stdout.write(text + "\n")
    from sagemaker_hetero._capacity.dry_run import choice_notes

    for line in choice_notes(spec.settings()):  # the request holds the first choices: the others on stderr
        sys.stderr.write(E.shown(line) + "\n")
    if args.cost:  # stdout stays the request
        from sagemaker_hetero._aws.pricing import estimate_of
        from sagemaker_hetero._model.choices import alternative_rows

        sys.stderr.write(estimate_of(plan.request, plan.region, args.prices, argument="--prices",
                                     alternatives=alternative_rows(spec.settings())).text() + "\n")
    return EXIT_OK


def _placeholder_problems(text):
    """Why a request ``text`` holding placeholders cannot go to ``aws sagemaker create-training-job``."""
    from sagemaker_hetero._request import names

    problems = []
    if REGION_PLACEHOLDER in text:
        problems.append(E.Problem("--format cli-input-json", "the request holds the placeholder %s (%s)"
                                  % (REGION_PLACEHOLDER, names.no_region("or pass --region"))))
    if ACCOUNT_PLACEHOLDER in text:
        problems.append(E.Problem("--format cli-input-json", "the request holds the placeholder %s (the default "
                                  "bucket or a role name's ARN); pass --account-id or --default-bucket, or give "
                                  "output_path (and code_location) and a role ARN in the spec" % ACCOUNT_PLACEHOLDER))
    return problems


def _built_archive(job):
    """The job's code archive (a file object at 0), built once; a problem when it ships none to build."""
    from sagemaker_hetero._aws import code_archive as _archive

    if job.code is None or job.code.in_s3:
        raise E.ConfigError([E.Problem("--archive", "the job ships no code archive to build")])
    return _archive.build_archive(job.code)[0]


def _write_archive(path, plan, body):
    """Write the plan's code archive ``body`` to ``path`` and say on stderr how to put it where the request
    points: the ``aws s3 cp`` line, or, while the key holds a placeholder, what to pass to get it."""
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
        sys.stdout.write(_input.json_text(summary) + "\n")
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


def _submit(args):
    if args.dry_run:
        return _submit_dry_run(args)
    spec = _input.parsed(args)
    with _input.spec_first(args):
        _check_groups(args.group, spec.group_names() or [HOMOGENEOUS_GROUP], "the spec's job")
        session = _input.session(args)
    from sagemaker_hetero._capacity import failover, history

    estimator = spec.driven(session)  # its fit is the job's one check and one render
    progress = sys.stderr if args.output == "json" else sys.stdout
    if (args.wait or args.logs) and failover.applies(session, estimator.job_settings(spec.inputs)):
        return _submit_failover(args, spec, estimator, progress)
    with contextlib.redirect_stdout(progress):  # what the failover says of its choices
        estimator.fit(spec.inputs, wait=False, experiment_config=spec.experiment_config,
                      preflight=not args.no_preflight)
    job = estimator.latest_training_job
    progress.write("Created training job %s in %s\n" % (job.name, session.boto_region_name))
    progress.flush()
    if not (args.wait or args.logs):
        if args.output == "json":
            desc = job.describe()
            return watch.report(args, desc, attempts=history.recorded(job.attempts, desc))
        return EXIT_OK
    try:
        desc = watch.with_group_option(job.wait, logs="All" if args.logs else "None", out=progress,
                                       instance_groups=args.group)
    except E.UnexpectedStatusException as exc:
        return watch.ended(args, job, exc, attempts=job.attempts or None)
    return watch.report(args, desc, attempts=history.recorded(job.attempts, desc)) if args.output == "json" else EXIT_OK


def _submit_failover(args, spec, estimator, progress):
    """``submit --wait`` of a job with alternatives or a capacity_wait: the failover waits for each job it
    makes (docs/capacity.md), saying so and its attempts' table on ``progress``; the JSON holds the attempts."""
    try:
        with contextlib.redirect_stdout(progress):
            estimator.fit(spec.inputs, wait=True, logs="All" if args.logs else "None",
                          experiment_config=spec.experiment_config, preflight=not args.no_preflight)
    except E.UnexpectedStatusException as exc:
        job = estimator.latest_training_job
        if job is None:  # no job was made: every choice was refused at CreateTrainingJob
            sys.stderr.write(E.shown("%s: %s\n" % (PROG, exc)))
            if args.output == "json":  # no job to describe: what is known of the last, and the attempts
                watch.report(args, {"TrainingJobName": exc.job_name, "TrainingJobStatus": exc.status,
                                    "FailureReason": exc.failure_reason}, attempts=getattr(exc, "attempts", None))
            return EXIT_JOB_FAILED
        if isinstance(exc, E.CapacityError) and exc.attempts:
            sys.stderr.write(E.shown("%s: %s\n" % (PROG, exc)))
        return watch.ended(args, job, exc, attempts=job.attempts)
    job = estimator.latest_training_job
    return watch.report(args, job.describe(), attempts=job.attempts) if args.output == "json" else EXIT_OK


def _submit_dry_run(args):
    """``submit SPEC --dry-run``: what ``render SPEC`` prints (nothing is sent)."""
    given = [flag for flag, on in (("--wait", args.wait), ("--logs", args.logs), ("--group", args.group)) if on]
    if given:
        raise E.ConfigError([E.Problem("--dry-run", "prints the request and sends nothing, so it does not go with %s"
                                       % " or ".join(given))], COMMAND_LINE)
    args.format, args.archive, args.account_id, args.cost, args.prices = "json", None, None, False, None
    return _render(args)


def _check_groups(only, groups, whose):
    """Refuse ``--group`` names that are not among ``groups`` (before anything is created)."""
    from sagemaker_hetero._aws import log_labels as _labels

    problems = _labels.filter_problems(only, groups)
    if problems:
        raise E.ConfigError([E.Problem("--group", p.message.replace("the job", whose), p.value) for p in problems],
                            COMMAND_LINE)


def _preflight(args):
    """Every check of the spec's job against the account: a row per check, or JSON; exit 0 (all ok),
    2 (a problem) or 5 (no problem, but a check could not be made); without usable credentials, exit 3
    with what to configure, as ``submit`` does."""
    spec = _input.parsed(args)
    with _input.spec_first(args):
        session = _input.session(args)
        try:
            session.caller_identity(quick=True)  # asked once per session, as the preflight asks: it uses this answer
        except E.NoCredentialsError:
            raise
        except Exception:  # noqa: BLE001 - any other failure to ask is the report's unknown rows
            pass
    # the estimator's preflight is the job's one check and one render
    report = spec.driven(session).preflight(spec.inputs, experiment_config=spec.experiment_config)
    sys.stdout.write((report.to_json() if args.output == "json" else report.text()) + "\n")
    return EXIT_USAGE if report.problems else EXIT_UNKNOWN if report.unknowns else EXIT_OK


def _local(args):
    from sagemaker_hetero.local import LocalSession

    boto_session = _input.boto_session(args) if getattr(args, "profile", None) else None  # for s3:// channels
    try:
        session = LocalSession(boto_session, root=args.root, python=args.python, region=getattr(args, "region", None))
    except E.ConfigError as exc:
        raise _local_options(exc, _input.COMMAND_LINE) from None
    spec = _input.parsed(args)
    estimator = spec.driven(session)  # its fit is the job's one check and one render
    try:
        estimator.fit(spec.inputs, wait=True, experiment_config=spec.experiment_config)
    except (E.UnexpectedStatusException, E.LocalJobError) as exc:
        sys.stderr.write("%s: %s\n" % (PROG, exc))
        return EXIT_JOB_FAILED
    except E.ConfigError as exc:  # the job's folder under --root
        raise _local_options(exc, exc.subject) from None
    return EXIT_OK


def _local_options(exc, subject):
    """LocalSession's problems with its root and python as problems with ``--root`` and ``--python``."""
    return E.ConfigError([_input.renamed(p, _LOCAL_OPTIONS) for p in exc.problems], subject)

"""The ``tune`` commands (docs/tuning.md): ``tune render SPEC`` (the CreateHyperParameterTuningJob request,
no network), ``tune submit SPEC [--wait]`` and ``tune status JOB``, from a spec's ``tuning:`` section
(``_cli.tuning_spec``). A tuning job that ended Failed or Stopped exits 1.
"""
import argparse
import functools
import json
import sys
import time

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli.exits import EXIT_JOB_FAILED, EXIT_OK

__all__ = ["add_to"]


def add_to(commands, parents):
    """The ``tune`` command and its subcommands, with the shared options of ``parents``."""
    spec, aws, output, bucket = parents.spec, parents.aws, parents.output, parents.bucket
    tune = commands.add_parser("tune", parents=[aws], help="hyperparameter tuning jobs from a spec with a 'tuning:' "
                               "section")
    sub = tune.add_subparsers(dest="tune_command", metavar="SUBCOMMAND")
    p = sub.add_parser("render", parents=[spec, aws, bucket, parents.account],
                       help="print the CreateHyperParameterTuningJob request (no network)")
    p.set_defaults(handler=_tune_render)
    p = sub.add_parser("submit", parents=[spec, aws, output, bucket], help="create the tuning job")
    p.add_argument("--wait", action="store_true", help="wait until it ends; exit 1 if it fails or is stopped")
    p.set_defaults(handler=_tune_submit)
    job = argparse.ArgumentParser(add_help=False)
    job.add_argument("job", metavar="JOB", help="the tuning job's name")
    p = sub.add_parser("status", parents=[job, aws, output], help="print a tuning job's status")
    p.set_defaults(handler=_tune_status)


def _load_tuning(args, session=None, facts=None, digest=False):
    """``(spec, section, job, tuning, plan, now)`` after every check of the spec's tuning job: the plan
    rendered for the checks (``digest``: with the code key a dry run shows)."""
    from sagemaker_hetero import _runner
    from sagemaker_hetero._cli import tuning_spec as tuning
    from sagemaker_hetero._cli.spec import parse

    data, base = _input.read_spec(args.spec)
    spec = parse(data, base)
    now = time.time()
    section, job, tuning_job, made, problems = tuning.check(spec, session, facts, now,
                                                            path_exists=_runner.local_path_exists, digest=digest)
    if problems:
        raise E.ConfigError(problems, "the tuning job")
    return spec, section, job, tuning_job, made, now


def _tune_render(args):
    # the plan rendered once, for the checks, as the tuner's dry run: the code key is the archive's SHA-256
    plan = _load_tuning(args, facts=_input.dry_run_facts(args), digest=True)[4]
    sys.stdout.write(json.dumps(plan.request, indent=2) + "\n")
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
        sys.stdout.write(E.shown(line + "\n"))
    return EXIT_JOB_FAILED if summary["status"] in ("Failed", "Stopped") else EXIT_OK


def _tune_submit(args):
    from sagemaker_hetero.tuner import HyperparameterTuner

    from sagemaker_hetero import _runner
    from sagemaker_hetero._cli import tuning_spec as tuning

    spec = _input.parsed(args)
    section = tuning.parse(spec.tuning)
    dry_run = functools.partial(_load_tuning, args, facts=_input.dry_run_facts(args))
    if section.problems:  # no tuner can be made of it: every problem, as a dry run finds them
        dry_run()
    with _input.spec_first(args, dry_run):
        session = _input.session(args)
    estimator = spec.driven(session)
    with _runner.one_check():  # the tuner's fit is the job's one check and one render of each request
        tuner = HyperparameterTuner(estimator, **section.kwargs)
    tuner._told = tuning.told(spec, section)
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

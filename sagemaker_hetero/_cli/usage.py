"""``usage JOB [--output json] [--plot FILE]``: what a job used, per instance group and per host, and the
verdict (docs/usage.md); ``--local`` (and ``--root``) for a job the ``local`` command ran here.

On AWS the figures come from CloudWatch (GetMetricData); what cannot be had (the permission denied, a
host's group not in its logs) is an unknown of the answer, said on its own line, never an exit code.
"""
import json
import sys

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli.exits import EXIT_OK
from sagemaker_hetero._cli.inputs import COMMAND_LINE, PROG

__all__ = ["add_to", "local_usage"]


def add_to(commands, parents):
    """The ``usage`` command, with the shared options of ``parents``."""
    p = commands.add_parser("usage", parents=[parents.job, parents.aws, parents.output, parents.prices],
                            help="what a job used per instance group, with a verdict (and charts)")
    p.add_argument("--plot", metavar="FILE", help="write a chart per group to FILE: .svg, .html, or .png "
                   "(PNG needs the 'plot' extra: pip install 'sagemaker-hetero[plot]')")
    p.add_argument("--local", action="store_true", help="a job the local command ran on this machine")
    p.add_argument("--root", metavar="DIR", help="with --local: where its folders are (default: LocalSession's)")
    p.set_defaults(handler=_usage)


def local_usage(session, job_name):
    """The ``Usage`` of the local job ``job_name`` of ``session`` (a LocalSession): what its driver sampled of
    each host; its description too when the session ran it."""
    from sagemaker_hetero._usage import local
    from sagemaker_hetero.local import _usage

    try:
        job_dir = session.job_directory(job_name)
    except KeyError:
        raise E.ConfigError([E.Problem("JOB", "is not a local training job under %s (its folder; --root says "
                                       "where)" % session.root, job_name)], COMMAND_LINE) from None
    try:
        desc = session.describe_training_job(job_name)
    except KeyError:  # a job an earlier run left: its samples say its hosts' groups
        desc = None
    return local.usage(job_name, _usage.samples(job_dir), desc)


def _usage(args):
    from sagemaker_hetero._usage import plot

    if args.local:
        from sagemaker_hetero.local import LocalSession

        found = local_usage(LocalSession(root=args.root), args.job)
    else:
        if args.root:
            raise E.ConfigError([E.Problem("--root", "goes with --local (a job run on this machine)", args.root)],
                                COMMAND_LINE)
        from sagemaker_hetero._aws.training_job import TrainingJob
        from sagemaker_hetero._cost.table import table_of

        prices = table_of(args.prices, "--prices")  # read first: a mistake in it exits 2 before any call
        session = _input.session(args)
        found = TrainingJob(session, args.job).utilization(prices=prices)
    if args.plot:
        plot.write(found, args.plot, argument="--plot")
        sys.stderr.write(E.shown("%s: wrote the charts of %s to %s\n" % (PROG, args.job, args.plot)))
    if args.output == "json":
        sys.stdout.write(json.dumps(found.to_dict()) + "\n")
    else:
        sys.stdout.write(E.shown(found.text() + "\n"))
    return EXIT_OK

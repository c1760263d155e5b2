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
    sagemaker-hetero usage JOB [--plot FILE] [--local]              utilization per group, a verdict
    sagemaker-hetero local SPEC                                     run it on this machine
    sagemaker-hetero tune render|submit SPEC / tune status JOB      tuning jobs (a spec's 'tuning:')
    sagemaker-hetero cost SPEC [--prices FILE] [--offline]          per-group cost estimate
    sagemaker-hetero diff SPEC --against JOB|FILE [--json]          what changed since a job (exit 1: a change)

``--region``, ``--profile`` and ``--debug`` go before or after the command; ``--version`` prints the
version. The exit codes and what each means are ``_cli.exits``' table (``--help`` and docs/cli.md tell
it). ``render``
(``--cost`` too), ``validate``, ``cost --offline`` and ``diff --against FILE`` import neither boto3 nor
botocore; ``render`` and ``validate`` need no region (a placeholder stands for it). Messages speak the
command line's language: the Python API's hints (``fit(dry_run=True)``, ``Session(...)``) are said
as the options that do the same (:data:`CLI_WORDS`). This module is the command line's face (the
parser, the global options, how each error becomes an exit code); the commands live in ``_cli/``,
each module adding its own to the parser: ``submit`` (render, validate, preflight, submit, local),
``watch`` (status, logs, stop), ``usage``, ``tune``, ``cost`` (cost, diff); what every command reads first (the
spec file, the region, the AWS session) is ``_cli.inputs``'s, the exit codes ``_cli.exits``'.
"""
import argparse
import os
import sys
import traceback

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli import exits
from sagemaker_hetero._cli.exits import (EXIT_AWS, EXIT_BROKEN_PIPE, EXIT_DIFFERENT, EXIT_INTERRUPTED,  # noqa: F401
                                         EXIT_JOB_FAILED, EXIT_OK, EXIT_UNEXPECTED, EXIT_UNKNOWN, EXIT_USAGE)
from sagemaker_hetero._cli.inputs import CLI_WORDS, PROG  # noqa: F401 (part of this module's interface)

__all__ = ["main", "EXIT_OK", "EXIT_JOB_FAILED", "EXIT_DIFFERENT", "EXIT_USAGE", "EXIT_AWS", "EXIT_UNEXPECTED",
           "EXIT_UNKNOWN", "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE", "DEBUG_VARIABLE", "CLI_WORDS"]

#: Set (to anything but "" or "0"), an unexpected error also prints its traceback, as --debug does.
DEBUG_VARIABLE = "SAGEMAKER_HETERO_DEBUG"


# -- the parser --------------------------------------------------------------------------------


def _global_options(parser):
    """``--region``, ``--profile`` and ``--debug``: before the command (on the main parser) and after it
    (on each command's). Unset they are absent (``argparse.SUPPRESS``), so a command's parser never
    overwrites what was given before the command."""
    parser.add_argument("--region", default=argparse.SUPPRESS,
                        help="AWS region (default: AWS_DEFAULT_REGION, AWS_REGION or the profile's)")
    parser.add_argument("--profile", default=argparse.SUPPRESS, help="AWS profile (default: AWS_PROFILE or 'default')")
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="on an unexpected error (exit %d), print its traceback too (also: %s=1)" % (
                            exits.EXIT_UNEXPECTED, DEBUG_VARIABLE))
    return parser


def _option(*args, **kwargs):
    """A parent parser holding one option (or argument), for the commands that share it."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(*args, **kwargs)
    return parser


def _parents():
    """The options several commands share, each as a parent parser: ``aws`` (the global options),
    ``output``, ``spec``, ``job``, ``group``, ``bucket``, ``account`` and ``prices``."""
    return argparse.Namespace(
        aws=_global_options(argparse.ArgumentParser(add_help=False)),
        output=_option("--output", choices=("text", "json"), default="text", help="text (default) or json on stdout"),
        spec=_option("spec", metavar="SPEC", help="the job spec: a YAML or JSON file ('-' reads standard input)"),
        job=_option("job", metavar="JOB", help="the training job's name"),
        group=_option("--group", action="append", metavar="NAME",
                      help="show only this instance group's log lines (repeatable)"),
        bucket=_option("--default-bucket", help="the bucket to use instead of sagemaker-{region}-{account}"),
        account=_option("--account-id", help="the AWS account id, for the default bucket's name (no look-up)"),
        prices=_option("--prices", metavar="FILE", help="a price file (JSON, or CSV: instance_type,usd_per_hour"
                       "[,region]) read before the cache and the AWS Price List (default: the file "
                       "SAGEMAKER_HETERO_PRICES names)"),
    )


def _parser():
    from sagemaker_hetero import __version__
    from sagemaker_hetero._cli import cost, submit, tune, usage, watch

    parser = _global_options(argparse.ArgumentParser(
        prog=PROG,
        description="Render, validate, submit and watch SageMaker training jobs on heterogeneous clusters.",
        epilog=exits.epilog(),
    ))
    parser.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    parents = _parents()
    for module in (submit, watch, usage, cost, tune):  # the commands in the order --help lists them
        module.add_to(commands, parents)
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
            PROG, type(exc).__name__, ": " + E.shown(text[0][:300]) if text else "",
            "the traceback is above" if debug else "run again with --debug to see the traceback"))
        return EXIT_UNEXPECTED


def _refused(args, exc):
    """Exit 2 for a ConfigError: a spec file's one line, or every problem (in the command line's words)."""
    if isinstance(exc, _input.SpecFileError):
        sys.stderr.write("%s: %s\n" % (PROG, exc.line))
    else:
        exc = E.ConfigError([_input.cli_problem(p) for p in exc.problems], exc.subject)
        what = getattr(args, "spec", None) or getattr(args, "job", None)
        sys.stderr.write(E.shown("%s: %s%s\n" % (PROG, "%s: " % what if what else "", exc)))  # a name as typed
    if getattr(args, "output", None) == "json":
        problems = [{"path": p.path, "message": p.message, "value": p.value} for p in exc.problems]
        sys.stdout.write(_input.json_text({"valid": False, "problems": problems}) + "\n")
    return EXIT_USAGE

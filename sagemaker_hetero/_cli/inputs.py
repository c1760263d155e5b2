"""What every command of ``sagemaker-hetero`` reads before it acts (``cli.py`` acts on it).

- The spec file: YAML or JSON (``-``: standard input), read within ``_checks.text``'s limits, its local
  paths resolved against its folder (``_cli.spec.parse``). A file that cannot be read, or that holds
  nothing, is said in one line naming it (:class:`SpecFileError`), not as a problem with a job.
- The region and the AWS session of ``--region`` and ``--profile``: a dry run (``render``,
  ``validate``) takes the placeholder ``<region>`` where none is configured; a command that calls AWS
  is refused at once, naming ``--region``.
- The command line's words: the Python API's hints said as the options that do the same
  (:data:`CLI_WORDS`, :func:`cli_problem`), so the CLI never tells a user to call ``fit(dry_run=True)``.
"""
import contextlib
import json
import math
import os
import sys
import time

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._defaults import PROJECT

__all__ = ["PROG", "COMMAND_LINE", "CLI_WORDS", "json_text", "spoken", "cli_problem", "renamed", "SpecFileError",
           "read_spec", "parsed", "spec_first", "load", "region", "dry_run_facts", "required_region", "boto_session",
           "session"]

PROG = PROJECT
#: What a problem with an option is a problem with (a ConfigError's subject).
COMMAND_LINE = "the command line"
#: What the Python API's hints say, and what the command line says instead (applied to every message).
CLI_WORDS = (
    ("or pass sagemaker_session=Session(boto_session=boto3.Session(region_name=...))", "or pass --region"),
    ("or pass boto3.Session(region_name=...)", "or pass --region"),
    ("A dry run (fit(dry_run=True)) needs none.", "'%s render' and '%s validate' need none." % (PROG, PROG)),
    ("Pass Session(default_bucket='a-bucket-you-own') or output_path and code_location.",
     "Pass --default-bucket a-bucket-you-own, or give output_path and code_location in the spec."),
    # LocalSession's root and python (the local command's --root and --python)
    ("pass root= ", "pass --root "),
    ("job_name or root", "job_name or --root"),
    ("e.g. LocalSession(python='/path/to/venv/bin/python')", "e.g. --python /path/to/venv/bin/python"),
    ("LocalSession(python=...)", "--python"),
    # a spec's keys are written as YAML, not as Python keywords
    ("(use_spot_instances=True)", "(use_spot_instances: true)"),
)
#: Problem paths of the Python API and the options that set the same thing on the command line.
_CLI_PATHS = {"sagemaker_session": "--region"}


def json_text(value):
    """``value`` as JSON that any parser reads: a number that is not finite as its text (``"inf"``), any
    other value JSON has no type for as its ``repr``, a mapping's keys as text."""
    return json.dumps(_plain(value, 0), allow_nan=False)


def _plain(value, depth):
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth > 100:  # deeper than a spec's text may nest: said as text
        return repr(value)
    if isinstance(value, dict):
        return dict((k if isinstance(k, str) else _key(k), _plain(v, depth + 1)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return repr(value)


def _key(key):
    return json.dumps(key) if isinstance(key, (bool, int)) or key is None else repr(key)


def spoken(text):
    """``text`` in the command line's words (:data:`CLI_WORDS`)."""
    for python, cli in CLI_WORDS:
        text = text.replace(python, cli)
    return text


def cli_problem(problem):
    """``problem`` with its path and message in the command line's words."""
    return renamed(problem, _CLI_PATHS)


def renamed(problem, paths):
    """``problem`` with its path as ``paths`` renames it (``{path: option}``), its message :func:`spoken`."""
    path = paths.get(problem.path, problem.path)
    return E.Problem(path, spoken(problem.message), problem.value) if problem.has_value else E.Problem(
        path, spoken(problem.message))


class SpecFileError(E.ConfigError):
    """A spec file that cannot be read or holds nothing: said in one line naming the file."""

    def __init__(self, line, path):
        from sagemaker_hetero._checks.text import SPEC

        super(SpecFileError, self).__init__([E.Problem(SPEC, line, path)])
        self.line = line


def read_spec(path):
    """``(data, base folder)`` of a YAML or JSON spec file (``-``: standard input), at most
    ``MAX_SPEC_BYTES`` long; the base folder is the file's (standard input's: the working folder)."""
    from sagemaker_hetero._checks import text

    if path == "-":
        data, base = sys.stdin.read(text.MAX_SPEC_BYTES + 1), os.getcwd()
        data = text.text_of(data.encode("utf-8", "replace"), path)
    else:
        try:
            raw = text.read_bounded(path)
        except OSError as exc:
            hint = "; name the YAML or JSON spec file" if os.path.isdir(path) else ""
            raise SpecFileError("cannot read spec %s: %s%s" % (path, exc.strerror or exc, hint), path)
        data = text.text_of(raw, path)
        base = os.path.dirname(os.path.abspath(path))
    if not data.strip():
        raise SpecFileError("spec %s is empty: write the estimator's arguments in it (see docs/cli.md)" % path, path)
    ext = os.path.splitext(path)[1].lower()
    kind = "json" if ext == ".json" else "yaml" if ext in (".yaml", ".yml") else None
    data = text.loads(data, path, kind)
    if data is None:  # YAML holding only comments
        raise SpecFileError("spec %s is empty (it holds only comments): write the estimator's arguments in it "
                             "(see docs/cli.md)" % path, path)
    return data, base


def parsed(args):
    """The spec of ``args.spec``, read and parsed, not yet checked (its ``driven`` estimator's fit checks
    it, or :func:`load`); raises only what keeps any estimator from being made (``_cli.spec.parse``)."""
    from sagemaker_hetero._cli.spec import parse

    data, base = read_spec(args.spec)
    return parse(data, base)


@contextlib.contextmanager
def spec_first(args, check=None):
    """Within: a refusal before the job's one check (no region, no credentials, a ``--group`` the spec has
    not) is told after the spec's own problems, as a dry run finds them (rendering it only then; ``check``:
    how, default :func:`load`'s dry run)."""
    try:
        yield
    except E.SageMakerHeteroError:
        if check is None:
            load(args, facts=dry_run_facts(args))
        else:
            check()
        raise


def load(args, session=None, facts=None, digest=False):
    """``(spec, job, plan, now)`` after every check of round one, as ``session`` (None: AWS) runs
    the job (raises ConfigError listing all problems): the plan is the one rendered for the checks
    (``digest``: with the code key a dry run shows, ``_runner.planned``'s)."""
    from sagemaker_hetero import _runner

    spec = parsed(args)
    now = time.time()
    job, made, problems = spec.planned(session, facts, now, path_exists=_runner.local_path_exists, digest=digest)
    if problems:
        raise E.ConfigError(problems)
    return spec, job, made, now


def region(args):
    """The region every command reads: ``--region``, else the environment's and the profile's; None."""
    from sagemaker_hetero._aws import files

    if getattr(args, "region", None):
        return args.region
    env = dict(os.environ)
    if getattr(args, "profile", None):
        env["AWS_PROFILE"] = args.profile
    return files.region_from_environment(env)


def dry_run_facts(args):
    """What a dry run knows: the region (else the placeholder), and the account and bucket given."""
    from sagemaker_hetero._request import names as _context
    from sagemaker_hetero._request import plan as _plan

    return _plan.Facts(region=_context.dry_run_region(region(args)), account_id=getattr(args, "account_id", None),
                       default_bucket=getattr(args, "default_bucket", None))




def boto_session(args):
    """The boto3 session of ``--profile`` and the region every command reads."""
    from sagemaker_hetero._aws import clients

    return clients.checked_boto_session(getattr(args, "profile", None), region(args))


def required_region(args):
    """The region of :func:`region`; refused at once, naming ``--region``, where none is configured."""
    found = region(args)
    _refuse_without(found)
    return found


def _refuse_without(found):
    from sagemaker_hetero._request import names as _context

    problems = _context.region_problems(found, "--region", "or pass --region", placeholder_ok=True)
    if problems:
        raise E.ConfigError(problems, COMMAND_LINE)


def session(args):
    """The AWS session of ``--profile`` and ``--region`` (refused at once without a region)."""
    from sagemaker_hetero.session import Session

    boto = boto_session(args)
    _refuse_without(boto.region_name)
    return Session(boto_session=boto, default_bucket=getattr(args, "default_bucket", None))

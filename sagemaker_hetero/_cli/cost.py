"""The commands on what a spec's job costs and changes: ``cost SPEC`` (the per-group estimate) and
``diff SPEC --against JOB|FILE`` (what differs from a job's request or a saved render; exit 1: a change).

Both render the spec's job as ``render`` does, in a region (prices are per region); ``diff`` renders
it in the compared job's region and account (its default bucket, its role ARNs), or a saved render's,
and needs no region for a file. ``cost --offline`` and ``diff --against FILE`` import neither boto3 nor
botocore.
"""
import json
import os
import sys

from sagemaker_hetero import _runner
from sagemaker_hetero._cli import inputs as _input
from sagemaker_hetero._cli.exits import EXIT_DIFFERENT, EXIT_OK
from sagemaker_hetero._model import choices
from sagemaker_hetero._defaults import ACCOUNT_PLACEHOLDER

__all__ = ["add_to"]


def add_to(commands, parents):
    """The ``cost`` and ``diff`` commands, with the shared options of ``parents``."""
    shared = [parents.spec, parents.aws, parents.output, parents.account, parents.bucket]
    p = commands.add_parser("cost", parents=shared + [parents.prices],
                            help="print the job's cost estimate per instance group")
    p.add_argument("--offline", action="store_true", help="read no price list: prices from --prices or the cache")
    p.set_defaults(handler=_cost)
    p = commands.add_parser("diff", parents=shared,
                            help="print what differs from a job's request; exit 1 if anything does")
    p.add_argument("--against", required=True, metavar="JOB|FILE",
                   help="a training job's name (described), or a file holding a saved render (or description)")
    p.add_argument("--json", dest="output", action="store_const", const="json", help="the same as --output json")
    p.set_defaults(handler=_diff)


def _planned(args, account_id=None, region=None, both=False):
    """The plan of the spec's job as ``render`` makes it (the code key from the archive's digest), in
    ``region`` and ``account_id`` where given (the compared side's: see ``diff.facts_of``), else in the
    region configured (needed: prices are per region) and the account of ``--account-id``."""
    import attrs

    facts = attrs.evolve(_input.dry_run_facts(args), region=region or _input.required_region(args))
    if account_id is not None:
        facts = attrs.evolve(facts, account_id=None if account_id == ACCOUNT_PLACEHOLDER else account_id)
    spec, _, plan, _ = _input.load(args, facts=facts, digest=True)
    return (spec, plan) if both else plan


def _cost(args):
    """``cost``: the estimate in the region configured; with none, a price table's prices for every
    region still make one (its prices of one region only are unknown, saying a region is needed)."""
    from sagemaker_hetero._aws.pricing import estimate_of
    from sagemaker_hetero._cost.table import table_of

    table = table_of(args.prices, "--prices")  # --prices FILE, else SAGEMAKER_HETERO_PRICES's, else None
    region = _input.region(args)
    spec, plan = _planned(args, both=True) if region or table is None else _cost_dry_plan(args)
    fetch = bool(region) and not args.offline
    boto_session = _input.boto_session(args) if getattr(args, "profile", None) and fetch else None
    estimate = estimate_of(plan.request, region or None, table, fetch, boto_session, "--prices",
                           choices.alternative_rows(spec.settings()))
    text = json.dumps(estimate.to_dict(), allow_nan=False) if args.output == "json" else estimate.text()
    sys.stdout.write(text + "\n")
    return EXIT_OK


def _cost_dry_plan(args):
    """The plan of the spec's job rendered as a dry run renders it where no region is configured (the
    placeholder ``<region>``): for ``cost`` with a price table, which needs no region for its prices
    of every region."""
    spec, _, plan, _ = _input.load(args, facts=_input.dry_run_facts(args), digest=True)
    return spec, plan


def _diff(args):
    """``diff``: the spec's request against a job's (described) or a saved render's; exit 1 if they differ.
    The spec's job is rendered in the job's region and account (its default bucket, its role ARNs), a
    saved render's as it shows them (placeholders included; where it shows none, the region configured,
    else the placeholder: a file needs no AWS)."""
    from sagemaker_hetero._checks import text as _spec_text
    from sagemaker_hetero._cost import diff

    if os.path.exists(args.against) or args.against.lower().endswith(".json"):
        old, against = _spec_text.read_json_object(args.against, "--against", "request"), "file %s" % args.against
        fallback = _input.dry_run_facts(args).region
    else:
        old = diff.described(_input.session(args).describe_training_job, args.against)
        against = "job %s" % args.against
        fallback = None
    region, account_id = diff.facts_of(old)
    plan = _planned(args, account_id, region or fallback)
    result = _runner.diffed(old, plan, against, region=plan.region)
    sys.stdout.write((json.dumps(result.to_dict(), default=str) if args.output == "json" else str(result)) + "\n")
    return EXIT_OK if result.equal else EXIT_DIFFERENT

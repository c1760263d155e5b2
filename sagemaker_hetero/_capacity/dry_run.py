"""What a dry run shows of the instance groups' choices: each choice and what it would cost (no call).

The request a dry run returns holds each group's first choice, as it is sent; its view (the cluster
table, ``describe_cluster``, a notebook's) adds one line per group with alternatives: every choice in the
order it is tried, each priced as the cost estimate prices the first (count x on-demand USD per hour, and
the worst case at ``max_run``), with the prices known without a call.
"""
import functools

from sagemaker_hetero._model import choices
from sagemaker_hetero._request.rendered import RenderedRequest

__all__ = ["rendered", "estimate", "choice_notes"]


def estimate(plan, prices=None):
    """The cost estimate a dry run's view shows: with the prices known without a call (``prices``, a price
    file's path or a mapping, else ``SAGEMAKER_HETERO_PRICES``'s file, then the cache)."""
    from sagemaker_hetero._aws.pricing import estimate_of

    return estimate_of(plan.request, plan.region, prices)


def choice_notes(plan, settings, prices=None):
    """One line per instance group with alternatives: ``choices of <group>: 1. <type> x <count> ($/h,
    worst case), 2. ...``."""
    from sagemaker_hetero._aws.pricing import lookup
    from sagemaker_hetero._cost.estimate import GroupCost, Unknown, usd_text

    groups = [(name, options) for name, options in choices.group_choices(settings) if len(options) > 1]
    if not groups:
        return []
    found = lookup(sorted(set(t for _, options in groups for t, _ in options if isinstance(t, str))), plan.region,
                   prices)
    worst = estimate(plan, prices).worst_case_seconds
    out = []
    for name, options in groups:
        said = []
        for i, (instance_type, count) in enumerate(options, 1):
            cost = GroupCost(name, instance_type, count, found.get(instance_type) or Unknown(instance_type, "not "
                             "looked up"), worst)
            price = "%s/h, worst case %s" % (usd_text(cost._hourly()), usd_text(cost._worst())) if cost.known \
                else "price unknown"
            said.append("%d. %s (%s)" % (i, choices.choice_text(instance_type, count), price))
        out.append("choices of %s: %s" % (name, "; ".join(said)))
    return out


def rendered(plan, settings):
    """The :class:`RenderedRequest` a dry run of ``plan`` (made of ``settings``) returns."""
    notes = functools.partial(choice_notes, plan, settings) if choices.has_alternatives(settings) else None
    return RenderedRequest(plan.request, plan, estimate=functools.partial(estimate, plan), choices=notes)

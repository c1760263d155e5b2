"""What a dry run shows of the instance groups' choices: each group's choices in the order they are tried,
and the cost estimate pricing each (no call).

The request a dry run returns holds each group's first choice, as it is sent; its view (the cluster
table, ``describe_cluster``, a notebook's) adds one line per group with alternatives, and its cost
estimate a row per alternative (count x on-demand USD per hour, and the worst case at ``max_run``), with
the prices known without a call.
"""
import functools

from sagemaker_hetero._model import choices
from sagemaker_hetero._request.rendered import RenderedRequest

__all__ = ["rendered", "estimate", "choice_notes"]


def estimate(plan, settings=None, prices=None):
    """The cost estimate a dry run's view shows: with the prices known without a call (``prices``, a price
    file's path or a mapping, else ``SAGEMAKER_HETERO_PRICES``'s file, then the cache); ``settings``' alternatives
    priced too."""
    from sagemaker_hetero._aws.pricing import estimate_of

    rows = choices.alternative_rows(settings) if settings is not None else ()
    return estimate_of(plan.request, plan.region, prices, alternatives=rows)


def choice_notes(settings, prices=None):
    """One line per instance group with alternatives: ``choices of <group>: <type> x <count>, then ...``."""
    return ["choices of %s: %s, then %s" % (name, choices.choice_text(*options[0]),
                                           ", ".join(choices.choice_text(*o) for o in options[1:]))
            for name, options in choices.group_choices(settings) if len(options) > 1]


def rendered(plan, settings):
    """The :class:`RenderedRequest` a dry run of ``plan`` (made of ``settings``) returns."""
    notes = functools.partial(choice_notes, settings) if choices.has_alternatives(settings) else None
    return RenderedRequest(plan.request, plan, estimate=functools.partial(estimate, plan, settings), choices=notes)

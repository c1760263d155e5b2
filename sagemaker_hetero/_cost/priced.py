"""An estimate or a bill with the prices of its instance types looked up (``_cost.source``): what the
estimators, the dry-run view, ``TrainingJob`` and the CLI ask for. A price file that cannot be read
or is malformed is a :class:`ConfigError`; a price that cannot be had is unknown.
"""
from sagemaker_hetero._cost import billed, estimate, source

__all__ = ["estimate_of", "bill_of"]


def estimate_of(request, region, prices=None, fetch=False, boto_session=None, argument="prices"):
    """The ``Estimate`` of a CreateTrainingJob request in ``region``: ``prices`` (a price file's path or a
    mapping; None: ``SAGEMAKER_HETERO_PRICES``'s file) first, the cache, and the Price List if ``fetch``."""
    found = source.lookup(estimate.instance_types(request), region, prices, fetch=fetch, boto_session=boto_session,
                          argument=argument)
    return estimate.estimate(request, found, region)


def bill_of(desc, region, prices=None, fetch=False, boto_session=None, argument="prices"):
    """The ``Bill`` of a DescribeTrainingJob answer, its prices looked up as :func:`estimate_of` looks them up."""
    found = source.lookup(estimate.instance_types(desc), region, prices, fetch=fetch, boto_session=boto_session,
                          argument=argument)
    return billed.bill(desc, found, region)

"""The tuner's configuration objects, with the SageMaker Python SDK v2's names and arguments (re-exported
by ``sagemaker_hetero.tuner``). Plain data: checked with the tuner, written into the request by
``_tuning.render``."""
import enum
from typing import Any, Iterable, Optional

import attrs

__all__ = ["WarmStartTypes", "WarmStartConfig", "TuningJobCompletionCriteriaConfig", "HyperbandStrategyConfig",
           "StrategyConfig"]


class WarmStartTypes(enum.Enum):
    """How a tuning job starts from the results of earlier ones (its parents)."""

    IDENTICAL_DATA_AND_ALGORITHM = "IdenticalDataAndAlgorithm"
    TRANSFER_LEARNING = "TransferLearning"


@attrs.frozen
class WarmStartConfig(object):
    """``WarmStartConfig(WarmStartTypes.TRANSFER_LEARNING, parents={"tuning-job-1"})``: start from the
    parents' results.

    Parameters
    ----------
    warm_start_type : WarmStartTypes or str
        How (kept as ``type``): a :class:`WarmStartTypes` or its value.
    parents : set of str
        The earlier tuning jobs.
    """

    type: Any = attrs.field(alias="warm_start_type")
    parents: Iterable[str] = attrs.field()


@attrs.frozen
class TuningJobCompletionCriteriaConfig(object):
    """When the tuning job may end before ``max_jobs``.

    Parameters
    ----------
    max_number_of_training_jobs_not_improving : int, optional
        After this many training jobs without a better objective.
    complete_on_convergence : bool, optional
        When the search has converged.
    target_objective_metric_value : float, optional
        Once the objective reaches this value.
    """

    max_number_of_training_jobs_not_improving: Optional[int] = attrs.field(default=None)
    complete_on_convergence: Optional[bool] = attrs.field(default=None)
    target_objective_metric_value: Optional[float] = attrs.field(default=None)


@attrs.frozen
class HyperbandStrategyConfig(object):
    """The Hyperband strategy's resource bounds (epochs, for instance) per training job.

    Parameters
    ----------
    max_resource : int
        The most a training job gets.
    min_resource : int
        The least a training job gets before it may be stopped.
    """

    max_resource: int = attrs.field()
    min_resource: int = attrs.field()


@attrs.frozen
class StrategyConfig(object):
    """The strategy's configuration: ``StrategyConfig(HyperbandStrategyConfig(max_resource, min_resource))``.

    Parameters
    ----------
    hyperband_strategy_config : HyperbandStrategyConfig
        Hyperband's resource bounds.
    """

    hyperband_strategy_config: HyperbandStrategyConfig = attrs.field()

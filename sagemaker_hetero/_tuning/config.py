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
    parents' results. ``type`` is the warm start type (a :class:`WarmStartTypes` or its value)."""

    type: Any = attrs.field(alias="warm_start_type")
    parents: Iterable[str] = attrs.field()


@attrs.frozen
class TuningJobCompletionCriteriaConfig(object):
    """When the tuning job may end before ``max_jobs``: after that many jobs without a better objective,
    on convergence, or once the objective reaches a value."""

    max_number_of_training_jobs_not_improving: Optional[int] = attrs.field(default=None)
    complete_on_convergence: Optional[bool] = attrs.field(default=None)
    target_objective_metric_value: Optional[float] = attrs.field(default=None)


@attrs.frozen
class HyperbandStrategyConfig(object):
    """The Hyperband strategy's resource bounds (epochs, for instance) per training job."""

    max_resource: int = attrs.field()
    min_resource: int = attrs.field()


@attrs.frozen
class StrategyConfig(object):
    """The strategy's configuration: ``StrategyConfig(HyperbandStrategyConfig(max_resource, min_resource))``."""

    hyperband_strategy_config: HyperbandStrategyConfig = attrs.field()

"""Tuning jobs, stage 1: the tuner's arguments as one model. Pure: no I/O, no clock.

:func:`build` turns :class:`TuningSettings` (a ``HyperparameterTuner``'s arguments plus ``fit``'s)
into one :class:`Tuning` and the problems of what could not be interpreted. :data:`FIELDS` is the
request's plain fields, one table read both ways: ``_tuning.render`` writes them and
``_tuning.describe`` reads them back (``attach``). The names the request and its read-back share
(the configuration's path, the static hyperparameters naming the estimator class) live here too.
"""
import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.build import as_sequence, as_tags
from sagemaker_hetero._tuning.config import (HyperbandStrategyConfig, StrategyConfig, TuningJobCompletionCriteriaConfig,
                                             WarmStartConfig, WarmStartTypes)
from sagemaker_hetero.exceptions import Problems
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter, ParameterRange

__all__ = ["TUNING_OPERATION", "DEFINITION", "CONFIG", "RANGES", "CLASS_NAME_KEY", "MODULE_KEY", "KINDS",
           "RANGE_CLASSES", "LOGARITHMIC", "REVERSE_LOGARITHMIC", "TuningSettings", "Range", "Tuning", "FIELDS",
           "RANGE_FIELDS", "build", "default_max_jobs", "estimator_arg"]

TUNING_OPERATION = "CreateHyperParameterTuningJob"
DEFINITION = "TrainingJobDefinition"
CONFIG = ("HyperParameterTuningJobConfig",)
RANGES = CONFIG + ("ParameterRanges",)
#: The static hyperparameters naming the estimator's class (the SDK v2's keys; its attach reads them).
CLASS_NAME_KEY = "sagemaker_estimator_class_name"
MODULE_KEY = "sagemaker_estimator_module"
#: The range kinds in the SDK v2's order; ``<kind>ParameterRanges`` is each one's list.
KINDS = (ContinuousParameter.kind, CategoricalParameter.kind, IntegerParameter.kind)
RANGE_CLASSES = {ContinuousParameter.kind: ContinuousParameter, IntegerParameter.kind: IntegerParameter,
                 CategoricalParameter.kind: CategoricalParameter}
LOGARITHMIC, REVERSE_LOGARITHMIC = "Logarithmic", "ReverseLogarithmic"


@attrs.frozen
class TuningSettings(object):
    """Everything the user said about one tuning job: the tuner's arguments and ``fit``'s, as given."""

    objective_metric_name = attrs.field(default=None)
    hyperparameter_ranges = attrs.field(default=None)
    metric_definitions = attrs.field(default=None)
    strategy = attrs.field(default=D.TUNING_STRATEGY)
    objective_type = attrs.field(default=D.OBJECTIVE_TYPE)
    max_jobs = attrs.field(default=None)
    max_parallel_jobs = attrs.field(default=D.MAX_PARALLEL_TUNING_JOBS)
    max_runtime_in_seconds = attrs.field(default=None)
    tags = attrs.field(default=None)
    base_tuning_job_name = attrs.field(default=None)
    warm_start_config = attrs.field(default=None)
    strategy_config = attrs.field(default=None)
    completion_criteria_config = attrs.field(default=None)
    early_stopping_type = attrs.field(default=D.EARLY_STOPPING_TYPE)
    random_seed = attrs.field(default=None)
    job_name = attrs.field(default=None)
    include_cls_metadata = attrs.field(default=False)


@attrs.frozen
class Range(object):
    """One tuned hyperparameter: ``kind`` (``"Continuous"``, ``"Integer"``, ``"Categorical"``), its bounds
    and scaling or its values, as given; ``arg`` is where the user wrote it."""

    name = attrs.field()
    kind = attrs.field()
    min_value = attrs.field(default=None)
    max_value = attrs.field(default=None)
    scaling_type = attrs.field(default=None)
    values = attrs.field(default=None)
    arg = attrs.field(default=None, eq=False)


@attrs.frozen
class Tuning(object):
    """A tuning job, normalised: its ranges, objective, limits and configurations (the configurations
    in the request's format). Scalars are kept as given; the service's limits are checked on the
    rendered request."""

    objective_metric_name = attrs.field(default=None)
    objective_type = attrs.field(default=D.OBJECTIVE_TYPE)
    ranges = attrs.field(default=())
    metric_definitions = attrs.field(default=None)
    strategy = attrs.field(default=D.TUNING_STRATEGY)
    strategy_config = attrs.field(default=None)
    max_jobs = attrs.field(default=D.MAX_TUNING_JOBS)
    max_parallel_jobs = attrs.field(default=D.MAX_PARALLEL_TUNING_JOBS)
    max_runtime_in_seconds = attrs.field(default=None)
    tags = attrs.field(default=None)
    base_tuning_job_name = attrs.field(default=None)
    job_name = attrs.field(default=None)
    early_stopping_type = attrs.field(default=D.EARLY_STOPPING_TYPE)
    warm_start = attrs.field(default=None)
    random_seed = attrs.field(default=None)
    completion_criteria = attrs.field(default=None)
    include_cls_metadata = attrs.field(default=False)


#: ``(wire path, Tuning attribute, sent always (else when not None), the tuner's argument)``: the
#: request's plain fields, rendered and read back (attach) from this one table.
FIELDS = (
    (CONFIG + ("Strategy",), "strategy", True, "strategy"),
    (CONFIG + ("StrategyConfig",), "strategy_config", False, "strategy_config"),
    (CONFIG + ("ResourceLimits", "MaxNumberOfTrainingJobs"), "max_jobs", False, "max_jobs"),
    (CONFIG + ("ResourceLimits", "MaxParallelTrainingJobs"), "max_parallel_jobs", True, "max_parallel_jobs"),
    (CONFIG + ("ResourceLimits", "MaxRuntimeInSeconds"), "max_runtime_in_seconds", False, "max_runtime_in_seconds"),
    (CONFIG + ("TrainingJobEarlyStoppingType",), "early_stopping_type", True, "early_stopping_type"),
    (CONFIG + ("RandomSeed",), "random_seed", False, "random_seed"),
    (CONFIG + ("HyperParameterTuningJobObjective", "Type"), "objective_type", None, "objective_type"),
    (CONFIG + ("HyperParameterTuningJobObjective", "MetricName"), "objective_metric_name", None,
     "objective_metric_name"),
    (CONFIG + ("TuningJobCompletionCriteria",), "completion_criteria", False, "completion_criteria_config"),
    (("WarmStartConfig",), "warm_start", False, "warm_start_config"),
)
RANGE_FIELDS = (("Name", "name", None), ("MinValue", "min_value", "min_value"), ("MaxValue", "max_value", "max_value"),
                 ("ScalingType", "scaling_type", "scaling_type"), ("Values", "values", "values"))


# -- the tuner's arguments as the model ------------------------------------------------------------


def build(settings):
    """``(tuning, problems)``: the :class:`Tuning` of ``settings`` and what could not be interpreted."""
    s = settings
    out = Problems()
    if not isinstance(s.include_cls_metadata, bool):
        out.add("include_cls_metadata", "must be True or False", s.include_cls_metadata)
    tuning = Tuning(
        objective_metric_name=s.objective_metric_name,
        objective_type=s.objective_type,
        ranges=_ranges(s.hyperparameter_ranges, out),
        metric_definitions=as_sequence("metric_definitions", s.metric_definitions, out,
                                       "a list of {'Name': ..., 'Regex': ...}", copy_dicts=True),
        strategy=s.strategy,
        strategy_config=_strategy_config(s.strategy_config, out),
        max_jobs=default_max_jobs(s.max_jobs, s.strategy),
        max_parallel_jobs=s.max_parallel_jobs,
        max_runtime_in_seconds=s.max_runtime_in_seconds,
        tags=as_tags(s.tags, out),
        base_tuning_job_name=s.base_tuning_job_name or None,  # as the SDK v2: an empty base is none
        job_name=s.job_name or None,
        early_stopping_type=s.early_stopping_type,
        warm_start=_warm_start(s.warm_start_config, out),
        random_seed=s.random_seed,
        completion_criteria=_completion_criteria(s.completion_criteria_config, out),
        include_cls_metadata=s.include_cls_metadata is True,
    )
    return tuning, out.items


def default_max_jobs(max_jobs, strategy):
    """As the SDK v2: one training job when none is given, except for Grid, whose number of jobs follows
    from its ranges."""
    if max_jobs is None and strategy != D.GRID_STRATEGY:
        return D.MAX_TUNING_JOBS
    return max_jobs


def _ranges(given, out):
    if given is None:
        out.add("hyperparameter_ranges", "is required: a dict of hyperparameter name to ContinuousParameter, "
                "IntegerParameter or CategoricalParameter", None)
        return ()
    if not isinstance(given, dict):
        out.add("hyperparameter_ranges", "must be a dict of hyperparameter name to ContinuousParameter, "
                "IntegerParameter or CategoricalParameter", given)
        return ()
    ranges = []
    for name, value in given.items():
        arg = "hyperparameter_ranges[%r]" % (name,)
        if not isinstance(name, str):
            out.add(arg, "the hyperparameter's name must be a string", name)
        elif not isinstance(value, ParameterRange) or value.kind not in KINDS:
            out.add(arg, "must be a ContinuousParameter, IntegerParameter or CategoricalParameter", value)
        elif value.kind == CategoricalParameter.kind:
            ranges.append(Range(name, value.kind, values=value.values, arg=arg))
        else:
            ranges.append(Range(name, value.kind, value.min_value, value.max_value, value.scaling_type, arg=arg))
    return tuple(ranges)


def _warm_start(value, out):
    if value is None:
        return None
    if not isinstance(value, WarmStartConfig):
        out.add("warm_start_config", "must be a WarmStartConfig(warm_start_type, parents)", value)
        return None
    kind = value.type.value if isinstance(value.type, WarmStartTypes) else value.type
    if kind not in [t.value for t in WarmStartTypes]:
        out.add("warm_start_config.type", "must be one of %s" % ", ".join("WarmStartTypes.%s" % t.name for t in WarmStartTypes),
                value.type)
    parents = value.parents
    if isinstance(parents, (set, frozenset)):
        parents = sorted(parents, key=str)  # a set has no order: sent sorted, so a request is the same each time
    elif isinstance(parents, str) or not isinstance(parents, (list, tuple)):
        out.add("warm_start_config.parents", "must be a list or set of tuning job names", parents)
        parents = ()
    return {"ParentHyperParameterTuningJobs": [{"HyperParameterTuningJobName": p} for p in parents],
            "WarmStartType": kind}


def _completion_criteria(value, out):
    if value is None:
        return None
    if not isinstance(value, TuningJobCompletionCriteriaConfig):
        out.add("completion_criteria_config", "must be a TuningJobCompletionCriteriaConfig", value)
        return None
    criteria = {}
    if value.max_number_of_training_jobs_not_improving is not None:
        criteria["BestObjectiveNotImproving"] = {
            "MaxNumberOfTrainingJobsNotImproving": value.max_number_of_training_jobs_not_improving}
    if value.target_objective_metric_value is not None:
        criteria["TargetObjectiveMetricValue"] = value.target_objective_metric_value
    if value.complete_on_convergence is not None:
        if not isinstance(value.complete_on_convergence, bool):
            out.add("completion_criteria_config.complete_on_convergence", "must be True or False",
                    value.complete_on_convergence)
        else:
            criteria["ConvergenceDetected"] = {
                "CompleteOnConvergence": "Enabled" if value.complete_on_convergence else "Disabled"}
    return criteria


def _strategy_config(value, out):
    if value is None:
        return None
    hyperband = getattr(value, "hyperband_strategy_config", None) if isinstance(value, StrategyConfig) else None
    if not isinstance(hyperband, HyperbandStrategyConfig):
        out.add("strategy_config", "must be StrategyConfig(HyperbandStrategyConfig(max_resource, min_resource))", value)
        return None
    return {"HyperbandStrategyConfig": {"MinResource": hyperband.min_resource, "MaxResource": hyperband.max_resource}}


def estimator_arg(path):
    """The tuner's name of an argument of its estimator's training job: ``estimator.<argument>``, but
    ``fit``'s ``inputs`` and ``job_name`` are the tuner's own."""
    if path is None or path.startswith("inputs") or path == "job_name":
        return path
    return "estimator." + path

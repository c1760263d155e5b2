"""Tuning jobs read back: a DescribeHyperParameterTuningJob answer as the tuner's model and arguments
(``HyperparameterTuner.attach``), and a tuning job's state as data and as one line. Pure.

:func:`definition_as_training_request` turns the training job definition back into the
CreateTrainingJob request it came from (``_tuning.render.moves`` backwards), which
``_request.describe`` reads as the estimator's job; :func:`tuning_from_description` and
:func:`arguments` read the tuning configuration from the same table the request is written from
(``_tuning.model.FIELDS``). :func:`status_summary` and :func:`status_line` are what
``sagemaker-hetero tune status`` prints and what a tuning job's wait prints.
"""
import json

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._model.hyperparameters import decode
from sagemaker_hetero._request.describe import iso, value_at
from sagemaker_hetero._tuning.config import (HyperbandStrategyConfig, StrategyConfig, TuningJobCompletionCriteriaConfig,
                                             WarmStartConfig, WarmStartTypes)
from sagemaker_hetero._tuning.model import (CLASS_NAME_KEY, DEFINITION, FIELDS, KINDS, MODULE_KEY, RANGE_CLASSES,
                                            RANGES, Range, Tuning)
from sagemaker_hetero._tuning.render import TUNING_RESOURCES, copied, moves
from sagemaker_hetero.parameter import CategoricalParameter, IntegerParameter

__all__ = ["definition_as_training_request", "estimator_class_name", "tuning_from_description", "arguments",
           "status_summary", "status_line"]


def definition_as_training_request(desc):
    """A DescribeHyperParameterTuningJob answer's training job definition as a CreateTrainingJob request
    (what ``_request.describe.job_from_description`` reads): :func:`moves` backwards, the static hyperparameters
    without the tuner's own keys as ``HyperParameters``."""
    definition = dict(desc.get(DEFINITION) or {})
    original = dict(definition)  # what the moves read: the tuning resources included
    request = {"TrainingJobName": desc.get("HyperParameterTuningJobName")}
    resources = definition.pop(TUNING_RESOURCES, None)
    if resources:
        definition["ResourceConfig"] = dict(resources)
    static = dict(definition.pop("StaticHyperParameters", None) or {})
    for key in (CLASS_NAME_KEY, MODULE_KEY):
        static.pop(key, None)
    request["HyperParameters"] = static
    moved, _ = moves(definition, "InstanceGroups" in (definition.get("ResourceConfig") or {}))
    for source, target in moved:  # the definition's paths are the training request's
        node = request
        for key in source[:-1]:
            node = node.setdefault(key, {})
        node[source[-1]] = copied(value_at(original, target))
    return request


def estimator_class_name(desc):
    """The estimator class a tuning job's static hyperparameters name (``"PyTorch"``, ...), or None."""
    static = (desc.get(DEFINITION) or {}).get("StaticHyperParameters") or {}
    try:
        return json.loads(static[CLASS_NAME_KEY])
    except (KeyError, TypeError, ValueError):
        return None


def tuning_from_description(desc, as_json):
    """The :class:`Tuning` of a DescribeHyperParameterTuningJob answer (``as_json``: the categorical
    values are JSON-encoded, as for a framework estimator). Tags are not part of a description."""
    values = {}
    for path, attr, _, _ in FIELDS:
        value = value_at(desc, path)
        if value is not None:
            values[attr] = copied(value)
    ranges = []
    for kind in KINDS:
        for body in value_at(desc, RANGES + (kind + "ParameterRanges",)) or ():
            name = body.get("Name")
            if kind == CategoricalParameter.kind:
                texts = body.get("Values") or []
                ranges.append(Range(name, kind, values=[decode(t) if as_json else t for t in texts]))
            else:
                cast = int if kind == IntegerParameter.kind else float
                ranges.append(Range(name, kind, _number(body.get("MinValue"), cast), _number(body.get("MaxValue"), cast),
                                    body.get("ScalingType")))
    values["ranges"] = tuple(ranges)
    if "max_jobs" not in values:
        values["max_jobs"] = None
    return Tuning(**values)


def _number(text, cast):
    try:
        return cast(text)
    except (TypeError, ValueError):
        return text


def arguments(tuning):
    """The ``HyperparameterTuner`` keyword arguments (without ``estimator``) that build ``tuning`` again."""
    kwargs = dict(objective_metric_name=tuning.objective_metric_name, objective_type=tuning.objective_type,
                  strategy=tuning.strategy, max_jobs=tuning.max_jobs, max_parallel_jobs=tuning.max_parallel_jobs,
                  max_runtime_in_seconds=tuning.max_runtime_in_seconds, early_stopping_type=tuning.early_stopping_type,
                  random_seed=tuning.random_seed)
    ranges = {}
    for r in tuning.ranges:
        cls = RANGE_CLASSES[r.kind]
        if r.kind == CategoricalParameter.kind:
            ranges[r.name] = cls(r.values)
        else:
            ranges[r.name] = cls(r.min_value, r.max_value, scaling_type=r.scaling_type or "Auto")
    kwargs["hyperparameter_ranges"] = ranges
    warm = tuning.warm_start
    if warm:
        kwargs["warm_start_config"] = WarmStartConfig(
            WarmStartTypes(warm["WarmStartType"]),
            parents=[p["HyperParameterTuningJobName"] for p in warm.get("ParentHyperParameterTuningJobs") or ()])
    hyperband = (tuning.strategy_config or {}).get("HyperbandStrategyConfig")
    if hyperband:
        kwargs["strategy_config"] = StrategyConfig(HyperbandStrategyConfig(hyperband.get("MaxResource"),
                                                                           hyperband.get("MinResource")))
    criteria = tuning.completion_criteria
    if criteria:
        convergence = (criteria.get("ConvergenceDetected") or {}).get("CompleteOnConvergence")
        kwargs["completion_criteria_config"] = TuningJobCompletionCriteriaConfig(
            max_number_of_training_jobs_not_improving=(criteria.get("BestObjectiveNotImproving") or {}).get(
                "MaxNumberOfTrainingJobsNotImproving"),
            complete_on_convergence=None if convergence is None else convergence == "Enabled",
            target_objective_metric_value=criteria.get("TargetObjectiveMetricValue"))
    return kwargs


def status_summary(desc):
    """A tuning job's state as plain JSON-ready data with snake_case keys (``sagemaker-hetero tune status``)."""
    best = desc.get("BestTrainingJob") or {}
    final = best.get("FinalHyperParameterTuningJobObjectiveMetric") or {}
    status = desc.get("HyperParameterTuningJobStatus")
    return {
        "tuning_job_name": desc.get("HyperParameterTuningJobName"),
        "status": status,
        "terminal": status in D.TERMINAL_STATUSES,
        "failure_reason": desc.get("FailureReason") or None,
        "training_jobs": dict(desc.get("TrainingJobStatusCounters") or {}),
        "objectives": dict(desc.get("ObjectiveStatusCounters") or {}),
        "best_training_job": best.get("TrainingJobName"),
        "best_objective": {"metric": final.get("MetricName"), "value": final.get("Value")} if final else None,
        "creation_time": iso(desc.get("CreationTime")),
        "end_time": iso(desc.get("HyperParameterTuningEndTime")),
        "arn": desc.get("HyperParameterTuningJobArn"),
    }


def status_line(desc):
    """One line of a tuning job's state: its status, its training jobs by status, the best so far."""
    summary = status_summary(desc)
    counts = ", ".join("%d %s" % (n, status.lower()) for status, n in summary["training_jobs"].items() if n)
    line = "%s: %s" % (summary["tuning_job_name"], summary["status"])
    if counts:
        line += " - training jobs: " + counts
    best = summary["best_objective"]
    if summary["best_training_job"] and best:
        line += " - best: %s (%s = %s)" % (summary["best_training_job"], best["metric"], best["value"])
    return line

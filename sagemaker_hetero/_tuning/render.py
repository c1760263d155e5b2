"""Tuning jobs, stage 2: the CreateHyperParameterTuningJob request, rendered once from the model. Pure.

:func:`render` writes the request from a :class:`~._tuning.model.Tuning` and the training job's
:class:`~._request.plan.Plan`: the training job definition is the plan's CreateTrainingJob request,
its parts moved to where CreateHyperParameterTuningJob takes them (:func:`moves`, read off
botocore's model: a member of the same name in ``HyperParameterTrainingJobDefinition``), so the
instance groups, the channels naming them and the distribution's hyperparameters are exactly the
training request's. What moves elsewhere is the SDK v2's choice: ``HyperParameters`` become
``StaticHyperParameters`` (without the tuned ones, with the estimator class for framework
estimators), the training job's ``Tags`` join the tuning job's, and a cluster without instance
groups goes to ``HyperParameterTuningResourceConfig``. A part with no place there is a problem,
never dropped silently (only the metrics flag the SDK v2 drops too): ``_tuning.checks`` says so,
with every other problem. Each part of the request keeps the user's name of its argument
(``origins``), so the service's limits are reported under it.
"""
import json

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import utils
from sagemaker_hetero._checks import service
from sagemaker_hetero._model.build import hashable
from sagemaker_hetero._request import names
from sagemaker_hetero._request.describe import value_at
from sagemaker_hetero._request.render import Rendered, Writer
from sagemaker_hetero._tuning.model import (CLASS_NAME_KEY, CONFIG, DEFINITION, FIELDS, KINDS, MODULE_KEY, RANGES,
                                            RANGE_FIELDS, estimator_arg)
from sagemaker_hetero.parameter import CategoricalParameter

__all__ = ["render", "moves", "shape_members", "tuning_job_name", "parameter_ranges", "as_text", "copied",
           "TRAINING_SHAPE", "TUNING_RESOURCES", "SDK_V2_MODULES"]

#: ``sagemaker_estimator_module`` names the SDK v2's module of the class, so that the SDK v2's attach of
#: a tuning job started here finds its estimator too (ours reads the class name).
SDK_V2_MODULES = {"pytorch": "sagemaker.pytorch.estimator", "tensorflow": "sagemaker.tensorflow.estimator",
                  None: "sagemaker.estimator"}
# The shapes the training request's parts move between (botocore's model names them).
TRAINING_SHAPE = "CreateTrainingJobRequest"
_DEFINITION_SHAPE = "HyperParameterTrainingJobDefinition"
TUNING_RESOURCES = "HyperParameterTuningResourceConfig"
#: Training request parts a tuning job's training jobs do without, and why (not problems).
_LEFT_OUT = {
    ("TrainingJobName",): "the tuning job names its training jobs",
    ("AlgorithmSpecification", "EnableSageMakerMetricsTimeSeries"): "the tuning job records its objective metric itself",
}
#: The request's members, and the definition's, in the order the SDK v2 writes them.
_REQUEST_ORDER = ("HyperParameterTuningJobName", CONFIG[0], DEFINITION, "WarmStartConfig", "Tags")
_DEFINITION_ORDER = ("StaticHyperParameters", "RoleArn", "OutputDataConfig", "StoppingCondition", TUNING_RESOURCES,
                     "ResourceConfig", "AlgorithmSpecification", "InputDataConfig", "VpcConfig")


def shape_members(shape_name):
    return service.shape(shape_name).get("members", {})


def moves(request, heterogeneous):
    """``(moved, misplaced)`` for a CreateTrainingJob ``request``: ``moved`` lists ``(training path,
    definition path)`` for each part taken over as it is, ``misplaced`` the training paths of parts
    with no place in a tuning job's training job definition. ``HyperParameters``, ``Tags`` and the
    parts in :data:`_LEFT_OUT` are in neither list: they are the tuning job's own business."""
    definition = shape_members(_DEFINITION_SHAPE)
    training = shape_members(TRAINING_SHAPE)
    moved, misplaced = [], []
    for key in request:
        if (key,) in _LEFT_OUT or key in ("HyperParameters", "Tags"):
            continue
        if key == "ResourceConfig" and not heterogeneous:  # as the SDK v2: the tuning resource config
            targets = shape_members(definition[TUNING_RESOURCES])
            for member in request[key]:
                if member in targets:
                    moved.append(((key, member), (TUNING_RESOURCES, member)))
                else:
                    misplaced.append((key, member))
        elif key not in definition:
            misplaced.append((key,))
        elif definition[key] == training.get(key) or not _both_structures(definition[key], training.get(key)):
            moved.append(((key,), (key,)))
        else:  # a structure of its own in the definition: the members it has
            targets = shape_members(definition[key])
            for member in request[key]:
                if (key, member) in _LEFT_OUT:
                    continue
                if member in targets:
                    moved.append(((key, member), (key, member)))
                else:
                    misplaced.append((key, member))
    return moved, misplaced


def _both_structures(*shape_names):
    return all(name is not None and service.shape(name)["type"] == "structure" for name in shape_names)


def tuning_job_name(tuning, image, now):
    """``(name, argument it comes from)``: ``fit``'s ``job_name``, else ``{base}-{YYMMDD-HHMM}`` cut to
    the model's longest tuning job name, the base being ``base_tuning_job_name`` or the image's
    repository name (as the SDK v2 names tuning jobs)."""
    if tuning.job_name is not None:
        return tuning.job_name, "job_name"
    base = tuning.base_tuning_job_name
    if not isinstance(base, str):
        base = names.image_base_name(image)
    longest = service.shape("HyperParameterTuningJobName")["max"]
    return utils.name_with_timestamp(base, utils.short_timestamp(now), longest), "base_tuning_job_name"


def render(tuning, plan, now):
    """The CreateHyperParameterTuningJob request of ``tuning`` over the training job ``plan`` (a
    :class:`Rendered`); ``now`` (epoch seconds) names a tuning job without a name."""
    training = plan.rendered
    image = plan.image
    w = Writer()
    name, name_arg = tuning_job_name(tuning, image, now)
    w.put(("HyperParameterTuningJobName",), name, name_arg)
    if name_arg == "base_tuning_job_name" and tuning.base_tuning_job_name is not None:
        w.given[("HyperParameterTuningJobName",)] = tuning.base_tuning_job_name
    for path, attr, always, arg in FIELDS:
        value = getattr(tuning, attr)
        if always is None:  # the objective: sent when it names a metric, as the SDK v2 sends it
            if tuning.objective_metric_name is None:
                continue
        elif not always and value is None:
            continue
        w.put(path, copied(value), arg)
    _configuration_origins(w, tuning)
    _render_ranges(w, tuning, plan.job.framework is not None)
    _render_definition(w, tuning, plan)
    _render_tags(w, tuning, training)
    order = [k for k in _REQUEST_ORDER if k in w.request]
    return Rendered(request=dict((k, w.request[k]) for k in order), origins=w.origins, given=w.given)


#: ``(path in the request, the configuration object's attribute)`` of the configurations' parts.
_CONFIGURATION_PARTS = (
    (("WarmStartConfig", "WarmStartType"), "warm_start_config.type"),
    (("WarmStartConfig", "ParentHyperParameterTuningJobs"), "warm_start_config.parents"),
    (CONFIG + ("TuningJobCompletionCriteria", "BestObjectiveNotImproving", "MaxNumberOfTrainingJobsNotImproving"),
     "completion_criteria_config.max_number_of_training_jobs_not_improving"),
    (CONFIG + ("TuningJobCompletionCriteria", "TargetObjectiveMetricValue"),
     "completion_criteria_config.target_objective_metric_value"),
    (CONFIG + ("TuningJobCompletionCriteria", "ConvergenceDetected", "CompleteOnConvergence"),
     "completion_criteria_config.complete_on_convergence"),
    (CONFIG + ("StrategyConfig", "HyperbandStrategyConfig", "MinResource"),
     "strategy_config.hyperband_strategy_config.min_resource"),
    (CONFIG + ("StrategyConfig", "HyperbandStrategyConfig", "MaxResource"),
     "strategy_config.hyperband_strategy_config.max_resource"),
)



def _configuration_origins(w, tuning):
    for path, arg in _CONFIGURATION_PARTS:
        w.origins[path] = arg
    for i, _ in enumerate((tuning.warm_start or {}).get("ParentHyperParameterTuningJobs") or ()):
        w.origins[("WarmStartConfig", "ParentHyperParameterTuningJobs", i)] = "warm_start_config.parents[%d]" % i


def copied(value):
    """A JSON-like ``value`` copied (so a request never shares a list or dict with the model)."""
    return json.loads(json.dumps(value)) if isinstance(value, (dict, list)) else value


def as_text(value):
    """A bound or value as the SDK v2 writes it (``str()``), or None when it has none."""
    try:
        return value if isinstance(value, str) else str(value)
    except Exception:  # noqa: BLE001 - a value whose str() fails is reported by the checks
        return None


def parameter_ranges(tuning, as_json):
    """``(ParameterRanges, origins)``: the request's ranges (categorical values JSON-encoded when
    ``as_json``, for a framework estimator, as the SDK v2 writes them) and the user's name of each part,
    by path under ``ParameterRanges``."""
    lists = dict((kind, []) for kind in KINDS)
    origins = {}
    for r in tuning.ranges:
        items = lists[r.kind]
        path = (r.kind + "ParameterRanges", len(items))
        origins[path] = r.arg
        body = {"Name": r.name}
        if r.kind == CategoricalParameter.kind:
            texts = [as_text(v) for v in r.values]  # as the SDK v2: strings, JSON-encoded for framework images
            body["Values"] = [json.dumps(t) if as_json else t for t in texts if t is not None]
        else:
            for key, value in (("MinValue", as_text(r.min_value)), ("MaxValue", as_text(r.max_value)),
                               ("ScalingType", r.scaling_type)):
                if value is not None:
                    body[key] = value
        items.append(body)
        for key, _, arg in RANGE_FIELDS:
            origins[path + (key,)] = r.arg if arg is None else "%s.%s" % (r.arg, arg)
    return dict((kind + "ParameterRanges", lists[kind]) for kind in KINDS), origins


def _render_ranges(w, tuning, as_json):
    ranges, origins = parameter_ranges(tuning, as_json)
    w.put(RANGES, ranges, "hyperparameter_ranges")
    for path, arg in origins.items():
        w.origins[RANGES + path] = arg


def _render_definition(w, tuning, plan):
    training = plan.rendered
    request = training.request
    moved, _ = moves(request, plan.job.heterogeneous)
    if tuning.metric_definitions:  # the tuner's replace the estimator's, as in the SDK v2
        moved = [(source, target) for source, target in moved if source[-1] != "MetricDefinitions"]
    base = (DEFINITION,)
    static = dict((k, v) for k, v in (request.get("HyperParameters") or {}).items()
                  if k not in set(r.name for r in tuning.ranges))
    if plan.job.framework is not None or tuning.include_cls_metadata:  # as the SDK v2, for attach
        static[CLASS_NAME_KEY] = json.dumps(D.FRAMEWORK_LABELS[plan.job.framework])
        static[MODULE_KEY] = json.dumps(SDK_V2_MODULES[plan.job.framework])
    w.put(base + ("StaticHyperParameters",), static, estimator_arg("hyperparameters"))
    for path, arg in training.origins.items():
        if path[:1] == ("HyperParameters",) and len(path) == 2 and path[1] in static:
            w.origins[base + ("StaticHyperParameters", path[1])] = estimator_arg(arg)
    for source, target in moved:
        w.put(base + target, copied(value_at(request, source)), estimator_arg(training.origins.get(source)))
        for path, arg in training.origins.items():
            if path[:len(source)] == source and len(path) > len(source):
                w.origins[base + target + path[len(source):]] = estimator_arg(arg)
        for path, value in training.given.items():
            if path[:len(source)] == source:
                w.given[base + target + path[len(source):]] = value
    if tuning.metric_definitions:  # the tuner's metrics, as the SDK v2 sends them
        path = base + ("AlgorithmSpecification", "MetricDefinitions")
        w.put(path, [dict(m) if isinstance(m, dict) else m for m in tuning.metric_definitions], "metric_definitions")
        for i in range(len(tuning.metric_definitions)):
            w.origins[path + (i,)] = "metric_definitions[%d]" % i
    definition = w.request[DEFINITION]
    order = [k for k in _DEFINITION_ORDER if k in definition] + [k for k in definition if k not in _DEFINITION_ORDER]
    w.request[DEFINITION] = dict((k, definition[k]) for k in order)


def _render_tags(w, tuning, training):
    """The tuner's tags, then the training job's whose key the tuner's do not have (the SDK v2 appends
    the estimator's tags to the tuning job's)."""
    own = list(tuning.tags or ())
    keys = set(t.get("Key") for t in own if isinstance(t, dict) and hashable(t.get("Key")))
    tags = [dict(t) if isinstance(t, dict) else t for t in own]
    for i in range(len(own)):
        for sub, suffix in (((), ""), (("Key",), ".Key"), (("Value",), ".Value")):
            w.origins[("Tags", i) + sub] = "tags[%d]%s" % (i, suffix)
    for j, tag in enumerate(training.request.get("Tags") or ()):
        if isinstance(tag, dict) and hashable(tag.get("Key")) and tag.get("Key") in keys:
            continue
        for sub in ((), ("Key",), ("Value",)):
            origin = training.origins.get(("Tags", j) + sub)
            if origin is not None:
                w.origins[("Tags", len(tags)) + sub] = estimator_arg(origin)
        tags.append(dict(tag) if isinstance(tag, dict) else tag)
    if tags:
        w.put(("Tags",), tags, "tags")

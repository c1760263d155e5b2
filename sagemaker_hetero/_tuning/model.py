"""Tuning jobs: the tuner's arguments as a model, and its CreateHyperParameterTuningJob request, both
ways. Pure: no I/O, no clock (``now`` is passed in).

:func:`build` turns :class:`TuningSettings` (a ``HyperparameterTuner``'s arguments plus ``fit``'s)
into one :class:`Tuning`. :func:`render` writes the request from it and from the training job's
:class:`_request.plan.Plan`: the training job definition is the plan's CreateTrainingJob request, its parts
moved to where CreateHyperParameterTuningJob takes them (:func:`moves`, read off botocore's model:
a member of the same name in ``HyperParameterTrainingJobDefinition``), so the instance groups, the
channels naming them and the distribution's hyperparameters are exactly the training request's.
What moves elsewhere is the SDK v2's choice: ``HyperParameters`` become ``StaticHyperParameters``
(without the tuned ones, with the estimator class for framework estimators), the training job's
``Tags`` join the tuning job's, and a cluster without instance groups goes to
``HyperParameterTuningResourceConfig``. A part with no place there is a problem, never dropped
silently (only the metrics flag the SDK v2 drops too): ``_tuning.checks`` says so, with every other
problem. :func:`tuning_from_description` and :func:`arguments` read a DescribeHyperParameterTuningJob
answer back (``attach``) from the same tables.
"""
import json

import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import utils
from sagemaker_hetero._checks import service as _service
from sagemaker_hetero._model import build as _build
from sagemaker_hetero._model.hyperparameters import decode
from sagemaker_hetero._request import describe, names as _names
from sagemaker_hetero._request.render import Rendered, Writer
from sagemaker_hetero.exceptions import Problems
from sagemaker_hetero._tuning.config import (HyperbandStrategyConfig, StrategyConfig, TuningJobCompletionCriteriaConfig,
                                             WarmStartConfig, WarmStartTypes)
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter, ParameterRange

__all__ = ["TUNING_OPERATION", "TuningSettings", "Range", "Tuning", "build", "render", "parameter_ranges", "moves",
           "default_max_jobs", "tuning_job_name", "estimator_class_name", "shape_members", "as_text", "KINDS",
           "LOGARITHMIC", "REVERSE_LOGARITHMIC", "TRAINING_SHAPE", "estimator_arg", "tuning_from_description",
           "arguments", "definition_as_training_request", "status_summary", "CLASS_NAME_KEY", "MODULE_KEY"]

TUNING_OPERATION = "CreateHyperParameterTuningJob"
DEFINITION = "TrainingJobDefinition"
_CONFIG = ("HyperParameterTuningJobConfig",)
_RANGES = _CONFIG + ("ParameterRanges",)
#: The static hyperparameters naming the estimator's class (the SDK v2's keys; its attach reads them).
CLASS_NAME_KEY = "sagemaker_estimator_class_name"
MODULE_KEY = "sagemaker_estimator_module"
#: ``sagemaker_estimator_module`` names the SDK v2's module of the class, so that the SDK v2's attach of
#: a tuning job started here finds its estimator too (ours reads the class name).
SDK_V2_MODULES = {"pytorch": "sagemaker.pytorch.estimator", "tensorflow": "sagemaker.tensorflow.estimator",
                  None: "sagemaker.estimator"}
#: The range kinds in the SDK v2's order; ``<kind>ParameterRanges`` is each one's list.
KINDS = (ContinuousParameter.kind, CategoricalParameter.kind, IntegerParameter.kind)
_RANGE_CLASSES = {ContinuousParameter.kind: ContinuousParameter, IntegerParameter.kind: IntegerParameter,
                  CategoricalParameter.kind: CategoricalParameter}
LOGARITHMIC, REVERSE_LOGARITHMIC = "Logarithmic", "ReverseLogarithmic"

# The shapes the training request's parts move between (botocore's model names them).
TRAINING_SHAPE = "CreateTrainingJobRequest"
_DEFINITION_SHAPE = "HyperParameterTrainingJobDefinition"
_TUNING_RESOURCES = "HyperParameterTuningResourceConfig"
#: Training request parts a tuning job's training jobs do without, and why (not problems).
_LEFT_OUT = {
    ("TrainingJobName",): "the tuning job names its training jobs",
    ("AlgorithmSpecification", "EnableSageMakerMetricsTimeSeries"): "the tuning job records its objective metric itself",
}
#: The request's members, and the definition's, in the order the SDK v2 writes them.
_REQUEST_ORDER = ("HyperParameterTuningJobName", _CONFIG[0], DEFINITION, "WarmStartConfig", "Tags")
_DEFINITION_ORDER = ("StaticHyperParameters", "RoleArn", "OutputDataConfig", "StoppingCondition", _TUNING_RESOURCES,
                     "ResourceConfig", "AlgorithmSpecification", "InputDataConfig", "VpcConfig")


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
    (_CONFIG + ("Strategy",), "strategy", True, "strategy"),
    (_CONFIG + ("StrategyConfig",), "strategy_config", False, "strategy_config"),
    (_CONFIG + ("ResourceLimits", "MaxNumberOfTrainingJobs"), "max_jobs", False, "max_jobs"),
    (_CONFIG + ("ResourceLimits", "MaxParallelTrainingJobs"), "max_parallel_jobs", True, "max_parallel_jobs"),
    (_CONFIG + ("ResourceLimits", "MaxRuntimeInSeconds"), "max_runtime_in_seconds", False, "max_runtime_in_seconds"),
    (_CONFIG + ("TrainingJobEarlyStoppingType",), "early_stopping_type", True, "early_stopping_type"),
    (_CONFIG + ("RandomSeed",), "random_seed", False, "random_seed"),
    (_CONFIG + ("HyperParameterTuningJobObjective", "Type"), "objective_type", None, "objective_type"),
    (_CONFIG + ("HyperParameterTuningJobObjective", "MetricName"), "objective_metric_name", None,
     "objective_metric_name"),
    (_CONFIG + ("TuningJobCompletionCriteria",), "completion_criteria", False, "completion_criteria_config"),
    (("WarmStartConfig",), "warm_start", False, "warm_start_config"),
)
_RANGE_FIELDS = (("Name", "name", None), ("MinValue", "min_value", "min_value"), ("MaxValue", "max_value", "max_value"),
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
        metric_definitions=_build.as_sequence("metric_definitions", s.metric_definitions, out,
                                            "a list of {'Name': ..., 'Regex': ...}", copy_dicts=True),
        strategy=s.strategy,
        strategy_config=_strategy_config(s.strategy_config, out),
        max_jobs=default_max_jobs(s.max_jobs, s.strategy),
        max_parallel_jobs=s.max_parallel_jobs,
        max_runtime_in_seconds=s.max_runtime_in_seconds,
        tags=_build.as_tags(s.tags, out),
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


# -- the request ------------------------------------------------------------------------------------


def estimator_arg(path):
    """The tuner's name of an argument of its estimator's training job: ``estimator.<argument>``, but
    ``fit``'s ``inputs`` and ``job_name`` are the tuner's own."""
    if path is None or path.startswith("inputs") or path == "job_name":
        return path
    return "estimator." + path


def shape_members(shape_name):
    return _service.shape(shape_name).get("members", {})


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
            targets = shape_members(definition[_TUNING_RESOURCES])
            for member in request[key]:
                if member in targets:
                    moved.append(((key, member), (_TUNING_RESOURCES, member)))
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
    return all(name is not None and _service.shape(name)["type"] == "structure" for name in shape_names)


def tuning_job_name(tuning, image, now):
    """``(name, argument it comes from)``: ``fit``'s ``job_name``, else ``{base}-{YYMMDD-HHMM}`` cut to
    the model's longest tuning job name, the base being ``base_tuning_job_name`` or the image's
    repository name (as the SDK v2 names tuning jobs)."""
    if tuning.job_name is not None:
        return tuning.job_name, "job_name"
    base = tuning.base_tuning_job_name
    if not isinstance(base, str):
        base = _names.image_base_name(image)
    longest = _service.shape("HyperParameterTuningJobName")["max"]
    return utils.name_with_timestamp(base, utils.short_timestamp(now), longest), "base_tuning_job_name"


def render(tuning, plan, now):
    """The CreateHyperParameterTuningJob request of ``tuning`` over the training job ``plan`` (a
    :class:`Rendered`); ``now`` (epoch seconds) names a tuning job without a name."""
    training = plan.rendered
    image = (training.request.get("AlgorithmSpecification") or {}).get("TrainingImage")
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
        w.put(path, _copied(value), arg)
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
    (_CONFIG + ("TuningJobCompletionCriteria", "BestObjectiveNotImproving", "MaxNumberOfTrainingJobsNotImproving"),
     "completion_criteria_config.max_number_of_training_jobs_not_improving"),
    (_CONFIG + ("TuningJobCompletionCriteria", "TargetObjectiveMetricValue"),
     "completion_criteria_config.target_objective_metric_value"),
    (_CONFIG + ("TuningJobCompletionCriteria", "ConvergenceDetected", "CompleteOnConvergence"),
     "completion_criteria_config.complete_on_convergence"),
    (_CONFIG + ("StrategyConfig", "HyperbandStrategyConfig", "MinResource"),
     "strategy_config.hyperband_strategy_config.min_resource"),
    (_CONFIG + ("StrategyConfig", "HyperbandStrategyConfig", "MaxResource"),
     "strategy_config.hyperband_strategy_config.max_resource"),
)


def _configuration_origins(w, tuning):
    for path, arg in _CONFIGURATION_PARTS:
        w.origins[path] = arg
    for i, _ in enumerate((tuning.warm_start or {}).get("ParentHyperParameterTuningJobs") or ()):
        w.origins[("WarmStartConfig", "ParentHyperParameterTuningJobs", i)] = "warm_start_config.parents[%d]" % i


def _copied(value):
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
        for key, _, arg in _RANGE_FIELDS:
            origins[path + (key,)] = r.arg if arg is None else "%s.%s" % (r.arg, arg)
    return dict((kind + "ParameterRanges", lists[kind]) for kind in KINDS), origins


def _render_ranges(w, tuning, as_json):
    ranges, origins = parameter_ranges(tuning, as_json)
    w.put(_RANGES, ranges, "hyperparameter_ranges")
    for path, arg in origins.items():
        w.origins[_RANGES + path] = arg


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
        w.put(base + target, _copied(describe.value_at(request, source)), estimator_arg(training.origins.get(source)))
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
    keys = set(t.get("Key") for t in own if isinstance(t, dict) and _build.hashable(t.get("Key")))
    tags = [dict(t) if isinstance(t, dict) else t for t in own]
    for i in range(len(own)):
        for sub, suffix in (((), ""), (("Key",), ".Key"), (("Value",), ".Value")):
            w.origins[("Tags", i) + sub] = "tags[%d]%s" % (i, suffix)
    for j, tag in enumerate(training.request.get("Tags") or ()):
        if isinstance(tag, dict) and _build.hashable(tag.get("Key")) and tag.get("Key") in keys:
            continue
        for sub in ((), ("Key",), ("Value",)):
            origin = training.origins.get(("Tags", j) + sub)
            if origin is not None:
                w.origins[("Tags", len(tags)) + sub] = estimator_arg(origin)
        tags.append(dict(tag) if isinstance(tag, dict) else tag)
    if tags:
        w.put(("Tags",), tags, "tags")


# -- reading a description back (attach) ------------------------------------------------------------


def definition_as_training_request(desc):
    """A DescribeHyperParameterTuningJob answer's training job definition as a CreateTrainingJob request
    (what ``describe.job_from_description`` reads): :func:`moves` backwards, the static hyperparameters
    without the tuner's own keys as ``HyperParameters``."""
    definition = dict(desc.get(DEFINITION) or {})
    request = {"TrainingJobName": desc.get("HyperParameterTuningJobName")}
    resources = definition.pop(_TUNING_RESOURCES, None)
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
        node[source[-1]] = _copied(describe.value_at(definition, target))
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
        value = describe.value_at(desc, path)
        if value is not None:
            values[attr] = _copied(value)
    ranges = []
    for kind in KINDS:
        for body in describe.value_at(desc, _RANGES + (kind + "ParameterRanges",)) or ():
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
        cls = _RANGE_CLASSES[r.kind]
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
        "creation_time": describe.iso(desc.get("CreationTime")),
        "end_time": describe.iso(desc.get("HyperParameterTuningEndTime")),
        "arn": desc.get("HyperParameterTuningJobArn"),
    }

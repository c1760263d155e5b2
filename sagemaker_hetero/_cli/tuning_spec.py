"""A spec's ``tuning:`` section (the CLI's ``tune`` commands) as a tuner's arguments. Pure.

The section holds the ``HyperparameterTuner``'s keyword arguments and ``fit``'s ``job_name`` and
``include_cls_metadata``; ranges and configurations are mappings::

    tuning:
      objective_metric_name: "validation:loss"
      objective_type: Minimize
      metric_definitions: [{Name: "validation:loss", Regex: "val_loss=([0-9.]+)"}]
      hyperparameter_ranges:
        lr: {type: continuous, min_value: 0.0001, max_value: 0.1, scaling_type: Logarithmic}
        batch-size: {type: integer, min_value: 32, max_value: 256}
        optimizer: {type: categorical, values: [adam, sgd]}
      max_jobs: 12
      max_parallel_jobs: 3
      warm_start_config: {type: TransferLearning, parents: [earlier-tuning-job]}
      completion_criteria_config: {max_number_of_training_jobs_not_improving: 5}
      strategy_config: {max_resource: 10, min_resource: 1}     # Hyperband's

Every problem is named by its path in the spec (``tuning.hyperparameter_ranges['lr'].min_value``,
``instance_groups[1].type``, ``inputs['train'].instance_groups[0]``).
"""
import inspect

import attrs

from sagemaker_hetero._checks import rules
from sagemaker_hetero._model import build
from sagemaker_hetero._cli.spec import TUNING_KEY, spec_path
from sagemaker_hetero._tuning import checks, model
from sagemaker_hetero._tuning.config import (HyperbandStrategyConfig, StrategyConfig, TuningJobCompletionCriteriaConfig,
                                             WarmStartConfig)
from sagemaker_hetero.exceptions import Problem, Problems
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter
from sagemaker_hetero.tuner import HyperparameterTuner

__all__ = ["TuningSpec", "parse", "check", "RANGE_TYPES", "FIT_KEYS"]

#: A range's ``type:`` -> its class
RANGE_TYPES = {"continuous": ContinuousParameter, "integer": IntegerParameter, "categorical": CategoricalParameter}
_BOUNDED_KEYS = ("type", "min_value", "max_value", "scaling_type")
_CATEGORICAL_KEYS = ("type", "values")
_WARM_START_KEYS = ("type", "parents")
_HYPERBAND_KEYS = ("max_resource", "min_resource")
#: ``fit``'s arguments the section takes besides the tuner's
FIT_KEYS = ("job_name", "include_cls_metadata")


def _tuner_keys():
    names = [p for p in inspect.signature(HyperparameterTuner.__init__).parameters if p not in ("self", "estimator")]
    return tuple(names) + FIT_KEYS


def _where(path):
    return "%s.%s" % (TUNING_KEY, path)


class TuningSpec(object):
    """A parsed ``tuning:`` section: the tuner's keyword arguments, ``fit``'s, and what is malformed."""

    def __init__(self, kwargs, fit_kwargs, problems):
        self.kwargs = kwargs
        self.fit_kwargs = fit_kwargs
        self.problems = problems

    def settings(self):
        """The section as :class:`_tuning.model.TuningSettings` (the tuner's refusals aside: see :func:`check`)."""
        names = set(a.name for a in attrs.fields(model.TuningSettings))
        return model.TuningSettings(**dict((k, v) for k, v in dict(self.kwargs, **self.fit_kwargs).items()
                                             if k in names))


def _unknown(path, key, valid, out):
    hint = rules.did_you_mean(key, valid, cutoff=0.5)
    out.append(Problem(path, "is not a key here%s" % (hint or " (valid keys: %s)" % ", ".join(valid)), key))


def _mapping(path, value, valid, out):
    """``value`` if it is a mapping of ``valid`` keys (unknown keys reported), else None."""
    if not isinstance(value, dict):
        out.append(Problem(path, "must be a mapping of %s" % ", ".join(valid), value))
        return None
    for key in value:
        if key not in valid:
            _unknown("%s.%s" % (path, key), key, valid, out)
    return dict((k, v) for k, v in value.items() if k in valid)


def _ranges(value, out):
    path = _where("hyperparameter_ranges")
    if not isinstance(value, dict):
        out.append(Problem(path, "must be a mapping of hyperparameter name to {type: continuous|integer|categorical, "
                                 "...}", value))
        return None
    ranges = {}
    for name, body in value.items():
        where = "%s[%r]" % (path, name)
        kind = body.get("type") if isinstance(body, dict) else None
        if kind not in RANGE_TYPES:
            out.append(Problem(where + ".type", "must be one of %s" % ", ".join(RANGE_TYPES), kind))
            continue
        cls = RANGE_TYPES[kind]
        if cls is CategoricalParameter:
            fields = _mapping(where, body, _CATEGORICAL_KEYS, out)
            if "values" not in fields:
                out.append(Problem(where + ".values", "is required"))
                continue
            ranges[name] = CategoricalParameter(fields["values"])
        else:
            fields = _mapping(where, body, _BOUNDED_KEYS, out)
            missing = [k for k in ("min_value", "max_value") if k not in fields]
            for key in missing:
                out.append(Problem("%s.%s" % (where, key), "is required"))
            if not missing:
                ranges[name] = cls(fields["min_value"], fields["max_value"], fields.get("scaling_type", "Auto"))
    return ranges


def _warm_start(value, out):
    fields = _mapping(_where("warm_start_config"), value, _WARM_START_KEYS, out)
    if fields is None:
        return None
    return WarmStartConfig(fields.get("type"), fields.get("parents"))


def _completion(value, out):
    valid = tuple(a.name for a in attrs.fields(TuningJobCompletionCriteriaConfig))
    fields = _mapping(_where("completion_criteria_config"), value, valid, out)
    return None if fields is None else TuningJobCompletionCriteriaConfig(**fields)


def _strategy_config(value, out):
    path = _where("strategy_config")
    fields = _mapping(path, value, _HYPERBAND_KEYS, out)
    if fields is None:
        return None
    for key in _HYPERBAND_KEYS:
        if key not in fields:
            out.append(Problem("%s.%s" % (path, key), "is required"))
    return StrategyConfig(HyperbandStrategyConfig(fields.get("max_resource"), fields.get("min_resource")))


_CONVERT = {"hyperparameter_ranges": _ranges, "warm_start_config": _warm_start,
            "completion_criteria_config": _completion, "strategy_config": _strategy_config}


def parse(section):
    """The :class:`TuningSpec` of a spec's ``tuning:`` section (None: none)."""
    out = []
    if section is None:
        return TuningSpec({}, {}, [Problem(TUNING_KEY, "is required: the tuning job's settings (objective_metric_name, "
                                                       "hyperparameter_ranges, ...)")])
    if not isinstance(section, dict):
        return TuningSpec({}, {}, [Problem(TUNING_KEY, "must be a mapping of the tuner's arguments", section)])
    valid = _tuner_keys()
    kwargs, fit_kwargs = {}, {}
    for key, value in section.items():
        if key not in valid:
            _unknown(_where(str(key)), key, valid, out)
            continue
        if key in _CONVERT and value is not None:
            value = _CONVERT[key](value, out)
        (fit_kwargs if key in FIT_KEYS else kwargs)[key] = value
    for key in ("objective_metric_name", "hyperparameter_ranges"):
        if key not in section:
            out.append(Problem(_where(key), "is required"))
    return TuningSpec(kwargs, fit_kwargs, out)


def _spec_terms(path):
    """A tuner's problem path in the spec's terms."""
    if path.startswith("estimator."):
        return spec_path(path[len("estimator."):])
    if path.startswith("inputs"):
        return spec_path(path)
    return _where(path.replace("strategy_config.hyperband_strategy_config.", "strategy_config."))


def check(spec, session=None, facts=None, now=0.0, path_exists=None, digest=False):
    """``(tuning_spec, job, tuning, plan, problems)``: the spec's tuning job, its plan (the training and
    the tuning request each rendered once; ``digest``: with the code key a dry run shows) and every
    problem, in the spec's terms: the spec's own, the section's, then round one of the tuning job
    (``_tuning.checks.planned``)."""
    section = parse(spec.tuning)
    settings = build.settings(spec.estimator_class.framework, spec.kwargs, spec.inputs,
                               job_name=section.fit_kwargs.get("job_name"), experiment_config=spec.experiment_config)
    found = []
    for name, message in checks.UNSUPPORTED:
        if section.kwargs.get(name) not in (None, False):
            found.append(Problem(name, message, section.kwargs[name]))
    job, tuning, made, problems = checks.planned(settings, section.settings(), session, facts, now, path_exists, found,
                                                 digest=digest)
    return section, job, tuning, made, told(spec, section)(problems)


def told(spec, section):
    """``problems -> problems``: a tuner's problems in the spec's terms, after the spec's and the section's
    own (a malformed part is not reported again): ``check``'s, and the CLI's tuner's (its fit's one check)."""
    def telling(problems):
        out = Problems(list(spec.problems) + list(section.problems))
        out.add_new((p.renamed(_spec_terms(p.path)) for p in problems), within=True)
        return out.items
    return telling

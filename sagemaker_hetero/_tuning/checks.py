"""A tuning job's checks: our rules, the training request's parts with no place in a tuning job,
and the service's limits on the rendered request. Pure.

:func:`planned` is round one for a tuning job, the same for ``HyperparameterTuner`` and the CLI's
``tune`` commands: the training job's round one and plan (``_runner.planned``; its problems named
``estimator.<argument>``), the tuning model (``_tuning.model.build``), then :func:`plan_problems`: our rules
(:func:`problems`), the parts with no place (:func:`misplaced_problems`), then botocore's model on
the rendered CreateHyperParameterTuningJob request, each problem under the user's argument name.
"""
import numbers

import attrs

from sagemaker_hetero import _defaults as D
from sagemaker_hetero import _runner
from sagemaker_hetero._checks import round_one, rules, service
from sagemaker_hetero._model import hyperparameters as H
from sagemaker_hetero._request.describe import value_at
from sagemaker_hetero._request.render import user_path
from sagemaker_hetero._tuning.model import (CLASS_NAME_KEY, KINDS, LOGARITHMIC, MODULE_KEY, REVERSE_LOGARITHMIC,
                                            TUNING_OPERATION, build, estimator_arg)
from sagemaker_hetero._tuning import render as _render
from sagemaker_hetero._tuning.render import TRAINING_SHAPE, as_text, moves, shape_members
from sagemaker_hetero.exceptions import Problem, Problems
from sagemaker_hetero.parameter import CategoricalParameter, IntegerParameter

__all__ = ["problems", "plan_problems", "planned", "misplaced_problems", "UNSUPPORTED"]

#: What the SDK v2's tuner takes that this tuner does not, and what to do instead (the tuner's
#: arguments; a spec's tuning section is refused the same way).
UNSUPPORTED = (
    ("estimator_name", "tunes several estimators at once, which this tuner does not: tune one estimator"),
    ("autotune", "is not supported: give hyperparameter_ranges"),
    ("hyperparameters_to_keep_static", "goes with autotune, which is not supported"),
)


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def problems(tuning, job):
    """Every problem of ours with ``tuning`` over the training ``job``."""
    out = Problems()
    _check_ranges(tuning, job, out)
    _check_objective(tuning, job, out)
    _check_strategy(tuning, out)
    out.items.extend(rules.tag_problems(tuning.tags))
    return out.items


def _sdk_keys(job):
    return set(key for key, _, _ in H.sdk_entries(job)) | set((CLASS_NAME_KEY, MODULE_KEY))


def _check_ranges(tuning, job, out):
    if not tuning.ranges:
        out.add("hyperparameter_ranges", "must name at least one hyperparameter to tune", {})
    sdk_keys = _sdk_keys(job)
    for key, _ in job.hyperparameters:
        if key in (CLASS_NAME_KEY, MODULE_KEY):
            out.add(estimator_arg("hyperparameters[%r]" % (key,)), "is set by the tuner itself; remove it", key)
    for r in tuning.ranges:
        if r.name in sdk_keys:
            out.add(r.arg, "is a hyperparameter the SDK sets itself; tune your own hyperparameters", r.name)
        if r.kind == CategoricalParameter.kind:
            for i, value in enumerate(r.values):
                if as_text(value) is None:
                    out.add("%s.values[%d]" % (r.arg, i), "cannot be written as a string", value)
            continue
        number = _is_int if r.kind == IntegerParameter.kind else _is_number
        what = "an integer" if r.kind == IntegerParameter.kind else "a number"
        bounds_ok = True
        for attr in ("min_value", "max_value"):
            value = getattr(r, attr)
            if not number(value):
                out.add("%s.%s" % (r.arg, attr), "must be %s" % what, value)
                bounds_ok = False
        if not bounds_ok:
            continue
        if r.min_value > r.max_value:
            out.add("%s.min_value" % r.arg, "must not be above max_value (%r)" % (r.max_value,), r.min_value)
        elif r.scaling_type == LOGARITHMIC and r.min_value <= 0:
            # AWS: logarithmic scaling works only for ranges of values above 0
            out.add("%s.min_value" % r.arg, "must be above 0 for Logarithmic scaling", r.min_value)
        elif r.scaling_type == REVERSE_LOGARITHMIC and (r.kind == IntegerParameter.kind
                                                         or not 0 <= r.min_value <= r.max_value < 1):
            # AWS: reverse logarithmic scaling is for continuous ranges within 0 <= x < 1
            out.add("%s.scaling_type" % r.arg, "ReverseLogarithmic scaling is for a ContinuousParameter within "
                    "0 <= x < 1", r.scaling_type)
    # AWS: the ranges of all kinds together may hold no more hyperparameters than one list may (the model's max)
    most = min(service.shape(shape_members("ParameterRanges")[kind + "ParameterRanges"]).get("max", len(tuning.ranges))
               for kind in KINDS)
    if len(tuning.ranges) > most:
        out.add("hyperparameter_ranges", "may tune at most %d hyperparameters in all" % most, len(tuning.ranges))
    # A training job of the tuning job receives the static and the tuned hyperparameters together.
    received = set(key for key, _ in job.hyperparameters) | sdk_keys | set(r.name for r in tuning.ranges)
    if job.framework is None and not tuning.include_cls_metadata:
        received -= set((CLASS_NAME_KEY, MODULE_KEY))
    limit = service.shape(shape_members(TRAINING_SHAPE)["HyperParameters"]).get("max")
    if limit is not None and len(received) > limit:
        out.add("hyperparameter_ranges", "the training jobs would receive %d hyperparameters (the static ones, the SDK's "
                "and the tuned ones); a training job takes at most %d" % (len(received), limit), len(tuning.ranges))


def _check_objective(tuning, job, out):
    name = tuning.objective_metric_name
    if name is None:
        return
    definitions = tuning.metric_definitions or job.metric_definitions or ()
    names = [m.get("Name") for m in definitions if isinstance(m, dict)]
    if names:
        if name not in names:
            out.add("objective_metric_name", "is not one of the metric definitions (%s)%s"
                    % (", ".join(repr(n) for n in names), rules.did_you_mean(name, [n for n in names if isinstance(n, str)])),
                    name)
    elif job.framework is not None:
        out.add("objective_metric_name", "needs a metric definition: pass metric_definitions=[{'Name': %r, 'Regex': "
                "...}] with a regex that finds the value in the training log (a framework image has no built-in "
                "metrics)" % (name,), name)


def _check_strategy(tuning, out):
    if tuning.strategy == D.GRID_STRATEGY:
        for r in tuning.ranges:
            if r.kind != CategoricalParameter.kind:
                out.add(r.arg, "the Grid strategy searches categorical ranges only (AWS); use CategoricalParameter",
                        r.kind)
    if tuning.strategy_config is not None and tuning.strategy != D.HYPERBAND_STRATEGY:
        out.add("strategy_config", "configures the Hyperband strategy; give strategy='Hyperband' or leave it out",
                tuning.strategy)


def plan_problems(tuning, training, now, found=()):
    """``(plan, problems)``: the tuning job's :class:`~._request.plan.Plan` over the training job's plan
    ``training`` (its CreateHyperParameterTuningJob request rendered once, ``_tuning.render``), and
    round one for it: ``found``, a training plan for this machine refused (its facts' ``local``: a
    LocalSession's), our rules, the training request's parts with no place in the definition, then
    the service's limits on the rendered request (an unknown account stood in for). A problem of an
    argument already reported is left out."""
    job = training.job
    out = Problems(found)
    mine = problems(tuning, job)
    if training.facts is not None and training.facts.local:
        mine.insert(0, Problem("sagemaker_session", "a LocalSession runs training jobs, not tuning jobs: tune with a "
                                                    "Session"))
    out.add_new(mine)
    out.items.extend(misplaced_problems(training))
    rendered = _render.render(tuning, training, now)
    out = out.add_new(round_one.rendered_problems(round_one.stood_in(rendered, training.facts), TUNING_OPERATION))
    made = attrs.evolve(training, rendered=rendered, job_name=rendered.request["HyperParameterTuningJobName"],
                        operation=TUNING_OPERATION, training=training)
    return made, out


def planned(settings, tuning_settings, session=None, facts=None, now=0.0, path_exists=None, found=(), submit=False,
            digest=True):
    """``(job, tuning, plan, problems)``: round one for a tuning job as ``session`` would run it: the
    training job of ``settings`` (its problems named ``estimator.<argument>``), the tuning model of
    ``tuning_settings``, then :func:`plan_problems`; the training request and the tuning request each
    rendered once (``_runner.planned``, then :func:`plan_problems`); ``submit``: with the facts the
    session looks up."""
    job, training, problems = _runner.planned(settings, session, now, path_exists, facts=facts, submit=submit,
                                              digest=digest)
    found = list(found) + [p.renamed(estimator_arg(p.path)) for p in problems]
    tuning, more = build(tuning_settings)
    made, problems = plan_problems(tuning, training, now, found + more)
    return job, tuning, made, problems


def misplaced_problems(plan):
    """A problem for each part of the training request a tuning job's training jobs cannot take."""
    training = plan.rendered
    _, misplaced = moves(training.request, plan.job.heterogeneous)
    out = []
    for path in misplaced:
        arg = training.origins.get(path)
        if arg is None:  # a structure the renderer wrote for one argument (RemoteDebugConfig's one member)
            under = sorted((p, a) for p, a in training.origins.items() if p[:len(path)] == path and a is not None)
            arg = under[0][1] if under else user_path(training.origins, path)
        arg = estimator_arg(arg)
        out.append(Problem(arg, "a tuning job's training jobs cannot take it (CreateHyperParameterTuningJob has no "
                           "%s); leave it out to tune" % ".".join(path), value_at(training.request, path)))
    return out

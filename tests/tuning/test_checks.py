"""``_tuning.checks``: a tuning job's rules, the training request's parts with no place in it, and the service's
limits on the rendered tuning request, called directly on the models (no tuner, no session)."""
import pytest

from sagemaker_hetero._model import record
from sagemaker_hetero._request import plan
from sagemaker_hetero._tuning import checks, model
from sagemaker_hetero._tuning.config import HyperbandStrategyConfig, StrategyConfig
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter
from tests._pure import FACTS, PYTORCH, ROUTED, job

METRICS = [{"Name": "loss", "Regex": "loss=([0-9.]+)"}]
TUNER = dict(objective_metric_name="loss", metric_definitions=METRICS, hyperparameter_ranges={"lr": ContinuousParameter(0.01, 0.1)})


def _problems(tuner_changes=None, local=False, **job_changes):
    tuner = dict(TUNER, **(tuner_changes or {}))
    tuning, found = model.build(model.TuningSettings(**tuner))
    arguments = dict((k, v) for k, v in dict(PYTORCH, **job_changes).items() if v is not None)
    training = job("pytorch", ROUTED, **arguments)
    facts = record.evolve(FACTS, local=True) if local else FACTS  # a LocalSession's facts
    return [(p.path, p.message) for p in checks.plan_problems(tuning, plan.make_plan(training, facts, 0), 0, found)[1]]


# (id, tuner changes, job changes, the problem's path, a fragment of its message)
ROWS = [
    ("a range at least", dict(hyperparameter_ranges={}), {}, "hyperparameter_ranges", "must name at least one hyperparameter"),
    ("not an SDK key", dict(hyperparameter_ranges={"sagemaker_program": CategoricalParameter(["a"])}), {},
     "hyperparameter_ranges['sagemaker_program']", "is a hyperparameter the SDK sets itself"),
    ("not the tuner's key", {}, dict(hyperparameters={"sagemaker_estimator_class_name": "X"}),
     "estimator.hyperparameters['sagemaker_estimator_class_name']", "is set by the tuner itself"),
    ("integer bounds", dict(hyperparameter_ranges={"n": IntegerParameter(1.5, 3)}), {},
     "hyperparameter_ranges['n'].min_value", "must be an integer"),
    ("min at most max", dict(hyperparameter_ranges={"lr": ContinuousParameter(1, 0.1)}), {},
     "hyperparameter_ranges['lr'].min_value", "must not be above max_value (0.1)"),
    ("logarithmic above 0", dict(hyperparameter_ranges={"lr": ContinuousParameter(0, 1, scaling_type="Logarithmic")}), {},
     "hyperparameter_ranges['lr'].min_value", "must be above 0 for Logarithmic scaling"),
    ("reverse logarithmic below 1", dict(hyperparameter_ranges={"m": ContinuousParameter(0.5, 1, scaling_type="ReverseLogarithmic")}),
     {}, "hyperparameter_ranges['m'].scaling_type", "ReverseLogarithmic scaling is for a ContinuousParameter within 0 <= x < 1"),
    ("the objective among the metrics", dict(objective_metric_name="los"), {}, "objective_metric_name",
     "is not one of the metric definitions ('loss'); did you mean 'loss'?"),
    ("a framework's objective needs a metric", dict(metric_definitions=None), {}, "objective_metric_name",
     "needs a metric definition"),
    ("grid is categorical", dict(strategy="Grid"), {}, "hyperparameter_ranges['lr']",
     "the Grid strategy searches categorical ranges only"),
    ("hyperband's config", dict(strategy_config=StrategyConfig(HyperbandStrategyConfig(10, 1))), {}, "strategy_config",
     "configures the Hyperband strategy"),
    ("the tuner's tags", dict(tags=[{"Key": "aws:x", "Value": "1"}]), {}, "tags[0].Key", "reserved by AWS"),
    ("a part with no place", {}, dict(keep_alive_period_in_seconds=60, instance_groups=None, instance_type="ml.p4d.24xlarge",
                                      instance_count=1),
     "estimator.keep_alive_period_in_seconds", "a tuning job's training jobs cannot take it"),
    ("the service's limits on the tuning request", dict(max_parallel_jobs=0), {}, "max_parallel_jobs", "must be an integer between 1"),
    ("the tuning job's name", dict(job_name="a_b"), {}, "job_name", "must match the pattern"),
    ("a training job's limit under the estimator's name", {}, dict(max_run=0), "estimator.max_run", "must be an integer between 1"),
]


@pytest.mark.parametrize("tuner, job_changes, path, fragment", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_each_tuning_problem_names_the_argument(tuner, job_changes, path, fragment):
    # a homogeneous job takes one channel to every host (the routed channels name groups it has not)
    found = _homogeneous(tuner, job_changes) if "instance_type" in job_changes else _problems(tuner, **job_changes)
    at = [m for p, m in found if p == path]
    assert len(at) == 1 and fragment in at[0], found


def _homogeneous(tuner, job_changes):
    tuning, found = model.build(model.TuningSettings(**dict(TUNER, **tuner)))
    arguments = dict((k, v) for k, v in dict(PYTORCH, **job_changes).items() if v is not None)
    training = plan.make_plan(job("pytorch", "s3://b/t", **arguments), FACTS, 0)
    return [(p.path, p.message) for p in checks.plan_problems(tuning, training, 0, found)[1]]


def test_a_valid_tuning_job_has_no_problem_and_a_local_session_is_refused():
    assert _problems() == []
    assert [p for p, _ in _problems(local=True)] == ["sagemaker_session"]


def test_misplaced_problems_name_each_part_of_the_training_request_a_tuning_job_cannot_take():
    arguments = dict(PYTORCH, instance_groups=None, instance_type="ml.c5.xlarge", instance_count=1, keep_alive_period_in_seconds=60)
    training = plan.make_plan(job("pytorch", **arguments), FACTS, 0)
    assert [(p.path, p.value) for p in checks.misplaced_problems(training)] == [("estimator.keep_alive_period_in_seconds", 60)]
    hetero = plan.make_plan(job("pytorch", **dict(PYTORCH, instance_groups=[InstanceGroup("a", "ml.c5.xlarge", 1)])), FACTS, 0)
    assert checks.misplaced_problems(hetero) == []

"""``_tuning.model.build`` and ``_tuning.render``: the CreateHyperParameterTuningJob request over a training job's
plan, called directly. The homogeneous conformance scenarios, built from settings, give exactly the SDK v2's
recorded request; their heterogeneous twins differ only where the instance groups go."""
import json
import os
import sys

import pytest

from sagemaker_hetero._request import plan
from sagemaker_hetero._tuning import model, render
from sagemaker_hetero._tuning.config import TuningJobCompletionCriteriaConfig, WarmStartConfig, WarmStartTypes
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.parameter import CategoricalParameter, ContinuousParameter, IntegerParameter
from tests._pure import CONFORMANCE, FACTS, ROLE, code_key_as_sdk_v2, expectation, job

sys.path.insert(0, os.path.join(CONFORMANCE, "tuning"))
from normalize_tuning import normalize_tuning  # noqa: E402

sys.path.pop(0)

_IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"
_GENERIC = dict(image_uri=_IMAGE, role=ROLE, instance_type="ml.m5.xlarge", instance_count=1, output_path="s3://my-out/out",
                disable_profiler=True)
_PYTORCH = dict(entry_point="train.py", source_dir="src", framework_version="2.2.0", py_version="py310", role=ROLE,
                instance_type="ml.p4d.24xlarge", instance_count=2, output_path="s3://my-out/out", base_job_name="hetero-train",
                hyperparameters={"epochs": 3, "lr": 0.1, "optimizer": "adam", "batch-size": 64},
                distribution={"mpi": {"enabled": True, "processes_per_host": 8}}, max_run=7200,
                tags=[{"Key": "team", "Value": "ml"}], environment={"MODE": "tune"}, max_retry_attempts=2, disable_profiler=True)
_PYTORCH_TUNER = dict(
    objective_metric_name="validation:loss",
    hyperparameter_ranges={"lr": ContinuousParameter(0.001, 0.1, scaling_type="Logarithmic"), "batch-size": IntegerParameter(32, 256),
                           "optimizer": CategoricalParameter(["adam", "sgd"])},
    metric_definitions=[{"Name": "validation:loss", "Regex": "val_loss=([0-9\\.]+)"}], strategy="Bayesian",
    objective_type="Minimize", max_jobs=10, max_parallel_jobs=2, max_runtime_in_seconds=36000,
    tags=[{"Key": "project", "Value": "hetero"}], base_tuning_job_name="hetero-hpo", early_stopping_type="Auto",
    warm_start_config=WarmStartConfig(WarmStartTypes.IDENTICAL_DATA_AND_ALGORITHM, parents={"parent-hpo-1"}), random_seed=7,
    completion_criteria_config=TuningJobCompletionCriteriaConfig(max_number_of_training_jobs_not_improving=5,
                                                                 complete_on_convergence=True, target_objective_metric_value=0.01))
_DATA, _DNN = InstanceGroup("data_group", "ml.c5.18xlarge", 2), InstanceGroup("dnn_group", "ml.p4d.24xlarge", 2)
#: name -> (framework, estimator arguments, fit's inputs, the tuner's arguments): tests/conformance/tuning/<name>.py
SCENARIOS = {
    "generic_homog": (None, dict(_GENERIC, hyperparameters={"depth": 6, "mode": "fast"}), "s3://my-bucket/train", dict(
        objective_metric_name="auc", metric_definitions=[{"Name": "auc", "Regex": "auc: ([0-9.]+)"}], max_jobs=4,
        hyperparameter_ranges={"depth": IntegerParameter(2, 10), "mode": CategoricalParameter(["fast", "exact"])})),
    "pytorch_homog": ("pytorch", _PYTORCH, {"train": TrainingInput("s3://my-bucket/train"),
                                            "dummy": TrainingInput("s3://my-bucket/dummy")}, _PYTORCH_TUNER),
}
HETERO = ("pytorch", dict(_PYTORCH, instance_type=None, instance_count=None, instance_groups=[_DATA, _DNN],
                          distribution={"mpi": {"enabled": True, "processes_per_host": 8}, "instance_groups": [_DNN]}),
          {"train": TrainingInput("s3://my-bucket/train", instance_groups=["data_group"]),
           "dummy": TrainingInput("s3://my-bucket/dummy", instance_groups=["dnn_group"])}, _PYTORCH_TUNER)


def tuning_request(framework, arguments, inputs, tuner, now=0):
    """``(rendered tuning request, training plan)`` of the scenario's settings."""
    arguments = dict((k, v) for k, v in arguments.items() if v is not None)
    training = plan.make_plan(job(framework, inputs, **arguments), FACTS, now)
    tuning, found = model.build(model.TuningSettings(**tuner))
    assert found == []
    return render.render(tuning, training, now), training


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_scenarios_settings_render_the_sdk_v2s_tuning_request(name):
    expected = code_key_as_sdk_v2(expectation("tuning", name)["CreateHyperParameterTuningJob"])
    rendered, _ = tuning_request(*SCENARIOS[name])
    assert code_key_as_sdk_v2(normalize_tuning(rendered.request)) == expected


def test_the_heterogeneous_definition_is_the_training_requests_cluster_channels_and_distribution():
    rendered, training = tuning_request(*HETERO)
    definition = rendered.request["TrainingJobDefinition"]
    assert "HyperParameterTuningResourceConfig" not in definition
    assert definition["ResourceConfig"] == training.request["ResourceConfig"]
    assert definition["InputDataConfig"] == training.request["InputDataConfig"]
    assert [c["DataSource"]["S3DataSource"]["InstanceGroupNames"] for c in definition["InputDataConfig"]] == [["data_group"],
                                                                                                            ["dnn_group"]]
    assert json.loads(definition["StaticHyperParameters"]["sagemaker_distribution_instance_groups"]) == ["dnn_group"]
    homog, _ = tuning_request(*SCENARIOS["pytorch_homog"])
    assert rendered.request["HyperParameterTuningJobConfig"] == homog.request["HyperParameterTuningJobConfig"]


def test_tuned_hyperparameters_leave_the_static_ones_and_the_class_is_named():
    rendered, training = tuning_request(*SCENARIOS["pytorch_homog"])
    static = rendered.request["TrainingJobDefinition"]["StaticHyperParameters"]
    assert set(training.request["HyperParameters"]) - set(static) == {"lr", "batch-size", "optimizer"}
    assert (json.loads(static[model.CLASS_NAME_KEY]), json.loads(static[model.MODULE_KEY])) == ("PyTorch",
                                                                                                 "sagemaker.pytorch.estimator")


@pytest.mark.parametrize("path, user_path", [
    (("HyperParameterTuningJobConfig", "ParameterRanges", "IntegerParameterRanges", 0, "MinValue"),
     "hyperparameter_ranges['batch-size'].min_value"),
    (("HyperParameterTuningJobConfig", "ResourceLimits", "MaxParallelTrainingJobs"), "max_parallel_jobs"),
    (("TrainingJobDefinition", "StoppingCondition", "MaxRuntimeInSeconds"), "estimator.max_run"),
    (("TrainingJobDefinition", "HyperParameterTuningResourceConfig", "InstanceType"), "estimator.instance_type"),
    (("TrainingJobDefinition", "InputDataConfig", 1, "DataSource", "S3DataSource", "S3Uri"), "inputs['dummy'].s3_data"),
    (("TrainingJobDefinition", "StaticHyperParameters", "epochs"), "estimator.hyperparameters['epochs']"),
    (("Tags", 0, "Key"), "tags[0].Key"),
    (("Tags", 1, "Key"), "estimator.tags[0].Key"),
    (("WarmStartConfig", "ParentHyperParameterTuningJobs", 0), "warm_start_config.parents[0]"),
])
def test_every_part_is_named_as_the_tuner_names_it(path, user_path):
    from sagemaker_hetero._request.render import user_path as name_of

    rendered, _ = tuning_request(*SCENARIOS["pytorch_homog"])
    assert name_of(rendered.origins, path) == user_path


@pytest.mark.parametrize("tuner, now, name", [
    (dict(job_name="given"), 0, ("given", "job_name")),
    (dict(base_tuning_job_name="base"), 0, ("base-700101-0000", "base_tuning_job_name")),
    (dict(base_tuning_job_name="b" * 40), 0, ("b" * 20 + "-700101-0000", "base_tuning_job_name")),
    ({}, 0, ("my-image-700101-0000", "base_tuning_job_name")),
])
def test_the_tuning_jobs_name(tuner, now, name):
    tuning = model.build(model.TuningSettings(hyperparameter_ranges={"x": IntegerParameter(1, 2)}, **tuner))[0]
    assert render.tuning_job_name(tuning, _IMAGE, now) == name


@pytest.mark.parametrize("heterogeneous, request_, moved, misplaced", [
    (False, {"ResourceConfig": {"InstanceType": "t", "InstanceCount": 1, "KeepAlivePeriodInSeconds": 60}, "RoleArn": "r"},
     [(("ResourceConfig", "InstanceType"), ("HyperParameterTuningResourceConfig", "InstanceType")),
      (("ResourceConfig", "InstanceCount"), ("HyperParameterTuningResourceConfig", "InstanceCount")),
      (("RoleArn",), ("RoleArn",))],
     [("ResourceConfig", "KeepAlivePeriodInSeconds")]),
    (True, {"ResourceConfig": {"InstanceGroups": []}, "TrainingJobName": "n", "HyperParameters": {}, "Tags": []},
     [(("ResourceConfig",), ("ResourceConfig",))], []),
    (False, {"ExperimentConfig": {}, "AlgorithmSpecification": {"TrainingImage": "i", "EnableSageMakerMetricsTimeSeries": True}},
     [(("AlgorithmSpecification", "TrainingImage"), ("AlgorithmSpecification", "TrainingImage"))], [("ExperimentConfig",)]),
])
def test_moves_read_off_the_service_model(heterogeneous, request_, moved, misplaced):
    assert render.moves(request_, heterogeneous) == (moved, misplaced)


BUILD_PROBLEMS = [
    (dict(hyperparameter_ranges=None), "hyperparameter_ranges", "is required: a dict of hyperparameter name to"),
    (dict(hyperparameter_ranges=[1]), "hyperparameter_ranges", "must be a dict of hyperparameter name"),
    (dict(hyperparameter_ranges={"x": (1, 2)}), "hyperparameter_ranges['x']", "must be a ContinuousParameter, IntegerParameter"),
    (dict(hyperparameter_ranges={1: IntegerParameter(1, 2)}), "hyperparameter_ranges[1]", "the hyperparameter's name must be"),
    (dict(warm_start_config="parent"), "warm_start_config", "must be a WarmStartConfig"),
    (dict(warm_start_config=WarmStartConfig("Hot", parents=["p"])), "warm_start_config.type", "must be one of WarmStartTypes."),
    (dict(warm_start_config=WarmStartConfig(WarmStartTypes.TRANSFER_LEARNING, parents="p")), "warm_start_config.parents",
     "must be a list or set of tuning job names"),
    (dict(completion_criteria_config={"x": 1}), "completion_criteria_config", "must be a TuningJobCompletionCriteriaConfig"),
    (dict(completion_criteria_config=TuningJobCompletionCriteriaConfig(complete_on_convergence="yes")),
     "completion_criteria_config.complete_on_convergence", "must be True or False"),
    (dict(strategy_config={"max_resource": 3}), "strategy_config", "must be StrategyConfig(HyperbandStrategyConfig("),
    (dict(include_cls_metadata="yes"), "include_cls_metadata", "must be True or False"),
    (dict(tags="a=b"), "tags", "a list of {'Key': ..., 'Value': ...} or a dict"),
]


@pytest.mark.parametrize("settings, path, fragment", BUILD_PROBLEMS)
def test_the_tuning_builder_names_what_it_cannot_interpret(settings, path, fragment):
    arguments = dict(hyperparameter_ranges={"x": IntegerParameter(1, 2)})
    arguments.update(settings)
    _, found = model.build(model.TuningSettings(**arguments))
    assert [(p.path, fragment in p.message) for p in found] == [(path, True)], found


@pytest.mark.parametrize("max_jobs, strategy, kept", [(None, "Bayesian", 1), (None, "Grid", None), (5, "Grid", 5), (7, "Random", 7)])
def test_default_max_jobs(max_jobs, strategy, kept):
    assert model.default_max_jobs(max_jobs, strategy) == kept


@pytest.mark.parametrize("path, named", [(None, None), ("inputs['a']", "inputs['a']"), ("job_name", "job_name"),
                                         ("max_run", "estimator.max_run")])
def test_estimator_arg(path, named):
    assert model.estimator_arg(path) == named

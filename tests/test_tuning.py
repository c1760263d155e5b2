"""HyperparameterTuner: the request (its training job definition is the estimator's training request),
every check before any call, and the tuning job against the moto server (create, describe, wait,
best job, stop, attach). SDK v2 conformance is in tests/test_tuning_conformance.py."""
import io
import json

import boto3
import pytest

from sagemaker_hetero import ConfigError, InstanceGroup, LocalSession, PyTorch, Session, TrainingInput
from sagemaker_hetero import exceptions as E
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.tuner import (CategoricalParameter, ContinuousParameter, HyperbandStrategyConfig,
                                    HyperparameterTuner, IntegerParameter, StrategyConfig,
                                    TuningJobCompletionCriteriaConfig, WarmStartConfig, WarmStartTypes)

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"
METRICS = [{"Name": "loss", "Regex": "loss=([0-9.]+)"}]
RANGES = {"lr": ContinuousParameter(0.001, 0.1), "layers": IntegerParameter(2, 8),
          "optimizer": CategoricalParameter(["adam", "sgd"])}
INPUTS = {
    "train": TrainingInput("s3://bucket/train", instance_groups=["data"]),
    "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn"]),
}


def groups():
    return [InstanceGroup("data", "ml.c5.18xlarge", 2), InstanceGroup("dnn", "ml.p4d.24xlarge", 1)]


def pytorch(**overrides):
    kwargs = dict(entry_point="train.py", framework_version="2.2.0", py_version="py310", role=ROLE,
                  instance_groups=groups(), hyperparameters={"epochs": 3, "lr": 0.01},
                  distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["dnn"]},
                  output_path="s3://bucket/out")
    kwargs.update(overrides)
    return PyTorch(**kwargs)


def tuner(estimator=None, **overrides):
    kwargs = dict(objective_metric_name="loss", hyperparameter_ranges=dict(RANGES), metric_definitions=METRICS,
                  objective_type="Minimize", max_jobs=4, max_parallel_jobs=2)
    kwargs.update(overrides)
    return HyperparameterTuner(estimator if estimator is not None else pytorch(), **kwargs)


def problems_of(excinfo):
    return dict((p.path, p) for p in excinfo.value.problems)


# -- the request -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("workdir")
def test_the_training_job_definition_is_the_estimators_training_request():
    est = pytorch(subnets=["subnet-1"], security_group_ids=["sg-1"], checkpoint_s3_uri="s3://bucket/ckpt",
                  use_spot_instances=True, max_wait=90000, environment={"A": "1"}, max_retry_attempts=3,
                  volume_size=100, encrypt_inter_container_traffic=True, input_mode="FastFile")
    training = est.fit(INPUTS, job_name="hpo-1", dry_run=True)
    request = tuner(est).fit(INPUTS, job_name="hpo-1", dry_run=True)
    definition = request["TrainingJobDefinition"]
    for key in ("RoleArn", "OutputDataConfig", "StoppingCondition", "ResourceConfig", "InputDataConfig", "VpcConfig",
                "CheckpointConfig", "EnableManagedSpotTraining", "EnableInterContainerTrafficEncryption",
                "RetryStrategy", "Environment"):
        assert definition[key] == training[key], key
    assert definition["ResourceConfig"]["InstanceGroups"] == [
        {"InstanceGroupName": "data", "InstanceType": "ml.c5.18xlarge", "InstanceCount": 2},
        {"InstanceGroupName": "dnn", "InstanceType": "ml.p4d.24xlarge", "InstanceCount": 1}]
    spec = training["AlgorithmSpecification"]
    assert definition["AlgorithmSpecification"] == {"TrainingInputMode": "FastFile", "TrainingImage": spec["TrainingImage"],
                                                    "MetricDefinitions": METRICS}
    # the static hyperparameters: the training job's, the tuned 'lr' out, the estimator class in (as the SDK v2)
    static = dict(definition["StaticHyperParameters"])
    assert static.pop("sagemaker_estimator_class_name") == '"PyTorch"'
    assert static.pop("sagemaker_estimator_module") == '"sagemaker.pytorch.estimator"'
    expected = dict(training["HyperParameters"])
    del expected["lr"]
    assert static == expected
    assert static["sagemaker_distribution_instance_groups"] == '["dnn"]'
    assert static["sagemaker_torch_distributed_enabled"] == "true"
    assert request["HyperParameterTuningJobName"] == "hpo-1"
    assert "TrainingJobName" not in definition and "HyperParameters" not in definition


@pytest.mark.usefixtures("workdir")
def test_ranges_objective_and_limits_as_the_sdk_v2_writes_them():
    request = tuner(strategy="Random", early_stopping_type="Auto", max_runtime_in_seconds=3600, random_seed=3,
                    completion_criteria_config=TuningJobCompletionCriteriaConfig(complete_on_convergence=False),
                    warm_start_config=WarmStartConfig(WarmStartTypes.TRANSFER_LEARNING, parents={"b-job", "a-job"}),
                    tags={"project": "x"}).fit(INPUTS, dry_run=True)
    config = request["HyperParameterTuningJobConfig"]
    assert config["ParameterRanges"] == {
        "ContinuousParameterRanges": [{"Name": "lr", "MinValue": "0.001", "MaxValue": "0.1", "ScalingType": "Auto"}],
        "CategoricalParameterRanges": [{"Name": "optimizer", "Values": ['"adam"', '"sgd"']}],  # JSON: a framework image
        "IntegerParameterRanges": [{"Name": "layers", "MinValue": "2", "MaxValue": "8", "ScalingType": "Auto"}],
    }
    assert config["HyperParameterTuningJobObjective"] == {"Type": "Minimize", "MetricName": "loss"}
    assert config["ResourceLimits"] == {"MaxNumberOfTrainingJobs": 4, "MaxParallelTrainingJobs": 2,
                                        "MaxRuntimeInSeconds": 3600}
    assert (config["Strategy"], config["TrainingJobEarlyStoppingType"], config["RandomSeed"]) == ("Random", "Auto", 3)
    assert config["TuningJobCompletionCriteria"] == {"ConvergenceDetected": {"CompleteOnConvergence": "Disabled"}}
    assert request["WarmStartConfig"] == {"WarmStartType": "TransferLearning", "ParentHyperParameterTuningJobs": [
        {"HyperParameterTuningJobName": "a-job"}, {"HyperParameterTuningJobName": "b-job"}]}  # a set, sent sorted
    assert request["Tags"] == [{"Key": "project", "Value": "x"}]
    assert request["HyperParameterTuningJobName"].startswith("pytorch-training-")  # the image's name, and the minute
    assert len(request["HyperParameterTuningJobName"]) <= 32


@pytest.mark.usefixtures("workdir")
def test_a_generic_estimator_sends_plain_categorical_values_and_no_class_unless_asked():
    est = Estimator(image_uri=IMAGE, role=ROLE, instance_groups=groups(), hyperparameters={"depth": 3})
    t = HyperparameterTuner(est, "auc", {"mode": CategoricalParameter(["a", 1])})
    request = t.fit("s3://bucket/train", dry_run=True)
    assert request["HyperParameterTuningJobConfig"]["ParameterRanges"]["CategoricalParameterRanges"] == [
        {"Name": "mode", "Values": ["a", "1"]}]
    assert request["TrainingJobDefinition"]["StaticHyperParameters"] == {"depth": "3"}
    assert "MetricDefinitions" not in request["TrainingJobDefinition"]["AlgorithmSpecification"]  # a built-in's metric
    with_class = t.fit("s3://bucket/train", include_cls_metadata=True, dry_run=True)
    assert with_class["TrainingJobDefinition"]["StaticHyperParameters"]["sagemaker_estimator_class_name"] == '"Estimator"'
    assert t.hyperparameter_ranges()["CategoricalParameterRanges"] == [{"Name": "mode", "Values": ["a", "1"]}]


@pytest.mark.usefixtures("workdir")
def test_the_estimators_metric_definitions_serve_when_the_tuner_has_none():
    request = tuner(pytorch(metric_definitions=METRICS), metric_definitions=None).fit(INPUTS, dry_run=True)
    assert request["TrainingJobDefinition"]["AlgorithmSpecification"]["MetricDefinitions"] == METRICS


@pytest.mark.usefixtures("workdir")
def test_a_cluster_without_groups_goes_to_the_tuning_resource_config_as_in_the_sdk_v2():
    est = pytorch(instance_groups=None, instance_type="ml.p4d.24xlarge", instance_count=2, distribution=None,
                  volume_kms_key="alias/k")
    definition = tuner(est).fit("s3://bucket/train", dry_run=True)["TrainingJobDefinition"]
    assert definition["HyperParameterTuningResourceConfig"] == {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2,
                                                               "VolumeSizeInGB": 30, "VolumeKmsKeyId": "alias/k"}
    assert "ResourceConfig" not in definition


@pytest.mark.usefixtures("workdir")
def test_the_tuners_tags_then_the_estimators_by_key():
    est = pytorch(tags=[{"Key": "team", "Value": "ml"}, {"Key": "project", "Value": "from-estimator"}])
    request = tuner(est, tags=[{"Key": "project", "Value": "from-tuner"}]).fit(INPUTS, dry_run=True)
    assert request["Tags"] == [{"Key": "project", "Value": "from-tuner"}, {"Key": "team", "Value": "ml"}]


# -- checks: everything at once, under the user's names, before any call --------------------------


@pytest.mark.usefixtures("workdir")
def test_every_problem_is_reported_together_under_the_users_names(aws):
    est = pytorch(hyperparameters={"epochs": 3, "sagemaker_estimator_module": "x"})
    est.instance_groups[0] = InstanceGroup("data", "ml.c5.18xlarge", 0)  # changed after the estimator's own check
    with pytest.raises(ConfigError) as excinfo:
        tuner(est, objective_metric_name="accuracy", max_parallel_jobs=0, strategy="Grid",
              hyperparameter_ranges={"sagemaker_program": CategoricalParameter(["a.py"]),
                                     "lr": ContinuousParameter(0.0, 0.1, scaling_type="Logarithmic"),
                                     "layers": IntegerParameter(8, 2), "momentum": ContinuousParameter(0.5, 1.5,
                                                                                                        "ReverseLogarithmic"),
                                     "bad": "not a range"},
              strategy_config=StrategyConfig(HyperbandStrategyConfig(10, 1)),
              tags=[{"Key": "aws:x", "Value": "y"}])
    found = problems_of(excinfo)
    assert str(excinfo.value).startswith("%d problems with the tuning job:" % len(excinfo.value.problems))
    assert "estimator.instance_groups[0].instance_count" in found
    assert "is set by the tuner itself" in found["estimator.hyperparameters['sagemaker_estimator_module']"].message
    assert "SDK sets itself" in found["hyperparameter_ranges['sagemaker_program']"].message
    assert found["hyperparameter_ranges['lr'].min_value"].message == "must be above 0 for Logarithmic scaling"
    assert found["hyperparameter_ranges['layers'].min_value"].message == "must not be above max_value (2)"
    assert "ReverseLogarithmic" in found["hyperparameter_ranges['momentum'].scaling_type"].message
    assert "must be a ContinuousParameter" in found["hyperparameter_ranges['bad']"].message
    assert "is not one of the metric definitions ('loss')" in found["objective_metric_name"].message
    assert "between 1 and" in found["max_parallel_jobs"].message  # the service model's minimum
    assert "Hyperband" in found["strategy_config"].message
    assert "reserved by AWS" in found["tags[0].Key"].message
    assert "the Grid strategy searches categorical ranges only" in found["hyperparameter_ranges['momentum']"].message
    with pytest.raises(ConfigError) as excinfo:
        tuner().fit(INPUTS, job_name="a-tuning-job-name-longer-than-thirty-two")
    assert list(problems_of(excinfo)) == ["job_name"]
    assert problems_of(excinfo)["job_name"].message.startswith("must be at most 32 characters")  # the model's limit
    assert aws.requests == []  # nothing was sent


@pytest.mark.usefixtures("workdir")
def test_grid_searches_categorical_ranges_only():
    with pytest.raises(ConfigError) as excinfo:
        tuner(strategy="Grid", max_jobs=None)
    found = problems_of(excinfo)
    assert sorted(found) == ["hyperparameter_ranges['layers']", "hyperparameter_ranges['lr']"]
    grid = tuner(strategy="Grid", max_jobs=None, hyperparameter_ranges={"optimizer": RANGES["optimizer"]})
    assert "MaxNumberOfTrainingJobs" not in grid.fit(INPUTS, dry_run=True)["HyperParameterTuningJobConfig"][
        "ResourceLimits"]


@pytest.mark.usefixtures("workdir")
def test_a_framework_objective_needs_a_metric_definition():
    with pytest.raises(ConfigError) as excinfo:
        tuner(metric_definitions=None)
    assert "needs a metric definition" in problems_of(excinfo)["objective_metric_name"].message


@pytest.mark.usefixtures("workdir")
def test_parts_of_the_training_request_with_no_place_in_a_tuning_job_are_refused_not_dropped():
    est = pytorch(container_entry_point=["python"], enable_remote_debug=True, keep_alive_period_in_seconds=60,
                  instance_groups=None, instance_type="ml.c5.xlarge", instance_count=1, distribution=None)
    with pytest.raises(ConfigError) as excinfo:
        tuner(est)
    found = problems_of(excinfo)
    assert sorted(found) == ["estimator.container_entry_point", "estimator.enable_remote_debug",
                             "estimator.keep_alive_period_in_seconds"]
    assert "CreateHyperParameterTuningJob has no AlgorithmSpecification.ContainerEntrypoint" in found[
        "estimator.container_entry_point"].message


@pytest.mark.usefixtures("workdir")
def test_the_service_models_limits_of_the_tuning_request_apply():
    ranges = dict(("p%d" % i, IntegerParameter(1, 2)) for i in range(31))
    with pytest.raises(ConfigError) as excinfo:
        tuner(hyperparameter_ranges=ranges, max_jobs=True, early_stopping_type="Sometimes", random_seed="7")
    found = problems_of(excinfo)
    assert found["hyperparameter_ranges"].message == "may tune at most 30 hyperparameters in all"
    assert found["max_jobs"].message.startswith("must be an integer")
    assert found["early_stopping_type"].message == "must be one of Off, Auto"
    assert found["random_seed"].message.startswith("must be an integer")


def test_what_the_tuner_does_not_take_is_refused(workdir):
    with pytest.raises(TypeError, match="unexpected keyword argument 'objective'"):
        HyperparameterTuner(pytorch(), objective="loss", hyperparameter_ranges=RANGES)
    with pytest.raises(ConfigError) as excinfo:
        tuner(autotune=True, estimator_name="one", hyperparameters_to_keep_static=["epochs"])
    assert sorted(problems_of(excinfo)) == ["autotune", "estimator_name", "hyperparameters_to_keep_static"]
    with pytest.raises(ConfigError) as excinfo:
        HyperparameterTuner("not an estimator", "loss", RANGES)
    assert list(problems_of(excinfo)) == ["estimator"]
    with pytest.raises(ConfigError) as excinfo:
        tuner(pytorch(sagemaker_session=LocalSession()))
    assert "not tuning jobs" in problems_of(excinfo)["sagemaker_session"].message


@pytest.mark.usefixtures("workdir")
def test_the_constructor_leaves_to_fit_what_fit_decides():
    t = tuner(estimator=pytorch(base_job_name="bad_name"))  # a base fit's job_name may replace
    with pytest.raises(ConfigError) as excinfo:
        t.fit(INPUTS, dry_run=True)
    assert list(problems_of(excinfo)) == ["estimator.base_job_name"]
    assert t.fit(INPUTS, job_name="good-name", dry_run=True)["HyperParameterTuningJobName"] == "good-name"
    with pytest.raises(ConfigError) as excinfo:
        t.fit({"train": TrainingInput("s3://bucket/train", instance_groups=["gpu"])}, job_name="good-name", dry_run=True)
    assert "is not an instance group of this job" in problems_of(excinfo)["inputs['train'].instance_groups[0]"].message


# -- against the moto server -------------------------------------------------------------------------


@pytest.fixture
def code(tmp_path, monkeypatch):
    (tmp_path / "train.py").write_text("print('train')\n")
    monkeypatch.chdir(tmp_path)
    boto3.client("s3").create_bucket(Bucket="bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    return tmp_path


def test_fit_uploads_the_code_then_creates_the_tuning_job(aws, code):
    aws.clear_requests()
    t = tuner(pytorch(sagemaker_session=Session()))
    out = io.StringIO()
    t.fit(INPUTS, wait=False)
    assert aws.operations("sagemaker") == ["CreateHyperParameterTuningJob"]
    assert aws.operations("s3")[-1] == "PutObject"  # the code, before the tuning job
    sent = aws.last_json("CreateHyperParameterTuningJob")
    code_uri = json.loads(sent["TrainingJobDefinition"]["StaticHyperParameters"]["sagemaker_submit_directory"])
    assert boto3.client("s3").head_object(Bucket="bucket", Key=code_uri[len("s3://bucket/"):])["ContentLength"] > 0
    desc = t.latest_tuning_job.wait(out=out, clock=lambda: 0.0, sleep=lambda s: None)  # moto's tuning jobs are Completed at once
    assert desc["HyperParameterTuningJobStatus"] == "Completed"
    assert out.getvalue().startswith("[0:00:00] %s: Completed" % t.latest_tuning_job.name)
    assert t.describe()["TrainingJobDefinition"]["ResourceConfig"] == sent["TrainingJobDefinition"]["ResourceConfig"]
    assert t.best_training_job() == "FakeTrainingJobName"  # moto's stand-in


def test_a_tuning_job_name_taken_by_another_job_is_a_conflict(aws, code):
    tuner(pytorch(sagemaker_session=Session())).fit(INPUTS, job_name="taken", wait=False)
    with pytest.raises(E.JobConflictError) as excinfo:
        tuner(pytorch(sagemaker_session=Session(), hyperparameters={"epochs": 9})).fit(INPUTS, job_name="taken",
                                                                                       wait=False)
    assert excinfo.value.code == "ResourceInUse"


def test_an_ambiguous_failure_finds_its_own_tuning_job(fault_proxy, code):
    fault_proxy.add_fault(operation="CreateHyperParameterTuningJob", kind="reset_after")
    t = tuner(pytorch(sagemaker_session=Session()))
    t.fit(INPUTS, job_name="mine", wait=False)  # the retry meets ResourceInUse: it is our own job
    assert fault_proxy.hits == 1
    assert [r.status for r in fault_proxy.calls(operation="CreateHyperParameterTuningJob")] == [None, 400]
    assert t.latest_tuning_job.name == "mine"


def test_stop_tuning_job_sends_stop_and_tolerates_a_job_that_has_ended(fault_proxy, code):
    t = tuner(pytorch(sagemaker_session=Session()))
    t.fit(INPUTS, job_name="to-stop", wait=False)
    # moto does not implement StopHyperParameterTuningJob (tests/_aws.py): the proxy answers as SageMaker does
    fault_proxy.add_fault(operation="StopHyperParameterTuningJob", kind="status", status=200, body={})
    t.stop_tuning_job()
    assert fault_proxy.calls(operation="StopHyperParameterTuningJob")[-1].json == {"HyperParameterTuningJobName": "to-stop"}
    fault_proxy.add_fault(operation="StopHyperParameterTuningJob", kind="status", status=400,
                          body={"__type": "ValidationException", "message": "The job is not in progress."})
    t.stop_tuning_job()  # already ended: as the SDK v2, not an error


def test_waiting_raises_when_the_tuning_job_failed(fault_proxy, code):
    t = tuner(pytorch(sagemaker_session=Session()))
    t.fit(INPUTS, job_name="fails", wait=False)
    failed = {"HyperParameterTuningJobName": "fails", "HyperParameterTuningJobStatus": "Failed",
              "FailureReason": "no capacity", "TrainingJobStatusCounters": {"Completed": 0, "NonRetryableError": 2},
              "CreationTime": 1.0}
    fault_proxy.add_fault(operation="DescribeHyperParameterTuningJob", kind="status", status=200, body=failed)
    out = io.StringIO()
    with pytest.raises(E.UnexpectedStatusException) as excinfo:
        t.latest_tuning_job.wait(out=out, sleep=lambda s: None)
    assert str(excinfo.value) == "Tuning job fails ended with status Failed: no capacity"
    assert "fails: Failed - training jobs: 2 nonretryableerror" in out.getvalue()


def test_attach_rebuilds_the_tuner_and_its_two_group_estimator(aws, code):
    session = Session()
    original = tuner(pytorch(sagemaker_session=session),
                     warm_start_config=WarmStartConfig(WarmStartTypes.IDENTICAL_DATA_AND_ALGORITHM, ["p1"]),
                     completion_criteria_config=TuningJobCompletionCriteriaConfig(5, True, 0.5))
    original.fit(INPUTS, job_name="to-attach", wait=False)
    sent = aws.last_json("CreateHyperParameterTuningJob")
    attached = HyperparameterTuner.attach("to-attach", sagemaker_session=session)
    assert isinstance(attached.estimator, PyTorch)
    assert [g.instance_group_name for g in attached.estimator.instance_groups] == ["data", "dnn"]
    assert attached.estimator.distribution["instance_groups"] == ["dnn"]
    assert attached.latest_tuning_job.name == "to-attach"
    assert attached.hyperparameter_ranges() == sent["HyperParameterTuningJobConfig"]["ParameterRanges"]
    again = attached.fit(attached.estimator.latest_inputs, job_name="to-attach", dry_run=True)
    assert again["HyperParameterTuningJobConfig"] == sent["HyperParameterTuningJobConfig"]
    assert again["WarmStartConfig"] == sent["WarmStartConfig"]
    for key in ("ResourceConfig", "InputDataConfig", "AlgorithmSpecification", "StaticHyperParameters", "RoleArn"):
        assert again["TrainingJobDefinition"][key] == sent["TrainingJobDefinition"][key], key


def test_attach_to_a_description_of_wrong_types_is_a_config_error_naming_each_field(fault_proxy, code):
    tuner(pytorch(sagemaker_session=Session())).fit(INPUTS, job_name="odd", wait=False)
    desc = Session().describe_tuning_job("odd")
    desc.pop("ResponseMetadata", None)
    definition = desc["TrainingJobDefinition"]
    cases = [  # each a TypeError, AttributeError or ValueError out of attach once
        (dict(desc, TrainingJobDefinition=dict(definition, StaticHyperParameters=["a"])),
         "TrainingJobDefinition.StaticHyperParameters: must be a dict (got ['a'])"),
        (dict(desc, TrainingJobDefinition=dict(definition, AlgorithmSpecification=dict(
            definition["AlgorithmSpecification"], TrainingImage=5))),
         "TrainingJobDefinition.AlgorithmSpecification.TrainingImage: must be a string (got 5)"),
        (dict(desc, TrainingJobDefinition=dict(definition, ResourceConfig={"InstanceGroups": [1]})),
         "TrainingJobDefinition.ResourceConfig.InstanceGroups[0]: must be a dict (got 1)"),
    ]
    for details, problem in cases:
        with pytest.raises(ConfigError) as raised:
            HyperparameterTuner.attach("odd", job_details=details)
        assert [str(p) for p in raised.value.problems] == [problem]
        assert str(raised.value).startswith("1 problem with tuning job odd:")
    # the same answered by the endpoint: botocore cannot read a list of integers as InstanceGroups
    body = json.loads(json.dumps(cases[2][0], default=lambda t: t.timestamp()))
    fault_proxy.add_fault("DescribeHyperParameterTuningJob", kind="status", status=200, body=body)
    with pytest.raises(ConfigError) as raised:
        HyperparameterTuner.attach("odd")
    assert [str(p) for p in raised.value.problems] == [
        "TrainingJobDefinition.ResourceConfig.InstanceGroups[0]: must be a JSON object (got 1)"]


def test_a_tuning_dry_run_imports_no_boto3(workdir):
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import sagemaker_hetero as sagemaker\n"
        "from sagemaker_hetero.tuner import HyperparameterTuner, IntegerParameter\n"
        "est = sagemaker.Estimator(image_uri=%r, role=%r, instance_groups=[sagemaker.InstanceGroup('a', 'ml.m5.xlarge', 1)])\n"
        "request = sagemaker.tuner.HyperparameterTuner(est, 'auc', {'depth': IntegerParameter(1, 3)}).fit(\n"
        "    's3://bucket/train', dry_run=True)\n"
        "assert request['TrainingJobDefinition']['ResourceConfig']['InstanceGroups'][0]['InstanceGroupName'] == 'a'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n" % (IMAGE, ROLE)
    )
    result = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_tuner_ranges_and_pipeline_classes_take_the_sdk_v2s_arguments_in_its_order():
    import inspect

    from sagemaker_hetero.workflow import ParameterInteger, ParameterString, Pipeline, TrainingStep

    def names(function):
        return [p for p in inspect.signature(function).parameters if p != "self"]

    # the SDK v2 2.257's signatures (its **kwargs aside: an unknown keyword is a TypeError here)
    assert names(HyperparameterTuner.__init__) == [
        "estimator", "objective_metric_name", "hyperparameter_ranges", "metric_definitions", "strategy",
        "objective_type", "max_jobs", "max_parallel_jobs", "max_runtime_in_seconds", "tags", "base_tuning_job_name",
        "warm_start_config", "strategy_config", "completion_criteria_config", "early_stopping_type", "estimator_name",
        "random_seed", "autotune", "hyperparameters_to_keep_static"]
    assert names(HyperparameterTuner.fit) == ["inputs", "job_name", "include_cls_metadata", "estimator_kwargs", "wait",
                                              "dry_run"]
    assert names(HyperparameterTuner.attach) == ["tuning_job_name", "sagemaker_session", "job_details", "estimator_cls"]
    assert names(ContinuousParameter) == ["min_value", "max_value", "scaling_type"]
    assert names(CategoricalParameter) == ["values"]
    assert names(TrainingStep.__init__) == ["name", "step_args", "estimator", "display_name", "description", "inputs",
                                            "cache_config", "depends_on", "retry_policies"]
    assert names(Pipeline.__init__) == ["name", "parameters", "pipeline_experiment_config", "steps", "sagemaker_session"]
    assert names(Pipeline.upsert) == ["role_arn", "description", "tags", "parallelism_config"]
    assert names(Pipeline.start)[:4] == ["parameters", "execution_display_name", "execution_description",
                                         "parallelism_config"]
    assert names(ParameterString) == ["name", "default_value", "enum_values"]
    assert names(ParameterInteger) == ["name", "default_value"]

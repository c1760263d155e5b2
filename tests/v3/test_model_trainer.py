"""ModelTrainer: SDK v3's API on this package's one path (docs/v3.md).

Every problem before any call, under the v3 argument's name; the per-group distribution checked
against the instance groups; the heterogeneous dry run's warning; what the facade does not carry
refused naming SDK v3; a submission against moto uploading the code and driver channels where the
request says, then one CreateTrainingJob; a failed job raising SDK v3's FailedStatusError.
"""
import json
import subprocess
import sys
import warnings

import boto3
import pytest

from sagemaker_hetero.core.helper.session_helper import Session
from sagemaker_hetero.core.training.configs import Compute, InputData, InstanceGroup, S3DataSource, SourceCode
from sagemaker_hetero.core.utils.exceptions import FailedStatusError
from sagemaker_hetero.exceptions import CapacityError, ConfigError, UnexpectedStatusException
from sagemaker_hetero.train import ModelTrainer
from sagemaker_hetero.train.distributed import MPI, Torchrun
from sagemaker_hetero.train.model_trainer import Mode
from tests._answers import json_answer

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-gpu-py311-cu124-ubuntu22.04"
GROUPS = [("gpu", "ml.g5.xlarge", 1), ("cpu", "ml.c5.xlarge", 2)]


def _compute(groups=GROUPS):
    return Compute(instance_groups=[InstanceGroup(instance_group_name=n, instance_type=t, instance_count=c)
                                    for n, t, c in groups])


def _trainer(**kwargs):
    args = dict(training_image=IMAGE, role=ROLE, source_code=SourceCode(source_dir="src", entry_script="train.py"),
                compute=_compute(), base_job_name="v3-test")
    args.update(kwargs)
    return ModelTrainer(**args)


def _inputs():
    return [InputData(channel_name="train", data_source=S3DataSource(
        s3_data_type="S3Prefix", s3_uri="s3://data-bucket/train", instance_group_names=["gpu"]))]


def _problems(error):
    return [(p.path, p.value) for p in error.problems]


@pytest.mark.parametrize("distributed, expected", [
    (Torchrun(instance_group_names=["gpux"]), ["gpux"]),
    (MPI(instance_group_names=["gpu", "cpu"]), ["gpu", "cpu"]),
    (Torchrun(instance_group_names=[]), []),
])
def test_instance_group_names_must_name_one_of_the_jobs_groups(workdir, distributed, expected):
    with pytest.raises(ConfigError) as info:
        _trainer(distributed=distributed)
    assert ("distributed.instance_group_names", expected) in _problems(info.value)
    assert "distributed.instance_group_names" in str(info.value)


def test_instance_group_names_on_a_homogeneous_job_is_a_problem(workdir):
    with pytest.raises(ConfigError) as info:
        _trainer(compute=Compute(instance_type="ml.g5.xlarge", instance_count=2),
                 distributed=Torchrun(instance_group_names=["gpu"]))
    assert _problems(info.value) == [("distributed.instance_group_names", ["gpu"])]


def test_every_problem_at_once_under_the_v3_names(workdir):
    with pytest.raises(ConfigError) as info:
        _trainer(compute=_compute([("gpu", "ml.g5.xlarge", 0), ("cpu", "ml.nope", 1)]),
                 source_code=SourceCode(source_dir="src", entry_script="missing.py"))
    paths = [p.path for p in info.value.problems]
    assert "source_code.entry_script" in paths
    assert any(p.startswith("compute.instance_groups[0]") for p in paths), paths
    assert any(p.startswith("compute.instance_groups[1]") for p in paths), paths


def test_an_instance_type_or_count_next_to_instance_groups_is_refused_as_the_service_refuses_it(workdir):
    groups = _compute().instance_groups
    with pytest.raises(ConfigError) as error:
        _trainer(compute=Compute(instance_type="ml.g5.xlarge", instance_count=2, instance_groups=groups))
    assert _problems(error.value) == [("compute.instance_type", "ml.g5.xlarge"), ("compute.instance_count", 2)]


def test_a_heterogeneous_dry_run_warns_that_every_host_joins_the_launcher(workdir):
    with pytest.warns(UserWarning, match="the CPU hosts of cpu join the GPU rendezvous of gpu"):
        _trainer(distributed=Torchrun()).train(_inputs(), dry_run=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        request = _trainer(distributed=Torchrun(instance_group_names=["gpu"])).train(_inputs(), dry_run=True)
    assert request["AlgorithmSpecification"]["ContainerEntrypoint"] == ["/bin/bash"]


def test_per_group_distribution_changes_no_request_field(workdir):
    with pytest.warns(UserWarning):
        every = json.loads(json.dumps(dict(_trainer(distributed=MPI()).train(_inputs(), dry_run=True))))
    one = json.loads(json.dumps(dict(_trainer(distributed=MPI(instance_group_names=["gpu"])).train(
        _inputs(), dry_run=True))))
    every.pop("TrainingJobName"), one.pop("TrainingJobName")
    assert [c["ChannelName"] for c in one["InputDataConfig"]] == ["train", "code", "sm_drivers"]
    assert dict((k, v) for k, v in one.items() if k != "InputDataConfig") == \
        dict((k, v) for k, v in every.items() if k != "InputDataConfig")


@pytest.mark.parametrize("make, named", [
    (lambda: _trainer(algorithm_name="my-algo", training_image=None), "algorithm_name"),
    (lambda: _trainer(model_package_config={"SourceModelPackageArn": "x"}), "model_package_config"),
    (lambda: ModelTrainer.from_recipe(training_recipe="llama"), "from_recipe"),
    (lambda: ModelTrainer.from_jumpstart_config(jumpstart_config="x"), "from_jumpstart_config"),
    (lambda: _trainer().with_tensorboard_output_config().train(_inputs(), dry_run=True),
     "with_tensorboard_output_config"),
])
def test_what_the_facade_does_not_carry_is_refused_naming_sdk_v3(workdir, make, named):
    with pytest.raises(ConfigError) as info:
        make()
    problem = [p for p in info.value.problems if p.path == named][0]
    assert "SageMaker Python SDK v3" in problem.message and "pip install 'sagemaker>=3'" in problem.message


def test_keywords_only_and_a_misspelt_one_is_a_type_error():
    with pytest.raises(TypeError):
        ModelTrainer(IMAGE)  # noqa - positional
    with pytest.raises(TypeError, match="traning_image"):
        ModelTrainer(traning_image=IMAGE)
    with pytest.raises(TypeError):
        InstanceGroup(instance_type="ml.c5.xlarge", instance_count=1)  # the group's name is required


def test_a_dry_run_imports_no_boto3_and_needs_no_credentials(workdir):
    code = ("import sys, os\n"
            "os.environ.pop('AWS_ACCESS_KEY_ID', None)\n"
            "from sagemaker_hetero.train import ModelTrainer\n"
            "from sagemaker_hetero.core.training.configs import Compute, SourceCode, InputData\n"
            "t = ModelTrainer(training_image=%r, role=%r, source_code=SourceCode(source_dir='src', "
            "entry_script='train.py'), compute=Compute(instance_type='ml.m5.xlarge', instance_count=1))\n"
            "r = t.train([InputData(channel_name='train', data_source='s3://b/train')], dry_run=True)\n"
            "assert r['OutputDataConfig']['CompressionType'] == 'GZIP', r\n"
            "print('boto3' in sys.modules, 'botocore' in sys.modules)\n" % (IMAGE, ROLE))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_the_deprecated_configs_module_warns_and_gives_the_same_classes():
    import importlib

    import sagemaker_hetero.train

    sys.modules.pop("sagemaker_hetero.train.configs", None)
    sagemaker_hetero.train.__dict__.pop("configs", None)
    with pytest.warns(DeprecationWarning, match="moved to sagemaker_hetero.core.training.configs"):
        configs = importlib.import_module("sagemaker_hetero.train.configs")
    assert configs.Compute is Compute and configs.SourceCode is SourceCode


def test_model_dump_and_copy_behave_as_pydantics():
    source = SourceCode(source_dir="src", entry_script="train.py")
    assert source.model_dump()["ignore_patterns"][:2] == [".env", ".git"]
    assert source.model_copy(update={"entry_script": "b.py"}).entry_script == "b.py"
    assert _compute().model_dump()["instance_groups"][0] == {"instance_type": "ml.g5.xlarge", "instance_count": 1,
                                                            "instance_group_name": "gpu"}
    assert Torchrun(process_count_per_node=2)._driver_config() == {
        "type": "torchrun", "process_count_per_node": 2, "smp": None, "instance_group_names": None}


def test_a_submission_uploads_code_and_drivers_where_the_request_says(aws, workdir):
    boto3.client("s3").create_bucket(Bucket="data-bucket",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    trainer = _trainer(sagemaker_session=Session(), distributed=Torchrun(instance_group_names=["gpu"]))
    assert trainer.train(_inputs(), wait=False, preflight=False) is None
    request = aws.last_json("CreateTrainingJob")
    assert request["HyperParameters"] == {} and request["OutputDataConfig"]["CompressionType"] == "GZIP"
    uris = dict((c["ChannelName"], c["DataSource"]["S3DataSource"]["S3Uri"]) for c in request["InputDataConfig"])
    name = request["TrainingJobName"]
    bucket = "sagemaker-us-west-2-123456789012"
    assert uris["code"] == "s3://%s/v3-test/%s/input/code" % (bucket, name)
    s3 = boto3.client("s3")
    keys = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix="v3-test/%s/input/" % name)["Contents"])
    assert "v3-test/%s/input/code/train.py" % name in keys
    assert "v3-test/%s/input/sm_drivers/sm_train.sh" % name in keys
    body = s3.get_object(Bucket=bucket, Key="v3-test/%s/input/sm_drivers/distributed.json" % name)["Body"].read()
    assert json.loads(body)["instance_group_names"] == ["gpu"]
    assert trainer.latest_training_job.name == name


def test_a_failed_job_raises_failed_status_error_with_the_capacity_detail(aws, workdir):
    boto3.client("s3").create_bucket(Bucket="data-bucket",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})

    def failed(record):
        name = json.loads(record.body)["TrainingJobName"]
        desc = dict(aws.answers.in_progress_description(name, GROUPS), TrainingJobStatus="Failed",
                    SecondaryStatus="Failed", FailureReason="CapacityError: Unable to provision requested ML compute "
                                                            "capacity.")
        return json_answer(desc)

    aws.answers.add("sagemaker", "DescribeTrainingJob", failed)
    with pytest.raises(FailedStatusError) as info:
        _trainer(sagemaker_session=Session()).train(_inputs(), wait=True, logs=False, preflight=False)
    error = info.value
    assert isinstance(error, UnexpectedStatusException) and isinstance(error.capacity, CapacityError)
    assert error.status == "Failed" and error.resource_type == "TrainingJob" and error.reason.startswith("Capacity")
    assert str(error).startswith("Encountered unexpected failed state while waiting for TrainingJob. Final Resource "
                                 "State: Failed. Failure Reason: CapacityError")
    assert "instance group gpu (ml.g5.xlarge x 1)" in str(error)



def test_the_builders_set_their_request_fields(workdir):
    from sagemaker_hetero.core.training.configs import (MetricDefinition, RetryStrategy, TrainingImageConfig,
                                                        TrainingRepositoryAuthConfig)

    trainer = _trainer(training_image_config=TrainingImageConfig(
        training_repository_access_mode="Vpc", training_repository_auth_config=TrainingRepositoryAuthConfig(
            training_repository_credentials_provider_arn="arn:aws:lambda:us-west-2:123456789012:function:creds")),
        compute=Compute(instance_type="ml.c5.xlarge", instance_count=1, keep_alive_period_in_seconds=300,
                        training_plan_arn="arn:aws:sagemaker:us-west-2:123456789012:training-plan/p"))
    request = (trainer.with_retry_strategy(RetryStrategy(maximum_retry_attempts=2)).with_infra_check_config()
               .with_remote_debug_config().with_session_chaining_config().with_checkpoint_config()
               .with_metric_definitions([MetricDefinition(name="loss", regex="loss=(.*)")])
               .train(_inputs()[:0], dry_run=True))
    assert request["RetryStrategy"] == {"MaximumRetryAttempts": 2}
    assert request["InfraCheckConfig"] == {"EnableInfraCheck": True}
    assert request["RemoteDebugConfig"] == {"EnableRemoteDebug": True}
    assert request["SessionChainingConfig"] == {"EnableSessionTagChaining": True}
    assert request["AlgorithmSpecification"]["MetricDefinitions"] == [{"Name": "loss", "Regex": "loss=(.*)"}]
    assert request["AlgorithmSpecification"]["TrainingImageConfig"] == {
        "TrainingRepositoryAccessMode": "Vpc", "TrainingRepositoryAuthConfig": {
            "TrainingRepositoryCredentialsProviderArn": "arn:aws:lambda:us-west-2:123456789012:function:creds"}}
    assert request["ResourceConfig"]["KeepAlivePeriodInSeconds"] == 300
    assert request["ResourceConfig"]["TrainingPlanArn"].endswith("training-plan/p")
    name = request["TrainingJobName"]
    assert request["CheckpointConfig"]["S3Uri"].endswith("/v3-test/%s/checkpoints" % name)
    assert request["CheckpointConfig"]["LocalPath"] == "/opt/ml/checkpoints"


def test_attach_rebuilds_the_trainer_whose_dry_run_renders_the_job_again(aws, workdir):
    from sagemaker_hetero.core.training.configs import StoppingCondition

    boto3.client("s3").create_bucket(Bucket="data-bucket",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    trainer = _trainer(sagemaker_session=Session(), distributed=MPI(process_count_per_node=2,
                                                                     instance_group_names=["gpu"]),
                       hyperparameters={"epochs": 3, "name": "x"}, environment={"A": "1"},
                       stopping_condition=StoppingCondition(max_runtime_in_seconds=600))
    trainer.train(_inputs() + [InputData(channel_name="all", data_source="s3://data-bucket/all")], wait=False,
                  preflight=False)
    sent = aws.last_json("CreateTrainingJob")
    attached = ModelTrainer.attach(sent["TrainingJobName"], sagemaker_session=Session())
    assert attached.latest_training_job.name == sent["TrainingJobName"]
    assert attached.distributed.instance_group_names == ["gpu"] and attached.source_code.entry_script == "train.py"
    again = json.loads(json.dumps(dict(attached.train(dry_run=True))))
    again.pop("TrainingJobName"), sent.pop("TrainingJobName")  # a new name (a stamp of the second it is made)
    code = [c for c in sent["InputDataConfig"] if c["ChannelName"] == "code"][0]
    for request in (again, sent):  # the code's folder: the job's (attached) or a new job's (sent)
        request["InputDataConfig"] = [c for c in request["InputDataConfig"] if c["ChannelName"] not in ("code",
                                                                                                          "sm_drivers")]
    assert again.pop("Environment", None) is None and sent.pop("Environment") == {"A": "1"}  # moto drops it
    assert again == sent
    assert code["DataSource"]["S3DataSource"]["InstanceGroupNames"] == ["gpu", "cpu"]
    from sagemaker_hetero.train import _attach

    assert _attach.arguments(dict(sent, Environment={"A": "1"}), lambda uri: "")["environment"] == {"A": "1"}


def test_cost_and_diff_of_a_trainer_are_its_dry_runs(workdir):
    trainer = _trainer()
    estimate = trainer.estimate_cost(_inputs(), prices={"ml.g5.xlarge": 1.5, "ml.c5.xlarge": 0.25}, fetch=False)
    assert estimate.hourly_usd == pytest.approx(1.5 + 2 * 0.25)
    assert estimate.worst_case_usd == pytest.approx(2.0)  # SDK v3's MaxRuntimeInSeconds: an hour
    request = json.loads(json.dumps(dict(trainer.train(_inputs(), dry_run=True))))
    assert trainer.diff(request, _inputs()).equal
    changed = json.loads(json.dumps(request))
    changed["StoppingCondition"]["MaxRuntimeInSeconds"] = 7200
    assert trainer.diff(changed, _inputs()).paths == ["StoppingCondition.MaxRuntimeInSeconds"]


def test_preflight_checks_the_trainers_job_against_the_account(aws, workdir):
    trainer = _trainer(sagemaker_session=Session())
    report = trainer.preflight(_inputs(), checks=["s3"])
    assert [p.check for p in report.problems] == ["s3"] and "data-bucket" in report.text()
    with pytest.raises(ConfigError) as info:
        trainer.preflight(_inputs(), checks=["data"])
    assert _problems(info.value) == [("checks", ["data"])]


def test_torchrun_smp_parameters_are_the_mp_parameters_hyperparameter(workdir):
    from sagemaker_hetero.train.distributed import SMP

    smp = SMP(hybrid_shard_degree=2, tensor_parallel_degree=4)
    request = _trainer(distributed=Torchrun(smp=smp, instance_group_names=["gpu"]),
                       hyperparameters={"epochs": 1}).train(_inputs(), dry_run=True)
    assert request["HyperParameters"] == {"epochs": "1",
                                          "mp_parameters": '{"hybrid_shard_degree": 2, "tensor_parallel_degree": 4}'}


def test_sdk_v3s_local_instance_types_stand_for_ml_types_in_a_local_run(workdir, tmp_path):
    from sagemaker_hetero.local import LocalSession

    trainer = _trainer(sagemaker_session=LocalSession(root=str(tmp_path / "jobs")), local_container_root=str(tmp_path),
                       compute=Compute(instance_type="local_gpu", instance_count=1))
    assert trainer.train(_inputs()[:0], dry_run=True)["ResourceConfig"]["InstanceType"] == "ml.g5.xlarge"
    with pytest.raises(ConfigError) as info:  # on AWS it is no instance type
        _trainer(compute=Compute(instance_type="local_cpu", instance_count=1))
    assert _problems(info.value) == [("compute.instance_type", "local_cpu")]


def test_local_container_mode_with_an_aws_session_is_a_problem(aws, workdir):
    with pytest.raises(ConfigError) as info:
        _trainer(training_mode=Mode.LOCAL_CONTAINER, sagemaker_session=Session())
    assert [p.path for p in info.value.problems] == ["training_mode"]


def test_every_preflight_check_passes_a_job_whose_code_and_driver_are_uploaded_after_it(aws, workdir):
    s3 = boto3.client("s3")
    s3.create_bucket(Bucket="data-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    s3.put_object(Bucket="data-bucket", Key="train/a.csv", Body=b"1\n")
    trainer = _trainer(sagemaker_session=Session())
    report = trainer.preflight(_inputs())
    assert not [p for p in report.problems if p.check == "s3"], report.text()
    trainer.train(_inputs(), wait=False, preflight=True)
    assert len(aws.calls("sagemaker", "CreateTrainingJob")) == 1
    s3.delete_object(Bucket="data-bucket", Key="train/a.csv")  # the user's own data is still looked for
    problems = [p for p in _trainer(sagemaker_session=Session()).preflight(_inputs()).problems if p.check == "s3"]
    assert [p.subject for p in problems] == ["s3://data-bucket/train"], [(p.argument, p.subject) for p in problems]


@pytest.mark.parametrize("text", ['{"epochs": 3, "lr": 0.01, "layers": [1, 2], "name": "resnet"}',
                                  "epochs: 3\nlr: 0.01\nlayers: [1, 2]\nname: resnet\n"], ids=["JSON", "YAML"])
def test_a_hyperparameters_file_json_or_yaml_is_read_as_sdk_v3_reads_it(workdir, text):
    (workdir / "hp.txt").write_text(text)
    request = _trainer(hyperparameters="hp.txt").train(_inputs(), dry_run=True)
    assert request["HyperParameters"] == {"epochs": "3", "lr": "0.01", "layers": "[1, 2]", "name": "resnet"}
    (workdir / "list.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError) as info:
        _trainer(hyperparameters="list.yaml")
    assert _problems(info.value) == [("hyperparameters", "list.yaml")] and "got a list" in str(info.value)


def test_a_stopping_conditions_max_pending_time_is_sent_checked_and_attached(workdir):
    from sagemaker_hetero.core.training.configs import StoppingCondition
    from sagemaker_hetero.train import _attach

    request = _trainer(stopping_condition=StoppingCondition(max_pending_time_in_seconds=7200)).train(dry_run=True)
    assert request["StoppingCondition"] == {"MaxRuntimeInSeconds": 3600, "MaxPendingTimeInSeconds": 7200}
    with pytest.raises(ConfigError) as info:
        _trainer(stopping_condition=StoppingCondition(max_pending_time_in_seconds=60))
    assert _problems(info.value) == [("stopping_condition.max_pending_time_in_seconds", 60)]
    rebuilt = _attach.arguments(dict(request, TrainingJobName="j"), lambda uri: "")["stopping_condition"]
    assert rebuilt.max_pending_time_in_seconds == 7200


def test_flags_given_as_false_are_sent_false_as_sdk_v3_sends_them(workdir):
    from sagemaker_hetero.core.training.configs import Networking

    request = _trainer(compute=Compute(instance_type="ml.g5.xlarge", enable_managed_spot_training=False),
                       networking=Networking(enable_network_isolation=False,
                                             enable_inter_container_traffic_encryption=False)).train(dry_run=True)
    assert (request["EnableManagedSpotTraining"], request["EnableNetworkIsolation"],
            request["EnableInterContainerTrafficEncryption"]) == (False, False, False)
    request = _trainer(compute=Compute(instance_type="ml.g5.xlarge"), networking=Networking(
        enable_network_isolation=True)).train(dry_run=True)
    assert request["EnableNetworkIsolation"] is True
    assert "EnableManagedSpotTraining" not in request and "EnableInterContainerTrafficEncryption" not in request


def test_a_message_names_the_v3_arguments_not_the_sdk_v2_ones(workdir):
    from sagemaker_hetero.core.training.configs import StoppingCondition

    with pytest.raises(ConfigError) as info:
        _trainer(compute=Compute(instance_type="ml.g5.xlarge", enable_managed_spot_training=True),
                 stopping_condition=StoppingCondition(max_runtime_in_seconds=7200, max_wait_time_in_seconds=3600))
    text = str(info.value)
    assert "stopping_condition.max_wait_time_in_seconds" in text and "stopping_condition.max_runtime_in_seconds" in text
    assert "max_run " not in text and "use_spot_instances" not in text, text
    with pytest.raises(ConfigError) as info:
        _trainer(compute=Compute(instance_type="ml.g5.xlarge", enable_managed_spot_training=True))
    assert "is required with compute.enable_managed_spot_training" in str(info.value)


def test_diff_against_a_jobs_name_reads_the_job_back_in_its_account(aws, workdir):
    """docs/v3.md: ``trainer.diff(job_name)`` as an estimator's (it raised ValueError: the description was
    compared as a request); a fresh session's trainer renders in the job's account, no <account-id>."""
    from sagemaker_hetero.train.configs import StoppingCondition

    boto3.client("s3").create_bucket(Bucket="data-bucket",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    _trainer(sagemaker_session=Session()).train(_inputs(), wait=False, preflight=False)
    name = aws.last_json("CreateTrainingJob")["TrainingJobName"]
    found = _trainer(sagemaker_session=Session()).diff(name, _inputs())
    assert found.equal, found.text()
    longer = _trainer(stopping_condition=StoppingCondition(max_runtime_in_seconds=7200)).diff(name, _inputs())
    assert longer.paths == ["StoppingCondition.MaxRuntimeInSeconds"], longer.text()


def test_preflight_of_a_fresh_session_checks_the_default_bucket_by_its_name(aws, workdir):
    """The output's default bucket is named in the account the preflight asks for (its s3 row was
    's3://sagemaker-us-west-2-<account-id>', unknown with botocore's ParamValidationError)."""
    boto3.client("s3").create_bucket(Bucket="data-bucket",
                                     CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    report = _trainer(sagemaker_session=Session()).preflight(_inputs(), checks=["s3"])
    text = report.text()
    assert "<account-id>" not in text and "ParamValidationError" not in text, text
    assert "s3://sagemaker-us-west-2-123456789012" in text and not report.unknowns, text


def test_what_the_account_lacks_is_told_under_the_v3_arguments_names(aws, workdir):
    """The preflight's findings and the input buckets' check name ``output_data_config.s3_output_path`` and
    ``input_data_config[...]``, not the SDK v2's ``output_path`` and ``inputs[...]`` (the v3 user wrote neither)."""
    from sagemaker_hetero.exceptions import PreflightError
    from sagemaker_hetero.train.configs import OutputDataConfig

    trainer = _trainer(sagemaker_session=Session(), output_data_config=OutputDataConfig(s3_output_path="s3://no-out/x"))
    report = trainer.preflight(_inputs(), checks=["s3"])
    assert [f.argument for f in report.problems] == ["input_data_config['train'].s3_data",
                                                     "output_data_config.s3_output_path"], report.text()
    assert "or correct output_data_config.s3_output_path" in report.text() and "correct output_path" not in report.text()
    with pytest.raises(PreflightError) as info:
        trainer.train(_inputs(), wait=False, preflight=True)
    assert [p.path for p in info.value.problems] == ["input_data_config['train'].s3_data",
                                                     "output_data_config.s3_output_path"]
    with pytest.raises(ConfigError) as info:
        trainer.train(_inputs(), wait=False)
    assert [p.path for p in info.value.problems] == ["input_data_config['train']"], str(info.value)
    assert aws.calls("sagemaker", "CreateTrainingJob") == []

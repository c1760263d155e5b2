"""The public API: import paths, signatures and the SageMaker Python SDK v2's argument names, and
what a dry run renders (``/work/shared/reference/request_contract.md``)."""
import importlib
import inspect
import json
import os
import pkgutil
import re
import subprocess
import sys
import types

import pytest

import sagemaker_hetero
from sagemaker_hetero.estimator import Estimator
from sagemaker_hetero.exceptions import ConfigError
from sagemaker_hetero.inputs import ShuffleConfig, TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from sagemaker_hetero.pytorch import PyTorch
from sagemaker_hetero.tensorflow import TensorFlow

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/my-image:latest"
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMESTAMP = r"\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-\d{3}"


pytestmark = pytest.mark.usefixtures("workdir")  # tests/conftest.py


def cpu_group():
    return InstanceGroup("cpu_group", "ml.c5.18xlarge", 2)


def gpu_group():
    return InstanceGroup("gpu_group", "ml.p4d.24xlarge", 2)


def pytorch(**overrides):
    kwargs = dict(
        entry_point="train.py",
        framework_version="2.2.0",
        py_version="py310",
        role=ROLE,
        instance_groups=[cpu_group(), gpu_group()],
    )
    kwargs.update(overrides)
    return PyTorch(**kwargs)


def generic(**overrides):
    kwargs = dict(image_uri=IMAGE, role=ROLE, instance_count=1, instance_type="ml.m5.xlarge")
    kwargs.update(overrides)
    return Estimator(**kwargs)


def grouped_inputs(cpu="cpu_group", gpu="gpu_group"):
    return {
        "train": TrainingInput("s3://bucket/train", instance_groups=[cpu]),
        "dummy": TrainingInput("s3://bucket/dummy", instance_groups=[gpu]),
    }


def dry_run(estimator, inputs=None, **kwargs):
    return estimator.fit(inputs, dry_run=True, **kwargs)


def fresh_python(code, cwd=None, env=None):
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = PROJECT_ROOT + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# -- import paths ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "module, name",
    [
        ("sagemaker_hetero.instance_group", "InstanceGroup"),
        ("sagemaker_hetero.inputs", "TrainingInput"),
        ("sagemaker_hetero.inputs", "ShuffleConfig"),
        ("sagemaker_hetero.estimator", "Estimator"),
        ("sagemaker_hetero.pytorch", "PyTorch"),
        ("sagemaker_hetero.tensorflow", "TensorFlow"),
        ("sagemaker_hetero.exceptions", "ConfigError"),
        ("sagemaker_hetero.exceptions", "UnexpectedStatusException"),
        ("sagemaker_hetero.session", "Session"),
        ("sagemaker_hetero.local", "LocalSession"),
    ],
)
def test_public_import_paths_and_reexports(module, name):
    obj = getattr(importlib.import_module(module), name)
    assert name in importlib.import_module(module).__all__
    assert getattr(sagemaker_hetero, name) is obj
    assert name in sagemaker_hetero.__all__


def _package_modules():
    names = ["sagemaker_hetero"]
    for info in pkgutil.walk_packages(sagemaker_hetero.__path__, "sagemaker_hetero."):
        names.append(info.name)
    return names


@pytest.mark.parametrize("module_name", _package_modules())
def test_every_name_in_all_exists(module_name):
    module = importlib.import_module(module_name)
    exported = getattr(module, "__all__", None)
    is_public = not any(part.startswith("_") for part in module_name.split("."))
    if exported is None:
        assert not is_public, "public module %s has no __all__" % module_name
        return
    assert len(set(exported)) == len(exported), "duplicates in %s.__all__" % module_name
    for name in exported:
        assert hasattr(module, name), "%s.__all__ names %r, which does not exist" % (module_name, name)


def test_package_all_is_in_sync_with_dir():
    for name in sagemaker_hetero.__all__:
        getattr(sagemaker_hetero, name)
    public = set(
        name
        for name in dir(sagemaker_hetero)
        if not name.startswith("_") and not isinstance(getattr(sagemaker_hetero, name), types.ModuleType)
    )
    assert public == set(n for n in sagemaker_hetero.__all__ if not n.startswith("_"))
    assert "__version__" in sagemaker_hetero.__all__


def test_unknown_package_attribute_raises_attribute_error():
    with pytest.raises(AttributeError):
        sagemaker_hetero.NoSuchThing  # noqa: B018


def test_import_does_not_import_boto3():
    out = fresh_python(
        "import sys, sagemaker_hetero\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('boto3', 'botocore')))\n"
    )
    assert out.strip() == "[]"


# -- InstanceGroup, TrainingInput, ShuffleConfig -----------------------------------------------


def test_instance_group_positional_and_keyword():
    positional = InstanceGroup("data_group", "ml.c5.18xlarge", 2)
    keyword = InstanceGroup(instance_group_name="data_group", instance_type="ml.c5.18xlarge", instance_count=2)
    assert positional == keyword
    assert (positional.instance_group_name, positional.instance_type, positional.instance_count) == (
        "data_group",
        "ml.c5.18xlarge",
        2,
    )
    assert (positional.name, positional.type, positional.count) == ("data_group", "ml.c5.18xlarge", 2)


TRAINING_INPUT_ORDER = (
    "s3_data",
    "distribution",
    "compression",
    "content_type",
    "record_wrapping",
    "s3_data_type",
    "instance_groups",
    "input_mode",
    "attribute_names",
    "target_attribute_name",
    "shuffle_config",
)


def test_training_input_positional_order():
    values = tuple("value-of-%s" % name for name in TRAINING_INPUT_ORDER)
    channel = TrainingInput(*values)
    for name, value in zip(TRAINING_INPUT_ORDER, values):
        assert getattr(channel, name) == value, name
    params = list(inspect.signature(TrainingInput).parameters)
    assert tuple(params[: len(TRAINING_INPUT_ORDER)]) == TRAINING_INPUT_ORDER


def test_training_input_defaults():
    channel = TrainingInput("s3://bucket/train")
    assert channel.s3_data_type == "S3Prefix"
    assert channel.distribution is None and channel.instance_groups is None and channel.input_mode is None


def test_training_input_config_renders_the_wire_format():
    channel = TrainingInput(
        "s3://bucket/train",
        distribution="ShardedByS3Key",
        compression="Gzip",
        content_type="text/csv",
        record_wrapping="RecordIO",
        s3_data_type="AugmentedManifestFile",
        instance_groups=["cpu_group"],
        input_mode="Pipe",
        attribute_names=["source-ref", "label"],
        shuffle_config=ShuffleConfig(42),
    )
    assert channel.config == {
        "DataSource": {
            "S3DataSource": {
                "S3DataType": "AugmentedManifestFile",
                "S3Uri": "s3://bucket/train",
                "S3DataDistributionType": "ShardedByS3Key",
                "InstanceGroupNames": ["cpu_group"],
                "AttributeNames": ["source-ref", "label"],
            }
        },
        "CompressionType": "Gzip",
        "ContentType": "text/csv",
        "RecordWrapperType": "RecordIO",
        "InputMode": "Pipe",
        "ShuffleConfig": {"Seed": 42},
    }
    assert TrainingInput("s3://bucket/x").config == {
        "DataSource": {
            "S3DataSource": {
                "S3DataType": "S3Prefix",
                "S3Uri": "s3://bucket/x",
                "S3DataDistributionType": "FullyReplicated",
            }
        }
    }


def test_shuffle_config():
    assert ShuffleConfig(42).seed == 42
    assert ShuffleConfig(seed=7) == ShuffleConfig(7)


def test_group_names_and_group_objects_give_the_same_request():
    cpu, gpu = cpu_group(), gpu_group()
    by_name = pytorch(distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["gpu_group"]})
    by_object = pytorch(distribution={"torch_distributed": {"enabled": True}, "instance_groups": [gpu]})
    first = dry_run(by_name, grouped_inputs(), job_name="same")
    second = dry_run(by_object, grouped_inputs(cpu, gpu), job_name="same")
    assert first == second
    assert first["InputDataConfig"][0]["DataSource"]["S3DataSource"]["InstanceGroupNames"] == ["cpu_group"]


# -- estimator signatures ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls, wrong, right",
    [
        (Estimator, "instance_group", "instance_groups"),
        (Estimator, "entrypoint", "entry_point"),
        (PyTorch, "instance_group", "instance_groups"),
        (PyTorch, "entrypoint", "entry_point"),
        (TensorFlow, "instance_group", "instance_groups"),
        (TensorFlow, "entrypoint", "entry_point"),
        (PyTorch, "framework_verison", "framework_version"),
    ],
)
def test_unknown_keyword_argument(cls, wrong, right):
    with pytest.raises(TypeError) as info:
        cls(**{wrong: "x"})
    text = str(info.value)
    assert repr(wrong) in text
    assert repr(right) in text


def test_generic_estimator_has_no_framework_arguments():
    with pytest.raises(TypeError) as info:
        generic(distribution={"mpi": {"enabled": True}})
    assert "'distribution'" in str(info.value)


def test_estimator_positional_order():
    est = Estimator(IMAGE, ROLE, 2, "ml.m5.xlarge")
    assert (est.image_uri, est.role, est.instance_count, est.instance_type) == (IMAGE, ROLE, 2, "ml.m5.xlarge")
    request = dry_run(est, job_name="positional")
    assert request["ResourceConfig"]["InstanceType"] == "ml.m5.xlarge"
    assert request["ResourceConfig"]["InstanceCount"] == 2
    # as in the SDK v2: the fifth is keep_alive_period_in_seconds, and after enable_network_isolation
    # every argument is a keyword (where the SDK v2's next one is an argument we do not take)
    assert Estimator(IMAGE, ROLE, 2, "ml.m5.xlarge", 30).keep_alive_period_in_seconds == 30
    with pytest.raises(TypeError):
        Estimator(IMAGE, ROLE, 2, "ml.m5.xlarge", *([None] * 23))
    with pytest.raises(TypeError):
        Estimator(IMAGE, role=ROLE, image_uri=IMAGE, instance_count=1, instance_type="ml.m5.xlarge")


@pytest.mark.parametrize("cls", [Estimator, PyTorch, TensorFlow])
def test_signatures_name_every_argument_with_annotations_in_the_sdk_v2s_order(cls):
    params = inspect.signature(cls).parameters
    for name in ("role", "instance_groups", "instance_type", "instance_count", "entry_point", "hyperparameters",
                 "output_path", "tags", "environment", "training_plan", "sagemaker_session"):
        assert name in params and params[name].annotation is not inspect.Parameter.empty, name
    positional = [p.name for p in params.values() if p.kind == p.POSITIONAL_OR_KEYWORD]
    expected = {
        Estimator: ["image_uri", "role", "instance_count", "instance_type", "keep_alive_period_in_seconds"],
        PyTorch: ["entry_point", "framework_version", "py_version", "source_dir", "hyperparameters", "image_uri",
                  "distribution"],
        TensorFlow: ["py_version", "framework_version", "model_dir", "image_uri", "distribution"],
    }[cls]
    assert positional[: len(expected)] == expected
    # no catch-all: what is left is refused by name (the closest one suggested), and mypy sees it too
    assert not [p for p in params.values() if p.kind == p.VAR_KEYWORD]


def test_pytorch_positional_order():
    est = PyTorch(
        "train.py",
        "2.2.0",
        "py310",
        "src",
        {"lr": 0.1},
        None,
        {"torch_distributed": {"enabled": True}, "instance_groups": ["gpu_group"]},
        role=ROLE,
        instance_groups=[cpu_group(), gpu_group()],
    )
    assert est.entry_point == "train.py"
    assert est.framework_version == "2.2.0"
    assert est.py_version == "py310"
    assert est.source_dir == "src"
    assert est.hyperparameters() == {"lr": 0.1}
    assert est.image_uri is None
    assert est.distribution["torch_distributed"] == {"enabled": True}


def test_tensorflow_positional_order():
    est = TensorFlow("py39", "2.9.2", "s3://bucket/model", entry_point="train.py", role=ROLE,
                     instance_type="ml.p3.2xlarge", instance_count=1)
    assert (est.py_version, est.framework_version, est.model_dir) == ("py39", "2.9.2", "s3://bucket/model")


def test_fit_signature():
    sig = inspect.signature(Estimator.fit)
    params = [(p.name, p.default) for p in sig.parameters.values()]
    assert params == [
        ("self", inspect.Parameter.empty),
        ("inputs", None),
        ("wait", True),
        ("logs", "All"),
        ("job_name", None),
        ("experiment_config", None),
        ("dry_run", False),
        ("preflight", None),
    ]
    assert inspect.signature(PyTorch.fit) == sig
    assert inspect.signature(TensorFlow.fit) == sig


# -- hyperparameters ---------------------------------------------------------------------------


def test_hyperparameters_accessor_and_setter():
    est = pytorch(hyperparameters={"lr": 0.1})
    assert est.hyperparameters() == {"lr": 0.1}
    est.set_hyperparameters(x=1)
    assert est.hyperparameters() == {"lr": 0.1, "x": 1}
    hps = dry_run(est, grouped_inputs())["HyperParameters"]
    assert hps["x"] == "1"
    assert hps["lr"] == "0.1"


def test_hyperparameters_given_are_copied():
    given = {"lr": 0.1}
    est = pytorch(hyperparameters=given)
    est.set_hyperparameters(x=1)
    assert given == {"lr": 0.1}
    est.hyperparameters()["y"] = 2
    assert "y" not in est.hyperparameters()


def test_generic_estimator_sends_str_values_and_no_sdk_keys():
    est = generic(hyperparameters={"flag": True, "name": "x", "n": 3, "lr": 0.5})
    est.set_hyperparameters(x=1)
    hps = dry_run(est, "s3://bucket/train")["HyperParameters"]
    assert hps == {"flag": "True", "name": "x", "n": "3", "lr": "0.5", "x": "1"}


def test_generic_estimator_with_entry_point_json_encodes_and_adds_base_keys():
    est = generic(entry_point="train.py", hyperparameters={"flag": True, "name": "x"})
    hps = dry_run(est, "s3://bucket/train", job_name="generic-code")["HyperParameters"]
    assert hps["flag"] == "true"
    assert hps["name"] == '"x"'
    assert hps["sagemaker_program"] == '"train.py"'
    assert set(hps) >= {
        "sagemaker_submit_directory",
        "sagemaker_program",
        "sagemaker_container_log_level",
        "sagemaker_job_name",
        "sagemaker_region",
    }


def test_framework_estimator_json_encodes():
    est = pytorch(hyperparameters={"s": "abc", "t": True, "l": [1, 2], "none": None, "d": {"a": 1}, "n": 10})
    hps = dry_run(est, grouped_inputs(), job_name="encoded")["HyperParameters"]
    assert hps["s"] == '"abc"'
    assert hps["t"] == "true"
    assert hps["l"] == "[1, 2]"
    assert hps["none"] == "null"
    assert json.loads(hps["d"]) == {"a": 1}
    assert hps["n"] == "10"
    assert hps["sagemaker_container_log_level"] == "20"
    assert hps["sagemaker_job_name"] == '"encoded"'
    assert hps["sagemaker_region"] == '"us-west-2"'
    assert hps["sagemaker_program"] == '"train.py"'
    assert re.match(r'^"s3://sagemaker-us-west-2-<account-id>/code/[0-9a-f]{64}/sourcedir\.tar\.gz"$',
                    hps["sagemaker_submit_directory"])  # the archive's content address (D6)


# -- dry-run defaults and optional parts --------------------------------------------------------


def test_dry_run_defaults_for_pytorch():
    request = dry_run(pytorch(), grouped_inputs())
    assert request["ResourceConfig"]["VolumeSizeInGB"] == 30
    assert request["ResourceConfig"]["InstanceGroups"] == [
        {"InstanceGroupName": "cpu_group", "InstanceType": "ml.c5.18xlarge", "InstanceCount": 2},
        {"InstanceGroupName": "gpu_group", "InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2},
    ]
    assert "InstanceType" not in request["ResourceConfig"]
    assert "InstanceCount" not in request["ResourceConfig"]
    assert "KeepAlivePeriodInSeconds" not in request["ResourceConfig"]
    assert request["StoppingCondition"] == {"MaxRuntimeInSeconds": 86400}
    assert request["AlgorithmSpecification"]["TrainingInputMode"] == "File"
    assert request["AlgorithmSpecification"]["EnableSageMakerMetricsTimeSeries"] is True
    assert request["AlgorithmSpecification"]["TrainingImage"] == (
        "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.2.0-gpu-py310"
    )
    assert request["OutputDataConfig"] == {"S3OutputPath": "s3://sagemaker-us-west-2-<account-id>/"}
    assert request["RoleArn"] == ROLE
    for key in (
        "EnableNetworkIsolation",
        "EnableInterContainerTrafficEncryption",
        "EnableManagedSpotTraining",
        "VpcConfig",
        "CheckpointConfig",
        "RetryStrategy",
        "DebugHookConfig",
        "ProfilerConfig",
        "Tags",
        "Environment",
        "ExperimentConfig",
    ):
        assert key not in request, key


def test_dry_run_defaults_for_the_generic_estimator():
    request = dry_run(generic())
    assert "EnableSageMakerMetricsTimeSeries" not in request["AlgorithmSpecification"]
    assert request["AlgorithmSpecification"] == {"TrainingInputMode": "File", "TrainingImage": IMAGE}
    assert request["ResourceConfig"] == {"VolumeSizeInGB": 30, "InstanceType": "ml.m5.xlarge", "InstanceCount": 1}
    assert "HyperParameters" not in request
    assert "InputDataConfig" not in request
    assert re.fullmatch(r"my-image-" + TIMESTAMP, request["TrainingJobName"])


def test_booleans_present_only_when_true():
    request = dry_run(
        pytorch(
            enable_network_isolation=True,
            encrypt_inter_container_traffic=True,
            use_spot_instances=True,
            max_run=3600,
            max_wait=7200,
        ),
        grouped_inputs(),
    )
    assert request["EnableNetworkIsolation"] is True
    assert request["EnableInterContainerTrafficEncryption"] is True
    assert request["EnableManagedSpotTraining"] is True
    assert request["StoppingCondition"] == {"MaxRuntimeInSeconds": 3600, "MaxWaitTimeInSeconds": 7200}
    request = dry_run(
        pytorch(enable_network_isolation=False, encrypt_inter_container_traffic=False, use_spot_instances=False),
        grouped_inputs(),
    )
    for key in ("EnableNetworkIsolation", "EnableInterContainerTrafficEncryption", "EnableManagedSpotTraining"):
        assert key not in request


def test_vpc_checkpoint_retry_keep_alive_and_others():
    request = dry_run(
        pytorch(
            subnets=["subnet-1", "subnet-2"],
            security_group_ids=["sg-1"],
            checkpoint_s3_uri="s3://bucket/checkpoints",
            checkpoint_local_path="/opt/ml/checkpoints",
            max_retry_attempts=3,
            keep_alive_period_in_seconds=1800,
            volume_size=100,
            volume_kms_key="vol-key",
            output_kms_key="out-key",
            output_path="s3://my-out/prefix",
            environment={"MY_VAR": "1"},
            metric_definitions=[{"Name": "loss", "Regex": "loss=(.*)"}],
        ),
        grouped_inputs(),
        experiment_config={"ExperimentName": "exp"},
    )
    assert request["VpcConfig"] == {"Subnets": ["subnet-1", "subnet-2"], "SecurityGroupIds": ["sg-1"]}
    assert request["CheckpointConfig"] == {"S3Uri": "s3://bucket/checkpoints", "LocalPath": "/opt/ml/checkpoints"}
    assert request["RetryStrategy"] == {"MaximumRetryAttempts": 3}
    assert request["ResourceConfig"]["KeepAlivePeriodInSeconds"] == 1800
    assert request["ResourceConfig"]["VolumeSizeInGB"] == 100
    assert request["ResourceConfig"]["VolumeKmsKeyId"] == "vol-key"
    assert request["OutputDataConfig"] == {"S3OutputPath": "s3://my-out/prefix", "KmsKeyId": "out-key"}
    assert request["Environment"] == {"MY_VAR": "1"}
    assert request["AlgorithmSpecification"]["MetricDefinitions"] == [{"Name": "loss", "Regex": "loss=(.*)"}]
    assert request["ExperimentConfig"] == {"ExperimentName": "exp"}
    # the code archive goes to the output path's bucket
    submit = json.loads(request["HyperParameters"]["sagemaker_submit_directory"])
    assert re.match(r"^s3://my-out/code/[0-9a-f]{64}/sourcedir\.tar\.gz$", submit)


def test_checkpoint_without_local_path():
    request = dry_run(pytorch(checkpoint_s3_uri="s3://bucket/ckpt"), grouped_inputs())
    assert request["CheckpointConfig"] == {"S3Uri": "s3://bucket/ckpt"}


def test_default_job_name_and_base_job_name():
    request = dry_run(pytorch(), grouped_inputs())
    assert re.fullmatch(r"pytorch-training-" + TIMESTAMP, request["TrainingJobName"])
    assert json.loads(request["HyperParameters"]["sagemaker_job_name"]) == request["TrainingJobName"]
    request = dry_run(pytorch(base_job_name="hetero"), grouped_inputs())
    assert re.fullmatch(r"hetero-" + TIMESTAMP, request["TrainingJobName"])
    request = dry_run(pytorch(base_job_name="b" * 50), grouped_inputs())
    assert re.fullmatch(r"b{39}-" + TIMESTAMP, request["TrainingJobName"])
    request = dry_run(
        TensorFlow(entry_point="train.py", framework_version="2.9.2", py_version="py39", role=ROLE,
                   instance_groups=[cpu_group(), gpu_group()]),
        grouped_inputs(),
    )
    assert re.fullmatch(r"tensorflow-training-" + TIMESTAMP, request["TrainingJobName"])


def test_long_base_job_name_is_cut_not_refused():
    # The SDK v2 cuts "{base}-{timestamp}" to 63 characters; a long base is not an error.
    request = dry_run(pytorch(base_job_name="b" * 70), grouped_inputs())
    assert re.fullmatch(r"b{39}-" + TIMESTAMP, request["TrainingJobName"])


def test_dry_run_without_a_region(monkeypatch, tmp_path):
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-such-config"))
    est = pytorch()  # the constructor needs no region, nor does a dry run: it shows a placeholder
    request = dry_run(est, grouped_inputs())
    assert request["OutputDataConfig"]["S3OutputPath"] == "s3://sagemaker-<region>-<account-id>/"
    assert request["AlgorithmSpecification"]["TrainingImage"].startswith("<registry-account>.dkr.ecr.<region>.")
    with pytest.raises(ConfigError) as info:  # a submission needs a real one, and says so before anything else
        est.fit(grouped_inputs())
    assert "sagemaker_session: no AWS region is configured" in str(info.value) and "AWS_REGION" in str(info.value)


def test_region_from_a_profile_in_the_aws_config_file(monkeypatch, tmp_path):
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_DEFAULT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "aws-config"
    config.write_text("[default]\nregion = us-east-2\n\n[profile dev]\nregion = eu-west-1\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    monkeypatch.setenv("AWS_PROFILE", "dev")
    request = dry_run(pytorch(), grouped_inputs())
    image = request["AlgorithmSpecification"]["TrainingImage"]
    assert ".dkr.ecr.eu-west-1.amazonaws.com/pytorch-training:2.2.0-gpu-py310" in image
    assert request["OutputDataConfig"]["S3OutputPath"] == "s3://sagemaker-eu-west-1-<account-id>/"
    assert json.loads(request["HyperParameters"]["sagemaker_region"]) == "eu-west-1"
    monkeypatch.delenv("AWS_PROFILE")
    request = dry_run(pytorch(), grouped_inputs())
    assert ".dkr.ecr.us-east-2.amazonaws.com/" in request["AlgorithmSpecification"]["TrainingImage"]


def test_china_region(monkeypatch):
    monkeypatch.setenv("AWS_REGION", "cn-north-1")
    request = dry_run(pytorch(role="SageMakerRole"), grouped_inputs())
    image = request["AlgorithmSpecification"]["TrainingImage"]
    assert re.fullmatch(r"\d{12}\.dkr\.ecr\.cn-north-1\.amazonaws\.com\.cn/pytorch-training:2\.2\.0-gpu-py310", image)
    assert request["RoleArn"] == "arn:aws-cn:iam::<account-id>:role/SageMakerRole"


def test_tensorflow_alias_is_kept_in_the_tag():
    est = TensorFlow(entry_point="train.py", framework_version="2.9", py_version="py39", role=ROLE,
                     instance_groups=[cpu_group(), gpu_group()])
    request = dry_run(est, grouped_inputs())
    image = request["AlgorithmSpecification"]["TrainingImage"]
    assert image.endswith("/tensorflow-training:2.9-gpu-py39")
    assert request["AlgorithmSpecification"]["EnableSageMakerMetricsTimeSeries"] is True


def test_tensorflow_model_dir():
    est = TensorFlow(entry_point="train.py", framework_version="2.9", py_version="py39", role=ROLE,
                     instance_groups=[cpu_group(), gpu_group()], output_path="s3://my-out/runs")
    hps = dry_run(est, grouped_inputs(), job_name="tf-job")["HyperParameters"]
    assert json.loads(hps["model_dir"]) == "s3://my-out/runs/tf-job/model"
    est = TensorFlow(entry_point="train.py", framework_version="2.9", py_version="py39", role=ROLE,
                     instance_groups=[cpu_group(), gpu_group()],
                     distribution={"mpi": {"enabled": True}, "instance_groups": ["gpu_group"]})
    hps = dry_run(est, grouped_inputs(), job_name="tf-job")["HyperParameters"]
    assert json.loads(hps["model_dir"]) == "/opt/ml/model"


def test_cpu_only_cluster_gives_a_cpu_image():
    est = pytorch(instance_groups=[cpu_group(), InstanceGroup("other", "ml.m5.xlarge", 1)])
    request = dry_run(est, grouped_inputs(gpu="other"))
    assert "/pytorch-training:2.2.0-cpu-py310" in request["AlgorithmSpecification"]["TrainingImage"]


def test_explicit_image_uri_wins():
    request = dry_run(pytorch(image_uri=IMAGE), grouped_inputs())
    assert request["AlgorithmSpecification"]["TrainingImage"] == IMAGE


def test_debugger_and_profiler_only_when_asked_for():  # D2
    request = dry_run(pytorch(), grouped_inputs())
    assert "DebugHookConfig" not in request and "ProfilerConfig" not in request
    request = dry_run(pytorch(debugger_hook_config={"S3OutputPath": "s3://b/d"}), grouped_inputs())
    assert request["DebugHookConfig"] == {"S3OutputPath": "s3://b/d"}
    assert "ProfilerConfig" not in request
    request = dry_run(pytorch(profiler_config={"S3OutputPath": "s3://b/p"}), grouped_inputs())
    assert request["ProfilerConfig"] == {"S3OutputPath": "s3://b/p"}


# -- channels and the project's deliberate differences (D1, D3, D4, D5) ---------------------------


def test_single_input_becomes_the_training_channel():
    est = pytorch(instance_groups=None, instance_type="ml.p3.2xlarge", instance_count=1)
    request = dry_run(est, "s3://bucket/data")
    assert [c["ChannelName"] for c in request["InputDataConfig"]] == ["training"]
    request = dry_run(est, TrainingInput("s3://bucket/data", input_mode="FastFile"))
    channel = request["InputDataConfig"][0]
    assert channel["ChannelName"] == "training"
    assert channel["InputMode"] == "FastFile"
    request = dry_run(est, {"b": "s3://bucket/b", "a": TrainingInput("s3://bucket/a")})
    assert [c["ChannelName"] for c in request["InputDataConfig"]] == ["b", "a"]
    assert "InputMode" not in request["InputDataConfig"][0]


def test_constructor_job_name_is_used():  # D1
    request = dry_run(pytorch(job_name="my-training-job-with-heterogeneous-cluster"), grouped_inputs())
    assert request["TrainingJobName"] == "my-training-job-with-heterogeneous-cluster"


def test_network_isolation_code_channel_names_all_groups():  # D3
    est = pytorch(source_dir="src", enable_network_isolation=True)
    request = dry_run(est, grouped_inputs(), job_name="isolated")
    channels = {c["ChannelName"]: c for c in request["InputDataConfig"]}
    assert list(channels) == ["train", "dummy", "code"]
    code = channels["code"]["DataSource"]["S3DataSource"]
    assert code["InstanceGroupNames"] == ["cpu_group", "gpu_group"]
    assert re.match(r"^s3://sagemaker-us-west-2-<account-id>/code/[0-9a-f]{64}/sourcedir\.tar\.gz$", code["S3Uri"])
    assert request["HyperParameters"]["sagemaker_submit_directory"] == '"/opt/ml/input/data/code/sourcedir.tar.gz"'


def test_network_isolation_without_group_channels_names_no_groups():
    est = pytorch(source_dir="src", enable_network_isolation=True)
    request = dry_run(est, {"train": "s3://bucket/train"}, job_name="isolated")
    for channel in request["InputDataConfig"]:
        assert "InstanceGroupNames" not in channel["DataSource"]["S3DataSource"]


def test_model_channel_names_all_groups():  # D3
    est = pytorch(model_uri="s3://bucket/model.tar.gz")
    request = dry_run(est, grouped_inputs(), job_name="with-model")
    channels = {c["ChannelName"]: c for c in request["InputDataConfig"]}
    model = channels["model"]
    assert model["DataSource"]["S3DataSource"]["InstanceGroupNames"] == ["cpu_group", "gpu_group"]
    assert model["DataSource"]["S3DataSource"]["S3Uri"] == "s3://bucket/model.tar.gz"
    assert model["ContentType"] == "application/x-sagemaker-model"


def test_torch_distributed_writes_the_distribution_group():  # D4
    est = pytorch(distribution={"torch_distributed": {"enabled": True}, "instance_groups": [gpu_group()]})
    hps = dry_run(est, grouped_inputs(), job_name="torchrun-hetero")["HyperParameters"]
    assert json.loads(hps["sagemaker_distribution_instance_groups"]) == ["gpu_group"]
    assert hps["sagemaker_torch_distributed_enabled"] == "true"


def test_smddp_writes_the_group_instance_type():  # D5
    est = pytorch(
        framework_version="1.12.1",
        py_version="py38",
        distribution={"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": [gpu_group()]},
    )
    hps = dry_run(est, grouped_inputs(), job_name="smddp-hetero")["HyperParameters"]
    assert json.loads(hps["sagemaker_instance_type"]) == "ml.p4d.24xlarge"
    assert hps["sagemaker_distributed_dataparallel_enabled"] == "true"
    assert hps["sagemaker_distributed_dataparallel_custom_mpi_options"] == '""'
    assert json.loads(hps["sagemaker_distribution_instance_groups"]) == ["gpu_group"]


def test_mpi_group_hyperparameters():
    est = pytorch(
        distribution={"mpi": {"enabled": True, "processes_per_host": 8}, "instance_groups": ["gpu_group"]},
    )
    hps = dry_run(est, grouped_inputs(), job_name="mpi-hetero")["HyperParameters"]
    assert hps["sagemaker_mpi_enabled"] == "true"
    assert hps["sagemaker_mpi_num_of_processes_per_host"] == "8"
    assert hps["sagemaker_mpi_custom_mpi_options"] == '""'
    assert json.loads(hps["sagemaker_distribution_instance_groups"]) == ["gpu_group"]


def test_single_group_distribution_uses_that_group():
    gpu = gpu_group()
    est = pytorch(instance_groups=[gpu], distribution={"smdistributed": {"dataparallel": {"enabled": True}}})
    hps = dry_run(est, "s3://bucket/train", job_name="one-group")["HyperParameters"]
    assert json.loads(hps["sagemaker_instance_type"]) == "ml.p4d.24xlarge"
    assert hps["sagemaker_distributed_dataparallel_enabled"] == "true"


def test_the_estimators_distribution_is_the_sdk_v2s_normalised_copy():
    gpu = gpu_group()
    est = pytorch(distribution={"pytorchddp": {"enabled": True}, "instance_groups": [gpu]})
    assert est.distribution == {"instance_groups": ["gpu_group"], "smdistributed": {"dataparallel": {"enabled": True}}}
    request = dry_run(est, grouped_inputs())
    assert request["HyperParameters"]["sagemaker_distributed_dataparallel_enabled"] == "true"
    assert request["HyperParameters"]["sagemaker_distribution_instance_groups"] == '["gpu_group"]'


def test_sagemaker_metrics_are_on_only_with_a_framework_version_as_in_the_sdk_v2():
    assert dry_run(pytorch(), grouped_inputs())["AlgorithmSpecification"]["EnableSageMakerMetricsTimeSeries"] is True
    request = dry_run(pytorch(framework_version=None, py_version=None, image_uri=IMAGE), grouped_inputs())
    assert "EnableSageMakerMetricsTimeSeries" not in request["AlgorithmSpecification"]


# -- SDK v2 arguments that map to CreateTrainingJob fields (issue 10) -------------------------------


def test_the_sdk_v2s_newer_training_job_arguments_reach_the_request():
    est = pytorch(
        training_plan="arn:aws:sagemaker:us-west-2:123456789012:training-plan/my-plan",
        training_repository_access_mode="Vpc",
        training_repository_credentials_provider_arn="arn:aws:lambda:us-west-2:123456789012:function:auth",
        enable_infra_check=True,
        container_entry_point=["python", "-m"],
        container_arguments=("train", "--fast"),
        enable_remote_debug=True,
        enable_session_tag_chaining=False,
    )
    request = dry_run(est, grouped_inputs())
    algorithm = request["AlgorithmSpecification"]
    assert algorithm["ContainerEntrypoint"] == ["python", "-m"]
    assert algorithm["ContainerArguments"] == ["train", "--fast"]
    assert algorithm["TrainingImageConfig"] == {
        "TrainingRepositoryAccessMode": "Vpc",
        "TrainingRepositoryAuthConfig": {
            "TrainingRepositoryCredentialsProviderArn": "arn:aws:lambda:us-west-2:123456789012:function:auth"},
    }
    assert request["ResourceConfig"]["TrainingPlanArn"] == "arn:aws:sagemaker:us-west-2:123456789012:training-plan/my-plan"
    assert request["InfraCheckConfig"] == {"EnableInfraCheck": True}
    assert request["RemoteDebugConfig"] == {"EnableRemoteDebug": True}
    assert request["SessionChainingConfig"] == {"EnableSessionTagChaining": False}
    assert est.get_remote_debug_config() == {"EnableRemoteDebug": True}
    assert est.get_session_chaining_config() == {"EnableSessionTagChaining": False}
    assert pytorch().get_remote_debug_config() is None


def test_the_credentials_arn_goes_only_with_an_access_mode_and_bad_values_are_named():
    request = dry_run(pytorch(training_repository_credentials_provider_arn="arn:aws:lambda:x"), grouped_inputs())
    assert "TrainingImageConfig" not in request["AlgorithmSpecification"]
    with pytest.raises(ConfigError) as info:
        dry_run(pytorch(training_repository_access_mode="Lan", container_arguments="x", training_plan="plan"),
                grouped_inputs())
    assert sorted(p.path for p in info.value.problems) == [
        "container_arguments", "training_plan", "training_repository_access_mode"]


def test_training_inputs_carry_hub_and_model_access_configs():
    inputs = grouped_inputs()
    inputs["train"] = TrainingInput("s3://bucket/train", instance_groups=["cpu_group"],
                                    model_access_config={"AcceptEula": True},
                                    hub_access_config={"HubContentArn": "arn:aws:sagemaker:us-west-2:aws:hub-content/x"})
    source = dry_run(pytorch(), inputs)["InputDataConfig"][0]["DataSource"]["S3DataSource"]
    assert source["ModelAccessConfig"] == {"AcceptEula": True}
    assert source["HubAccessConfig"] == {"HubContentArn": "arn:aws:sagemaker:us-west-2:aws:hub-content/x"}
    assert inputs["train"].config["DataSource"]["S3DataSource"]["ModelAccessConfig"] == {"AcceptEula": True}


def test_get_app_url_gives_the_tensorboard_urls_the_sdk_v2_gives(monkeypatch, tmp_path):
    from sagemaker_hetero._aws import apps

    monkeypatch.setattr(apps, "STUDIO_METADATA_FILE", str(tmp_path / "none.json"))
    est = pytorch()
    dry_run(est, grouped_inputs(), job_name="tb-job")
    assert est.get_app_url("TensorBoard", open_in_default_web_browser=False) == (
        "https://us-west-2.console.aws.amazon.com/sagemaker/home?region=us-west-2#/tensor-board-landing/tb-job")
    metadata = tmp_path / "metadata.json"
    metadata.write_text(json.dumps({"DomainId": "d-abc", "UserProfileName": "me"}))
    monkeypatch.setattr(apps, "STUDIO_METADATA_FILE", str(metadata))
    assert est.get_app_url("tensorboard", open_in_default_web_browser=False) == (
        "https://d-abc.studio.us-west-2.sagemaker.aws/tensorboard/default"
        "/data/plugin/sagemaker_data_manager/add_folder_or_job?Redirect=True&Name=tb-job")
    with pytest.raises(ValueError, match="does not support URL retrieval"):
        est.get_app_url("notebook")


def test_output_compression_off_and_instance_placement_as_in_the_sdk_v2():
    placement = {"EnableMultipleJobs": True, "PlacementSpecifications": [{"InstanceCount": 1}]}
    request = dry_run(pytorch(disable_output_compression=True, instance_placement_config=placement), grouped_inputs())
    assert request["OutputDataConfig"]["CompressionType"] == "NONE"
    assert request["ResourceConfig"]["InstancePlacementConfig"] == placement
    assert "CompressionType" not in dry_run(pytorch(), grouped_inputs())["OutputDataConfig"]


def test_an_estimator_without_a_session_makes_one_when_asked_as_in_the_sdk_v2(monkeypatch):
    # the published tf.data.service launcher asks estimator.sagemaker_session.default_bucket()
    est = pytorch()
    assert est._sagemaker_session is None  # a dry run never asks: no boto3
    dry_run(est, grouped_inputs())
    assert est._sagemaker_session is None
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    session = est.sagemaker_session
    assert type(session).__name__ == "Session" and est.sagemaker_session is session

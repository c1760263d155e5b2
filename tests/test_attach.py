"""attach: an estimator rebuilt from DescribeTrainingJob renders the job's request again.

Every conformance scenario creates its job on the moto server; the estimator attached to it must
render the request the server received, both through moto's DescribeTrainingJob (which drops a few
keys, see ``MOTO_DROPS``) and, exactly, from the received request itself.
"""
import io
import json
import re

import boto3
import pytest

from sagemaker_hetero import Estimator, InstanceGroup, PyTorch, Session, TensorFlow, TrainingInput
from sagemaker_hetero._request import plan as _plan
from sagemaker_hetero._request import describe
from sagemaker_hetero._model import build as _build
from sagemaker_hetero.exceptions import ConfigError
from tests.test_conformance import BUCKETS, SCENARIOS, _path, _run_scenario, _source, _workdir

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
# What moto 5.2.5's DescribeTrainingJob leaves out of a stored job (Tags are never part of a
# description, on AWS either).
MOTO_DROPS = ("Tags", "Environment", "RetryStrategy", "DebugHookConfig", "ProfilerConfig")


@pytest.fixture
def moto_env(aws, tmp_path, monkeypatch):
    s3 = boto3.client("s3")
    for bucket in BUCKETS:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    _workdir(tmp_path)
    monkeypatch.chdir(tmp_path)
    return aws


def comparable(request, drops=MOTO_DROPS):
    """The request without what moto does not keep; moto also replaces MetricDefinitions."""
    out = json.loads(json.dumps(request))
    for key in drops:
        out.pop(key, None)
    out["AlgorithmSpecification"].pop("MetricDefinitions", None)
    return out


def rerender(estimator, job_name):
    return estimator.fit(estimator.latest_inputs, job_name=job_name, dry_run=True)


# Scenarios whose jobs are also created on the moto server and attached to (each costs ~0.5 s).
THROUGH_MOTO = [s for s in SCENARIOS if s[1] in ("pytorch_mpi_group", "network_isolation", "seed_tensorflow", "homog_full")]


def dry_run_of(name):
    """The scenario's request as a dry run (its ``fit(..., wait=False)`` made ``dry_run=True``)."""
    source = re.sub(r"^(est|estimator)\.fit\(", r"_rendered = \1.fit(", _source(name), flags=re.M)
    namespace = {"__name__": "__main__"}
    exec(compile(source.replace("wait=False", "wait=False, dry_run=True"), _path(name, ".py"), "exec"), namespace)
    return namespace["_rendered"], namespace.get("est") or namespace.get("estimator")


@pytest.mark.parametrize("name", SCENARIOS, ids=["/".join(s) for s in SCENARIOS])
def test_the_settings_of_a_request_render_it_again_exactly(name, tmp_path, monkeypatch):
    _workdir(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    request, original = dry_run_of(name)
    job = describe.job_from_description(request, framework=type(original).framework)
    facts = _plan.Facts(region="us-west-2", default_bucket="unused")
    assert _plan.make_plan(job, facts, 0.0).request == request
    if describe.image_framework(request["AlgorithmSpecification"]["TrainingImage"]):  # a DLC image tells it
        assert describe.job_from_description(request).framework == type(original).framework  # AUTO


@pytest.mark.parametrize("name", THROUGH_MOTO, ids=["/".join(s) for s in THROUGH_MOTO])
def test_an_attached_estimator_renders_the_request_of_the_job(name, moto_env):
    namespace = _run_scenario(name)
    original = namespace.get("est") or namespace.get("estimator")
    received = moto_env.last_json("CreateTrainingJob")
    job_name = received["TrainingJobName"]

    attached = type(original).attach(job_name)
    assert type(attached) is type(original)
    assert comparable(rerender(attached, job_name)) == comparable(received)


def test_attach_rebuilds_the_cluster_channels_distribution_and_code(moto_env):
    data = InstanceGroup("data_group", "ml.c5.18xlarge", 2)
    dnn = InstanceGroup("dnn_group", "ml.p4d.24xlarge", 1)
    original = PyTorch(
        entry_point="train.py", source_dir="src", framework_version="1.12.1", py_version="py38", role=ROLE,
        instance_groups=[data, dnn], hyperparameters={"epochs": 3, "mode": "fast", "layers": [1, 2]},
        distribution={"torch_distributed": {"enabled": True}, "instance_groups": [dnn]},
        volume_size=200, max_run=7200, output_path="s3://my-out/runs", checkpoint_s3_uri="s3://my-out/ckpt",
        subnets=["subnet-1"], security_group_ids=["sg-1"],
    )
    inputs = {"train": TrainingInput("s3://bucket/train", instance_groups=["data_group"], input_mode="Pipe"),
              "dummy": TrainingInput("s3://bucket/dummy", instance_groups=["dnn_group"])}
    original.fit(inputs, wait=False, job_name="attach-me-2024-01-02-03-04-05-678")
    request = moto_env.last_json("CreateTrainingJob")
    moto_env.clear_requests()

    est = PyTorch.attach("attach-me-2024-01-02-03-04-05-678")
    assert moto_env.operations() == ["DescribeTrainingJob"]
    assert est.instance_groups == [data, dnn]
    assert est.latest_inputs["train"].instance_groups == ["data_group"]
    assert est.latest_inputs["train"].input_mode == "Pipe"
    assert est.latest_inputs["dummy"].instance_groups == ["dnn_group"]
    assert est.distribution == {"torch_distributed": {"enabled": True}, "instance_groups": ["dnn_group"]}
    assert (est.framework_version, est.py_version, est.image_uri) == ("1.12.1", "py38", None)
    assert est.entry_point == "train.py"
    assert re.match(r"^s3://my-out/code/[0-9a-f]{64}/sourcedir\.tar\.gz$", est.source_dir)
    assert est.hyperparameters() == {"epochs": 3, "mode": "fast", "layers": [1, 2]}
    assert (est.role, est.output_path, est.volume_size, est.max_run) == (ROLE, "s3://my-out/runs", 200, 7200)
    assert est.base_job_name == "attach-me"
    assert est.latest_training_job.name == "attach-me-2024-01-02-03-04-05-678"
    assert est.latest_training_job.wait(out=io.StringIO())["TrainingJobStatus"] == "Completed"
    assert comparable(rerender(est, "attach-me-2024-01-02-03-04-05-678")) == comparable(request)
    assert "dnn_group" in est.describe_cluster() and "torch_distributed" in est.describe_cluster()
    assert repr(est).splitlines()[0] == "PyTorch estimator (latest job: attach-me-2024-01-02-03-04-05-678)"


def test_the_generic_estimator_attaches_a_framework_job_with_its_image(moto_env):
    original = PyTorch(entry_point="train.py", framework_version="2.0.1", py_version="py310", role=ROLE,
                       instance_type="ml.g5.xlarge", instance_count=1, hyperparameters={"lr": 0.1})
    original.fit("s3://bucket/train", wait=False, job_name="as-generic")
    request = moto_env.last_json("CreateTrainingJob")
    est = Estimator.attach("as-generic", sagemaker_session=Session())
    assert type(est) is Estimator
    assert est.image_uri == request["AlgorithmSpecification"]["TrainingImage"]
    assert comparable(rerender(est, "as-generic")) == comparable(request)


def test_attaching_with_another_frameworks_class_is_refused(moto_env):
    TensorFlow(entry_point="train.py", framework_version="2.11", py_version="py39", role=ROLE,
               instance_type="ml.c5.xlarge", instance_count=1).fit(wait=False, job_name="tf-job")
    with pytest.raises(ConfigError) as info:
        PyTorch.attach("tf-job")
    assert "TensorFlow.attach" in str(info.value)


def test_attach_of_a_missing_job_is_a_not_found_error(moto_env):
    from sagemaker_hetero.exceptions import AWSError

    with pytest.raises(AWSError):
        PyTorch.attach("no-such-job")


def test_a_custom_image_stays_the_image_and_the_versions_are_read_from_a_dlc_tag():
    desc = {
        "TrainingJobName": "j",
        "RoleArn": ROLE,
        "AlgorithmSpecification": {"TrainingImage": "111122223333.dkr.ecr.eu-west-1.amazonaws.com/mine:1",
                                   "TrainingInputMode": "File"},
        "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
        "OutputDataConfig": {"S3OutputPath": "s3://b/"},
        "StoppingCondition": {"MaxRuntimeInSeconds": 60},
        "HyperParameters": {"a": "1"},
    }
    custom = describe.job_from_description(desc, framework="pytorch")
    assert (custom.image_uri, custom.framework_version) == (desc["AlgorithmSpecification"]["TrainingImage"], None)
    generic = describe.job_from_description(desc, framework=None)
    assert generic.hyperparameters == (("a", "1"),)  # str-encoded values stay as they are
    assert _build.arguments(generic)[0]["hyperparameters"] == {"a": "1"}
    assert describe.image_framework(
        "763104351884.dkr.ecr.us-west-2.amazonaws.com/tensorflow-training:2.9-gpu-py39"
    ) == ("tensorflow", "2.9", "gpu", "py39", "us-west-2")
    # the base name of an attached job: its name without the timestamp a default name carries
    for name, base in (("my-job-2024-01-02-03-04-05-678", "my-job"), ("plain-name", "plain-name")):
        assert describe.job_from_description(dict(desc, TrainingJobName=name), framework=None).base_job_name == base


def test_local_file_channels_and_a_model_read_back(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AWS_REGION", "us-west-2")
    (tmp_path / "train.py").write_text("print(1)\n")
    from sagemaker_hetero.local import LocalSession

    est = PyTorch(entry_point="train.py", framework_version="2.2.0", py_version="py310", role=ROLE,
                  instance_groups=[InstanceGroup("a", "ml.c5.xlarge", 1), InstanceGroup("b", "ml.g5.xlarge", 1)],
                  model_uri="file://%s" % tmp_path, sagemaker_session=LocalSession(root=str(tmp_path / "jobs")))
    request = est.fit({"raw": TrainingInput("file://%s" % tmp_path, instance_groups=["a"]),
                       "dummy": TrainingInput("file://%s" % tmp_path, instance_groups=["b"])}, dry_run=True,
                      job_name="local-job")
    job = describe.job_from_description(request)
    assert job.channels[0].groups == ("a",)
    kwargs, inputs = _build.arguments(job)
    assert inputs["raw"].instance_groups == ["a"]
    assert kwargs["model_uri"] == "file://%s" % tmp_path
    facts = _plan.Facts(region="us-west-2", default_bucket="unused", local=True)  # a local run's request
    assert _plan.make_plan(job, facts, 0.0).request == request

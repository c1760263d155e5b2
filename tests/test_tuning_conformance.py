"""Tuning jobs and pipelines against what the SageMaker Python SDK v2 sends (tests/conformance/tuning).

Each scenario (user code written for the SDK v2) runs with its imports changed to
``sagemaker_hetero``, end to end through the moto server. A homogeneous scenario must send the
request recorded from the SDK v2; a heterogeneous one, which the SDK v2 cannot send (its
``InstanceCount: None``, recorded), must send its homogeneous twin's recorded request, field by
field, except where the instance groups go.
"""
import glob
import json
import os
import re
import sys

import boto3
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "conformance", "tuning")
BUCKETS = ("my-out", "bucket", "your-training-data-storage", "my-bucket")

sys.path.insert(0, FOLDER)
from normalize_tuning import normalize_pipeline as _normalize_pipeline  # noqa: E402
from normalize_tuning import normalize_tuning as _normalize_tuning  # noqa: E402

sys.path.pop(0)
sys.path.insert(0, os.path.dirname(FOLDER))
from normalize import code_key_as_sdk_v2  # noqa: E402

sys.path.pop(0)

TUNING = "CreateHyperParameterTuningJob"
DEFINITION = ("TrainingJobDefinition",)


def scenario_names(kind):
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(FOLDER, "*_%s.py" % kind)))


def recording(name):
    with open(os.path.join(FOLDER, name + ".json")) as f:
        return code_key_as_sdk_v2(json.load(f))  # D6: the code key compared as <code>


def normalize_tuning(request):
    return code_key_as_sdk_v2(_normalize_tuning(request))


def normalize_pipeline(request):
    return code_key_as_sdk_v2(_normalize_pipeline(request))


def source(name):
    with open(os.path.join(FOLDER, name + ".py")) as f:
        src = f.read()
    return re.sub(r"^(\s*)(from|import)\s+sagemaker\b", r"\1\2 sagemaker_hetero", src, flags=re.M)


def run(name, src=None):
    namespace = {"__name__": "__main__"}
    exec(compile(src or source(name), os.path.join(FOLDER, name + ".py"), "exec"), namespace)
    return namespace


@pytest.fixture
def scenario_env(aws, tmp_path, monkeypatch):
    s3 = boto3.client("s3")
    for bucket in BUCKETS:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('hello from train.py')\n")
    (tmp_path / "src" / "util.py").write_text("X = 1\n")
    (tmp_path / "train.py").write_text("print('hello')\n")
    monkeypatch.chdir(tmp_path)
    aws.clear_requests()
    return aws


def leaves(value, path=()):
    """``{path: leaf}`` of a request: every scalar (and empty container) under its path."""
    if isinstance(value, dict) and value:
        out = {}
        for key, item in value.items():
            out.update(leaves(item, path + (key,)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, item in enumerate(value):
            out.update(leaves(item, path + (i,)))
        return out
    return {path: value}


def differences(ours, theirs):
    """The paths whose leaves differ (or exist on one side only), with both values."""
    a, b = leaves(ours), leaves(theirs)
    missing = object()
    return dict((p, (a.get(p, missing), b.get(p, missing))) for p in set(a) | set(b) if a.get(p, missing) != b.get(p, missing))


# -- the requests the SDK v2 sends -----------------------------------------------------------------


TUNING_HOMOG = [n for n in scenario_names("homog") if not n.startswith("pipeline")]
TUNING_HETERO = [n for n in scenario_names("hetero") if not n.startswith("pipeline")]


@pytest.mark.parametrize("name", TUNING_HOMOG)
def test_a_homogeneous_tuning_job_sends_the_sdk_v2s_request(name, scenario_env):
    expected = recording(name)
    assert expected["ok"] and expected[TUNING], "the recording is of a request the SDK v2 sent"
    run(name)
    received = scenario_env.last_json(TUNING)
    assert normalize_tuning(received) == expected[TUNING]


#: Where a heterogeneous twin's request may differ from the SDK v2's homogeneous one: the cluster (in
#: the definition's ResourceConfig, not HyperParameterTuningResourceConfig), the channels' groups and
#: the distribution's group. Nothing else.
INSTANCE_GROUP_PATHS = (
    DEFINITION + ("HyperParameterTuningResourceConfig",),
    DEFINITION + ("ResourceConfig",),
    DEFINITION + ("StaticHyperParameters", "sagemaker_distribution_instance_groups"),
)


def _is_instance_group_path(path):
    if any(path[:len(p)] == p for p in INSTANCE_GROUP_PATHS):
        return True
    return path[:2] == DEFINITION + ("InputDataConfig",) and path[3:6] == ("DataSource", "S3DataSource",
                                                                               "InstanceGroupNames")


@pytest.mark.parametrize("name", TUNING_HETERO)
def test_a_two_group_tuning_job_sends_the_sdk_v2s_request_but_for_the_instance_groups(name, scenario_env):
    twin = recording(name.replace("_hetero", "_homog"))[TUNING]
    run(name)
    received = normalize_tuning(scenario_env.last_json(TUNING))
    diff = differences(received, twin)
    assert dict((p, d) for p, d in diff.items() if not _is_instance_group_path(p)) == {}
    resources = received["TrainingJobDefinition"]
    assert "HyperParameterTuningResourceConfig" not in resources
    assert resources["ResourceConfig"]["VolumeSizeInGB"] == twin["TrainingJobDefinition"][
        "HyperParameterTuningResourceConfig"]["VolumeSizeInGB"]
    assert len(resources["ResourceConfig"]["InstanceGroups"]) == 2
    assert all("InstanceGroupNames" in c["DataSource"]["S3DataSource"] for c in resources["InputDataConfig"])


@pytest.mark.parametrize("name", TUNING_HETERO)
def test_the_sdk_v2_cannot_send_a_two_group_tuning_job_and_we_do(name, scenario_env):
    recorded = recording(name)
    # The SDK v2: no instance groups in the tuning request, the count and type None, refused by botocore.
    assert recorded["ok"] is False and recorded["error"]["type"] == "ParamValidationError"
    assert "HyperParameterTuningResourceConfig.InstanceCount, value: None" in recorded["error"]["message"]
    attempted = recorded[TUNING]["TrainingJobDefinition"]["HyperParameterTuningResourceConfig"]
    assert attempted["InstanceCount"] is None and attempted["InstanceType"] is None
    # Ours: sent, with the groups.
    run(name)
    received = scenario_env.last_json(TUNING)
    groups = received["TrainingJobDefinition"]["ResourceConfig"]["InstanceGroups"]
    assert [g["InstanceGroupName"] for g in groups] == [g for g in re.findall(r'InstanceGroup\("(\w+)"', source(name))]
    described = boto3.client("sagemaker").describe_hyper_parameter_tuning_job(
        HyperParameterTuningJobName=received["HyperParameterTuningJobName"])
    assert described["TrainingJobDefinition"]["ResourceConfig"]["InstanceGroups"] == groups


@pytest.mark.parametrize("name", TUNING_HOMOG + TUNING_HETERO)
def test_the_dry_run_renders_exactly_the_tuning_request_sent(name, scenario_env):
    src = source(name)
    namespace = run(name, src)
    received = scenario_env.last_json(TUNING)
    count = len(scenario_env.requests)
    # The scenario's own fit(...) statement, once more, as a dry run on the same tuner.
    call = src[src.index("tuner.fit("):].replace("tuner.fit(", "_rendered = tuner.fit(", 1)
    exec(compile(call.replace("wait=False", "wait=False, dry_run=True"), name, "exec"), namespace)
    assert len(scenario_env.requests) == count, "the dry run sent a request"
    assert normalize_tuning(json.loads(json.dumps(namespace["_rendered"]))) == normalize_tuning(received)


# -- pipelines -------------------------------------------------------------------------------------

PIPELINE = "CreatePipeline"


def test_a_homogeneous_training_step_gives_the_sdk_v2s_pipeline_definition(scenario_env):
    expected = recording("pipeline_homog")
    assert expected["ok"] and expected["operations"] == ["PutObject", PIPELINE, "StartPipelineExecution"]
    run("pipeline_homog")
    received = normalize_pipeline(scenario_env.last_json(PIPELINE))
    assert received == expected[PIPELINE]
    assert scenario_env.operations("sagemaker") == [PIPELINE, "StartPipelineExecution"]


def test_a_two_group_training_step_gives_the_sdk_v2s_definition_but_a_gpu_image_for_a_gpu_group(scenario_env):
    """The SDK v2 takes this step (a pipeline needs no InstanceCount of its own), but it cannot see the
    default of the parameter that is the GPU group's type, and writes a CPU image for it."""
    expected = recording("pipeline_hetero")
    assert expected["ok"]
    run("pipeline_hetero")
    received = normalize_pipeline(scenario_env.last_json(PIPELINE))
    image = ("PipelineDefinition", "Steps", 0, "Arguments", "AlgorithmSpecification", "TrainingImage")
    diff = differences(received, expected[PIPELINE])
    assert list(diff) == [image]
    ours, theirs = diff[image]
    assert theirs.endswith("pytorch-training:2.2.0-cpu-py310") and ours.endswith("pytorch-training:2.2.0-gpu-py310")
    groups = received["PipelineDefinition"]["Steps"][0]["Arguments"]["ResourceConfig"]["InstanceGroups"]
    assert groups[1] == {"InstanceGroupName": "dnn_group", "InstanceType": {"Get": "Parameters.TrainType"},
                         "InstanceCount": {"Get": "Parameters.TrainCount"}}


def test_grid_without_max_jobs_leaves_the_number_of_jobs_out_where_the_sdk_v2_sends_none(scenario_env):
    recorded = recording("grid_default")
    assert recorded["ok"] is False and "MaxNumberOfTrainingJobs, value: None" in recorded["error"]["message"]
    attempted = recorded[TUNING]
    assert attempted["HyperParameterTuningJobConfig"]["ResourceLimits"].pop("MaxNumberOfTrainingJobs") is None
    run("grid_default")
    assert normalize_tuning(scenario_env.last_json(TUNING)) == attempted  # all else as the SDK v2 would send it

"""``_request.render`` (through ``_request.plan.make_plan``): the CreateTrainingJob request of a job model and
what a session knows, called directly. The conformance scenarios' settings, rendered with the facts of their
account, give exactly the SDK v2's recorded request; focused rows hold single parts of it."""
import pytest

from sagemaker_hetero._model.hyperparameters import decode
from sagemaker_hetero._request import plan, render
from sagemaker_hetero.inputs import TrainingInput
from sagemaker_hetero.instance_group import InstanceGroup
from tests._pure import FACTS, GPU, PYTORCH, ROLE, ROUTED, code_key_as_sdk_v2, expectation, job, normalize
from tests.request._scenarios import SCENARIOS


def _plan(framework, arguments, inputs, job_name, facts=FACTS, digest=None):
    return plan.make_plan(job(framework, inputs, job_name, **arguments), facts, 0, code_digest=digest)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_scenarios_settings_render_the_sdk_v2s_request(name):
    """Without a code digest the code's key is the SDK v2's own; with one it is the content address (D6)."""
    expected = expectation("requests", name)
    assert normalize(_plan(*SCENARIOS[name]).request) == expected
    hashed = _plan(*SCENARIOS[name], digest="0" * 64).request
    assert code_key_as_sdk_v2(normalize(hashed)) == code_key_as_sdk_v2(expected)


def _hps(request):
    return dict((k, decode(v)) for k, v in request.get("HyperParameters", {}).items())


def _data(request):
    return [(c["ChannelName"], c["DataSource"]["S3DataSource"].get("InstanceGroupNames")) for c in request.get("InputDataConfig", ())]


# (id, changes to PYTORCH, inputs, what the request must hold)
PARTS = [
    ("instance groups in their order", {}, None, lambda r: r["ResourceConfig"]["InstanceGroups"] == [
        {"InstanceGroupName": "cpu", "InstanceType": "ml.c5.xlarge", "InstanceCount": 2},
        {"InstanceGroupName": "gpu", "InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2}]
     and "InstanceType" not in r["ResourceConfig"]),
    ("a cluster without groups", dict(instance_groups=None, instance_type="ml.g5.xlarge", instance_count=3), None,
     lambda r: (r["ResourceConfig"]["InstanceType"], r["ResourceConfig"]["InstanceCount"]) == ("ml.g5.xlarge", 3)
     and "InstanceGroups" not in r["ResourceConfig"]),
    ("channels routed to groups", {}, ROUTED, lambda r: _data(r) == [("train", ["cpu"]), ("dummy", ["gpu"])]),
    ("a channel to every group", {}, "s3://b/t", lambda r: _data(r) == [("training", None)]),
    ("the model channel follows the routing", dict(model_uri="s3://b/m.tar.gz"), ROUTED,
     lambda r: _data(r)[-1] == ("model", ["cpu", "gpu"]) and r["InputDataConfig"][-1]["ContentType"]
     == "application/x-sagemaker-model"),
    ("mpi's hyperparameters name its group", dict(distribution={"mpi": {"enabled": True, "processes_per_host": 4},
                                                                "instance_groups": [GPU]}), None,
     lambda r: dict((k, v) for k, v in _hps(r).items() if "mpi" in k or "distribution" in k) == {
         "sagemaker_distribution_instance_groups": ["gpu"], "sagemaker_mpi_enabled": True,
         "sagemaker_mpi_num_of_processes_per_host": 4, "sagemaker_mpi_custom_mpi_options": ""}),
    ("torchrun's", dict(distribution={"torch_distributed": {"enabled": True}, "instance_groups": ["gpu"]}), None,
     lambda r: _hps(r)["sagemaker_torch_distributed_enabled"] is True
     and _hps(r)["sagemaker_distribution_instance_groups"] == ["gpu"]),
    ("the code's hyperparameters", dict(source_dir="src", container_log_level=10), None,
     lambda r: (_hps(r)["sagemaker_program"], _hps(r)["sagemaker_container_log_level"], _hps(r)["sagemaker_region"],
                _hps(r)["sagemaker_job_name"], _hps(r)["sagemaker_submit_directory"])
     == ("train.py", 10, "us-west-2", "a-job", "s3://sagemaker-us-west-2-123456789012/a-job/source/sourcedir.tar.gz")),
    ("the image for the GPU group", {}, None, lambda r: r["AlgorithmSpecification"]["TrainingImage"]
     == "763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.2.0-gpu-py310"),
    ("spot and checkpoints", dict(use_spot_instances=True, max_wait=90000, checkpoint_s3_uri="s3://b/ck"), None,
     lambda r: (r["EnableManagedSpotTraining"], r["StoppingCondition"]["MaxWaitTimeInSeconds"], r["CheckpointConfig"])
     == (True, 90000, {"S3Uri": "s3://b/ck"})),
    ("a VPC only with both lists", dict(subnets=["subnet-1"], security_group_ids=["sg-1"]), None,
     lambda r: r["VpcConfig"] == {"Subnets": ["subnet-1"], "SecurityGroupIds": ["sg-1"]}),
    ("tags and environment", dict(tags=[{"Key": "a", "Value": "b"}], environment={"X": "1"}), None,
     lambda r: (r["Tags"], r["Environment"]) == ([{"Key": "a", "Value": "b"}], {"X": "1"})),
    ("the debugger's output only when asked", dict(debugger_hook_config=True), None,
     lambda r: r["DebugHookConfig"] == {"S3OutputPath": "s3://sagemaker-us-west-2-123456789012/"}),
    ("no debugger otherwise", {}, None, lambda r: "DebugHookConfig" not in r and "ProfilerConfig" not in r),
    ("the SDK v2's first keys", {}, None, lambda r: list(r)[:6] == ["AlgorithmSpecification", "OutputDataConfig", "TrainingJobName",
                                                                    "StoppingCondition", "ResourceConfig", "RoleArn"]),
]


@pytest.mark.parametrize("changes, inputs, holds", [r[1:] for r in PARTS], ids=[r[0] for r in PARTS])
def test_the_request_holds_each_part_where_the_service_takes_it(changes, inputs, holds):
    arguments = dict((k, v) for k, v in dict(PYTORCH, **changes).items() if v is not None)
    assert holds(_plan("pytorch", arguments, inputs, "a-job").request)


ORIGINS = [
    (("TrainingJobName",), "job_name"),
    (("RoleArn",), "role"),
    (("ResourceConfig", "InstanceGroups", 1, "InstanceCount"), "instance_groups[1].instance_count"),
    (("ResourceConfig", "InstanceGroups", 0, "InstanceGroupName"), "instance_groups[0].instance_group_name"),
    (("InputDataConfig", 0, "DataSource", "S3DataSource", "InstanceGroupNames"), "inputs['train'].instance_groups"),
    (("InputDataConfig", 1, "DataSource", "S3DataSource", "S3Uri"), "inputs['dummy'].s3_data"),
    (("InputDataConfig", 1, "ChannelName"), "inputs['dummy']"),
    (("HyperParameters", "sagemaker_mpi_enabled"), "distribution"),
    (("HyperParameters", "lr"), "hyperparameters['lr']"),
    (("Tags", 0, "Key"), "tags[0].Key"),
    (("Environment", "X"), "environment['X']"),
    (("StoppingCondition", "MaxRuntimeInSeconds"), "max_run"),
    (("ResourceConfig", "VolumeSizeInGB"), "volume_size"),
    (("Tags", 0, "Key", 3), "tags[0].Key[3]"),
    (("Nowhere", "x"), "Nowhere.x"),
]


@pytest.mark.parametrize("path, user_path", ORIGINS)
def test_every_part_of_the_request_is_named_as_the_user_wrote_it(path, user_path):
    arguments = dict(PYTORCH, hyperparameters={"lr": 0.1}, tags=[{"Key": "k", "Value": "v"}], environment={"X": "1"},
                     distribution={"mpi": {"enabled": True}, "instance_groups": ["gpu"]})
    rendered = _plan("pytorch", arguments, ROUTED, "a-job").rendered
    assert render.user_path(rendered.origins, path) == user_path


def test_a_default_job_name_is_the_bases_and_a_role_names_arn_keeps_the_name_given():
    p = plan.make_plan(job("pytorch", None, None, **dict(PYTORCH, base_job_name="base", role="MyRole")), FACTS, 0)
    assert p.request["TrainingJobName"].startswith("base-1970-01-01-00-00-00-000")
    assert p.rendered.origins[("TrainingJobName",)] == "base_job_name" and p.rendered.given[("TrainingJobName",)] == "base"
    assert p.request["RoleArn"] == "arn:aws:iam::123456789012:role/MyRole" and p.rendered.given[("RoleArn",)] == "MyRole"


def test_a_local_context_reads_file_uris_locally_and_an_aws_one_does_not():
    j = job("pytorch", {"train": TrainingInput("file:///data/train")}, "a-job", **dict(PYTORCH, instance_groups=[GPU]))
    context = dict(region="us-west-2", job_name="a-job", role_arn=ROLE, output_path="file:///out")
    local = render.render(j, render.Context(facts=plan.Facts(region="us-west-2", local=True), **context))
    assert local.request["InputDataConfig"][0]["DataSource"] == {"FileDataSource": {"FileUri": "file:///data/train",
                                                                                    "FileDataDistributionType": "FullyReplicated"}}
    assert set(local.skip) == {("OutputDataConfig", "S3OutputPath"), ("InputDataConfig", 0, "DataSource", "FileDataSource")}
    remote = render.render(j, render.Context(facts=plan.Facts(region="us-west-2"), **context))
    assert "S3DataSource" in remote.request["InputDataConfig"][0]["DataSource"] and remote.skip == ()


def test_a_part_that_cannot_be_rendered_is_left_out_for_the_checks_to_report():
    j = job("pytorch", None, "a-job", **dict(PYTORCH, framework_version="0.1", instance_groups=[InstanceGroup("g", "ml.c5.xlarge", 1)]))
    request = plan.make_plan(j, FACTS, 0).request
    assert "TrainingImage" not in request["AlgorithmSpecification"]
    assert "RoleArn" not in plan.make_plan(job("pytorch", None, "a-job", **dict(PYTORCH, role=None)), FACTS, 0).request

"""``_model.hyperparameters``: values as the job receives them, and the distribution's keys, per strategy."""
import pytest

from sagemaker_hetero._model import hyperparameters as H
from tests._pure import CPU, GPU, PYTORCH, job

ENCODED = [
    (3, True, "3"), (0.1, True, "0.1"), ("adam", True, '"adam"'), (True, True, "true"), (None, True, "null"),
    ([1, "a"], True, '[1, "a"]'), ({"k": 1}, True, '{"k": 1}'),
    (3, False, "3"), ("adam", False, "adam"), (True, False, "True"),
]


@pytest.mark.parametrize("value, as_json, text", ENCODED)
def test_encode(value, as_json, text):
    assert H.encode(value, as_json) == text


@pytest.mark.parametrize("value", [object(), {1j: 2}, {1}])
def test_what_json_cannot_hold_is_a_value_error_naming_the_type(value):
    with pytest.raises(ValueError, match="TypeError"):
        H.encode(value)


@pytest.mark.parametrize("text, value", [('"adam"', "adam"), ("3", 3), ("true", True), ('["a"]', ["a"]), ("adam", "adam"),
                                         ("", ""), (None, None)])
def test_decode_reads_json_and_keeps_what_is_not(text, value):
    assert H.decode(text) == value


HETERO_MPI = {"mpi": {"enabled": True, "processes_per_host": 8, "custom_mpi_options": "-x A"}, "instance_groups": ["gpu"]}
# (id, framework, arguments changed from PYTORCH, the distribution hyperparameters)
DISTRIBUTIONS = [
    ("mpi on a group", "pytorch", dict(distribution=HETERO_MPI),
     {"sagemaker_distribution_instance_groups": ["gpu"], "sagemaker_mpi_enabled": True,
      "sagemaker_mpi_num_of_processes_per_host": 8, "sagemaker_mpi_custom_mpi_options": "-x A"}),
    ("torch_distributed on a group", "pytorch", dict(distribution={"torch_distributed": {"enabled": True},
                                                                   "instance_groups": ["gpu"]}),
     {"sagemaker_distribution_instance_groups": ["gpu"], "sagemaker_torch_distributed_enabled": True}),
    ("smddp on a group: the group's type", "pytorch",
     dict(distribution={"smdistributed": {"dataparallel": {"enabled": True}}, "instance_groups": ["gpu"]}),
     {"sagemaker_distribution_instance_groups": ["gpu"], "sagemaker_distributed_dataparallel_enabled": True,
      "sagemaker_instance_type": "ml.p4d.24xlarge", "sagemaker_distributed_dataparallel_custom_mpi_options": ""}),
    ("pytorchddp is smdistributed dataparallel", "pytorch",
     dict(instance_groups=None, instance_type="ml.p4d.24xlarge", instance_count=2, distribution={"pytorchddp": {"enabled": True}}),
     {"sagemaker_distributed_dataparallel_enabled": True, "sagemaker_instance_type": "ml.p4d.24xlarge",
      "sagemaker_distributed_dataparallel_custom_mpi_options": ""}),
    ("homogeneous torch_distributed: the type", "pytorch",
     dict(instance_groups=None, instance_type="ml.p4d.24xlarge", instance_count=2,
          distribution={"torch_distributed": {"enabled": True}}),
     {"sagemaker_torch_distributed_enabled": True, "sagemaker_instance_type": "ml.p4d.24xlarge"}),
    ("a section without enabled is off", "pytorch", dict(distribution={"mpi": {"processes_per_host": 2}, "instance_groups": ["gpu"]}),
     {"sagemaker_distribution_instance_groups": ["gpu"], "sagemaker_mpi_enabled": False,
      "sagemaker_mpi_num_of_processes_per_host": 2, "sagemaker_mpi_custom_mpi_options": ""}),
    ("parameter server", "tensorflow", dict(framework_version="2.13", instance_groups=None, instance_type="ml.c5.xlarge",
                                            instance_count=2, distribution={"parameter_server": {"enabled": True}}),
     {"sagemaker_parameter_server_enabled": True}),
    ("multi-worker mirrored", "tensorflow", dict(framework_version="2.13", instance_groups=None, instance_type="ml.c5.xlarge",
                                                 instance_count=2,
                                                 distribution={"multi_worker_mirrored_strategy": {"enabled": True}}),
     {"sagemaker_multi_worker_mirrored_strategy_enabled": True}),
    ("no distribution", "pytorch", {}, {}),
]


@pytest.mark.parametrize("framework, changes, expected", [r[1:] for r in DISTRIBUTIONS], ids=[r[0] for r in DISTRIBUTIONS])
def test_distribution_hyperparameters(framework, changes, expected):
    arguments = dict(PYTORCH, **changes)
    arguments = dict((k, v) for k, v in arguments.items() if v is not None)
    if framework == "tensorflow":
        arguments["py_version"] = "py310"
    assert H.distribution_hyperparameters(job(framework, **arguments)) == expected


def test_the_sdks_own_keys_and_the_arguments_they_come_from():
    j = job("pytorch", **dict(PYTORCH, source_dir="src", distribution={"mpi": {"enabled": True}, "instance_groups": [GPU]}))
    entries = [(key, value, arg) for key, value, arg in H.sdk_entries(j)]
    assert [(k, a) for k, _, a in entries][:5] == [
        ("sagemaker_submit_directory", "job_name"), ("sagemaker_program", "entry_point"),
        ("sagemaker_container_log_level", "container_log_level"), ("sagemaker_job_name", "job_name"),
        ("sagemaker_region", "sagemaker_session")]
    assert dict((k, v) for k, v, _ in entries)["sagemaker_submit_directory"] is H.CODE_URI
    assert ("sagemaker_mpi_enabled", True, "distribution") in entries
    isolated = job("pytorch", **dict(PYTORCH, enable_network_isolation=True))
    assert H.sdk_entries(isolated)[0] == ("sagemaker_submit_directory", "/opt/ml/input/data/code/sourcedir.tar.gz", "source_dir")
    assert H.sdk_entries(job(None, image_uri="i", role="r", instance_groups=[CPU])) == []


@pytest.mark.parametrize("changes, model_dir", [
    ({}, H.MODEL_DIR),
    ({"distribution": {"mpi": {"enabled": True}, "instance_groups": ["gpu"]}}, "/opt/ml/model"),
    ({"model_dir": "s3://b/m"}, "s3://b/m"),
    ({"model_dir": False}, None),
])
def test_tensorflows_model_dir(changes, model_dir):
    j = job("tensorflow", **dict(PYTORCH, framework_version="2.13", **changes))
    found = dict((k, v) for k, v, _ in H.sdk_entries(j)).get("model_dir")
    assert found is model_dir if model_dir in (None, H.MODEL_DIR) else found == model_dir

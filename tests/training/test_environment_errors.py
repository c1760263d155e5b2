"""Missing, corrupt or self-contradicting config files raise RuntimeConfigError naming file and problem."""
import copy
import os

import pytest

from sagemaker_hetero.exceptions import RuntimeConfigError, SageMakerHeteroError
from sagemaker_hetero.training import Environment

HETERO = {
    "current_host": "algo-1",
    "current_group_name": "gpu",
    "current_instance_type": "ml.p3.2xlarge",
    "hosts": ["algo-1", "algo-2", "algo-3"],
    "instance_groups": [
        {"instance_group_name": "cpu", "instance_type": "ml.c5.xlarge", "hosts": ["algo-3", "algo-2"]},
        {"instance_group_name": "gpu", "instance_type": "ml.p3.2xlarge", "hosts": ["algo-1"]},
    ],
    "network_interface_name": "eth0",
}
LEGACY = {"current_host": "algo-1", "hosts": ["algo-1", "algo-2"], "network_interface_name": "eth0"}


def hetero(**changes):
    config = copy.deepcopy(HETERO)
    config.update(changes)
    return config


def raises(base, file_name, *fragments):
    """Building an Environment on ``base`` fails naming ``file_name`` and every fragment."""
    with pytest.raises(RuntimeConfigError) as info:
        Environment(base_dir=base)
    error = info.value
    assert error.path == os.path.join(base, "input", "config", file_name)
    assert str(error).startswith(error.path + ": ")
    for fragment in fragments:
        assert fragment in error.problem, (fragment, error.problem)
    return error


# -- the files themselves ---------------------------------------------------------------------


def test_missing_resourceconfig(make_base):
    base = make_base({"hyperparameters.json": {}, "inputdataconfig.json": {}})
    raises(base, "resourceconfig.json", "file not found", "SAGEMAKER_BASE_DIR")


def test_missing_base_dir(tmp_path):
    base = str(tmp_path / "nowhere")
    raises(base, "resourceconfig.json", "file not found")
    assert not os.path.exists(base)


def test_base_dir_from_environment_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("SAGEMAKER_BASE_DIR", str(tmp_path))
    with pytest.raises(RuntimeConfigError) as info:
        Environment()
    assert info.value.path == os.path.join(str(tmp_path), "input", "config", "resourceconfig.json")


@pytest.mark.parametrize("file_name", ["resourceconfig.json", "hyperparameters.json", "inputdataconfig.json"])
def test_corrupt_json(make_base, file_name):
    files = {"resourceconfig.json": LEGACY, "hyperparameters.json": {}, "inputdataconfig.json": {}}
    files[file_name] = '{"current_host": "algo-1",'
    raises(make_base(files), file_name, "not valid JSON")


@pytest.mark.parametrize("file_name", ["resourceconfig.json", "hyperparameters.json", "inputdataconfig.json"])
def test_empty_file(make_base, file_name):
    files = {"resourceconfig.json": LEGACY, file_name: "  \n"}
    raises(make_base(files), file_name, "empty", "expected a JSON object")


@pytest.mark.parametrize("file_name", ["resourceconfig.json", "hyperparameters.json", "inputdataconfig.json"])
def test_not_an_object(make_base, file_name):
    files = {"resourceconfig.json": LEGACY, file_name: ["algo-1"]}
    raises(make_base(files), file_name, "expected a JSON object", "got a list")


def test_not_utf8(make_base):
    base = make_base({"resourceconfig.json": LEGACY})
    with open(os.path.join(base, "input", "config", "hyperparameters.json"), "wb") as handle:
        handle.write(b'{"a": "\xff"}')
    raises(base, "hyperparameters.json", "not UTF-8")


def test_unreadable_file_is_reported(make_base):
    base = make_base({})
    os.makedirs(os.path.join(base, "input", "config", "resourceconfig.json"))  # a directory
    raises(base, "resourceconfig.json", "cannot be read")


# -- resourceconfig.json contradicting itself ---------------------------------------------------


@pytest.mark.parametrize(
    "config, fragments",
    [
        ({"hosts": ["algo-1"]}, ["'current_host' is missing"]),
        ({"current_host": "", "hosts": ["algo-1"]}, ["'current_host' must be a non-empty string"]),
        ({"current_host": "algo-1"}, ["'hosts' is missing"]),
        ({"current_host": "algo-1", "hosts": "algo-1"}, ["'hosts' must be a list of host names", "'algo-1'"]),
        ({"current_host": "algo-1", "hosts": []}, ["'hosts' is empty"]),
        ({"current_host": "algo-1", "hosts": ["algo-1", "algo-1"]}, ["'hosts' lists 'algo-1' 2 times"]),
        ({"current_host": "algo-9", "hosts": ["algo-1", "algo-2"]}, ["current host 'algo-9' is not in 'hosts'"]),
        (dict(LEGACY, network_interface_name=3), ["'network_interface_name' must be a string (got 3)"]),
    ],
)
def test_bad_hosts(make_base, config, fragments):
    raises(make_base({"resourceconfig.json": config}), "resourceconfig.json", *fragments)


def test_current_host_in_no_group(make_base):
    groups = copy.deepcopy(HETERO["instance_groups"])
    groups[1]["hosts"] = []
    error = raises(make_base({"resourceconfig.json": hetero(instance_groups=groups)}), "resourceconfig.json")
    assert "host 'algo-1' is in no instance group" in error.problem


def test_host_in_no_group(make_base):
    groups = copy.deepcopy(HETERO["instance_groups"])
    groups[0]["hosts"] = ["algo-3"]
    raises(
        make_base({"resourceconfig.json": hetero(instance_groups=groups)}),
        "resourceconfig.json",
        "host 'algo-2' is in no instance group",
        "['cpu', 'gpu']",
    )


def test_host_in_two_groups(make_base):
    groups = copy.deepcopy(HETERO["instance_groups"])
    groups[1]["hosts"] = ["algo-1", "algo-2"]
    raises(
        make_base({"resourceconfig.json": hetero(instance_groups=groups)}),
        "resourceconfig.json",
        "host 'algo-2' is in two instance groups, 'cpu' and 'gpu'",
    )


def test_host_twice_in_a_group(make_base):
    groups = copy.deepcopy(HETERO["instance_groups"])
    groups[1]["hosts"] = ["algo-1", "algo-1"]
    raises(
        make_base({"resourceconfig.json": hetero(instance_groups=groups)}),
        "resourceconfig.json",
        "instance group 'gpu' lists host 'algo-1' twice",
    )


def test_group_host_not_in_hosts(make_base):
    groups = copy.deepcopy(HETERO["instance_groups"])
    groups[0]["hosts"].append("algo-7")
    raises(
        make_base({"resourceconfig.json": hetero(instance_groups=groups)}),
        "resourceconfig.json",
        "instance group 'cpu' lists host 'algo-7', which is not in 'hosts'",
    )


def test_current_group_not_a_group(make_base):
    raises(
        make_base({"resourceconfig.json": hetero(current_group_name="tpu")}),
        "resourceconfig.json",
        "current group 'tpu' is not one of the instance groups ['cpu', 'gpu']",
    )


def test_current_host_in_another_group(make_base):
    raises(
        make_base({"resourceconfig.json": hetero(current_group_name="cpu")}),
        "resourceconfig.json",
        "current host 'algo-1' is in instance group 'gpu', but the current group is 'cpu'",
    )


def test_both_group_keys_disagree(make_base):
    raises(
        make_base({"resourceconfig.json": hetero(current_instance_group="cpu")}),
        "resourceconfig.json",
        "'current_group_name' is 'gpu' but 'current_instance_group' is 'cpu'",
    )


@pytest.mark.parametrize(
    "groups, fragment",
    [
        ("cpu", "'instance_groups' must be a list of groups (got a string)"),
        (["cpu"], "instance_groups[0] must be an object (got a string)"),
        ([{"hosts": ["algo-1"]}], "instance_groups[0].instance_group_name must be a non-empty string (got None)"),
        ([{"instance_group_name": "gpu", "hosts": "algo-1"}], "instance_groups[0] ('gpu').hosts must be a list"),
        (
            [{"instance_group_name": "gpu", "hosts": ["algo-1"], "instance_type": 5}],
            "instance_groups[0] ('gpu').instance_type must be a string (got 5)",
        ),
        (
            HETERO["instance_groups"] + [{"instance_group_name": "gpu", "hosts": []}],
            "instance group 'gpu' is listed twice",
        ),
    ],
)
def test_malformed_groups(make_base, groups, fragment):
    raises(make_base({"resourceconfig.json": hetero(instance_groups=groups)}), "resourceconfig.json", fragment)


def test_every_problem_is_reported_at_once(make_base):
    groups = copy.deepcopy(HETERO["instance_groups"])
    groups[0]["hosts"] = ["algo-3", "algo-9"]  # algo-9 unknown, algo-2 in no group
    error = raises(
        make_base({"resourceconfig.json": hetero(instance_groups=groups, current_group_name="cpu")}),
        "resourceconfig.json",
        "3 problems:",
        "'algo-9', which is not in 'hosts'",
        "host 'algo-2' is in no instance group",
        "but the current group is 'cpu'",
    )
    assert error.problem.count("\n  - ") == 3


# -- hyperparameters.json and inputdataconfig.json --------------------------------------------


def test_distribution_group_not_in_cluster(make_base):
    base = make_base(
        {
            "resourceconfig.json": HETERO,
            "hyperparameters.json": {"sagemaker_distribution_instance_groups": '["gpu", "tpu"]'},
        }
    )
    raises(
        base,
        "hyperparameters.json",
        "'sagemaker_distribution_instance_groups' names 'tpu', not an instance group of this cluster",
        "['cpu', 'gpu']",
    )


def test_distribution_group_in_an_old_file(make_base):
    base = make_base({"resourceconfig.json": LEGACY, "hyperparameters.json": {"sagemaker_distribution_instance_groups": '["gpu"]'}})
    raises(base, "hyperparameters.json", "names 'gpu'", "['homogeneousCluster']")


@pytest.mark.parametrize("value", ['"gpu"', "null", "[1]"])
def test_distribution_groups_not_a_list(make_base, value):
    base = make_base({"resourceconfig.json": HETERO, "hyperparameters.json": {"sagemaker_distribution_instance_groups": value}})
    raises(base, "hyperparameters.json", "must be a list of instance group names")


def test_channel_name_with_a_slash(make_base):
    base = make_base({"resourceconfig.json": LEGACY, "inputdataconfig.json": {"../etc": {}, "train": {}}})
    raises(base, "inputdataconfig.json", "channel names must be folder names", "'../etc'")


# -- kinds of errors --------------------------------------------------------------------------


def test_error_types(make_base):
    with pytest.raises(RuntimeConfigError) as info:
        Environment(base_dir=make_base({"resourceconfig.json": {"hosts": ["algo-1"]}}))
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, SageMakerHeteroError)
    assert not isinstance(info.value, KeyError)


def test_arguments_are_named_instead_of_files(tmp_path):
    with pytest.raises(RuntimeConfigError) as info:
        Environment(resource_config={"current_host": "algo-1"}, base_dir=str(tmp_path))
    assert info.value.path == "resource_config argument"
    with pytest.raises(RuntimeConfigError) as info:
        Environment(
            resource_config=HETERO,
            hyperparameters={"sagemaker_distribution_instance_groups": ["tpu"]},
            base_dir=str(tmp_path),
        )
    assert info.value.path == "hyperparameters argument"
    with pytest.raises(RuntimeConfigError) as info:
        Environment(resource_config=HETERO, input_data_config=["train"], base_dir=str(tmp_path))
    assert info.value.path == "input_data_config argument"
    with pytest.raises(RuntimeConfigError, match="hyperparameter names must be strings"):
        Environment(resource_config=HETERO, hyperparameters={1: "x"}, base_dir=str(tmp_path))
    with pytest.raises(RuntimeConfigError, match="channel names must be folder names"):
        Environment(resource_config=HETERO, input_data_config={3: {}}, base_dir=str(tmp_path))


def test_unknown_instance_group_names_the_known_ones(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO}))
    with pytest.raises(ValueError) as info:
        env.instance_group_hosts("tpu")
    assert "unknown instance group 'tpu'" in str(info.value)
    assert "['cpu', 'gpu']" in str(info.value)
    legacy = Environment(base_dir=make_base({"resourceconfig.json": LEGACY}))
    with pytest.raises(ValueError, match="homogeneousCluster"):
        legacy.instance_group_hosts("cpu")


def test_unknown_mapping_key_is_a_key_error(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO}))
    with pytest.raises(KeyError):
        env["no_such_property"]
    assert "no_such_property" not in env
    assert env.get("no_such_property", 5) == 5

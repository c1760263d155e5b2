"""Environment: lenient reading, mapping protocol, read-only values, no side effects, helpers."""
import json
import os
import subprocess

import pytest

from sagemaker_hetero.training import HOMOGENEOUS_GROUP, Environment, to_cmd_args
from sagemaker_hetero.training import _devices
from sagemaker_hetero.training import environment as environment_module

HETERO = {
    "current_host": "algo-2",
    "current_group_name": "gpu",
    "current_instance_type": "ml.p3.2xlarge",
    "hosts": ["algo-1", "algo-2", "algo-3"],
    "instance_groups": [
        {"instance_group_name": "cpu", "instance_type": "ml.c5.xlarge", "hosts": ["algo-3", "algo-1"]},
        {"instance_group_name": "gpu", "instance_type": "ml.p3.2xlarge", "hosts": ["algo-2"]},
    ],
    "network_interface_name": "eth0",
}
LEGACY = {"current_host": "algo-1", "hosts": ["algo-1", "algo-2"], "network_interface_name": "eth1"}


# -- what is lenient ---------------------------------------------------------------------------


def test_only_resourceconfig_is_required(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": LEGACY}))
    assert env.hyperparameters == {}
    assert env.additional_framework_parameters == {}
    assert env.input_data_config == {}
    assert env.channel_input_dirs == {}
    assert env.to_env_vars()["SM_CHANNELS"] == "[]"
    assert env.to_env_vars()["SM_USER_ARGS"] == "[]"


def test_old_format(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": LEGACY}))
    assert env.current_instance_group == HOMOGENEOUS_GROUP == "homogeneousCluster"
    assert env.current_instance_type == "local"
    assert env.instance_groups == [] and env.instance_groups_dict == {}
    assert env.current_instance_group_hosts == []
    assert env.instance_group_hosts("homogeneousCluster") == ["algo-1", "algo-2"]
    assert env.distribution_hosts == ["algo-1", "algo-2"]
    assert env.is_master and not env.is_hetero
    assert env.network_interface_name == "eth1"
    assert env.topology == []


def test_current_instance_group_key_is_accepted(make_base):
    config = dict(HETERO)
    config["current_instance_group"] = config.pop("current_group_name")
    env = Environment(base_dir=make_base({"resourceconfig.json": config}))
    assert env.current_instance_group == "gpu"
    assert env.current_instance_group_hosts == ["algo-2"]


def test_both_group_keys_agreeing(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": dict(HETERO, current_instance_group="gpu")}))
    assert env.current_instance_group == "gpu"


def test_group_found_by_membership_without_a_group_key(make_base):
    config = dict(HETERO)
    del config["current_group_name"]
    env = Environment(base_dir=make_base({"resourceconfig.json": config}))
    assert env.current_instance_group == "gpu"


def test_topology_null_and_present(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": dict(LEGACY, topology=None)}))
    assert env.topology is None
    assert "SM_TOPOLOGY" not in env.to_env_vars()
    topology = [{"hostName": "algo-1", "capacityUnitId": "u1"}]
    env = Environment(base_dir=make_base({"resourceconfig.json": dict(LEGACY, topology=topology)}))
    assert env.topology == topology
    assert env.to_env_vars()["SM_TOPOLOGY"] == '[{"capacityUnitId":"u1","hostName":"algo-1"}]'


def test_null_instance_groups_is_an_old_file(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": dict(LEGACY, instance_groups=None)}))
    assert env.instance_groups == [] and env.distribution_hosts == ["algo-1", "algo-2"]


# -- values -----------------------------------------------------------------------------------


def test_hetero_values(make_base):
    hyperparameters = {
        "epochs": "10",
        "sagemaker_mpi_enabled": "true",
        "sagemaker_program": '"train.py"',
        "sagemaker_submit_directory": '"s3://b/source.tar.gz"',
        "sagemaker_s3_output": '"s3://b/out"',
        "sagemaker_region": '"us-west-2"',
    }
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO, "hyperparameters.json": hyperparameters}))
    assert env.is_hetero
    assert env.instance_groups == ["cpu", "gpu"]
    assert env.instance_group_hosts("cpu") == ["algo-3", "algo-1"]
    assert env.distribution_instance_groups == ["gpu"]  # mpi on: the current group
    assert env.distribution_hosts == ["algo-2"]
    assert env.master_hostname == "algo-2" and env.is_master
    assert env.hyperparameters == {"epochs": 10}
    assert env.additional_framework_parameters == {"sagemaker_mpi_enabled": True}
    assert (env.module_name, env.user_entry_point, env.module_dir) == ("train", "train.py", "s3://b/source.tar.gz")
    assert env.sagemaker_s3_output() == "s3://b/out"
    assert env.log_level == 20


def test_distribution_hosts_follow_file_order(make_base):
    hyperparameters = {"sagemaker_distribution_instance_groups": '["gpu", "cpu"]'}
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO, "hyperparameters.json": hyperparameters}))
    assert env.distribution_hosts == ["algo-3", "algo-1", "algo-2"]
    assert env.master_hostname == "algo-3" and not env.is_master


def test_defaults_without_program(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": LEGACY}))
    assert env.module_name is None and env.user_entry_point is None
    assert env.module_dir == os.path.join(env.base_dir, "code") == env.code_dir
    assert env.to_env_vars()["SM_MODULE_NAME"] == ""
    assert env.job_name is None and env.framework_module is None and env.is_modelparallel_enabled is None


def test_values_from_environ_argument(make_base):
    base = make_base({"resourceconfig.json": LEGACY, "hyperparameters.json": {"sagemaker_program": '"hp.py"'}})
    environ = {
        "SAGEMAKER_BASE_DIR": base,
        "SAGEMAKER_PROGRAM": "other.py",
        "SAGEMAKER_TRAINING_MODULE": "pkg.training:main",
        "TRAINING_JOB_NAME": "job-1",
        "SM_HP_MP_PARAMETERS": '{"partitions": 2}',
    }
    env = Environment(environ=environ)
    assert env.base_dir == base
    assert (env.user_entry_point, env.module_name) == ("other.py", "other")
    assert env.framework_module == "pkg.training:main"
    assert env.job_name == "job-1"
    assert env.is_modelparallel_enabled is True
    assert Environment(environ=dict(environ, SM_HP_MP_PARAMETERS="{}")).is_modelparallel_enabled is False


def test_default_base_dir(monkeypatch):
    seen = []

    def fake_load(path, required):
        seen.append(path)
        return LEGACY if required else None

    monkeypatch.setattr(environment_module, "load_json", fake_load)
    assert Environment().base_dir == "/opt/ml"
    assert seen[0] == "/opt/ml/input/config/resourceconfig.json"


def test_constructor_dicts_replace_the_files(tmp_path):
    env = Environment(
        HETERO, {"train": {"TrainingInputMode": "File"}}, {"lr": 0.1, "sagemaker_program": "t.py"}, base_dir=str(tmp_path)
    )
    assert env.hyperparameters == {"lr": 0.1}
    assert env.channel_input_dirs == {"train": os.path.join(str(tmp_path), "input", "data", "train")}
    assert env.module_name == "t"


def test_hyperparameter_decoding(make_base):
    hyperparameters = {"a": "01", "b": "1e3", "c": '"x"', "d": "x y", "e": 5, "f": "null", "g": "[1, 2]"}
    env = Environment(base_dir=make_base({"resourceconfig.json": LEGACY, "hyperparameters.json": hyperparameters}))
    assert env.hyperparameters == {"a": "01", "b": 1000.0, "c": "x", "d": "x y", "e": 5, "f": None, "g": [1, 2]}
    variables = env.to_env_vars()
    assert [variables["SM_HP_" + k] for k in "ABCDEFG"] == ["01", "1000.0", "x", "x y", "5", "", "[1,2]"]


def test_channel_variables(make_base):
    channels = {"zeta": {}, "Alpha": {}, "my.ch-1": {}}
    env = Environment(base_dir=make_base({"resourceconfig.json": LEGACY, "inputdataconfig.json": channels}))
    variables = env.to_env_vars()
    assert variables["SM_CHANNELS"] == '["Alpha","my.ch-1","zeta"]'
    assert variables["SM_CHANNEL_MY.CH-1"] == os.path.join(env.base_dir, "input", "data", "my.ch-1")
    assert variables["SM_CHANNEL_ALPHA"].endswith(os.path.join("data", "Alpha"))


# -- mapping, read-only -----------------------------------------------------------------------


def test_mapping_protocol(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO}))
    assert env["is_hetero"] is True
    assert "current_host" in env and list(env.keys()) == env.properties() == sorted(env.properties())
    assert dict(env.items())["hosts"] == ["algo-1", "algo-2", "algo-3"]
    assert len(list(env.values())) == len(env)
    assert "algo-2" in repr(env) and "gpu" in repr(env)


def test_values_are_read_only(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO, "hyperparameters.json": {"x": "[1]"}}))
    env.hosts.append("algo-9")
    env["instance_groups_dict"]["cpu"]["hosts"].append("algo-9")
    env.hyperparameters["x"].append(2)
    env.resource_config["hosts"].clear()
    assert env.hosts == ["algo-1", "algo-2", "algo-3"]
    assert env.instance_groups_dict["cpu"]["hosts"] == ["algo-3", "algo-1"]
    assert env.hyperparameters == {"x": [1]}
    assert env.instance_group_hosts("cpu") == ["algo-3", "algo-1"]
    with pytest.raises(AttributeError):
        env.current_host = "algo-9"
    with pytest.raises(TypeError):
        env["current_host"] = "algo-9"


# -- no side effects --------------------------------------------------------------------------


def test_construction_has_no_side_effects(make_base, monkeypatch):
    base = make_base({"resourceconfig.json": HETERO, "hyperparameters.json": {"sagemaker_region": '"eu-west-1"'}})
    before_environ = dict(os.environ)
    before_files = sorted(os.walk(base))

    def no_subprocess(*args, **kwargs):
        raise AssertionError("a subprocess was started")

    monkeypatch.setattr(subprocess, "Popen", no_subprocess)
    env = Environment(base_dir=base)
    env.to_env_vars()
    for name in ("num_cpus", "num_gpus", "num_neurons"):
        assert isinstance(env[name], int)
    assert dict(os.environ) == before_environ
    assert sorted(os.walk(base)) == before_files


def test_machine_counts_are_lazy_and_cached(make_base, monkeypatch):
    calls = []
    monkeypatch.setattr(_devices, "gpu_count", lambda: calls.append(1) or 4)
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO}))
    assert calls == []
    assert env.num_gpus == 4 and env["num_gpus"] == 4
    assert env.to_env_vars()["SM_NUM_GPUS"] == "4"
    assert calls == [1]


# -- devices ----------------------------------------------------------------------------------


def _touch(directory, *names):
    os.makedirs(str(directory), exist_ok=True)
    for name in names:
        open(os.path.join(str(directory), name), "w").close()


def test_gpu_count(tmp_path):
    _touch(tmp_path, "nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia12", "null")
    assert _devices.gpu_count(str(tmp_path)) == 3
    assert _devices.gpu_count(str(tmp_path / "missing")) == 0


def test_neuron_core_count(tmp_path):
    dev, sysfs = tmp_path / "dev", tmp_path / "sys"
    _touch(dev, "neuron0", "neuron1", "neuron_x")
    assert _devices.neuron_core_count("ml.inf2.xlarge", str(dev), str(sysfs)) == 4
    assert _devices.neuron_core_count("ml.inf1.xlarge", str(dev), str(sysfs)) == 8
    assert _devices.neuron_core_count("local", str(dev), str(sysfs)) == 2
    os.makedirs(str(sysfs / "neuron0"))
    with open(str(sysfs / "neuron0" / "core_count"), "w") as handle:
        handle.write("3\n")
    assert _devices.neuron_core_count("ml.inf2.xlarge", str(dev), str(sysfs)) == 5
    assert _devices.neuron_core_count("ml.trn2.48xlarge", str(tmp_path / "none"), str(sysfs)) == 64
    assert _devices.neuron_core_count("ml.c5.xlarge", str(tmp_path / "none"), str(sysfs)) == 0


def test_cpu_count():
    assert _devices.cpu_count() >= 1


# -- command-line arguments -------------------------------------------------------------------


def test_to_cmd_args():
    hyperparameters = {
        "epochs": 10,
        "a": None,
        "flag": True,
        "cfg": {"layers": [1, 2], "act": "relu", "n": None},
        "items": [1, "two"],
        "lr": 0.001,
        "empty": "",
    }
    assert to_cmd_args(hyperparameters) == [
        "-a", "",
        "--cfg", "act=relu,layers=[1, 2],n=None",
        "--empty", "",
        "--epochs", "10",
        "--flag", "True",
        "--items", "[1, 'two']",
        "--lr", "0.001",
    ]  # fmt: skip
    assert to_cmd_args({}) == []


def test_to_cmd_args_names_and_values_as_the_toolkit():
    # sagemaker_training.mapping.to_cmd_args: names and values go through the same _decode.
    assert to_cmd_args({"": 1, "b": b"2", "raw": b"\xe9", "n": None, "f": 4.0, "z": False}) == [
        "", "1", "-b", "2", "-f", "4.0", "-n", "", "--raw", "\xe9", "-z", "False",
    ]  # fmt: skip
    assert to_cmd_args({b"ab": b"", b"c": 1, b"": 2}) == ["", "2", "--ab", "", "-c", "1"]
    assert to_cmd_args({None: "x"}) == ["", "x"]
    assert to_cmd_args({"d": {"b": b"1", "a": None, "c": {"z": [1]}}}) == ["-d", "a=None,b=b'1',c={'z': [1]}"]
    assert to_cmd_args({"x": bytearray(b"2"), "t": (1, "a")}) == ["-t", "(1, 'a')", "-x", "bytearray(b'2')"]

    class Pairs(object):  # anything with items() is written as pairs, like a dict
        def items(self):
            return [("b", 2), ("a", 1)]

    assert to_cmd_args({"p": Pairs()}) == ["-p", "a=1,b=2"]
    with pytest.raises(TypeError):
        to_cmd_args({"a": 1, b"b": 2})  # keys that do not sort


def test_to_cmd_args_is_the_environment_modules():
    assert environment_module.to_cmd_args is to_cmd_args
    assert json.loads(json.dumps(to_cmd_args({"x": 1}))) == ["-x", "1"]


# -- launchers (is_smddprun_installed, is_smddpmprun_installed) --------------------------------


def _executable(path, mode=0o755):
    with open(str(path), "w") as handle:
        handle.write("#!/bin/sh\n")
    os.chmod(str(path), mode)
    return str(path)


def test_launchers_from_the_environ_path_when_built(make_base, tmp_path, monkeypatch):
    tools = tmp_path / "tools"
    tools.mkdir()
    launcher = _executable(tools / "smddprun")
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO}), environ={"PATH": str(tools)})
    assert env.is_smddprun_installed is True and env.is_smddpmprun_installed is False
    os.remove(launcher)  # a snapshot, as the toolkit's: looked up once, when built
    assert env.is_smddprun_installed is True
    variables = env.to_env_vars()
    assert not [name for name in variables if "SMDDP" in name]  # no SM_* variable of their own
    assert json.loads(variables["SM_TRAINING_ENV"])["is_smddprun_installed"] is True
    assert environment_module.validate_smddprun() is False  # reads os.environ["PATH"]


def test_on_path_follows_which(tmp_path, monkeypatch):
    a, b, cwd = tmp_path / "a", tmp_path / "b", tmp_path / "cwd"
    for folder in (a, b, cwd):
        folder.mkdir()
    _executable(a / "plain", 0o644)
    _executable(b / "plain")
    os.mkdir(str(a / "folder"))
    os.symlink(_executable(b / "target"), str(a / "link"))
    os.symlink(str(tmp_path / "nowhere"), str(a / "dangling"))
    _executable(cwd / "here")
    monkeypatch.chdir(str(cwd))
    on_path = _devices.on_path
    assert not on_path("plain", str(a))  # no execute bit (not even root may run it)
    assert on_path("plain", os.pathsep.join([str(a), str(b)]))
    assert not on_path("folder", str(a)) and not on_path("dangling", str(a))
    assert on_path("link", str(a))
    assert not on_path("missing", os.pathsep.join([str(a), str(b)]))
    assert not on_path("here", str(a)) and not on_path("here", "")
    for path in (str(a) + "::" + str(b), ":" + str(a), str(a) + ":", ":"):
        assert on_path("here", path), path  # an empty entry is the current directory
    monkeypatch.setattr(_devices, "SHELL_DEFAULT_PATH", str(b))
    assert on_path("target", None)  # PATH unset: the shell's default path


def test_str_is_the_dict(make_base):
    env = Environment(base_dir=make_base({"resourceconfig.json": HETERO}))
    assert str(env) == str(dict(env)) and str(env).startswith("{'additional_framework_parameters': {}")
    assert repr(env).startswith("Environment(host='algo-2'")

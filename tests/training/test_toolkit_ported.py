"""The sagemaker-training toolkit's own unit tests, ported to ``sagemaker_hetero.training``.

Mirrors two modules of aws/sagemaker-training-toolkit, for what ``sagemaker_hetero.training``
offers (``Environment``, ``to_cmd_args``, ``validate_smddprun`` / ``validate_smddpmprun``):

- ``test/unit/test_mapping.py`` of the ``sagemaker_training`` package (read at commit 01bb3782):
  ``test_to_cmd_args``, ``test_to_env_vars`` (its value cases, through ``SM_HP_*``),
  ``test_env_vars_round_trip``, ``test_mapping_mixin`` and
  ``test_mapping_throws_exception_trying_to_access_non_properties``. Not ported:
  ``split_by_criteria`` (no such function here);
- ``test/unit/test_environment.py`` as of the heterogeneous-cluster change (read at commit
  c73dd318 of a fork of the toolkit, the newest copy at hand): everything about the training
  environment. Not ported: reading the files through module-level functions and paths
  (``read_hyperparameters``, ``channel_path``, ``environment.input_dir`` ...), which do not exist
  here; their cases go through ``Environment(base_dir=...)`` instead.

The toolkit's sdist ships no tests, so the copies read were older than 5.1.4; every expected value
below was checked against ``sagemaker-training`` 5.1.4 itself (the property names of 5.1.4 include
``is_master``, ``master_hostname``, ``num_neurons``, ``topology`` and the two ``is_smddp*``).
Tests marked "differs from the toolkit" state what the toolkit does instead, and why.
"""
import itertools
import json
import logging
import os

import pytest

from sagemaker_hetero.exceptions import RuntimeConfigError
from sagemaker_hetero.training import Environment, _devices, to_cmd_args
from sagemaker_hetero.training import environment

RESOURCE_CONFIG = {
    "current_host": "algo-1",
    "hosts": ["algo-1", "algo-2", "algo-3"],
    "current_group_name": "train1",
    "current_instance_type": "ml.p3.16xlarge",
    "instance_groups": [
        {"instance_group_name": "train1", "instance_type": "ml.p3.16xlarge", "hosts": ["algo-1", "algo-2"]},
        {"instance_group_name": "train2", "instance_type": "ml.p3.8xlarge", "hosts": ["algo-3"]},
    ],
}
INPUT_DATA_CONFIG = {
    "train": {
        "ContentType": "trainingContentType",
        "TrainingInputMode": "File",
        "S3DistributionType": "FullyReplicated",
        "RecordWrapperType": "None",
    },
    "validation": {"TrainingInputMode": "File", "S3DistributionType": "FullyReplicated", "RecordWrapperType": "None"},
}
USER_HYPERPARAMETERS = {"batch_size": 32, "learning_rate": 0.001, "hosts": ["algo-1", "algo-2"]}
SAGEMAKER_HYPERPARAMETERS = {
    "sagemaker_region": "us-west-2",
    "default_user_module_name": "net",
    "sagemaker_job_name": "sagemaker-training-job",
    "sagemaker_program": "main.py",
    "sagemaker_submit_directory": "imagenet",
    "sagemaker_enable_cloudwatch_metrics": True,
    "sagemaker_container_log_level": logging.WARNING,
    "_tuning_objective_metric": "loss:3.4",
    "sagemaker_parameter_server_num": 2,
    "sagemaker_s3_output": "s3://bucket",
}
ALL_HYPERPARAMETERS = dict(itertools.chain(USER_HYPERPARAMETERS.items(), SAGEMAKER_HYPERPARAMETERS.items()))
FRAMEWORK_PARAMETERS = {"sagemaker_parameter_server_num": 2}

# Environment.properties() of sagemaker-training 5.1.4.
TOOLKIT_PROPERTIES = {
    "additional_framework_parameters",
    "channel_input_dirs",
    "current_host",
    "current_instance_group",
    "current_instance_group_hosts",
    "current_instance_type",
    "distribution_hosts",
    "distribution_instance_groups",
    "framework_module",
    "hosts",
    "hyperparameters",
    "input_config_dir",
    "input_data_config",
    "input_dir",
    "instance_groups",
    "instance_groups_dict",
    "is_hetero",
    "is_master",
    "is_modelparallel_enabled",
    "is_smddpmprun_installed",
    "is_smddprun_installed",
    "job_name",
    "log_level",
    "master_hostname",
    "model_dir",
    "module_dir",
    "module_name",
    "network_interface_name",
    "num_cpus",
    "num_gpus",
    "num_neurons",
    "output_data_dir",
    "output_dir",
    "output_intermediate_dir",
    "resource_config",
    "topology",
    "user_entry_point",
}


def _file_env(make_base, hyperparameters):
    """An Environment reading ``hyperparameters`` (written as given) from hyperparameters.json."""
    base = make_base(
        {"resourceconfig.json": RESOURCE_CONFIG, "inputdataconfig.json": INPUT_DATA_CONFIG, "hyperparameters.json": hyperparameters}
    )
    return Environment(base_dir=base)


def _assert_all_hyperparameters(env):
    """``env`` holds ALL_HYPERPARAMETERS: what the toolkit's read_hyperparameters() returned."""
    assert env.hyperparameters == USER_HYPERPARAMETERS
    assert env.additional_framework_parameters == FRAMEWORK_PARAMETERS
    assert env.user_entry_point == "main.py" and env.module_name == "main"
    assert env.module_dir == "imagenet"
    assert env.log_level == logging.WARNING
    assert env.sagemaker_s3_output() == "s3://bucket"


# == test_mapping.py ==========================================================================


@pytest.mark.parametrize(
    "hyperparameters, expected",
    [
        ({"da-sh": "1", "un_der": "2", "un-sh": "3", "da_der": "2"}, ["--da-sh", "1", "--da_der", "2", "--un-sh", "3", "--un_der", "2"]),
        ({}, []),
        ({"": ""}, ["", ""]),
        (
            {"unicode": "¡ø", "bytes": b"2", "floats": 4.0, "int": 2},
            ["--bytes", "2", "--floats", "4.0", "--int", "2", "--unicode", "¡ø"],
        ),
        ({"U": "1", "b": b"2", "T": "", "": "42"}, ["", "42", "-T", "", "-U", "1", "-b", "2"]),
        ({"nested": ["1", ["2", "3", [["6"]]]]}, ["--nested", "['1', ['2', '3', [['6']]]]"]),
        (
            {"map": {"a": [1, 3, 4]}, "channel_dirs": {"train": "foo", "eval": "bar"}},
            ["--channel_dirs", "eval=bar,train=foo", "--map", "a=[1, 3, 4]"],
        ),
        ({"truthy": True, "falsy": False}, ["--falsy", "False", "--truthy", "True"]),
    ],
    ids=["dash-and-underscore", "empty", "empty-name", "scalars", "one-letter-and-empty-name", "nested", "maps", "booleans"],
)
def test_to_cmd_args(hyperparameters, expected):
    assert to_cmd_args(hyperparameters) == expected


@pytest.mark.parametrize(
    "hyperparameters, expected",
    [
        ({"model_dir": "/opt/ml/model", "OUTPUT_DIR": "/opt/ml/output"}, {"SM_HP_MODEL_DIR": "/opt/ml/model", "SM_HP_OUTPUT_DIR": "/opt/ml/output"}),
        ({}, {}),
        ({"": None}, {"SM_HP_": ""}),
        ({"floats": 4.0, "int": 2, "unicode": "¡ø"}, {"SM_HP_FLOATS": "4.0", "SM_HP_INT": "2", "SM_HP_UNICODE": "¡ø"}),
        ({"nested": ["1", ["2", "3", [["6"]]]]}, {"SM_HP_NESTED": '["1",["2","3",[["6"]]]]'}),
        (
            {"channel_dirs": {"eval": "bar", "train": "foo"}, "map": {"a": [1, 3, 4]}},
            {"SM_HP_CHANNEL_DIRS": '{"eval":"bar","train":"foo"}', "SM_HP_MAP": '{"a":[1,3,4]}'},
        ),
        ({"truthy": True, "falsy": False}, {"SM_HP_FALSY": "false", "SM_HP_TRUTHY": "true"}),
    ],
    ids=["names", "empty", "empty-name-none", "scalars", "nested", "maps", "booleans"],
)
def test_to_env_vars_values(hyperparameters, expected):
    # The toolkit tests mapping.to_env_vars, which is not offered here; each value reaches it as a
    # hyperparameter, so the same cases are checked through SM_HP_<NAME>.
    env = Environment(resource_config=RESOURCE_CONFIG, input_data_config={}, hyperparameters=hyperparameters)
    variables = env.to_env_vars()
    assert {k: v for k, v in variables.items() if k.startswith("SM_HP_")} == expected


def test_to_env_vars_bytes_value_fails_as_in_the_toolkit():
    # test_to_env_vars also has {"bytes": b"2"} -> "2". A bytes hyperparameter cannot reach that
    # far in the toolkit either: Environment.to_env_vars() JSON-dumps SM_HPS and SM_TRAINING_ENV
    # first and raises TypeError; so do we.
    env = Environment(resource_config=RESOURCE_CONFIG, input_data_config={}, hyperparameters={"bytes": b"2"})
    with pytest.raises(TypeError):
        env.to_env_vars()
    assert env.to_cmd_args() == ["--bytes", "2"]


def test_env_vars_round_trip(monkeypatch, tmp_path):
    hyperparameters = {
        "loss": "SGD",
        "sagemaker_program": "user_script.py",
        "epochs": 10,
        "batch_size": 64,
        "precision": 5.434322,
        "sagemaker_region": "us-west-2",
        "sagemaker_job_name": "horovod-training-job",
        "sagemaker_submit_directory": "s3/something",
    }
    resource_config = {"current_host": "algo-1", "hosts": ["algo-1", "algo-2", "algo-3"]}
    monkeypatch.setenv("SAGEMAKER_TRAINING_MODULE", "test.functional.simple_framework:train")
    base = str(tmp_path / "opt" / "ml")
    env = Environment(resource_config, INPUT_DATA_CONFIG, hyperparameters, base_dir=base)
    monkeypatch.setenv("SAGEMAKER_TRAINING_MODULE", "")  # read when built, as in the toolkit

    args = to_cmd_args(env.hyperparameters)
    variables = env.to_env_vars()
    assert json.loads(variables["SM_USER_ARGS"]) == args == env.to_cmd_args()
    assert " ".join(args) == "--batch_size 64 --epochs 10 --loss SGD --precision 5.434322"
    assert variables["SM_OUTPUT_DATA_DIR"] == env.output_data_dir
    assert variables["SM_INPUT_DATA_CONFIG"] == (
        '{"train":{"ContentType":"trainingContentType","RecordWrapperType":"None",'
        '"S3DistributionType":"FullyReplicated","TrainingInputMode":"File"},'
        '"validation":{"RecordWrapperType":"None","S3DistributionType":"FullyReplicated","TrainingInputMode":"File"}}'
    )
    assert variables["SM_NETWORK_INTERFACE_NAME"] == "eth0"
    assert variables["SM_LOG_LEVEL"] == "20"
    assert variables["SM_INPUT_DIR"].endswith("/opt/ml/input")
    assert variables["SM_NUM_CPUS"] == str(env.num_cpus)
    assert variables["SM_HP_BATCH_SIZE"] == "64"
    assert variables["SM_CHANNEL_TRAIN"].endswith("/opt/ml/input/data/train")
    assert variables["SM_CHANNEL_VALIDATION"].endswith("/opt/ml/input/data/validation")
    assert variables["SM_HP_EPOCHS"] == "10"
    assert variables["SM_HPS"] == '{"batch_size":64,"epochs":10,"loss":"SGD","precision":5.434322}'
    assert variables["SM_HP_PRECISION"] == "5.434322"
    assert variables["SM_RESOURCE_CONFIG"] == '{"current_host":"algo-1","hosts":["algo-1","algo-2","algo-3"]}'
    assert variables["SM_MODULE_NAME"] == "user_script"
    assert variables["SM_INPUT_CONFIG_DIR"].endswith("/opt/ml/input/config")
    assert variables["SM_OUTPUT_DIR"].endswith("/opt/ml/output")
    assert variables["SM_MODEL_DIR"].endswith("/opt/ml/model")
    assert variables["SM_HOSTS"] == '["algo-1","algo-2","algo-3"]'
    assert variables["SM_NUM_GPUS"] == str(env.num_gpus)
    assert variables["SM_MODULE_DIR"] == "s3/something"
    assert variables["SM_CURRENT_HOST"] == "algo-1"
    assert variables["SM_CHANNELS"] == '["train","validation"]'
    assert variables["SM_HP_LOSS"] == "SGD"
    assert variables["SM_FRAMEWORK_MODULE"] == "test.functional.simple_framework:train"
    assert all(name in variables["SM_TRAINING_ENV"] for name in env.properties())


def test_mapping_mixin(make_base):
    # The toolkit's test uses a toy MappingMixin subclass; Environment is the mapping offered here.
    env = _file_env(make_base, {})
    assert env["current_host"] == "algo-1"
    assert env["hosts"] == ["algo-1", "algo-2", "algo-3"]
    assert len(env) == len(env.properties())
    assert str(env) == str(dict(env))


@pytest.mark.parametrize("name", ["to_cmd_args", "instance_group_hosts"])
def test_a_method_is_not_a_key(make_base, name):
    # ('d', KeyError, 'Trying to access non property d'): the same error type; our message is the name.
    with pytest.raises(KeyError):
        _file_env(make_base, {})[name]


@pytest.mark.parametrize("name", ["non_existent_field", "base_dir", "code_dir"])
def test_a_non_property_is_a_key_error(make_base, name):
    # Differs from the toolkit: for a name that is not an attribute of the class ("c",
    # "non_existent_field") its __getitem__ raises AttributeError, so `name in env` and
    # env.get(name) raise too. We follow the Mapping contract: KeyError, `in` is False, get() gives
    # the default. base_dir and code_dir are our own properties, deliberately outside the mapping
    # (not toolkit properties, so not in properties() or SM_TRAINING_ENV).
    env = _file_env(make_base, {})
    with pytest.raises(KeyError):
        env[name]
    assert name not in env and env.get(name, "default") == "default"


# == test_environment.py ======================================================================


def test_read_hyperparameters(make_base):
    _assert_all_hyperparameters(_file_env(make_base, ALL_HYPERPARAMETERS))


def test_read_value_serialized_hyperparameters(make_base):
    serialized = {key: json.dumps(value) for key, value in ALL_HYPERPARAMETERS.items()}
    _assert_all_hyperparameters(_file_env(make_base, serialized))


def test_read_value_serialized_and_non_value_serialized_hyperparameters(make_base):
    hyperparameters = {key: json.dumps(value) for key, value in SAGEMAKER_HYPERPARAMETERS.items()}
    hyperparameters.update(USER_HYPERPARAMETERS)
    _assert_all_hyperparameters(_file_env(make_base, hyperparameters))


def test_read_exception(make_base):
    # The toolkit patches json.loads to fail; here the value simply is not JSON: kept as written.
    env = _file_env(make_base, {"a": "not json {", "b": 1})
    assert env.hyperparameters == {"a": "not json {", "b": 1}


def test_resource_config(make_base):
    assert _file_env(make_base, {}).resource_config == RESOURCE_CONFIG


def test_input_data_config(make_base):
    assert _file_env(make_base, {}).input_data_config == INPUT_DATA_CONFIG


def test_channel_input_dirs(make_base):
    base = make_base({"resourceconfig.json": RESOURCE_CONFIG, "inputdataconfig.json": {"evaluation": {}, "training": {}}})
    env = Environment(base_dir=base)
    input_data_path = os.path.join(base, "input", "data")
    assert env.channel_input_dirs == {
        "evaluation": os.path.join(input_data_path, "evaluation"),
        "training": os.path.join(input_data_path, "training"),
    }


def test_gpu_count_in_gpu_instance(tmp_path):
    # Differs from the toolkit: it parses `nvidia-smi --list-gpus` ("GPU 0\nGPU 1" -> 2); we count
    # the /dev/nvidia<N> nodes those GPUs are, without starting a process.
    for name in ("nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm"):
        (tmp_path / name).write_text("")
    assert _devices.gpu_count(str(tmp_path)) == 2


def test_gpu_count_in_cpu_instance(tmp_path):
    # The toolkit: nvidia-smi missing (OSError) -> 0. Here: no /dev/nvidia<N> -> 0.
    assert _devices.gpu_count(str(tmp_path)) == 0
    assert _devices.gpu_count(str(tmp_path / "no-dev")) == 0


def test_cpu_count(monkeypatch, make_base):
    # The toolkit patches multiprocessing.cpu_count, which is os.cpu_count (or NotImplementedError).
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert _devices.cpu_count() == 2
    assert _file_env(make_base, {}).num_cpus == 2


@pytest.fixture(name="training_env")
def create_training_env(monkeypatch, tmp_path):
    # The toolkit patches the three readers to return these dicts: our constructor arguments.
    monkeypatch.setattr(_devices, "cpu_count", lambda: 8)
    monkeypatch.setattr(_devices, "gpu_count", lambda: 4)
    monkeypatch.setenv("TRAINING_JOB_NAME", "training-job-42")
    base = str(tmp_path / "opt" / "ml")
    return Environment(RESOURCE_CONFIG, INPUT_DATA_CONFIG, ALL_HYPERPARAMETERS, base_dir=base)


def test_create_training_env_without_training_files_and_directories_should_not_fail(tmp_path):
    # Differs from the toolkit: when neither /opt/ml nor $SAGEMAKER_BASE_DIR exists, importing its
    # environment module creates ~/sagemaker_local/jobs/<time>/opt/ml with a one-host
    # resourceconfig.json for socket.gethostname(), so Environment() "works" anywhere. We never
    # write files; a missing resourceconfig.json is an error naming the file.
    base = str(tmp_path / "opt" / "ml")
    with pytest.raises(RuntimeConfigError) as info:
        Environment(base_dir=base)
    assert info.value.path == os.path.join(base, "input", "config", "resourceconfig.json")
    assert not os.path.exists(base)


def test_env(training_env):
    # The toolkit checks module-level paths; ours are per Environment, under its base directory.
    assert environment.DEFAULT_BASE_DIR == "/opt/ml"
    assert training_env.input_dir.endswith("/opt/ml/input")
    assert training_env.input_config_dir.endswith("/opt/ml/input/config")
    assert training_env.model_dir.endswith("/opt/ml/model")
    assert training_env.output_dir.endswith("/opt/ml/output")


def test_training_env(training_env):
    assert training_env.num_gpus == 4
    assert training_env.num_cpus == 8
    assert training_env.input_dir.endswith("/opt/ml/input")
    assert training_env.input_config_dir.endswith("/opt/ml/input/config")
    assert training_env.model_dir.endswith("/opt/ml/model")
    assert training_env.output_dir.endswith("/opt/ml/output")
    assert training_env.hyperparameters == USER_HYPERPARAMETERS
    assert training_env.resource_config == RESOURCE_CONFIG
    assert training_env.input_data_config == INPUT_DATA_CONFIG
    assert training_env.output_data_dir.endswith("/opt/ml/output/data")
    assert training_env.hosts == RESOURCE_CONFIG["hosts"]
    assert training_env.channel_input_dirs["train"].endswith("/opt/ml/input/data/train")
    assert training_env.channel_input_dirs["validation"].endswith("/opt/ml/input/data/validation")
    assert training_env.current_host == RESOURCE_CONFIG["current_host"]
    assert training_env.module_name == "main"
    assert training_env.user_entry_point == "main.py"
    assert training_env.module_dir == "imagenet"
    assert training_env.log_level == logging.WARNING
    assert training_env.network_interface_name == "eth0"
    assert training_env.job_name == "training-job-42"
    assert training_env.additional_framework_parameters == FRAMEWORK_PARAMETERS
    assert training_env.current_instance_group == "train1"
    assert training_env.current_instance_type == "ml.p3.16xlarge"
    assert training_env.instance_groups == ["train1", "train2"]
    # What sagemaker-training 5.1.4 reports for the rest of the fixture's properties.
    assert training_env.current_instance_group_hosts == ["algo-1", "algo-2"]
    assert training_env.instance_groups_dict == {g["instance_group_name"]: g for g in RESOURCE_CONFIG["instance_groups"]}
    assert training_env.is_hetero is True
    assert training_env.distribution_instance_groups == [] and training_env.distribution_hosts == []
    assert training_env.master_hostname == "algo-1" and training_env.is_master is True
    assert training_env.is_modelparallel_enabled is None
    assert training_env.framework_module is None
    assert training_env.topology == []
    assert training_env.sagemaker_s3_output() == "s3://bucket"
    assert training_env.to_cmd_args() == ["--batch_size", "32", "--hosts", "['algo-1', 'algo-2']", "--learning_rate", "0.001"]


def test_env_mapping_properties(training_env):
    assert set(training_env.properties()) == TOOLKIT_PROPERTIES


def test_env_dictionary(monkeypatch, make_base):
    monkeypatch.setattr(_devices, "cpu_count", lambda: 8)
    monkeypatch.setattr(_devices, "gpu_count", lambda: 4)
    monkeypatch.setenv("SAGEMAKER_PROGRAM", "my_app.py")
    env = _file_env(make_base, {})
    assert len(env) == len(env.properties())
    assert env["module_name"] == "my_app"
    assert env["log_level"] == logging.INFO


@pytest.mark.parametrize("sagemaker_program", ["program.py", "program"])
def test_env_module_name(monkeypatch, make_base, sagemaker_program):
    monkeypatch.setenv("SAGEMAKER_PROGRAM", sagemaker_program)
    assert _file_env(make_base, {}).module_name == "program"


# -- validate_smddprun / validate_smddpmprun (sagemaker_training.environment, 5.x) --------------


@pytest.mark.parametrize("installed", [(), ("smddprun",), ("smddpmprun",), ("smddprun", "smddpmprun")])
def test_launchers_installed(monkeypatch, tmp_path, make_base, installed):
    # The toolkit runs `which smddprun`; a fake executable in a PATH folder stands in for the
    # launcher. Differs from the toolkit only where it would crash: without a `which` program (or
    # with PATH="") its subprocess.run raises FileNotFoundError; we never start a process.
    for name in installed:
        launcher = tmp_path / name
        launcher.write_text("#!/bin/sh\n")
        launcher.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert environment.validate_smddprun() is ("smddprun" in installed)
    assert environment.validate_smddpmprun() is ("smddpmprun" in installed)
    env = _file_env(make_base, {})
    assert env.is_smddprun_installed is env["is_smddprun_installed"] is ("smddprun" in installed)
    assert env.is_smddpmprun_installed is env["is_smddpmprun_installed"] is ("smddpmprun" in installed)
    training_env = json.loads(env.to_env_vars()["SM_TRAINING_ENV"])
    assert training_env["is_smddprun_installed"] is ("smddprun" in installed)
    assert training_env["is_smddpmprun_installed"] is ("smddpmprun" in installed)

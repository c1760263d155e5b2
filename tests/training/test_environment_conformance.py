"""The Environment reports what the real sagemaker-training toolkit reported (tests/data/runtime/)."""
import glob
import json
import os

import pytest

from sagemaker_hetero.training import Environment

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = sorted(
    os.path.splitext(os.path.basename(p))[0]
    for p in glob.glob(os.path.join(HERE, os.pardir, "data", "runtime", "*.json"))
)
MACHINE_PROPERTIES = ("num_cpus", "num_gpus", "num_neurons")
MACHINE_VARIABLES = ("SM_NUM_CPUS", "SM_NUM_GPUS", "SM_NUM_NEURONS")
# Whether the launchers are on PATH: machine-dependent too, so the recorded cases leave them out
# (the toolkit has them in properties() and SM_TRAINING_ENV, with no SM_* variable of their own).
LAUNCHER_PROPERTIES = ("is_smddpmprun_installed", "is_smddprun_installed")


def test_the_golden_cases_are_there():
    assert set(CASES) >= {"hetero_mpi_cpu_host", "hetero_mpi_gpu_master", "homogeneous_two_hosts", "legacy_format"}


def _expected(case, base):
    """The case's expectations with <base> replaced by the real base directory."""
    text = json.dumps({k: case[k] for k in ("properties", "env_vars", "SM_TRAINING_ENV")})
    return json.loads(text.replace("<base>", base))


@pytest.fixture(params=["env_var", "argument"])
def built(request, case_base, monkeypatch):
    """``built(name)`` -> (Environment, expectations); base dir from $SAGEMAKER_BASE_DIR or base_dir=."""

    def build(name):
        base, case = case_base(name)
        for key, value in case["environ"].items():
            monkeypatch.setenv(key, value)
        if request.param == "env_var":
            monkeypatch.setenv("SAGEMAKER_BASE_DIR", base)
            env = Environment()
        else:
            env = Environment(base_dir=base)
        return env, _expected(case, base)

    return build


@pytest.mark.parametrize("name", CASES)
def test_properties_equal_the_toolkit(built, name):
    env, expected = built(name)
    got = {key: env[key] for key in env.properties() if key not in MACHINE_PROPERTIES + LAUNCHER_PROPERTIES}
    assert got == expected["properties"]


@pytest.mark.parametrize("name", CASES)
def test_property_names_are_the_toolkits(built, name):
    env, expected = built(name)
    assert sorted(env.properties()) == sorted(
        list(expected["properties"]) + list(MACHINE_PROPERTIES) + list(LAUNCHER_PROPERTIES)
    )
    assert sorted(env) == sorted(env.properties())
    assert len(env) == len(env.properties())


@pytest.mark.parametrize("name", CASES)
def test_attributes_equal_mapping_values(built, name):
    env, expected = built(name)
    for key, value in expected["properties"].items():
        assert getattr(env, key) == value, key


@pytest.mark.parametrize("name", CASES)
def test_env_vars_equal_the_toolkit(built, name):
    env, expected = built(name)
    variables = env.to_env_vars()
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in variables.items())
    got = {k: v for k, v in variables.items() if k != "SM_TRAINING_ENV" and k not in MACHINE_VARIABLES}
    assert got == expected["env_vars"]


@pytest.mark.parametrize("name", CASES)
def test_training_env_equals_the_toolkit(built, name):
    env, expected = built(name)
    training_env = json.loads(env.to_env_vars()["SM_TRAINING_ENV"])
    for key in MACHINE_PROPERTIES:
        assert isinstance(training_env.pop(key), int)
    for key in LAUNCHER_PROPERTIES:
        assert training_env.pop(key) is env[key] and isinstance(env[key], bool)
    assert training_env == expected["SM_TRAINING_ENV"]


@pytest.mark.parametrize("name", CASES)
def test_machine_counts_are_consistent(built, name):
    env, _ = built(name)
    variables = env.to_env_vars()
    training_env = json.loads(variables["SM_TRAINING_ENV"])
    for prop, var in zip(MACHINE_PROPERTIES, MACHINE_VARIABLES):
        value = env[prop]
        assert isinstance(value, int) and value >= 0
        assert variables[var] == str(value) == str(training_env[prop])
    assert env.num_cpus >= 1
    assert not any(name.startswith("SM_IS_SMDDP") for name in variables)


@pytest.mark.parametrize("name", CASES)
def test_cmd_args_are_sm_user_args(built, name):
    env, expected = built(name)
    assert env.to_cmd_args() == json.loads(expected["env_vars"]["SM_USER_ARGS"])
